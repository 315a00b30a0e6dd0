# The nudged run's probes (docs/oracle.md, "Nudged inputs" and "A float
# tested against zero"): eager again on inputs moved by an ulp or so, each
# repeated operand moved on its own, each float made from no tensor moved
# as an input is, and each float whose test against zero (or of sign, for a
# log's operand) its own rounding decides turned the other way. What eager
# then changes is what rounding decides, which the oracle does not hold
# against compiled mode. Linked before worker.py (harness/worker_blob.S).

import collections


def nudge(torch, tensors, gen):
    """Moves each float element of tensors, in place, by 1 to 4 units in its
    dtype's last place, up or down at random (gen): how far eager then moves
    tells the oracle how much the problem amplifies one rounding. Zeros,
    subnormals, NaN and Inf stay; a tensor whose elements share memory
    (an expanded input) is left as it is."""
    for t in tensors:
        if not isinstance(t, torch.Tensor) or not t.is_floating_point() or t.numel() == 0:
            continue
        shift = torch.empty(t.shape, dtype=torch.float64).uniform_(1, 4, generator=gen)
        sign = torch.randint(0, 2, t.shape, generator=gen, dtype=torch.float64) * 2 - 1
        moved = (t.detach().cpu().double() * (1 + sign * shift * torch.finfo(t.dtype).eps)).to(t.dtype)
        try:
            with torch.inference_mode() if t.is_inference() else torch.no_grad():
                t.copy_(moved)
        except RuntimeError:  # overlapping elements (stride 0): no single value to move
            pass


