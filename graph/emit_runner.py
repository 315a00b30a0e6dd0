def make_inputs(binding=0, device=DEVICE):
    """The binding's inputs. One that shares another's memory (SHARES) is drawn all the same, so
    that the draws of the others do not depend on it. With mode.inference_inputs, inference
    tensors, but for those forward() writes in place (outside inference mode an error), in a
    backward run (an inference tensor saved for backward is an error) and where inputs share
    memory (an inference tensor is a copy) none."""
    gen = torch.Generator().manual_seed(SEED * SEED_STRIDE + binding)
    # under mode.enable_grad made in grad mode, as training makes them: a view made under no_grad
    # may not be written in place under grad mode
    inputs = []
    with torch.enable_grad() if CONFIG.get("mode.enable_grad") else contextlib.nullcontext():
        for k, spec in enumerate(INPUTS[binding]):
            t = lay_out(*spec, gen, device)
            inputs.append(SHARE[spec[5]](inputs[SHARES[k]]) if k in SHARES else t)
    if not CONFIG.get("mode.inference_inputs") or GRADS or SHARES:
        return inputs
    return [x if i in MUTATED or not isinstance(x, torch.Tensor) else as_inference(x) for i, x in enumerate(inputs)]


def judged_inputs(binding=0, device=DEVICE, call=None):
    """The binding's inputs as each mode's judged call gets them. Compiled mode's calls before it go
    through call: where inputs share memory (SHARES), one on copies of their own, which leaves the
    inputs as they are; where an input changes between calls (REMUTATE), one on the inputs
    themselves, after which that input gets fresh values of its fill in place, outside forward()
    (its version counter moves; cudagraphs' copies and cached constants must follow). Every mode's
    judged call sees those changed values."""
    inputs = make_inputs(binding, device)
    if call and SHARES:
        call([x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])
    if call and REMUTATE is not None:
        call(inputs)
    if REMUTATE is not None:
        shape, dtype, kind, lo, hi, _ = INPUTS[binding][REMUTATE]
        gen = torch.Generator().manual_seed(SEED * SEED_STRIDE + binding + REMUTATE_DRAW)
        with torch.no_grad():
            inputs[REMUTATE].copy_(fill(shape, dtype, kind, lo, hi, gen))
    return inputs


AUTOCAST = {"mode.autocast_bfloat16": torch.bfloat16, "mode.autocast_float16": torch.float16}


@contextlib.contextmanager
def modes(model, inputs):
    """CONFIG's global modes around one run of forward(), eager, compiled or float64 alike:
    deterministic algorithms (warn_only: an op without a deterministic kernel warns, in every
    mode), grad mode on, autocast on the device of the run's tensors (the float64 run's are not
    eligible: it stays the exact math). Each is as it was afterwards."""
    stack = contextlib.ExitStack()
    with stack:
        if CONFIG.get("mode.deterministic_algorithms"):
            was = torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled()
            torch.use_deterministic_algorithms(True, warn_only=True)
            stack.callback(lambda: torch.use_deterministic_algorithms(was[0], warn_only=was[1]))
        if CONFIG.get("mode.enable_grad"):
            # a parameter forward() writes in place, or eager cannot differentiate where it goes,
            # does not require grad (either is an error in eager)
            for name in MUTATED + NOT_DIFFERENTIABLE:
                t = getattr(model, name) if isinstance(name, str) and name not in GRADS else None
                if isinstance(t, torch.nn.Parameter):
                    t.requires_grad_(False)
            stack.enter_context(torch.enable_grad())
        dtype = next((dt for name, dt in AUTOCAST.items() if CONFIG.get(name)), None)
        if dtype is not None:
            state = list(model.parameters()) + list(model.buffers()) if isinstance(model, torch.nn.Module) else []
            tensors = [x for x in inputs if isinstance(x, torch.Tensor)] + state
            stack.enter_context(torch.autocast(tensors[0].device.type if tensors else "cpu", dtype=dtype))
        yield


def mark_dynamic(inputs):
    if BACKEND == "aoti" or COMPILE_DYNAMIC != "marks":  # aoti: export's dynamic_shapes; marks would change its choices
        return inputs
    for i, dims in DYNAMIC.items():
        for d in dims:
            torch._dynamo.maybe_mark_dynamic(inputs[i], d)
    return inputs


STATE = {}


def restore_state(model):
    """A forward() that writes parameters or buffers in place: every run starts from the state the
    module had before its first run (a compiled module shares its module's state)."""
    owner = getattr(model, "_orig_mod", model)
    state = owner.state_dict(keep_vars=True)
    saved = STATE.setdefault(id(owner), {k: t.detach().clone() for k, t in state.items()})
    with torch.no_grad():
        for k, t in state.items():
            t.copy_(saved[k])


def run(model, inputs):
    """forward()'s outputs, then the leaves it wrote in place (MUTATED)."""
    torch.manual_seed(SEED)
    if any(isinstance(m, str) for m in MUTATED):
        restore_state(model)
    with modes(model, inputs):
        out = model(*inputs)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    return outs + [inputs[m] if isinstance(m, int) else getattr(model, m) for m in MUTATED]


