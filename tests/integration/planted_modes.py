# Planted-bug torch.compile backends for pt2fuzz's global-mode tests: Inductor
# that goes wrong under one global mode each, and is right without it. Loaded
# with `pt2fuzz run --plugin tests/integration/planted_modes.py`.
import torch
from torch._dynamo import register_backend
from torch._inductor.compile_fx import compile_fx


def _first_float_plus_one(gm):
    out = next(n for n in gm.graph.nodes if n.op == "output")
    vals = out.args[0] if isinstance(out.args[0], (tuple, list)) else (out.args[0],)
    for v in vals:
        ev = getattr(v, "meta", {}).get("example_value")
        if isinstance(ev, torch.Tensor) and ev.is_floating_point():
            with gm.graph.inserting_before(out):
                bumped = gm.graph.call_function(torch.add, (v, 1.0))
            out.replace_input_with(v, bumped)
            gm.recompile()
            break
    return gm


def _wrong_when(active):
    """A backend whose first float output is 1 too large when active(example_inputs) holds at
    compile time (Dynamo guards on the global modes, so also at the call)."""

    def backend(gm, example_inputs):
        return compile_fx(_first_float_plus_one(gm) if active(example_inputs) else gm, example_inputs)

    return backend


register_backend(_wrong_when(lambda _: torch.are_deterministic_algorithms_enabled()),
                 name="planted_wrong_deterministic")
register_backend(_wrong_when(lambda _: torch.is_grad_enabled()), name="planted_wrong_grad")
register_backend(_wrong_when(lambda xs: any(isinstance(x, torch.Tensor) and x.is_inference() for x in xs)),
                 name="planted_wrong_inference")


@register_backend
def planted_ignores_autocast(gm, example_inputs):
    """Compiles and runs the graph with autocast off: float32 where eager computes in bfloat16."""
    device = next((x.device.type for x in example_inputs if isinstance(x, torch.Tensor)), "cpu")
    with torch.autocast(device, enabled=False):
        compiled = compile_fx(gm, example_inputs)

    def run(*args):
        with torch.autocast(device, enabled=False):
            return compiled(*args)

    return run
