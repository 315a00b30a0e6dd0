# The plain program's inputs and module state are the harness program's
# (graph/fills.c's rows spelled for one binding, and as FILLS and LAYOUTS):
# for a graph of every layout and one of every fill, at every binding, the
# plain run()'s arguments and Model()'s state equal judged_inputs' (the
# values every mode's judged call gets) and the harness Model()'s bit for
# bit, with the same shapes, strides, storage offsets, Python number types
# and shared memory; a remade row would show. Where an input changes in
# place between compiled mode's calls (REMUTATE), run(twice=True) calls
# forward() on make_inputs' values first, then on the judged ones.
source "$(dirname "$0")/lib.sh"

printf 'bindings 1\nseed 7\nx0 = input float32 [2, 3, 4, 5] channels_last\nx1 = input float32 [2, 3, 4, 5, 2] positive channels_last_3d
x2 = input float32 [3, 4] transposed\nx3 = input float32 [2, 3, 4] permuted\nx4 = input float32 [3, 4] offset
x5 = input float32 [3, 4] expanded\nx6 = input float32 [3, 4] strided\nx7 = input float32 [3, 4] same\nx8 = input float32 [3, 4] view
x9 = input float64 [] number\nv10 = add(x2, x4)\nv11 = add(x5, x6)\nv12 = add(x7, x8)\nv13 = mul_scalar(x3, x9)
v14 = add(x0, x0)\nv15 = add(x1, x1)\noutput v10\noutput v11\noutput v12\noutput v13\noutput v14\noutput v15\n' >"$TMP/layouts.txt"
printf 'bindings 2\nseed 9\nsym s0 = 3 5\nx0 = input int64 [s0, 4] range -5 9\nx1 = input int32 [6] perm 9
x2 = input float32 [s0, 4] const 1.5\nx3 = input float32 [s0, 4] special\nx4 = input complex64 [s0, 4]
x5 = input float16 [s0, 4] positive\nx6 = input float64 [] range 0 5 number\nx7 = input complex64 [s0, 4] const 2.5
p8 = param float32 [3, 4] positive\nv9 = add(x0, x0)\nv10 = add(x1, x1)\nv11 = add(x2, x3)\nv12 = add(x4, x7)
v13 = add(x5, x5)\nv14 = mul_scalar(p8, x6)\noutput v9\noutput v10\noutput v11\noutput v12\noutput v13\noutput v14\n' >"$TMP/fills.txt"

for g in layouts fills; do
  "$PT2FUZZ" emit "$TMP/$g.txt" >"$TMP/$g.py"
  bindings=$(sed -n 's/^bindings //p' "$TMP/$g.txt")
  for ((b = 0; b < bindings; b++)); do
    "$PT2FUZZ" emit --plain "$TMP/$g.txt" --binding $b >"$TMP/$g.plain$b.py"
    "$PY" - "$TMP/$g.py" "$TMP/$g.plain$b.py" $b <<'EOF' || die "$g, binding $b: the plain program's inputs are not the harness's"
import importlib.util, math, sys
import torch

def bits(t):
    return t.detach().contiguous().reshape(-1).view(torch.uint8)

def same(a, b):
    if isinstance(a, torch.Tensor):
        return (isinstance(b, torch.Tensor) and (a.dtype, a.shape, a.stride(), a.storage_offset()) ==
                (b.dtype, b.shape, b.stride(), b.storage_offset()) and torch.equal(bits(a), bits(b)))
    return type(a) is type(b) and (a == b or math.isnan(a) and math.isnan(b))

def sharing(xs):
    ptr = lambda x: x.untyped_storage().data_ptr() if isinstance(x, torch.Tensor) else None
    return [[j for j, y in enumerate(xs) if ptr(x) is not None and ptr(y) == ptr(x)] for x in xs]

harness_path, plain_path, binding = sys.argv[1], sys.argv[2], int(sys.argv[3])
spec = importlib.util.spec_from_file_location("harness", harness_path)
harness = importlib.util.module_from_spec(spec)
spec.loader.exec_module(harness)
plain = {}  # the plain program up to its runs: imports, Model, run()
exec(open(plain_path).read().split("\ntorch.set_grad_enabled(")[0], plain)
got = []
plain["run"](lambda *xs: got.extend(xs) or ())
want = harness.judged_inputs(binding, "cpu")  # make_inputs, and REMUTATE's new values
assert len(got) == len(want) > 0, (len(got), len(want))
for k, (p, h) in enumerate(zip(got, want)):
    assert same(p, h), f"input {k}: plain {p!r}, harness {h!r}"
assert sharing(got) == sharing(want), (sharing(got), sharing(want))
if harness.REMUTATE is not None:  # compiled mode's two calls: make_inputs' values, then the judged ones
    calls = []
    plain["run"](lambda *xs: calls.append([x.clone() if isinstance(x, torch.Tensor) else x for x in xs]) or (), twice=True)
    first = harness.make_inputs(binding, "cpu")
    equal = lambda a, b: torch.equal(bits(a), bits(b)) if isinstance(a, torch.Tensor) else same(a, b)
    assert len(calls) == 2, len(calls)
    assert all(equal(p, h) for p, h in zip(calls[0], first)), "the first call's values are not make_inputs'"
    assert all(equal(p, h) for p, h in zip(calls[1], want)), "the judged call's values are not judged_inputs'"
    assert not equal(calls[0][harness.REMUTATE], calls[1][harness.REMUTATE]), "the input did not change"
    print(f"{plain_path}: input {harness.REMUTATE} changes in place between compiled mode's two calls")
ps, hs = plain["Model"]().state_dict(), harness.Model().state_dict()
assert list(ps) == list(hs) and all(same(ps[k], hs[k]) for k in ps), "module state"
print(f"{plain_path}: {len(got)} inputs, {len(ps)} state tensors as the harness draws them")
EOF
  done
done
