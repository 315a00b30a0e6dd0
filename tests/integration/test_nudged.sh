#!/bin/bash
# Nudged inputs (docs/oracle.md): eager run again on inputs moved by 1 to 4
# ulps tells a problem that amplifies one rounding from a compiler bug.
# planted_numeric_slight adds 0.0017 to compiled's first output, the size of
# the layer_norm-of-a-constant false alarm seen on the H200: over a constant
# input eager's own output moves that much when nudged, so it passes; over
# a normal input eager moves by an ulp, so the same 0.0017 is a finding; and
# without the nudged mode, or with a step op in the graph, nothing excuses it.
# planted_split_repeat hands a call given one value twice that value once an
# ulp larger (a value computed once per use, rounding two ways):
# x / pairwise_distance(x, x) moves by a tenth, and the nudged run, which
# nudges each later use of a repeated operand on its own, explains it; a
# repeat that amplifies nothing (x + x) excuses no 0.0017.
# A float tested against zero where rounding leaves 0 or an ulp (the mean of
# a layer_norm's output, logical_not of it): the nudged run turns the test
# the other way, whichever way eager's went (planted_small_means_zero makes
# eager's ulp 0, planted_means_off_by_ulp eager's 0 an ulp); a mean well away
# from 0 that comes out 0 is still a finding.
source "$(dirname "$0")/lib.sh"
RUN=("$PT2FUZZ" run --plugin "$ROOT/tests/integration/planted_backends.py" --device cpu --backend planted_numeric_slight)

graph() { # name, fill, extra node
  cat >"$TMP/$1.txt" <<G
bindings 1
seed 4052811433
x0 = input float32 [1, 1, 5, 6] $2
v1 = layer_norm(x0; eps_exp=5, elementwise_affine=False, bias=False, normalized_shape=[5, 6])
$3
G
  "$PT2FUZZ" parse "$TMP/$1.txt" --out "$TMP/$1.bin"
}
graph const 'const 100.0' 'output v1'
graph normal '' 'output v1'
graph step 'const 100.0' $'v2 = sign(v1)\nv3 = add(v1, v2)\noutput v3'

"${RUN[@]}" --findings "$TMP/f" "$TMP/const.bin" | tee "$TMP/const.out"
grep -q ': pass$' "$TMP/const.out" || die "layer_norm of a constant: the difference eager's own nudge explains was reported"

"${RUN[@]}" --findings "$TMP/f" "$TMP/normal.bin" | tee "$TMP/normal.out"
grep -q 'numeric/values' "$TMP/normal.out" || die "layer_norm of a normal input: 0.0017 off was not reported"

"${RUN[@]}" --modes eager,compiled,fp64 --findings "$TMP/f" "$TMP/const.bin" | tee "$TMP/plain.out"
grep -q 'numeric/values' "$TMP/plain.out" || die "without the nudged mode the constant's difference should stand"

"${RUN[@]}" --findings "$TMP/f" "$TMP/step.bin" | tee "$TMP/step.out"
grep -q 'numeric/values' "$TMP/step.out" || die "a graph with a step op (sign) must not be excused by nudging"
cat >"$TMP/self_distance.txt" <<G
bindings 1
seed 4052811433
x0 = input float32 [4, 1] const 1.0
v1 = pairwise_distance(x0, x0; p=2.0)
v2 = div(x0, v1)
output v2
G
"$PT2FUZZ" parse "$TMP/self_distance.txt" --out "$TMP/self_distance.bin"
SPLIT=("$PT2FUZZ" run --plugin "$ROOT/tests/integration/planted_backends.py" --device cpu --backend planted_split_repeat)
"${SPLIT[@]}" --modes eager,compiled,fp64 --findings "$TMP/f" "$TMP/self_distance.bin" | tee "$TMP/split_plain.out"
grep -q 'numeric/values' "$TMP/split_plain.out" || die "a quotient by a self-distance split by an ulp should differ beyond tolerance"
"${SPLIT[@]}" --findings "$TMP/f" "$TMP/self_distance.bin" | tee "$TMP/split.out"
grep -q ': pass$' "$TMP/split.out" || die "a self-distance split by an ulp was reported: the nudged run should split the repeated operand"

graph repeat '' $'v2 = add(x0, x0)\nv3 = layer_norm(v2; eps_exp=5, elementwise_affine=False, bias=False, normalized_shape=[5, 6])\noutput v3'
"${RUN[@]}" --findings "$TMP/f" "$TMP/repeat.bin" | tee "$TMP/repeat.out"
grep -q 'numeric/values' "$TMP/repeat.out" || die "x + x of a normal input: a repeated operand excused 0.0017"