def grad_leaves(model, inputs):
    """The tensors backward mode differentiates: GRADS' inputs and parameters, and no others."""
    for p in model.parameters():
        p.requires_grad_(False)
    leaves = [inputs[g] if isinstance(g, int) else getattr(model, g) for g in GRADS]
    for t in leaves:
        t.requires_grad_(True)
    return leaves


def upstream(k, out):
    """Output k's seeded upstream gradient: drawn in float64 on the CPU, then cast, so every mode gets the same values."""
    gen = torch.Generator().manual_seed(SEED * SEED_STRIDE + 7919 * (k + 1))
    return torch.randn(out.shape, generator=gen, dtype=torch.float64).to(out.dtype).to(out.device)


def real_parts(o):
    """A complex output as its (real, imaginary) pairs, so that its loss term is real."""
    return torch.view_as_real(o.resolve_conj()) if o.is_complex() else o


def run_backward(model, inputs):
    """Forward, then the gradients of sum((out * upstream).sum()) over the outputs that require grad,
    with respect to grad_leaves (zeros where one is unused): the outputs, then the gradients."""
    leaves = grad_leaves(model, inputs)
    with torch.enable_grad():
        outs = run(model, inputs)
        graded = [(k, real_parts(o)) for k, o in enumerate(outs) if isinstance(o, torch.Tensor) and o.requires_grad]
        terms = [(o * upstream(k, o)).sum() for k, o in graded]
        grads = torch.autograd.grad(sum(terms), leaves, allow_unused=True) if terms and leaves else [None] * len(leaves)
    return outs + [torch.zeros_like(t) if g is None else g for t, g in zip(leaves, grads)]


def to_fp64(x):
    if not isinstance(x, torch.Tensor):  # a Python number stays one
        return x
    if x.is_complex():
        return x.to(torch.complex128)
    return x.to(torch.float64) if x.is_floating_point() else x


def inputs_to_fp64(inputs):
    """to_fp64 of each input, those that share memory (SHARES) sharing their copy's."""
    out = []
    for k, x in enumerate(inputs):
        out.append(SHARE[INPUTS[0][k][5]](out[SHARES[k]]) if k in SHARES else to_fp64(x))
    return out


def max_abs_diff(a, b):
    try:
        return (a.double() - b.double()).abs().nan_to_num(float("inf")).max().item()
    except Exception:
        return float("nan")


def nonfinite_flips(e, c, r):
    """Positions where compiled's NaN/Inf class differs from eager's, eager's being the float64
    run's, as the oracle judges them: same(equal_nan=True) takes a compiled NaN for eager's inf
    (nonfinite(): graph/emit_nonfinite.py, pasted before this file)."""
    if not (isinstance(r, torch.Tensor) and (e.is_floating_point() or e.is_complex())):
        return 0
    ce = nonfinite(e)
    return int(((ce == nonfinite(r)) & (ce != nonfinite(c))).sum())


def exact_differs(e, c, r):
    """Int and bool positions where compiled differs from eager, as the oracle judges them: none
    where the float64 run differs from eager (rounding decides there) or agrees with compiled, and
    none at all unless more than the positions rounding decides."""
    differs = e != c
    if not (isinstance(r, torch.Tensor) and (r.shape, r.dtype) == (e.shape, e.dtype)):
        return int(differs.sum())
    decided = r.to(e.device) != e
    bad = int((differs & ~decided).sum())
    return bad if bad > int(decided.sum()) else 0


def first_line(e):
    return str(e).strip().splitlines()[0] if str(e).strip() else ""


def check_error(model, compiled, b):
    """EXPECT_ERROR: eager must raise, and compiled mode an error of the same type."""
    try:
        run(model, make_inputs(b))
    except Exception as e:
        expected = e
    else:
        print(f"INVALID binding {b}: eager did not raise ({EXPECT_ERROR} is not broken)")
        return 2
    try:
        run(compiled, mark_dynamic(make_inputs(b)))
    except Exception as e:
        if isinstance(e, type(expected)):
            return 0
        print(f"MISMATCH error-mismatch binding {b}: eager raised {type(expected).__name__}, "
              f"compiled {type(e).__name__}: {first_line(e)}")
        return 1
    print(f"MISMATCH missing-error binding {b}: eager raised {type(expected).__name__}: "
          f"{first_line(expected)}; compiled returned")
    return 1


class ExportFailed(Exception):
    """torch.export rejected a program that eager runs (BACKEND aoti)."""


