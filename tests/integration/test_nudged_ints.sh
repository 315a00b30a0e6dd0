#!/bin/bash
# Ints made from floats (docs/oracle.md): a float16 value one ulp from
# round()'s boundary, rounded the other way by the compiled kernel, moves
# its int cast by one where eager agrees with fp64. planted_input_ulp makes
# compiled see every float input one ulp larger: eager on nudged inputs
# flips at least as many positions, so the graph passes. The same graph
# without the nudged mode, and planted_int_off_by_one (every int one too
# large), are findings: there rounding explains nothing.
source "$(dirname "$0")/lib.sh"
RUN=("$PT2FUZZ" run --plugin "$ROOT/tests/integration/planted_backends.py" --device cpu)

cat >"$TMP/cast.txt" <<G
bindings 1
seed 2718281828
x0 = input float16 [64, 256]
v1 = to_int_safe(x0; dtype=int32)
output v1
G
"$PT2FUZZ" parse "$TMP/cast.txt" --out "$TMP/cast.bin"

"${RUN[@]}" --backend planted_input_ulp --findings "$TMP/f" "$TMP/cast.bin" | tee "$TMP/ulp.out"
grep -q ': pass$' "$TMP/ulp.out" || die "an ulp before round(): the int differences eager's own nudge explains were reported"

"${RUN[@]}" --backend planted_input_ulp --modes eager,compiled,fp64 --findings "$TMP/f" "$TMP/cast.bin" | tee "$TMP/plain.out"
grep -q 'numeric/values' "$TMP/plain.out" || die "without the nudged mode the ulp's int differences should stand"
grep -q 'differ where eager agrees with fp64' "$TMP/f"/*/meta.json || die "the finding should name the int positions"

"${RUN[@]}" --backend planted_int_off_by_one --findings "$TMP/g" "$TMP/cast.bin" | tee "$TMP/off.out"
grep -q 'numeric/values' "$TMP/off.out" || die "every int one too large was not reported"
echo "nudged ints: ok"
