# Planted-bug backends for in-place writes and dtype views
# (tests/integration/test_overlap_inplace.sh): Inductor, wrong in one way each.
import torch
from torch._dynamo import register_backend
from torch._inductor.compile_fx import compile_fx


@register_backend
def planted_overlap_swallow(gm, example_inputs):
    """Inductor. Loading this file plants the bug: compile-time checks find no
    elements sharing memory, so a write into an expanded view compiles and
    runs where eager raises (a missing-error). Only this file's runs load it."""
    return compile_fx(gm, example_inputs)


def _no_internal_overlap(t):
    return 0  # MemOverlap::No


torch._debug_has_internal_overlap = _no_internal_overlap


def _rewrite(gm, match, replace):
    """Each call_method node that match(node) accepts becomes replace(node)'s
    (name, args); the graph recompiled."""
    for n in list(gm.graph.nodes):
        if n.op == "call_method" and match(n):
            n.target, n.args = replace(n)
    gm.recompile()
    return gm


@register_backend
def planted_dtype_view_casts(gm, example_inputs):
    """x.view(dtype) of a float tensor compiled as x.to(dtype): a value cast
    where eager reads the bits (a numeric finding on the view's values)."""
    view_dtype = lambda n: n.target == "view" and len(n.args) == 2 and isinstance(n.args[1], torch.dtype)  # noqa: E731
    return compile_fx(_rewrite(gm, view_dtype, lambda n: ("to", n.args)), example_inputs)


INT_WRITES = {"add_": "add", "sub_": "sub", "mul_": "mul", "bitwise_and_": "bitwise_and", "bitwise_or_": "bitwise_or",
              "bitwise_xor_": "bitwise_xor"}  # fmt: skip


@register_backend
def planted_int_write_dropped(gm, example_inputs):
    """An in-place write into an integer tensor compiled out of place: the
    result is right, the memory written is not (a numeric finding on what
    shares it)."""

    def int_write(n):
        ev = n.meta.get("example_value")
        return n.target in INT_WRITES and isinstance(ev, torch.Tensor) and not ev.is_floating_point()

    return compile_fx(_rewrite(gm, int_write, lambda n: (INT_WRITES[n.target], n.args)), example_inputs)
