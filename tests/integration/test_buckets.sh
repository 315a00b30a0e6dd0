# Findings counted by bug, known upstream bugs marked (pipeline/bucket.h,
# pipeline/known_bugs.h), end to end: a planted compile error hit through two
# seeds of different op sets is two findings in one bucket; with --known
# naming it, a third is marked known and never shown as new, a repeat of the
# first gets the mark too, the report says which issue it is, and triage.md
# has one row for all three, marked known (and marks the third); a malformed
# list is an error naming FILE:LINE. (The built-in list's bugs are fixed on
# torch 2.15's CPU Inductor: tests/test_bucket.c matches them on crafted
# meta.json.)
# Beside another test: what it checks of the triage (one bucket, its members, the known
# mark) holds however far a reduction cut short by --time got.
source "$(dirname "$0")/lib.sh"
PLUGIN=(--plugin "$ROOT/tests/integration/planted_backends.py" --device cpu --backend planted_raise)
s1=$B/seeds/fam_reduce_dims.bin
s2=$B/seeds/fam_shape_views.bin
s3=$B/seeds/fam_sort_topk_kth.bin

# 0. A malformed list stops the command before any graph runs.
printf '# fine\npytorch#1 | behaviour | * | *\n' >"$TMP/bad.txt"
if "$PT2FUZZ" run "${PLUGIN[@]}" --known "$TMP/bad.txt" --findings "$TMP/f" "$s1" 2>"$TMP/err"; then
  die "run with a malformed known-bugs file succeeded"
fi
grep -qF "$TMP/bad.txt:2: 4 fields, expected 6" "$TMP/err" || die "unclear error: $(cat "$TMP/err")"
[ ! -e "$TMP/f" ] || die "a finding was recorded under a malformed list"

# 1. Two op sets, one bug: two findings, one bucket, neither known.
"$PT2FUZZ" run "${PLUGIN[@]}" --findings "$TMP/f" "$s1" "$s2" >"$TMP/out1"
[ "$(grep -c '\[new finding ' "$TMP/out1")" = 2 ] || die "not two new findings: $(cat "$TMP/out1")"
grep -q '^findings: 2 new, 0 known, 0 repeats' "$TMP/out1" || die "summary: $(tail -1 "$TMP/out1")"
[ "$(ls -d "$TMP"/f/behaviour-* | wc -l)" = 2 ] || die "not two finding folders"
buckets=$(sed -n 's/^ *"bucket": "\([0-9a-f]\{16\}\)",\{0,1\}$/\1/p' "$TMP"/f/*/meta.json | sort -u)
[ "$(echo "$buckets" | wc -l)" = 1 ] && [ -n "$buckets" ] || die "buckets: $buckets"
grep -h '"bucket_text"' "$TMP"/f/*/meta.json | sort -u | grep -q 'planted compiler error: cannot lower node # at #' ||
  die "bucket text: $(grep -h '"bucket_text"' "$TMP"/f/*/meta.json)"
! grep -q '"known": "pytorch' "$TMP"/f/*/meta.json || die "marked known without a list entry"

# 2. Known: a new op set is marked, not new; a repeat gets the mark in its meta.json.
printf '%s\n' '# the planted error' \
  'pytorch#4242 | behaviour | *planted compiler error: cannot lower node # at #* | * | test | the planted <b>error</b>' \
  >"$TMP/known.txt"
"$PT2FUZZ" run "${PLUGIN[@]}" --known "$TMP/known.txt" --findings "$TMP/f" "$s3" "$s1" >"$TMP/out2"
grep -q "^$s3: behaviour.* \[known: pytorch#4242\] (finding $TMP/f/behaviour-" "$TMP/out2" ||
  die "not marked known: $(cat "$TMP/out2")"
! grep -q 'new finding' "$TMP/out2" || die "a known finding shown as new"
grep -q '^findings: 0 new, 1 known, 1 repeats' "$TMP/out2" || die "summary: $(tail -1 "$TMP/out2")"
[ "$(grep -l '"known": "pytorch#4242"' "$TMP"/f/*/meta.json | wc -l)" = 2 ] || die "meta.json not marked"
f3=$(grep -l '"known": "pytorch#4242"' "$TMP"/f/*/meta.json | head -1)

# 3. The report says which issue, its title escaped.
PT2FUZZ_KNOWN_BUGS=$TMP/known.txt "$PT2FUZZ" report "$(dirname "$f3")" "${PLUGIN[@]}" --out "$TMP/report.md"
grep -qF '> **Known upstream:** pytorch/pytorch#4242 (the planted \<b\>error\</b\>; seen on torch test)' "$TMP/report.md" ||
  die "report: $(sed -n 1,6p "$TMP/report.md")"
# 4. triage.md has one row for the three findings (their reduced graphs differ), marked known.
PT2FUZZ_KNOWN_BUGS=$TMP/known.txt "$PT2FUZZ" triage "$TMP/f" "${PLUGIN[@]}" --time 30 --reruns 1 >"$TMP/triage.out"
cat "$TMP/f/triage.md"
[ "$(grep -c '^| [0-9a-f]\{16\} |' "$TMP/f/triage.md")" = 1 ] || die "not one bucket"
row=$(grep '^| [0-9a-f]\{16\} |' "$TMP/f/triage.md")
[ "$(echo "$row" | grep -o 'behaviour-[0-9a-f]\{16\}' | wc -l)" = 3 ] || die "bucket members: $row"
echo "$row" | grep -qF '| pytorch#4242 | RuntimeError: planted compiler error: cannot lower node # at # |' || die "row: $row"
grep -q '^1 buckets, 1 of them known upstream' "$TMP/f/triage.md" || die "no count of known buckets"
[ "$(grep -l '"known": "pytorch#4242"' "$TMP"/f/*/meta.json | wc -l)" = 3 ] || die "triage did not mark meta.json"
echo "buckets ok"
