# A standalone program whose float64 run raises judges without a reference,
# as the harness does: a bfloat16 tensor cast to float32 stays float32 under
# the upcast while index_copy's float32 source becomes float64, so the
# float64 run raises (seen on the H200: the program stopped there). The
# program then compares eager and compiled at ten times the tolerance: it
# passes under Inductor, and a compiled output moved by 0.5 is a mismatch.
source "$(dirname "$0")/lib.sh"

cat >"$TMP/upcast_left.txt" <<G
target cpu
bindings 1
seed 7
x0 = input bfloat16 [9, 4]
x1 = input int64 [5] perm 8
x2 = input float32 [5, 4]
v3 = to_float(x0)
v4 = index_copy(v3, x1, x2; dim=-2)
output v4
G
"$PT2FUZZ" emit "$TMP/upcast_left.txt" >"$TMP/upcast_left.py"
PT2FUZZ_DEVICE=cpu "$PY" "$TMP/upcast_left.py" >"$TMP/program.out" 2>&1 || { cat "$TMP/program.out"; die "the program stopped at its float64 run"; }
cat "$TMP/program.out"
grep -q 'binding 0: the float64 run raised RuntimeError: index_copy' "$TMP/program.out" || die "the program did not say its float64 run raised"
grep -q '^PASS$' "$TMP/program.out" || die "the program did not pass without a reference"
# the harness agrees: its fp64 mode fails, and eager and compiled agree
"$PT2FUZZ" parse "$TMP/upcast_left.txt" --out "$TMP/upcast_left.bin"
"$PT2FUZZ" run --device cpu --findings "$TMP/f" "$TMP/upcast_left.bin" | tee "$TMP/harness.out"
grep -q 'upcast_left.bin: pass$' "$TMP/harness.out" || die "the harness reported the graph"
# a backend that moves every float output by 0.5: still a mismatch
cat >"$TMP/shifted.py" <<'PY'
import runpy
import sys

import torch
from torch._dynamo import register_backend


@register_backend
def planted_shifted(gm, example_inputs):
    def run(*args):
        return [o + 0.5 if isinstance(o, torch.Tensor) and o.is_floating_point() else o for o in gm(*args)]
    return run


sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
PY
rc=0
PT2FUZZ_DEVICE=cpu PT2FUZZ_BACKEND=planted_shifted "$PY" "$TMP/shifted.py" "$TMP/upcast_left.py" >"$TMP/shifted.out" 2>&1 || rc=$?
cat "$TMP/shifted.out"
[ "$rc" = 1 ] || die "a compiled output moved by 0.5 exited $rc, not 1"
grep -q '^MISMATCH numeric binding 0 output 0: max abs diff 0.5' "$TMP/shifted.out" || die "a compiled output moved by 0.5 was not a mismatch"
echo "program without a reference: ok"
