# Reduction, layer bisection and triage on planted bugs inside the real
# compiler (planted_layers.py): each fires only when the graph has a cumsum.
# A numeric bug hidden in a 25-op graph reduces to at most 3 ops; a
# behaviour bug keeps its signature; bisection names the planted layer; two
# findings of one bug in different graphs land in one triage bucket.
source "$(dirname "$0")/lib.sh"
PLUGIN=(--plugin "$ROOT/tests/integration/planted_layers.py" --device cpu --jobs 2)

# Two different 24-op static graphs, each with a float cumsum added: 25 ops.
for seed in 31 32; do
  "$PT2FUZZ" gen --seed $seed --count 1 --size 24 --dynamic 0 --out "$TMP/gen$seed" 2>/dev/null
  "$PT2FUZZ" show "$TMP"/gen$seed/*.bin | sed 's/  #.*//' >"$TMP/g$seed.txt"
  x=$(grep -m1 -o '^x[0-9]* = input float32' "$TMP/g$seed.txt" | cut -d' ' -f1)
  [ -n "$x" ] || die "graph $seed has no float32 input"
  sed -i "s/^output \(.*\)/c1 = cumsum($x; dim=0)\noutput \1, c1/" "$TMP/g$seed.txt"
  "$PT2FUZZ" parse "$TMP/g$seed.txt" --out "$TMP/g$seed.bin"
  "$PT2FUZZ" check "$TMP/g$seed.bin" | grep -q '^valid: 25 ops' || die "graph $seed is not 25 ops"
done

finding() { # layer, graph, findings dir: runs it and prints the finding's folder
  PT2FUZZ_PLANT=$1 "$PT2FUZZ" run "${PLUGIN[@]}" --findings "$3" "$2" >&2
  ls -d "$3"/*-* | head -1
}

# 1. A planted numeric bug in Inductor: reduced to <= 3 ops, bisected to inductor.
f=$(finding inductor "$TMP/g31.bin" "$TMP/f-inductor")
case "$f" in */numeric-*) ;; *) die "expected a numeric finding, got $f" ;; esac
PT2FUZZ_PLANT=inductor "$PT2FUZZ" reduce "$f" "${PLUGIN[@]}" --time 300 | tee "$TMP/reduce.out"
ops=$(sed -n 's/^reduced 25 ops -> \([0-9]*\) ops.*/\1/p' "$TMP/reduce.out")
echo "reduced to $ops ops"; "$PT2FUZZ" show "$f/reduced/graph.bin"
[ -n "$ops" ] && [ "$ops" -le 3 ] || die "reduced to '$ops' ops, want <= 3"
grep -q '= cumsum(' <("$PT2FUZZ" show "$f/reduced/graph.bin") || die "the reduced graph lost the cumsum"
PT2FUZZ_PLANT=inductor "$PT2FUZZ" bisect "$f" "${PLUGIN[@]}" | tee "$TMP/bisect.out"
grep -q '^layer: inductor$' "$TMP/bisect.out" || die "bisection did not name inductor"

# 2. A planted behaviour bug keeps its signature through reduction.
f=$(finding inductor-raise "$TMP/g31.bin" "$TMP/f-raise")
case "$f" in */behaviour-*) ;; *) die "expected a behaviour finding, got $f" ;; esac
PT2FUZZ_PLANT=inductor-raise "$PT2FUZZ" reduce "$f" "${PLUGIN[@]}" --time 300
grep -q '"verdict": "behaviour"' "$f/reduced/reduce.json" || die "reduced finding is not behaviour"
grep -q 'planted lowering error' "$f/reduced/reduce.json" || die "reduced finding lost its error"
[ "$(sed -n 's/.*"key": "\(.*\)".*/\1/p' "$f/reduced/reduce.json")" != 0000000000000000 ] || die "no key"

# 3. Bisection names the layer the bug sits in: decompositions, Dynamo.
for layer in decompositions dynamo; do
  f=$(finding $layer "$TMP/g31.bin" "$TMP/f-$layer")
  PT2FUZZ_PLANT=$layer "$PT2FUZZ" reduce "$f" "${PLUGIN[@]}" --time 300 >/dev/null
  PT2FUZZ_PLANT=$layer "$PT2FUZZ" bisect "$f" "${PLUGIN[@]}" | tee "$TMP/bisect.out"
  grep -q "^layer: $layer\$" "$TMP/bisect.out" || die "bisection did not name $layer"
done

# 4. Two findings of the same bug in different graphs: two signatures, one bucket.
PT2FUZZ_PLANT=inductor "$PT2FUZZ" run "${PLUGIN[@]}" --findings "$TMP/f-both" "$TMP/g31.bin" "$TMP/g32.bin"
[ "$(ls -d "$TMP"/f-both/numeric-* | wc -l)" = 2 ] || die "expected two numeric findings"
PT2FUZZ_PLANT=inductor "$PT2FUZZ" triage "$TMP/f-both" "${PLUGIN[@]}" --time 300 --reruns 2 | tee "$TMP/triage1.out"
cat "$TMP/f-both/triage.md"
rows=$(grep -c '^| [0-9a-f]\{16\} |' "$TMP/f-both/triage.md")
[ "$rows" = 1 ] || die "$rows buckets, want 1"
grep -q '| numeric/values | inductor | cumsum |' "$TMP/f-both/triage.md" || die "bucket row"
[ "$(grep '^| [0-9a-f]' "$TMP/f-both/triage.md" | grep -o 'numeric-[0-9a-f]*' | wc -l)" = 2 ] || die "bucket members"

# 4b. Triage again (as after a campaign whose background triage reduced its
# findings): each reduction goes on from reduced/, with fewer checks than
# from the 25-op graph, and the bucket and the original size are kept.
checks() { sed -n "s/^$1: .* \([0-9]*\) checks,.*/\1/p" "$2"; }
PT2FUZZ_PLANT=inductor "$PT2FUZZ" triage "$TMP/f-both" "${PLUGIN[@]}" --time 300 --reruns 1 | tee "$TMP/triage2.out"
for f in "$TMP"/f-both/numeric-*; do
  n=$(basename "$f")
  grep -q "^$n: numeric, 25 ops -> [0-9]* (from reduced/)," "$TMP/triage2.out" || die "$n was reduced again from scratch"
  [ "$(checks "$n" "$TMP/triage2.out")" -lt "$(checks "$n" "$TMP/triage1.out")" ] || die "$n: no fewer checks the second time"
done
[ "$(grep -c '^| [0-9a-f]\{16\} |' "$TMP/f-both/triage.md")" = 1 ] || die "the second triage split the bucket"

# 5. The triaged findings as text (scripts/findings-text): one file each,
# saying the layer and holding the reduced graph, which parses back.
bash "$ROOT/scripts/findings-text" "$TMP/f-both" "$TMP/text" planted
[ "$(ls "$TMP"/text/numeric-*.txt | wc -l)" = 2 ] || die "expected two text findings"
for t in "$TMP"/text/*.txt; do
  grep -q '^# layer: inductor$' "$t" || die "$t: no layer"
  grep -q '^# seen 1 time(s); reduced from [0-9]* ops$' "$t" || die "$t: not marked reduced"
  "$PT2FUZZ" parse "$t" --out "$TMP/back.bin" && "$PT2FUZZ" check "$TMP/back.bin" || die "$t does not parse back"
  grep -q '= cumsum(' "$t" || die "$t lost the cumsum"
done
