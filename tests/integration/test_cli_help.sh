# Every command answers --help with its usage and exits 0 without doing its
# work: `pt2fuzz fuzz --help` once started a 10-minute campaign.
source "$(dirname "$0")/lib.sh"
cd "$TMP"
# README's command list is `pt2fuzz --help`, as printed.
"$PT2FUZZ" --help >"$TMP/help.txt"
awk '/^## The command-line tool/ { in_section = 1 } in_section && /^```$/ { if (in_block) exit; in_block = 1; next }
     in_block' "$ROOT/README.md" >"$TMP/readme.txt"
diff "$TMP/readme.txt" "$TMP/help.txt" || die "README's command list is not pt2fuzz --help's (above: README < > --help)"
commands=$(sed -n 's/^  \([a-z]\+\)\( .*\)\?$/\1/p' "$TMP/help.txt")
[ "$(echo "$commands" | wc -l)" -ge 17 ] || die "pt2fuzz --help lists too few commands: $commands"
for c in $commands; do
  timeout 10 "$PT2FUZZ" "$c" --help >"$TMP/$c.txt" 2>&1 || die "$c --help failed (or ran for 10 s)"
  grep -q "^usage: pt2fuzz $c" "$TMP/$c.txt" || die "$c --help printed no usage"
done
grep -q -- '--no-stride-check' "$TMP/run.txt" || die "run --help lists no run options"
grep -q -- '--backend B' "$TMP/fuzz.txt" || die "fuzz --help lists no run options"
grep -q -- '--no-stride-check' "$TMP/recheck.txt" || die "recheck --help lists no run options"
[ ! -e "$TMP/out" ] && [ ! -e "$TMP/findings" ] || die "--help did work: $(ls "$TMP")"
timeout 10 "$PT2FUZZ" run --backend aoti --mode backward x.bin 2>"$TMP/err.txt" && die "aoti with backward accepted"
grep -q 'inference only' "$TMP/err.txt" || die "no reason given for aoti with backward"
# getopt_long: an unknown option or a missing value is an error (exit 2) that names it.
expect_usage_error() { # what stderr must say, command...
  local want=$1; shift
  set +e; timeout 10 "$PT2FUZZ" "$@" >"$TMP/out.txt" 2>"$TMP/err.txt"; local rc=$?; set -e
  [ $rc = 2 ] || die "$* exited $rc, not 2"
  grep -qF -- "$want" "$TMP/err.txt" || die "$*: no '$want' in: $(cat "$TMP/err.txt")"
}
expect_usage_error "unrecognized option '--bogus'" gen --bogus --out g
expect_usage_error "option '--out' requires an argument" gen --seed 1 --out
expect_usage_error "unrecognized option '--no-such'" run --no-such x.bin
expect_usage_error "option '--jobs' requires an argument" run x.bin --jobs
expect_usage_error "--jobs 0: expected a number in [1, 256]" triage dir --jobs=0
expect_usage_error "unrecognized option '--inductor'" check x.bin --inductor a=b
expect_usage_error "unrecognized option '--bogus'" fuzz --bogus --out "$TMP/out"
expect_usage_error "unrecognized option '--bogus'" repro x.py --bogus
expect_usage_error "option '--timeout' requires an argument" repro x.py --timeout
expect_usage_error "unrecognized option '--bogus'" recheck dir --bogus
expect_usage_error "--jobs 0: expected a number in [1, 256]" recheck dir --jobs=0
[ ! -e "$TMP/out" ] && [ ! -e g ] || die "a rejected command line did work"
# --name=value and --name value alike, positionals anywhere.
"$PT2FUZZ" gen --count=2 --out=g1 --seed 7 2>/dev/null && "$PT2FUZZ" gen --out g2 --seed=7 --count 2 2>/dev/null
cmp g1/g7_000001.bin g2/g7_000001.bin || die "--name=value and --name value differ"
"$PT2FUZZ" parse --out=p.bin "$ROOT/seeds/fam_shape_views.txt" && "$PT2FUZZ" check p.bin >/dev/null || die "parse with --out=FILE first"
echo "ok: every command's --help"
