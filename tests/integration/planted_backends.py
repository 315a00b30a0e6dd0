# Planted-bug torch.compile backends for pt2fuzz's tests: real backends that
# wrap Inductor and misbehave in one known way each. Loaded into a worker
# with `pt2fuzz run --plugin tests/integration/planted_backends.py`.
import operator
import os
import signal
import subprocess
import sys
import tempfile
import time

import torch
from torch._dynamo import register_backend
from torch._inductor.compile_fx import compile_fx


def _outputs(gm):
    """The graph's output node, and its values with their traced example values."""
    out = next(n for n in gm.graph.nodes if n.op == "output")
    vals = out.args[0] if isinstance(out.args[0], (tuple, list)) else (out.args[0],)
    return out, [(v, getattr(v, "meta", {}).get("example_value")) for v in vals]


def _float_outputs(gm):
    out, vals = _outputs(gm)
    return out, [v for v, ev in vals if isinstance(ev, torch.Tensor) and ev.is_floating_point()]


def _perturb_first_float_output(gm, by=1.0):
    """The planted bug: the first float output comes out `by` too large."""
    out, floats = _float_outputs(gm)
    if not floats:
        return gm
    target = floats[0]
    with gm.graph.inserting_before(out):
        bumped = gm.graph.call_function(torch.add, (target, by))
    out.replace_input_with(target, bumped)
    gm.recompile()
    return gm


def _has_call(gm, names):
    for n in gm.graph.nodes:
        if n.op in ("call_function", "call_method", "call_module"):
            name = getattr(n.target, "__name__", str(n.target))
            if name in names:
                return True
    return False


@register_backend
def planted_numeric(gm, example_inputs):
    return compile_fx(_perturb_first_float_output(gm), example_inputs)


@register_backend
def planted_numeric_slight(gm, example_inputs):
    """0.0017 too large: what one rounding of a mean times 1/sqrt(eps) makes
    of layer_norm over a constant (H200, torch 2.11), and a bug anywhere the
    problem does not amplify roundings that much."""
    return compile_fx(_perturb_first_float_output(gm, 0.0017), example_inputs)


@register_backend
def planted_input_ulp(gm, example_inputs):
    """Every float input one unit in its last place larger: a kernel that
    rounds an intermediate the other way, which moves an int cast of a
    value at round()'s boundary by one (the float16 conv cast to int32
    under AOTI on the H200)."""
    for node in [n for n in gm.graph.nodes if n.op == "placeholder"]:
        value = node.meta.get("example_value")
        if not isinstance(value, torch.Tensor) or not value.is_floating_point():
            continue
        with gm.graph.inserting_after(node):
            moved = gm.graph.call_function(torch.mul, (node, 1 + torch.finfo(value.dtype).eps))
        node.replace_all_uses_with(moved, delete_user_cb=lambda user: user is not moved)
    gm.recompile()
    return compile_fx(gm, example_inputs)


@register_backend
def planted_split_repeat(gm, example_inputs):
    """A call given one float value twice sees it once as it is and once an
    ulp larger: a value Inductor computes once per use, in two kernels that
    round it two ways, so that pairwise_distance(v, v) is not eager's eps."""
    for node in [n for n in gm.graph.nodes if n.op in ("call_function", "call_method")]:
        seen = set()
        for i, arg in enumerate(node.args):
            value = getattr(arg, "meta", {}).get("example_value")
            if not isinstance(value, torch.Tensor) or not value.is_floating_point():
                continue
            if arg not in seen:
                seen.add(arg)
                continue
            with gm.graph.inserting_before(node):
                moved = gm.graph.call_function(torch.mul, (arg, 1 + torch.finfo(value.dtype).eps))
            node.update_arg(i, moved)
    gm.recompile()
    return compile_fx(gm, example_inputs)


def _replace_means(gm, make):
    """Every mean node's users take make(graph, mean node) instead."""
    for node in [n for n in gm.graph.nodes if n.op in ("call_function", "call_method")]:
        if getattr(node.target, "__name__", str(node.target)) != "mean":
            continue
        users = list(node.users)
        with gm.graph.inserting_before(node.next):
            other = make(gm.graph, node)
        for user in users:
            user.replace_input_with(node, other)
    gm.recompile()
    return gm


