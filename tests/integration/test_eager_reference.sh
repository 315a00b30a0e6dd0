#!/bin/bash
# Eager's own kernel wrong, the float64 reference right (graph/eager_reference.c):
# std_mean over a column holding an infinity gives a NaN mean in eager
# (pytorch#138570; in float64 too), the infinity compiled, as torch.mean
# does. A reference that ran eager's kernel would agree with eager and blame
# compiled; the reference computes the mean apart, so the graph passes. The
# same program without the row reports the NaN/Inf mismatch (the graph does
# reach the wrong kernel), and a compiled mean that is off where it is finite
# is still a finding. The plain program compares ints exactly: the mean
# alone there.
source "$(dirname "$0")/lib.sh"
graph() { # name, outputs
  cat >"$TMP/$1.txt" <<G
bindings 1
seed 1
x0 = input float32 [8, 8] special
x1 = input float32 [8]
v2, v3 = std_mean(x0; correction=1, keepdim=False, dim=[0])
v4 = le(v3, x1)
output $2
G
  "$PT2FUZZ" parse "$TMP/$1.txt" --out "$TMP/$1.bin"
}
graph std_mean 'v3, v4'
graph mean 'v3'

"$PT2FUZZ" run --device cpu --findings "$TMP/f" "$TMP/std_mean.bin" | tee "$TMP/run.out"
grep -q ': pass$' "$TMP/run.out" || die "std_mean of infinities: eager's NaN mean blamed on compiled"

# the program alone judges as the oracle does: le's bools where the reference agrees with compiled
# are rounding's (exact_differs)
"$PT2FUZZ" emit "$TMP/std_mean.bin" >"$TMP/program.py"
grep -q '^    torch.std_mean: ' "$TMP/program.py" || die "the program's reference does not replace std_mean"
sed '/^    torch.std_mean: /d' "$TMP/program.py" >"$TMP/kernel_reference.py"
! "$PY" "$TMP/kernel_reference.py" >"$TMP/kernel.out" 2>&1 || die "with eager's kernel as the reference the program passed"
grep -q '^MISMATCH numeric binding 0 output 0: NaN/Inf at' "$TMP/kernel.out" ||
  die "with eager's kernel as the reference the graph should show the NaN mean: $(tail -3 "$TMP/kernel.out")"
"$PY" "$TMP/program.py" >"$TMP/program.out" 2>&1
grep -q '^PASS' "$TMP/program.out" || die "the program alone: $(tail -3 "$TMP/program.out")"

"$PT2FUZZ" emit --plain "$TMP/mean.bin" --device cpu >"$TMP/plain.py"
"$PY" "$TMP/plain.py" >"$TMP/plain.out" 2>&1 || die "the plain program: $(tail -3 "$TMP/plain.out")"

"$PT2FUZZ" run --plugin "$ROOT/tests/integration/planted_backends.py" --backend planted_numeric --device cpu \
  --findings "$TMP/f" "$TMP/mean.bin" | tee "$TMP/planted.out"
grep -q 'numeric/values: binding 0 output 0' "$TMP/planted.out" || die "a compiled mean 1 off at its finite columns passed"
echo "test_eager_reference: ok"
