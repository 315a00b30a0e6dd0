#!/bin/bash
# Mixed devices in one graph (docs/formats.md, "Mixed devices"): a CPU 0-dim
# tensor as an operand of an op on the graph's device (mul_cpu_0dim), a CPU
# index into it (index_cpu_index) and an explicit round trip through the CPU
# (cpu_round_trip). The rows are drawn for a GPU target only: a graph for the
# CPU refuses them. Their text form and program are checked here on any
# machine, and the graph runs on the CPU with its devices mapped there (the
# transfers move nothing, but Dynamo keeps them): it passes under Inductor,
# and planted_wrong_transfer, which moves a value to the CPU wrongly, is a
# numeric finding naming the row. `--device cuda` (or PT2FUZZ_TEST_DEVICE=cuda)
# runs the same on a GPU, where the transfers are real.
source "$(dirname "$0")/lib.sh"
DEVICE=${PT2FUZZ_TEST_DEVICE:-cpu}
[ "${1:-}" = --device ] && DEVICE=$2
RUN=("$PT2FUZZ" run --device "$DEVICE" --plugin "$ROOT/tests/integration/planted_backends.py")

cat >"$TMP/mixed.txt" <<'GRAPH'
target gpu
bindings 1
seed 5
x0 = input float32 [4, 6]
x1 = input float32 []
x2 = input int64 [3] range 0 3
v3 = mul_cpu_0dim(x0, x1)
v4 = index_cpu_index(x0, x2)
v5 = cpu_round_trip(x0)
v6 = relu(v5)
output v3, v4, v6
GRAPH
"$PT2FUZZ" parse "$TMP/mixed.txt" --out "$TMP/mixed.bin"
# the binary form reads back to the same text
"$PT2FUZZ" show "$TMP/mixed.bin" | sed 's/  #.*//' | grep -v '^#' >"$TMP/shown.txt"
for line in 'target gpu' 'v3 = mul_cpu_0dim(x0, x1)' 'v4 = index_cpu_index(x0, x2)' 'v5 = cpu_round_trip(x0)'; do
  grep -qxF "$line" "$TMP/shown.txt" || die "the text form of the decoded graph lacks '$line'"
done
# a graph for the CPU has no second device: the rows are refused there
sed 's/^target gpu$/target cpu/' "$TMP/mixed.txt" >"$TMP/cpu.txt"
"$PT2FUZZ" check "$TMP/cpu.txt" 2>"$TMP/cpu.err" && die "a CPU-target graph takes the mixed-device rows"

# the program and the plain repro spell the transfers, and are Python
"$PT2FUZZ" emit "$TMP/mixed.bin" >"$TMP/mixed.py"
for call in 'x0 * x1.cpu()' 'x0[x2.cpu()]' "x0.to('cpu').to(x0.device)"; do
  grep -qF "$call" "$TMP/mixed.py" || die "the program does not spell $call"
done
"$PT2FUZZ" emit --plain "$TMP/mixed.bin" --device cuda >"$TMP/plain.py"
grep -qF 'x1.cpu()' "$TMP/plain.py" || die "the plain repro does not spell x1.cpu()"
grep -q 'cuda' "$TMP/plain.py" || die "the plain repro for cuda does not name the device"
"$PY" -m py_compile "$TMP/mixed.py" "$TMP/plain.py" || die "a program is not Python"

"${RUN[@]}" --findings "$TMP/right" "$TMP/mixed.bin" | tee "$TMP/right.out"
grep -q "mixed.bin: pass$" "$TMP/right.out" || die "the mixed-device graph does not pass under Inductor on $DEVICE"

"${RUN[@]}" --backend planted_wrong_transfer --findings "$TMP/wrong" "$TMP/mixed.bin" | tee "$TMP/wrong.out"
grep -q "mixed.bin: numeric" "$TMP/wrong.out" || die "a wrong transfer to the CPU is not a numeric finding on $DEVICE"
grep -q '"mul_cpu_0dim"' "$TMP/wrong"/numeric-*/meta.json || die "the finding does not name mul_cpu_0dim"
echo "ok: mixed-device rows read back, emit and run on $DEVICE; a wrong transfer is a numeric finding"