@register_backend
def planted_small_means_zero(gm, example_inputs):
    """Every mean below 0.3 in magnitude comes out exactly 0: what a
    summation order that cancels exactly makes of the mean of a layer_norm's
    output (0 where eager's is an ulp, seen on the H200), and a bug wherever
    a mean is well away from 0."""
    def zeroed(graph, mean):
        small = graph.call_function(torch.lt, (graph.call_function(torch.abs, (mean,)), 0.3))
        return graph.call_function(torch.where, (small, 0.0, mean))
    return compile_fx(_replace_means(gm, zeroed), example_inputs)


@register_backend
def planted_means_off_by_ulp(gm, example_inputs):
    """Every mean an ulp of 1 larger: a summation order that leaves an ulp
    where eager's cancels exactly."""
    return compile_fx(_replace_means(gm, lambda graph, mean: graph.call_function(torch.add, (mean, 2.0 ** -23))),
                      example_inputs)


@register_backend
def planted_means_negated(gm, example_inputs):
    """Every mean of the other sign: a summation order that leaves minus an
    ulp where eager's leaves plus one (an svd's rebuilt 0, seen on the
    H200), and a bug wherever a mean is well away from 0."""
    return compile_fx(_replace_means(gm, lambda graph, mean: graph.call_function(torch.neg, (mean,))), example_inputs)


@register_backend
def planted_int_off_by_one(gm, example_inputs):
    """Every int output one too large: an int bug no rounding explains."""
    out, vals = _outputs(gm)
    ints = [v for v, ev in vals if isinstance(ev, torch.Tensor) and not ev.is_floating_point() and ev.dtype != torch.bool]
    for target in ints:
        with gm.graph.inserting_before(out):
            bumped = gm.graph.call_function(torch.add, (target, 1))
        out.replace_input_with(target, bumped)
    gm.recompile()
    return compile_fx(gm, example_inputs)


@register_backend
def planted_numeric_if_cumsum(gm, example_inputs):
    """Wrong only when the graph has a cumsum: the planted bug of one op."""
    if _has_call(gm, ("cumsum",)):
        gm = _perturb_first_float_output(gm)
    return compile_fx(gm, example_inputs)


@register_backend
def planted_numeric_if_cumsum_killing_reduce(gm, example_inputs):
    """planted_numeric_if_cumsum, and a reduce killed from outside midway:
    once the folder PT2FUZZ_TEST_REDUCED holds a graph.bin (the reduction
    has taken a step), SIGKILL to the process PT2FUZZ_TEST_KILL_PID."""
    if os.path.exists(os.path.join(os.environ["PT2FUZZ_TEST_REDUCED"], "graph.bin")):
        os.kill(int(os.environ["PT2FUZZ_TEST_KILL_PID"]), signal.SIGKILL)
    return planted_numeric_if_cumsum(gm, example_inputs)


# Dynamo's names for pt2fuzz's binary family (torch.add, torch.where, ...).
BINARY = {
    "add", "sub", "mul", "div", "maximum", "minimum", "pow", "atan2", "fmod", "remainder",
    "floor_divide", "hypot", "copysign", "eq", "ne", "lt", "le", "gt", "ge", "logical_and",
    "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "where", "lerp",
    "addcmul", "addcdiv",
}  # fmt: skip


@register_backend
def planted_numeric_if_binary(gm, example_inputs):
    """Wrong whenever the graph has an op of the binary family: common enough
    that a short campaign from seeds without one reaches it by mutation."""
    if _has_call(gm, BINARY):
        gm = _perturb_first_float_output(gm)
    return compile_fx(gm, example_inputs)


def _compute_nodes(gm):
    return sum(
        n.op in ("call_function", "call_method", "call_module") and n.target is not operator.getitem
        for n in gm.graph.nodes
    )


@register_backend
def planted_numeric_if_large(gm, example_inputs):
    """Wrong for graphs of 7 or more ops (getitem aside): seeds of at most 6
    ops pass, and an insert or a splice usually reaches it."""
    if _compute_nodes(gm) >= 7:
        gm = _perturb_first_float_output(gm)
    return compile_fx(gm, example_inputs)


@register_backend
def planted_numeric_slow_when_small(gm, example_inputs):
    """Wrong always, and slow to compile for graphs of fewer than 5 ops:
    $PT2FUZZ_TEST_SLOW seconds (a reduction's candidates of a 5-op graph
    then outlast its --time)."""
    if _compute_nodes(gm) < 5:
        time.sleep(float(os.environ.get("PT2FUZZ_TEST_SLOW", "0")))
    return compile_fx(_perturb_first_float_output(gm), example_inputs)