def split_repeats(torch, gen):
    """A torch function mode under which a call given one float tensor more
    than once (pairwise_distance(v, v), v - v) gets each later occurrence
    nudged on its own (nudge(), gen). Compiled code may compute such a value
    once per use, each rounding its own way, so that v - v is an ulp and not
    0; nudged inputs move every use alike and would not show how far the call
    amplifies that split. The first occurrence stays the tensor itself, so a
    call that writes into it or views it does so as in eager."""
    def split(seen, x):
        if not isinstance(x, torch.Tensor) or not x.is_floating_point() or x.numel() == 0:
            return x
        if id(x) not in seen:
            seen.add(id(x))
            return x
        copy_of_x = x.clone()  # differentiable: backward mode's gradients flow through it
        nudge(torch, [copy_of_x], gen)
        return copy_of_x

    class SplitRepeats(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen = set()
            args, kwargs = torch.utils._pytree.tree_map(lambda x: split(seen, x), (args, kwargs or {}))
            return func(*args, **kwargs)

    return SplitRepeats()


def nudge_made_floats(torch, gen):
    """A torch function mode under which a float tensor made from no tensor
    (an arange, linspace, window's steps) comes out nudged (nudge(), gen),
    as inputs are: values equal by symmetry, a window's w[k] and w[n - k],
    are equal or an ulp apart as each rounding has it, and a sort, search
    or comparison of them turns on which."""
    class NudgeMadeFloats(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            out = func(*args, **kwargs)
            made = not any(isinstance(a, torch.Tensor) for a in torch.utils._pytree.tree_leaves((args, kwargs)))
            if made and isinstance(out, torch.Tensor) and out.is_floating_point():
                nudge(torch, [out], gen)
            return out

    return NudgeMadeFloats()


# Calls whose result turns on which side of zero a float lies: where a value
# that cancels to zero comes out as rounding leaves it (0, an ulp or minus
# one), the result flips. A test: what eager's run records of an operand x
# (record), and the value the nudged run puts at a rounded position given
# that record and the rounding bound (other: the other side of eager's).
ZeroTest = collections.namedtuple("ZeroTest", "record other")
NONZERO = ZeroTest(lambda x: x != 0,
                   lambda torch, seen, x, bound: torch.where(seen, torch.zeros_like(x), torch.full_like(x, bound)))
POSITIVE = ZeroTest(lambda x: x > 0,
                    lambda torch, seen, x, bound: torch.where(seen, torch.full_like(x, -bound), torch.full_like(x, bound)))
# ndtri and logit are defined on [0, 1] only: the other side of 0 they see
# is at most 1/2, or a bound beyond 1 would be NaN as below 0.
UNIT = ZeroTest(POSITIVE.record,
                lambda torch, seen, x, bound: torch.where(seen, torch.full_like(x, -bound),
                                                          torch.full_like(x, min(bound, 0.5))))
ZERO_TESTS = {
    **{name: NONZERO for name in ("logical_and", "logical_or", "logical_xor", "logical_not", "any", "all", "nonzero",
                                  "argwhere", "count_nonzero", "bool")},
    # singular at 0 or undefined below it: NaN, Inf or a huge value of either sign
    **{name: POSITIVE for name in ("log", "log2", "log10", "sqrt", "rsqrt", "reciprocal")},
    **{name: UNIT for name in ("ndtri", "logit")},
}
# How many units in the last place of its inputs' magnitude a tested value
# may be and still be rounding's leftover of a cancellation (a sum of n
# terms leaves up to n ulps).
ZERO_TEST_ULPS = 64
SCALE = "_pt2fuzz_scale"  # the attribute the nudged run keeps a tensor's input magnitude in
# Calls whose result is made of products of their operands' elements: what
# rounding leaves of such a result scales with |a| |b|, not with the larger
# of the two (cross(v, v), whose products cancel up to rounding).
PRODUCTS = ("mul", "multiply", "matmul", "mm", "bmm", "mv", "dot", "vdot", "inner", "outer", "ger", "cross",
            "einsum", "tensordot", "kron", "addmm", "addbmm", "baddbmm", "addmv", "addr", "multi_dot", "linear",
            "__mul__", "__rmul__", "__matmul__", "__rmatmul__")


def functions_named(names, modules):
    """Each name's function in each module that has it, to that name."""
    return {f: name for name in names for f in (getattr(m, name, None) for m in modules) if f}


def zero_test_functions(torch):
    """torch's functions, torch.special's and Tensor methods of ZERO_TESTS,
    each to its test; a cast to bool is NONZERO's (zero_test_of)."""
    named = functions_named(ZERO_TESTS, (torch, torch.special, torch.Tensor))
    return {f: ZERO_TESTS[name] for f, name in named.items()}


def product_functions(torch):
    """torch's functions, torch.linalg's, torch.nn.functional's and Tensor
    methods of PRODUCTS."""
    return set(functions_named(PRODUCTS, (torch, torch.linalg, torch.nn.functional, torch.Tensor)))


def zero_test_of(torch, tests, func, args, kwargs):
    """func's test of ZERO_TESTS and the positions in args of the float
    tensors it tests, or (None, [])."""
    casts = func in (torch.Tensor.to, torch.Tensor.type) and (
        torch.bool in args or kwargs.get("dtype") is torch.bool)
    test = NONZERO if casts else tests.get(func)
    if test is None:
        return None, []
    return test, [i for i, a in enumerate(args[:2]) if isinstance(a, torch.Tensor) and a.is_floating_point()]


def record_zero_tests(torch, truths):
    """A torch function mode for the eager run: appends to truths, call by
    call, what each test of ZERO_TESTS saw of its operands (what the nudged
    run turns the other way)."""
    tests = zero_test_functions(torch)

    class RecordZeroTests(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            test, operands = zero_test_of(torch, tests, func, args, kwargs)
            if operands:
                truths.append({i: test.record(args[i].detach()) for i in operands})
            return func(*args, **kwargs)

    return RecordZeroTests()


def own_magnitude(torch, t):
    """The largest finite |value| of t."""
    with torch.no_grad():
        return float(t.detach().abs().nan_to_num(0.0, 0.0, 0.0).amax()) if t.numel() else 0.0


def magnitude(torch, t):
    """The largest finite |value| t was computed from: the attribute the
    nudged run keeps, else its own values' (an input, a parameter, a value
    made from no float)."""
    kept = getattr(t, SCALE, None)
    if kept is not None:
        return kept
    own = own_magnitude(torch, t)
    setattr(t, SCALE, own)
    return own


def result_magnitude(torch, scales, product, t):
    """The magnitude a call's float result t keeps: the largest of its
    operands' (scales) and its own, or for a product (PRODUCTS) of two
    operands the two largest multiplied."""
    largest = sorted(scales)[-2:]
    made_from = largest[0] * largest[1] if product and len(largest) == 2 else largest[-1]
    return max(made_from, own_magnitude(torch, t), getattr(t, SCALE, 0.0))


def flip_rounded_zero_tests(torch, truths):
    """A torch function mode for the nudged run. Every float a call makes
    keeps the largest magnitude of the floats it was made from and its own
    (SCALE; of a product, the two largest multiplied). A
    test of ZERO_TESTS of a nonzero float within ZERO_TEST_ULPS of that
    magnitude sees the value eager's test did not (truths, the eager run's
    record, call by call): for a test against zero, 0 where eager's operand
    was nonzero and the bound where it was 0; for one of sign, minus the
    bound where it was positive and the bound where it was not. There
    rounding decides the test, as it does for the mean of a layer_norm's
    output, 0 or an ulp as the summation order has it, or a log of U S V^T
    rebuilt from an svd where the matrix held an exact 0. An exact 0 in the
    nudged run stays: a relu's zeros are no rounding's."""
    tests = zero_test_functions(torch)
    products = product_functions(torch)
    calls = iter(truths)

    def flipped(test, x, eager):
        with torch.no_grad():
            bound = ZERO_TEST_ULPS * torch.finfo(x.dtype).eps * magnitude(torch, x)
            rounded = (x != 0) & (x.abs() <= bound)
            if not bool(rounded.any()):
                return x
            if eager is None or eager.shape != x.shape or eager.device != x.device:
                eager = torch.ones_like(rounded)
            return torch.where(rounded, test.other(torch, eager, x, bound), x)

    class FlipRoundedZeroTests(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            test, operands = zero_test_of(torch, tests, func, args, kwargs)
            if operands:
                eager = next(calls, {})
                args = list(args)
                for i in operands:
                    args[i] = flipped(test, args[i], eager.get(i))
            leaves = torch.utils._pytree.tree_leaves((args, kwargs))
            scales = [magnitude(torch, a) for a in leaves if isinstance(a, torch.Tensor) and a.is_floating_point()]
            out = func(*args, **kwargs)
            if scales:
                for t in torch.utils._pytree.tree_leaves(out):
                    if isinstance(t, torch.Tensor) and t.is_floating_point():
                        setattr(t, SCALE, result_magnitude(torch, scales, func in products, t))
            return out

    return FlipRoundedZeroTests()
