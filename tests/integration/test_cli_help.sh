# Every command answers --help with its usage and exits 0 without doing its
# work: `pt2fuzz fuzz --help` once started a 10-minute campaign.
source "$(dirname "$0")/lib.sh"
cd "$TMP"
for c in ops gen show emit check parse run fuzz reduce bisect triage plot report; do
  timeout 10 "$PT2FUZZ" "$c" --help >"$TMP/$c.txt" 2>&1 || die "$c --help failed (or ran for 10 s)"
  grep -q "^usage: pt2fuzz $c" "$TMP/$c.txt" || die "$c --help printed no usage"
done
grep -q -- '--no-stride-check' "$TMP/run.txt" || die "run --help lists no run options"
grep -q -- '--backend B' "$TMP/fuzz.txt" || die "fuzz --help lists no run options"
[ ! -e "$TMP/out" ] && [ ! -e "$TMP/findings" ] || die "--help did work: $(ls "$TMP")"
timeout 10 "$PT2FUZZ" run --backend aoti --mode backward x.bin 2>"$TMP/err.txt" && die "aoti with backward accepted"
grep -q 'inference only' "$TMP/err.txt" || die "no reason given for aoti with backward"
echo "ok: every command's --help"