def _tile_split(gm):
    assert not gm.graph.nodes  # planted: a bare assert in one compiler function


def _fuse_check(gm):
    assert gm is None  # the same bare assert in another


@register_backend
def planted_bare_assert(gm, example_inputs):
    _tile_split(gm)


@register_backend
def planted_bare_assert_elsewhere(gm, example_inputs):
    _fuse_check(gm)


@register_backend
def planted_raise(gm, example_inputs):
    raise RuntimeError("planted compiler error: cannot lower node 42 at 0x7f00deadbeef")


def _poison_the_worker():
    """What a CUDA device-side assert does to the worker's context, on CPU:
    the worker's own check (cuda_poisoned, in its __main__) is told so, and
    the worker exits after the reply to be replaced."""
    import __main__

    __main__.cuda_poisoned = lambda torch, device: True


@register_backend
def planted_cuda_assert(gm, example_inputs):
    _poison_the_worker()

    def run(*args):
        raise RuntimeError("CUDA error: device-side assert triggered (planted)")

    return run


@register_backend
def planted_sanitizer_report(gm, example_inputs):
    """What a kernel's write out of bounds does under compute-sanitizer, on
    CPU: the tool's report on stderr, the kernel's launch failing, the
    context poisoned."""
    _poison_the_worker()

    def run(*args):
        print("========= Invalid __global__ write of size 1 bytes (planted)", file=sys.stderr, flush=True)
        raise RuntimeError("CUDA error: unspecified launch failure (planted)")

    return run


@register_backend
def planted_capture_failure(gm, example_inputs):
    """A CUDA graph capture that fails, on CPU: only the message says so."""

    def run(*args):
        raise RuntimeError("Cannot copy between CPU and CUDA tensors during CUDA graph capture (planted)")

    return run


@register_backend
def planted_segv(gm, example_inputs):
    os.kill(os.getpid(), signal.SIGSEGV)


@register_backend
def planted_abort(gm, example_inputs):
    os.abort()


@register_backend
def planted_hang(gm, example_inputs):
    time.sleep(3600)


def _plausible_zeros(gm):
    """Zeros shaped like the graph's outputs as traced (symbolic dims as 1)."""

    def zeros(ev):
        shape = [s if isinstance(s, int) else 1 for s in ev.shape]
        return torch.zeros(shape, dtype=ev.dtype, device=ev.device)

    return tuple(zeros(ev) if isinstance(ev, torch.Tensor) else None for _, ev in _outputs(gm)[1])


@register_backend
def planted_swallow(gm, example_inputs):
    """Swallows run-time errors: where the graph raises, it returns zeros of
    the outputs' traced shapes instead (a missing-error for near-invalid graphs
    whose error shows only at run time, such as an index out of range)."""
    zeros = _plausible_zeros(gm)

    def run(*args):
        try:
            return gm(*args)
        except Exception:
            return zeros

    return run


@register_backend
def planted_error_type(gm, example_inputs):
    """Raises another exception type than the graph's own error (an error-mismatch)."""

    def run(*args):
        try:
            return gm(*args)
        except Exception as e:
            raise TypeError(f"planted: {type(e).__name__} became a TypeError") from None

    return run


@register_backend
def planted_slow(gm, example_inputs):
    """Not a bug: Inductor, made slow on demand for fault injection
    (tests/integration/faults.sh). While $PT2FUZZ_SLOW_DIR/slow exists, each
    compile first sleeps the seconds it holds, and the worker's pid is a file
    in that directory meanwhile: a worker known to be mid-request."""
    knob = os.environ.get("PT2FUZZ_SLOW_DIR", "")
    try:
        with open(os.path.join(knob, "slow")) as f:
            secs = float(f.read())
    except (OSError, ValueError):
        secs = 0
    if secs > 0:
        mark = os.path.join(knob, str(os.getpid()))
        open(mark, "w").close()
        try:
            time.sleep(secs)
        finally:
            os.unlink(mark)
    return compile_fx(gm, example_inputs)


@register_backend
def planted_temporaries_then_hang(gm, example_inputs):
    """Not a bug: a compile that leaves temporary files, its own (tempfile's)
    and a child's ($TMPDIR's, as a C++ compiler's), then hangs until the
    executor kills it (tests/integration/test_worker_scratch.sh)."""
    fd, _ = tempfile.mkstemp(suffix=".ptx")
    os.close(fd)
    subprocess.run(["sh", "-c", 'echo kernel > "${TMPDIR:-/tmp}/planted-child.s"'], check=True)
    time.sleep(600)
    return gm.forward


