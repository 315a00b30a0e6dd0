"""Checks `pt2fuzz configs` (on stdin) against the torch that runs this: every
setting the catalogue says this torch has exists, has a default of the row's
type, and takes each of the row's values through config.patch (read back as
set; a dict's names are passes torch has); every global mode (mode.*) is a
bool that this torch puts in force on the CPU, as the program's modes(),
make_inputs() and run_backward() do. Prints one line per
problem and exits 1 if any."""
import sys

import torch
import torch._dynamo.config
import torch._functorch.config
import torch._inductor.config

MODULES = {"inductor": torch._inductor.config, "dynamo": torch._dynamo.config, "functorch": torch._functorch.config}
TYPES = {"bool": bool, "int": int, "float": float, "string": str, "dict": dict}
PARSE = {"bool": lambda v: {"True": True, "False": False}[v], "int": int, "float": float, "string": str,
         "dict": lambda v: {} if v == "none" else {name: {} for name in v.split("+")}}


def fusion_names(name):
    """The pass names a fusion-options dict setting may hold on this torch (None: not such a setting)."""
    from torch._inductor.fx_passes import group_batch_fusion as g

    return {"inductor.pre_grad_fusion_options": set(g.PRE_GRAD_FUSIONS),
            "inductor.post_grad_fusion_options": set(g.POST_GRAD_FUSIONS)}.get(name)


def deterministic():
    was = torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(True, warn_only=True)
    try:
        return torch.are_deterministic_algorithms_enabled() and torch.is_deterministic_algorithms_warn_only_enabled()
    finally:
        torch.use_deterministic_algorithms(was)


def enable_grad():
    with torch.no_grad(), torch.enable_grad():
        return (torch.ones(2, requires_grad=True) * 2).requires_grad


def inference_inputs():
    with torch.inference_mode():
        x = torch.ones(2)
    return x.is_inference() and not torch.is_inference_mode_enabled()


def autocast(dtype):
    def check():
        with torch.autocast("cpu", dtype=dtype):
            wide = torch.ones(2, 2, dtype=torch.float64)
            return (torch.ones(2, 2) @ torch.ones(2, 2)).dtype == dtype and (wide @ wide).dtype == torch.float64

    return check


def backward():
    x = torch.ones(2, requires_grad=True)
    torch.compile(lambda v: (v * v).sum(), backend="aot_eager")(x).backward()
    return torch.equal(x.grad, torch.full((2,), 2.0))


# Each mode: whether this torch puts it in force (autocast: the float64 run stays float64;
# backward: a compiled graph's gradients reach its leaves)
MODES = {"mode.backward": backward, "mode.deterministic_algorithms": deterministic, "mode.enable_grad": enable_grad,
         "mode.inference_inputs": inference_inputs, "mode.autocast_bfloat16": autocast(torch.bfloat16),
         "mode.autocast_float16": autocast(torch.float16)}


def check_mode(name, kind, values):
    """A problem with mode row name, or None."""
    if name not in MODES:
        return f"{name}: no check of this mode"
    if kind != "bool" or values != "False,True":
        return f"{name}: a mode is a bool off by default, not {kind} {values}"
    try:
        return None if MODES[name]() else f"{name}: not in force on torch {torch.__version__}"
    except Exception as e:
        return f"{name}: {type(e).__name__}: {e}"


def minor(version):
    major, rest = version.split(".", 1)
    return int(major) * 1000 + int(rest.split(".")[0].split("+")[0])


def in_range(spec, have):
    since, _, until = spec[len("torch>="):].partition(",<")
    return (since == "any" or have >= minor(since)) and (not until or have < minor(until))


def main():
    have = minor(torch.__version__)
    bad = checked = 0
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "clash":
            continue
        name, kind, _devices, values, versions = words[:5]
        if not in_range(versions, have):
            continue
        module, attr = name.split(".", 1)
        if module == "mode":
            problem = check_mode(name, kind, values)
            if problem:
                print(problem)
                bad += 1
            checked += 1
            continue
        cfg = MODULES[module]
        try:
            default = getattr(cfg, attr)
        except AttributeError:
            print(f"{name}: torch {torch.__version__} has no such setting ({versions})")
            bad += 1
            continue
        if type(default) is not TYPES[kind]:
            print(f"{name}: the catalogue says {kind}, torch's default is {default!r} ({type(default).__name__})")
            bad += 1
        for text in values.split(","):
            value = PARSE[kind](text)
            try:
                with cfg.patch(attr, value):
                    got = getattr(cfg, attr)
            except Exception as e:
                print(f"{name}: does not take {value!r}: {type(e).__name__}: {e}")
                bad += 1
                continue
            if got != value or type(got) is not type(value):
                print(f"{name}: set to {value!r}, reads {got!r}")
                bad += 1
            if kind == "dict" and not set(value) <= (fusion_names(name) or set()):
                print(f"{name}: {sorted(set(value) - (fusion_names(name) or set()))} are no passes of torch's")
                bad += 1
        checked += 1
    print(f"{checked} settings checked against torch {torch.__version__}, {bad} problems")
    sys.exit(1 if bad or not checked else 0)


main()
