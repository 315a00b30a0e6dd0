# A planted bug in a graph of several components: among three graphs of
# three components each, the one whose last component holds a cumsum is the
# one finding (planted_numeric_if_cumsum: wrong only when the compiled graph
# has a cumsum), its meta names that graph's file, reduction keeps only the
# cumsum (the other components do not matter), and triage buckets it under
# cumsum.
source "$(dirname "$0")/lib.sh"
PLUGIN=(--plugin "$ROOT/tests/integration/planted_backends.py" --device cpu --backend planted_numeric_if_cumsum)

for seed in 41 42 43; do
  "$PT2FUZZ" gen --seed $seed --count 1 --family activation --components 3 --size 3 --dynamic 0 \
    --out "$TMP/gen$seed" 2>/dev/null
  "$PT2FUZZ" show "$TMP"/gen$seed/*.bin | sed 's/  #.*//' >"$TMP/g$seed.txt"
done
# The middle graph gets a fourth component: a cumsum of its own input.
sed -i 's/^output \(.*\)/cx = input float32 [5, 4]\nc1 = cumsum(cx; dim=0)\noutput \1, c1/' "$TMP/g42.txt"
for seed in 41 42 43; do
  "$PT2FUZZ" parse "$TMP/g$seed.txt" --out "$TMP/g$seed.bin"
  "$PT2FUZZ" check "$TMP/g$seed.bin"
done
ops=$("$PT2FUZZ" check "$TMP/g42.bin" | sed -n 's/^valid: \([0-9]*\) ops.*/\1/p')
[ -n "$ops" ] && [ "$ops" -ge 4 ] || die "the planted graph has '$ops' ops, want >= 4"

"$PT2FUZZ" run "${PLUGIN[@]}" --findings "$TMP/f" "$TMP/g41.bin" "$TMP/g42.bin" "$TMP/g43.bin" | tee "$TMP/run.out"
grep -q "g41.bin: pass" "$TMP/run.out" || die "g41 (no cumsum) did not pass"
grep -q "g43.bin: pass" "$TMP/run.out" || die "g43 (no cumsum) did not pass"
grep -q "g42.bin: numeric" "$TMP/run.out" || die "g42 (a cumsum component) is not numeric"
[ "$(ls -d "$TMP"/f/*-* | wc -l)" = 1 ] || die "expected one finding"
f=$(ls -d "$TMP"/f/numeric-*)
grep -q "\"source\": \"$TMP/g42.bin\"" "$f/meta.json" || die "the finding does not name g42.bin"
cmp -s "$f/graph.bin" "$TMP/g42.bin" || die "the finding's graph is not g42's"

"$PT2FUZZ" reduce "$f" "${PLUGIN[@]}" --time 300 | tee "$TMP/reduce.out"
"$PT2FUZZ" show "$f/reduced/graph.bin" | tee "$TMP/reduced.txt"
grep -q "^reduced $ops ops -> 1 ops" "$TMP/reduce.out" || die "not reduced to one op"
grep -q '= cumsum(' "$TMP/reduced.txt" || die "the reduced graph lost the cumsum"

"$PT2FUZZ" triage "$TMP/f" "${PLUGIN[@]}" --time 300 --reruns 1
grep -q '| numeric/values | .* | cumsum |' "$TMP/f/triage.md" || die "no cumsum bucket in triage.md"