@register_backend
def planted_busy_child(gm, example_inputs):
    """Not a bug: a compile that leaves a child writing into $TMPDIR (the
    worker's folder) until it is killed, as a compile subprocess may, writes
    the worker's pid to $PT2FUZZ_MARK, then takes $PT2FUZZ_COMPILE_SECS
    seconds (tests/integration/test_worker_scratch.sh)."""
    writer = "import itertools, os, time\nfor i in itertools.count():\n    open(os.path.join(os.environ['TMPDIR'], f'busy.{i}'), 'w').close()\n    time.sleep(0.01)"
    subprocess.Popen([sys.executable, "-c", writer], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    with open(os.environ["PT2FUZZ_MARK"], "w") as f:
        f.write(f"{os.getpid()}\n")
    time.sleep(float(os.environ.get("PT2FUZZ_COMPILE_SECS", "0")))
    return gm.forward


@register_backend
def planted_slow_compile(gm, example_inputs):
    """Not a bug: a compile that takes $PT2FUZZ_COMPILE_SECS seconds, then
    runs the graph as traced (tests/integration/test_slow_compile.sh)."""
    time.sleep(float(os.environ.get("PT2FUZZ_COMPILE_SECS", "0")))
    return gm.forward


@register_backend
def planted_drop_writes(gm, example_inputs):
    """Runs the compiled graph on copies of its arguments: in-place writes
    to graph inputs, parameters and buffers never reach the caller's tensors."""
    compiled = compile_fx(gm, example_inputs)

    def run(*args):
        return compiled(*[a.clone() if isinstance(a, torch.Tensor) else a for a in args])

    return run


def _storage(t):
    return t.untyped_storage().data_ptr()


def _replace_first_output(compiled, change):
    """The compiled graph, its first tensor output that change(output,
    arguments) gives a replacement for replaced by it."""

    def run(*args):
        outs = list(compiled(*args))
        for k, o in enumerate(outs):
            new = change(o, args) if isinstance(o, torch.Tensor) else None
            if new is not None:
                outs[k] = new
                break
        return outs

    return run


def _into_argument(o, args):
    """o's values written into an argument's memory and returned from there,
    where o shares no argument's: an output that aliases an input only in
    compiled mode (a buffer reuse that hands the input back)."""
    if any(isinstance(a, torch.Tensor) and _storage(a) == _storage(o) for a in args):
        return None
    for a in args:
        if (isinstance(a, torch.Tensor) and not isinstance(a, torch.nn.Parameter) and a.is_contiguous()
                and a.dtype == o.dtype and a.device == o.device and a.numel() == o.numel()):
            a.view(-1).copy_(o.reshape(-1))
            return a.view(o.shape)
    return None


def _copied(o, args):
    """A copy of o where it shares an argument's memory: an output that
    aliases an input in eager and not in compiled mode."""
    if any(isinstance(a, torch.Tensor) and _storage(a) == _storage(o) for a in args):
        return o.clone()
    return None


@register_backend
def planted_alias_input(gm, example_inputs):
    """The first fresh output comes back in an input's memory (same values)."""
    return _replace_first_output(compile_fx(gm, example_inputs), _into_argument)


@register_backend
def planted_alias_copy(gm, example_inputs):
    """The first output that views an input comes back as a copy (same values)."""
    return _replace_first_output(compile_fx(gm, example_inputs), _copied)


def _sharing(args):
    """The pairs (i, j), i < j, of tensor arguments that share memory."""
    ptrs = [_storage(a) if isinstance(a, torch.Tensor) and a.numel() else None for a in args]
    return {(i, j) for j in range(len(ptrs)) for i in range(j) if ptrs[i] is not None and ptrs[i] == ptrs[j]}


@register_backend
def planted_alias_first_call(gm, example_inputs):
    """Runs the graph as it is, specialized on its first call's aliasing: a later call whose
    arguments share memory where the first call's did not runs on copies of the later sharers,
    so that writes through them miss the memory they share (a missing aliasing guard)."""
    first = []

    def run(*args):
        shared = _sharing(args)
        first.append(first[0] if first else shared)
        late = {j for _, j in shared - first[0]}
        return gm(*[a.clone() if k in late else a for k, a in enumerate(args)])

    return run


def _pnorm_p(gm):
    """The p of the graph's pairwise distance, or None."""
    for n in gm.graph.nodes:
        if n.op == "call_function" and getattr(n.target, "__name__", "") == "pairwise_distance":
            return n.args[2] if len(n.args) > 2 else n.kwargs.get("p", 2.0)
    return None


@register_backend
def planted_numeric_pnorm(gm, example_inputs):
    """1% too large a pairwise distance for p > 0: the planted bug of the
    p-norm path, one that halving p toward 0 keeps while making eager's own
    result ill-conditioned (values of 1e31 at p = 0.06)."""
    p = _pnorm_p(gm)
    if p is not None and p > 0:
        out, floats = _float_outputs(gm)
        if floats:
            with gm.graph.inserting_before(out):
                scaled = gm.graph.call_function(torch.mul, (floats[0], 1.01))
            out.replace_input_with(floats[0], scaled)
            gm.recompile()
    return compile_fx(gm, example_inputs)


def _producer_name(v):
    return getattr(v.target, "__name__", str(v.target)) if getattr(v, "op", "") == "call_function" else ""


@register_backend
def planted_cumsum_cumprod_outputs(gm, example_inputs):
    """Two bugs of two ops at once: every float output that a cumsum or a
    cumprod computes comes out 1 too large, the others right."""
    out, floats = _float_outputs(gm)
    bumped = [v for v in floats if _producer_name(v) in ("cumsum", "cumprod")]
    with gm.graph.inserting_before(out):
        for v in bumped:
            out.replace_input_with(v, gm.graph.call_function(torch.add, (v, 1.0)))
    gm.recompile()
    return compile_fx(gm, example_inputs)


@register_backend
def planted_raise_if_cummax_else_cumsum_outputs(gm, example_inputs):
    """A compile error whenever the graph has a cummax (a bug that stops the
    whole compile), and cumsum outputs 1 too large (a bug beside it)."""
    if _has_call(gm, ("cummax",)):
        raise RuntimeError("planted: cummax does not lower")
    out, floats = _float_outputs(gm)
    with gm.graph.inserting_before(out):
        for v in [v for v in floats if _producer_name(v) == "cumsum"]:
            out.replace_input_with(v, gm.graph.call_function(torch.add, (v, 1.0)))
    gm.recompile()
    return compile_fx(gm, example_inputs)


@register_backend
def planted_shifted_draws(gm, example_inputs):
    """Compiled code draws one number before the graph's own draws, so each
    of them differs from eager's: what a reordering of the draws does."""
    compiled = compile_fx(gm, example_inputs)

    def run(*args):
        torch.rand(1)
        return compiled(*args)

    return run


def _break_op(gm, example_inputs, wrong_fn, only=lambda ev: True):
    """Every call whose name is $PT2FUZZ_PLANTED_OP (as Dynamo traced it) and
    whose value only() accepts returns wrong_fn(value) instead."""
    name = os.environ["PT2FUZZ_PLANTED_OP"]
    for n in list(gm.graph.nodes):
        ev = n.meta.get("example_value") if n.op == "call_function" else None
        if getattr(n.target, "__name__", "") != name or not isinstance(ev, torch.Tensor) or not only(ev):
            continue
        with gm.graph.inserting_after(n):
            wrong = gm.graph.call_function(wrong_fn, (n,))
        n.replace_all_uses_with(wrong, delete_user_cb=lambda user: user is not wrong)
    gm.recompile()
    return compile_fx(gm, example_inputs)


def _plus_one(x):
    return torch.logical_not(x) if x.dtype == torch.bool else x + 1


def _swap_parts(x):
    return torch.view_as_complex(torch.view_as_real(x.resolve_conj()).flip(-1).contiguous())


@register_backend
def planted_wrong_op(gm, example_inputs):
    """One op's kernel is wrong: it returns its value plus one, or negated when bool."""
    return _break_op(gm, example_inputs, _plus_one)


@register_backend
def planted_conj_op(gm, example_inputs):
    """One op's complex kernel returns the conjugate of its value."""
    return _break_op(gm, example_inputs, torch.conj_physical, only=lambda ev: ev.is_complex())


@register_backend
def planted_swap_parts_op(gm, example_inputs):
    """One op's complex kernel swaps the real and imaginary parts of its value."""
    return _break_op(gm, example_inputs, _swap_parts, only=lambda ev: ev.is_complex())


def _rewrite_float_constants(gm, change):
    """Every Python float argument c of a call in the traced graph becomes
    change(c): what a compiler's constant handling may do wrong."""
    def fix(a):
        if isinstance(a, float):
            return change(a)
        if isinstance(a, (tuple, list)):
            return type(a)(fix(x) for x in a)
        return a

    for n in gm.graph.nodes:
        if n.op in ("call_function", "call_method"):
            n.args = fix(n.args)
            n.kwargs = {k: fix(v) for k, v in n.kwargs.items()}
    gm.recompile()
    return gm


@register_backend
def planted_positive_zero(gm, example_inputs):
    """-0.0 constants become 0.0 (a sign lost in constant folding): 1 / (x * -0.0)
    gives inf where eager says -inf."""
    return compile_fx(_rewrite_float_constants(gm, lambda c: 0.0 if c == 0 else c), example_inputs)


@register_backend
def planted_small_to_zero(gm, example_inputs):
    """Constants below 1e-4 in magnitude become 0.0 (an epsilon lost to a
    fixed-point or half-precision constant): x / (x * 0 + 1e-06) divides by 0."""
    return compile_fx(_rewrite_float_constants(gm, lambda c: 0.0 if 0 < abs(c) < 1e-4 else c), example_inputs)


_FIRST_COMPILE = {}


def _is_float_arg(a):
    """A Python float Dynamo passes in: a float, or a 0-dim float tensor (how a SymFloat reaches the
    graph). Ints are left alone: sizes come in as ints too."""
    return isinstance(a, float) or (isinstance(a, torch.Tensor) and a.dim() == 0 and a.is_floating_point())


@register_backend
def planted_first_scalar(gm, example_inputs):
    """Bakes the first call's Python floats into the compiled graph and ignores later ones: a
    float passed in keeps the value the first call gave it, and a graph recompiled for a new
    specialized float (its guard failed) runs the first compile's graph, constant and all."""
    key = tuple((n.op, str(n.target)) for n in gm.graph.nodes)
    if key in _FIRST_COMPILE:
        return _FIRST_COMPILE[key]
    _FIRST_COMPILE.clear()  # another graph: the test's graphs one at a time
    baked = {}

    def run(*args):
        if not baked:
            baked.update((i, a) for i, a in enumerate(args) if _is_float_arg(a))
        return gm(*[baked.get(i, a) for i, a in enumerate(args)])

    _FIRST_COMPILE[key] = run
    return run


@register_backend
def planted_cache_by_identity(gm, example_inputs):
    """Returns the first result again for the same input tensors (by id()), whatever their values
    have become since: an input changed in place between calls is not seen."""
    cache = {}

    def run(*args):
        key = tuple(id(a) for a in args if isinstance(a, torch.Tensor))
        if key not in cache:
            cache[key] = gm(*args)
        return cache[key]

    return run


# Fill values held in 0-dim tensors: a compile that bakes the first value it
# sees of each (as a constant would be) and ignores the values of later calls
# and later bindings. Kept across recompiles (a new binding's sizes), by the
# placeholder's name, as a cache of constants would be.
_BAKED_FILLS = {}


@register_backend
def planted_baked_fill(gm, example_inputs):
    names = [n.name for n in gm.graph.nodes if n.op == "placeholder"]
    compiled = compile_fx(gm, example_inputs)

    def run(*args):
        args = list(args)
        for i, (name, a) in enumerate(zip(names, args)):
            if isinstance(a, torch.Tensor) and a.dim() == 0 and a.is_floating_point():
                args[i] = _BAKED_FILLS.setdefault(name, a.detach().clone())
        return compiled(*args)

    return run


# Mixed devices: a compile that moves a value to the CPU wrongly (one more
# than it is) wherever the graph calls x.cpu() or x.to("cpu") on a float
# value. On a CPU run those calls move nothing, but Dynamo keeps them, so the
# same backend is caught there and on CUDA.
def _to_cpu(n):
    if n.op != "call_method":
        return False
    if n.target == "cpu":
        return True
    return n.target == "to" and any(str(a) == "cpu" for a in list(n.args[1:]) + list(n.kwargs.values()))


@register_backend
def planted_wrong_transfer(gm, example_inputs):
    for n in list(gm.graph.nodes):
        ev = n.meta.get("example_value")
        if _to_cpu(n) and isinstance(ev, torch.Tensor) and ev.is_floating_point():
            with gm.graph.inserting_after(n):
                bumped = gm.graph.call_function(torch.add, (n, 1.0))
            n.replace_all_uses_with(bumped, delete_user_cb=lambda user: user is not bumped)
    gm.recompile()
    return compile_fx(gm, example_inputs)