zero_test() { # name, fill, what logical_not tests
  cat >"$TMP/$1.txt" <<G
bindings 1
seed 4052811433
x0 = input float32 [6, 5] $2
v1 = layer_norm(x0; eps_exp=5, elementwise_affine=False, bias=False, normalized_shape=[5])
v2 = mean($3; dim=-1, keepdim=False)
v3 = logical_not(v2)
output v3
G
  "$PT2FUZZ" parse "$TMP/$1.txt" --out "$TMP/$1.bin"
}
zero_test cancels '' v1
zero_test plain '' x0
zero_test cancels_exactly 'const 100.0' v1
ZERO=("$PT2FUZZ" run --plugin "$ROOT/tests/integration/planted_backends.py" --device cpu --findings "$TMP/f")
"${ZERO[@]}" --backend planted_small_means_zero --modes eager,compiled,fp64 "$TMP/cancels.bin" | tee "$TMP/cancels_plain.out"
grep -q 'numeric/values' "$TMP/cancels_plain.out" || die "without the nudged mode, a layer_norm's mean made 0 should be a bool finding"
"${ZERO[@]}" --backend planted_small_means_zero "$TMP/cancels.bin" "$TMP/plain.bin" | tee "$TMP/zero.out"
grep -q 'cancels.bin: pass$' "$TMP/zero.out" || die "logical_not of a layer_norm's mean, an ulp in eager and 0 compiled, was reported"
grep -q 'plain.bin: numeric/values' "$TMP/zero.out" || die "logical_not of a mean well away from 0 that came out 0 was not reported"
"${ZERO[@]}" --backend planted_means_off_by_ulp "$TMP/cancels_exactly.bin" | tee "$TMP/exact.out"
grep -q ': pass$' "$TMP/exact.out" || die "logical_not of a mean 0 in eager and an ulp compiled was reported"
# The same for a log, singular at 0 and NaN below it: a layer_norm's mean,
# an ulp either side of 0, compiled with the other sign, is NaN against a
# finite log in eager where eager's was positive (and the reverse); nudged
# inputs move such a mean across 0 by themselves, and the oracle holds no
# NaN against compiled where eager's own class moves. A mean of a
# rounding's size that nudging leaves on its side (1e-9 of its inputs'
# magnitude, as an svd's rebuilt 0 was on the H200): the nudged run puts
# log's operand on the other side of eager's. A mean well away from 0
# negated is still a finding.
domain_test() { # name, what log takes the mean of, the line that makes it[, the op in log's place]
  cat >"$TMP/$1.txt" <<G
bindings 1
seed 4052811433
x0 = input float32 [6, 5]
$3
v2 = mean($2; dim=-1, keepdim=False)
v3 = ${4:-log}(v2)
output v3
G
  "$PT2FUZZ" parse "$TMP/$1.txt" --out "$TMP/$1.bin"
}
domain_test log_cancels v1 'v1 = layer_norm(x0; eps_exp=5, elementwise_affine=False, bias=False, normalized_shape=[5])'
domain_test log_tiny v1 'v1 = mul_scalar(x0; value=1e-9)'
domain_test log_plain x0 ''
# ndtri, a torch.special function, is -inf at 0 and NaN below it: its
# operand of a rounding's size too gets the probe from the other side
domain_test ndtri_tiny v1 'v1 = mul_scalar(x0; value=1e-9)' ndtri
"${ZERO[@]}" --backend planted_means_negated --modes eager,compiled,fp64 "$TMP/log_cancels.bin" "$TMP/log_tiny.bin" "$TMP/ndtri_tiny.bin" | tee "$TMP/log_plain_modes.out"
grep -q 'ndtri_tiny.bin: numeric/nonfinite' "$TMP/log_plain_modes.out" || die "without the nudged mode, an ndtri of a tiny mean negated should be a NaN finding"
grep -q 'log_cancels.bin: numeric/nonfinite' "$TMP/log_plain_modes.out" || die "without the nudged mode, a log of a layer_norm's mean negated should be a NaN finding"
grep -q 'log_tiny.bin: numeric/nonfinite' "$TMP/log_plain_modes.out" || die "without the nudged mode, a log of a tiny mean negated should be a NaN finding"
"${ZERO[@]}" --backend planted_means_negated "$TMP/log_cancels.bin" "$TMP/log_tiny.bin" "$TMP/log_plain.bin" "$TMP/ndtri_tiny.bin" | tee "$TMP/log.out"
grep -q 'ndtri_tiny.bin: pass$' "$TMP/log.out" || die "ndtri of a mean of a rounding's size, of the other sign compiled, was reported"
grep -q 'log_cancels.bin: pass$' "$TMP/log.out" || die "log of a layer_norm's mean, an ulp of the other sign compiled, was reported"
grep -q 'log_tiny.bin: pass$' "$TMP/log.out" || die "log of a mean of a rounding's size, of the other sign compiled, was reported"
grep -q 'log_plain.bin: numeric/nonfinite' "$TMP/log.out" || die "log of a mean well away from 0 negated was not reported"
# What rounding leaves of a product scales with both operands: cross(v, v)
# of v in the thousands is ±0.1 in eager (the CPU's kernel, as CUDA's,
# rounds a product inside a fused multiply-add) and an exact 0 under
# Inductor, so ndtri of it is NaN or finite against -inf. The nudged run
# keeps |v|^2 as the operand's magnitude and turns ndtri's test, to at most
# 1/2 above 0 (ndtri is NaN beyond 1); with the largest operand's alone, or
# a turn to the bound, past 1 here (the H200's false alarm), the split
# lands on eager's side of 0 about half the time.
cat >"$TMP/cross_ndtri.txt" <<G
target cpu
bindings 1
seed 4052811433
x0 = input float32 [3, 40]
v1 = mul_scalar(x0; value=1000.0)
v2 = linalg_cross(v1, v1; dim=0)
v3 = ndtri(v2)
output v3
G
"$PT2FUZZ" parse "$TMP/cross_ndtri.txt" --out "$TMP/cross_ndtri.bin"
"$PT2FUZZ" run --device cpu --findings "$TMP/f" --modes eager,compiled,fp64 "$TMP/cross_ndtri.bin" | tee "$TMP/cross_plain.out"
grep -q 'cross_ndtri.bin: numeric/nonfinite' "$TMP/cross_plain.out" ||
  die "without the nudged mode, ndtri of cross(v, v), eager's rounding against Inductor's exact 0, should differ in NaN/Inf"