def aoti_package(model, inputs):
    """torch.export (DYNAMIC dims as Dim.AUTO), AOTInductor's package, its loader; and
    whether export kept those dims dynamic (else the package fits these shapes only)."""
    import tempfile

    dims = tuple({d: torch.export.Dim.AUTO for d in DYNAMIC.get(i, ())} or None for i in range(len(inputs)))
    try:
        exported = torch.export.export(model, tuple(inputs), dynamic_shapes=dims if DYNAMIC else None)
    except Exception as e:
        raise ExportFailed(f"{type(e).__name__}: {first_line(e)}") from e
    user = set(exported.graph_signature.user_inputs)
    vals = [n.meta["val"] for n in exported.graph.nodes if n.op == "placeholder" and n.name in user]
    concrete = torch.fx.experimental.symbolic_shapes.is_concrete_int
    kept = not any(concrete(vals[i].shape[d]) for i, ds in DYNAMIC.items() for d in ds)
    path = os.path.join(tempfile.mkdtemp(), "model.pt2")
    package = torch._inductor.aoti_compile_and_package(exported, package_path=path)
    return torch._inductor.aoti_load_package(package), kept


def compile_model(model):
    """torch.compile; with BACKEND aoti, an AOTInductor package built at the first call (one
    per input shapes where export specialized a dynamic dim), as pt2fuzz's worker does."""
    if BACKEND != "aoti":
        dynamic = {"true": True, "false": False}.get(COMPILE_DYNAMIC)
        return torch.compile(model, backend=BACKEND, mode=MODE, dynamic=dynamic, fullgraph=FULLGRAPH)
    packages = {}

    def run_package(*inputs):
        key = None if None in packages else tuple(x.shape for x in inputs)
        if key not in packages:
            packages[key], kept = aoti_package(model, inputs)
            packages[None if kept else key] = packages[key]
        return packages[key](*inputs)

    return run_package


# same()'s tolerance; without a float64 reference, allclose at 10 x it, as the oracle judges
TOL = 1e-4


def main():
    import torch._dynamo.utils
    import torch._functorch.config
    import torch._inductor.config

    torch._inductor.config.fallback_random = True
    torch.backends.cudnn.allow_tf32 = False  # float32 convolutions in float32, as the fuzzer runs them
    if LOW_PRECISION:
        torch._inductor.config.emulate_precision_casts = True
    torch._dynamo.config.capture_dynamic_output_shape_ops = DATA_DEPENDENT
    torch._dynamo.config.capture_scalar_outputs = DATA_DEPENDENT
    modules = {"inductor": torch._inductor.config, "dynamo": torch._dynamo.config, "functorch": torch._functorch.config}
    for name, value in CONFIG.items():
        module, attr = name.split(".", 1)
        if module != "mode":  # the modes are run()'s
            setattr(modules[module], attr, value)
    torch.set_grad_enabled(False)
    model = Model().eval().to(DEVICE)
    fp64_model = copy.deepcopy(model).to(torch.float64)
    compiled = compile_model(model)
    forward = run_backward if GRADS else run
    for b in range(BINDINGS):
        if EXPECT_ERROR:
            rc = check_error(model, compiled, b)
            if rc:
                return rc
            continue
        eager = forward(model, judged_inputs(b))
        try:
            got = forward(compiled, mark_dynamic(judged_inputs(b, DEVICE, lambda xs: forward(compiled, mark_dynamic(xs)))))
        except ExportFailed as e:
            print(f"MISMATCH export binding {b}: {e}")
            return 1
        except Exception as e:
            print(f"MISMATCH behaviour binding {b}: {type(e).__name__}: {first_line(e)}")
            return 1
        inputs = inputs_to_fp64(judged_inputs(b))  # made outside Upcast: they keep eager's roundings
        try:
            with Upcast():
                ref = forward(fp64_model, inputs)
        except Exception as e:  # a float32 tensor the upcast left meets a float64 one: no reference
            print(f"binding {b}: the float64 run raised {type(e).__name__}: {first_line(e)}; judged without it")
            ref = [None] * len(eager)
        nout, nfwd = len(eager) - len(GRADS) - len(MUTATED), len(eager) - len(GRADS)
        for i, (e, c, r) in enumerate(zip(eager, got, ref)):
            # same() broadcasts: a shape or dtype that differs is a mismatch of its own
            differs = isinstance(e, torch.Tensor) and (
                not isinstance(c, torch.Tensor) or (e.shape, e.dtype) != (c.shape, c.dtype))
            exact = isinstance(e, torch.Tensor) and not (e.is_floating_point() or e.is_complex())
            agrees = not differs and (not exact_differs(e, c, r) if exact else torch._dynamo.utils.same(
                e, c, fp64_ref=r, equal_nan=True, tol=TOL if r is not None else 10 * TOL))
            flips = nonfinite_flips(e, c, r) if agrees and isinstance(e, torch.Tensor) else 0
            if COMPARE[i] and (not agrees or flips):
                where = (f"output {i}" if i < nout else f"written leaf {MUTATED[i - nout]}" if i < nfwd
                         else f"backward gradient of {GRADS[i - nfwd]}")
                how = (f"eager {e.dtype} {list(e.shape)}, compiled {getattr(c, 'dtype', type(c).__name__)} "
                       f"{list(getattr(c, 'shape', []))}" if differs
                       else f"NaN/Inf at {flips} positions where eager and float64 agree" if flips
                       else f"max abs diff {max_abs_diff(e, c)}")
                print(f"MISMATCH numeric binding {b} {where}: {how}")
                return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
