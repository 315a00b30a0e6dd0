# Reduction keeps a numeric finding convincing: planted_numeric_pnorm makes a
# pairwise distance 1% too large for every p > 0, so halving p toward 0 keeps
# the finding while eager's own result grows ill-conditioned (p = 0.062 gives
# values of 1e31, eager 1e26 from fp64). The reducer must refuse those
# candidates: eager stays within tolerance of fp64 and p stays 2.0. Then a
# bfloat16 graph gets an fp64 reference (the upcast graph).
source "$(dirname "$0")/lib.sh"
PLUGIN=(--plugin "$ROOT/tests/integration/planted_backends.py" --device cpu --jobs 2 --backend planted_numeric_pnorm)

cat >"$TMP/g.txt" <<'G'
bindings 1
seed 151198
x0 = input float32 [4, 16]
x1 = input float32 [4, 16]
v2 = pairwise_distance(x0, x1; p=2.0)
output v2
G
"$PT2FUZZ" parse "$TMP/g.txt" --out "$TMP/g.bin"
"$PT2FUZZ" run "${PLUGIN[@]}" --findings "$TMP/f" "$TMP/g.bin"
f=$(ls -d "$TMP"/f/numeric-* | head -1)
[ -d "$f" ] || die "no numeric finding"
"$PT2FUZZ" reduce "$f" "${PLUGIN[@]}" --time 300 | tee "$TMP/reduce.out"
"$PT2FUZZ" show "$f/reduced/graph.bin" | tee "$TMP/reduced.txt"
cat "$f/reduced/reduce.json"
grep -q '"verdict": "numeric"' "$f/reduced/reduce.json" || die "the reduced graph is not numeric"
grep -q 'pairwise_distance(.*p=2.0)' "$TMP/reduced.txt" || die "p changed: the original attribute value was not kept"
eager=$(sed -n 's/.*"eager_rmse": \([^,]*\),.*/\1/p' "$f/reduced/reduce.json")
tol=$(sed -n 's/.*"tol": \([^,}]*\).*/\1/p' "$f/reduced/reduce.json")
[ -n "$eager" ] && [ -n "$tol" ] || die "reduce.json lacks eager_rmse or tol"
awk -v e="$eager" -v t="$tol" 'BEGIN { exit !(t > 0 && e <= t) }' || die "eager is $eager from fp64, beyond tol $tol"
refused=$(sed -n 's/.*"refused": \([0-9]*\).*/\1/p' "$f/reduced/reduce.json")
[ "${refused:-0}" -gt 0 ] || die "no candidate was refused: the test no longer exercises the rule"

# A graph that casts to bfloat16 itself is judged against the fp64 run of its
# upcast graph (the program's Upcast mode), not without a reference.
cat >"$TMP/bf.txt" <<'G'
bindings 1
seed 7
x0 = input float32 [8, 16]
v1 = to_bfloat16(x0)
v2 = sigmoid(v1)
output v2
G
"$PT2FUZZ" parse "$TMP/bf.txt" --out "$TMP/bf.bin"
"$PT2FUZZ" run --plugin "$ROOT/tests/integration/planted_backends.py" --device cpu --backend planted_numeric \
  --findings "$TMP/fb" "$TMP/bf.bin" | tee "$TMP/bf.out"
grep -q 'numeric/values: .*rmse vs fp64 compiled' "$TMP/bf.out" || die "the bfloat16 graph was not judged against fp64"