"$PT2FUZZ" run --device cpu --findings "$TMP/f" "$TMP/cross_ndtri.bin" | tee "$TMP/cross.out"
grep -q 'cross_ndtri.bin: pass$' "$TMP/cross.out" || die "ndtri of cross(v, v), zero up to a product's rounding, was reported"
# A step is judged per component: a comparison of floats beside it (the
# H200's campaign graph held a `ne` in another component) takes nothing
# from that excuse; one that reads v itself does, and ndtri is reported.
step_beside() { # name, the step's operands
  sed -e '/^output v3$/d' "$TMP/cross_ndtri.txt" >"$TMP/$1.txt"
  printf 'x4 = input float32 [5]\nv5 = ne(%s)\noutput v3\noutput v5\n' "$2" >>"$TMP/$1.txt"
  "$PT2FUZZ" parse "$TMP/$1.txt" --out "$TMP/$1.bin"
}
step_beside step_apart 'x4, x4'
step_beside step_joined 'v1, v1'
"$PT2FUZZ" run --device cpu --findings "$TMP/f" "$TMP/step_apart.bin" "$TMP/step_joined.bin" | tee "$TMP/steps.out"
grep -q 'step_apart.bin: pass$' "$TMP/steps.out" || die "a comparison in another component took ndtri's excuse"
grep -q 'step_joined.bin: numeric/nonfinite' "$TMP/steps.out" ||
  die "ndtri of cross(v, v) beside a comparison of v itself should be judged without the nudged run's excuse"
# A float made from no tensor is nudged as an input is: a periodic window's
# w[k] and w[n - k] come out equal or an ulp apart as each rounding has it
# (the H200's false alarm: Inductor's general_cosine ties w[2] and w[6]
# where eager's leaves them an ulp apart, so bucketize ranks them apart);
# every rank one too large is still a finding.
cat >"$TMP/window_rank.txt" <<G
target cpu
bindings 1
seed 8929232
x0 = input bool [8, 1] range 0 0
v1 = general_cosine_window(x0; dim=0, sym=False, dtype=float32)
v2 = bucketize(v1, v1; right=False)
output v2
G
"$PT2FUZZ" parse "$TMP/window_rank.txt" --out "$TMP/window_rank.bin"
"${ZERO[@]}" --modes eager,compiled,fp64 "$TMP/window_rank.bin" | tee "$TMP/window_plain.out"
grep -q 'window_rank.bin: numeric/values' "$TMP/window_plain.out" ||
  die "without the nudged mode, Inductor's tied window values should rank apart from eager's"
"${ZERO[@]}" "$TMP/window_rank.bin" | tee "$TMP/window.out"
grep -q 'window_rank.bin: pass$' "$TMP/window.out" || die "ranks of window values that rounding ties were reported"
"${ZERO[@]}" --backend planted_int_off_by_one "$TMP/window_rank.bin" | tee "$TMP/window_bumped.out"
grep -q 'window_rank.bin: numeric/values' "$TMP/window_bumped.out" || die "every rank one too large was not reported"
echo "nudged inputs: ok"
