# Planted bugs inside the real torch.compile stack, one layer at a time, for
# testing reduction, bisection and triage. Loaded with `--plugin`; the layer
# comes from the environment variable PT2FUZZ_PLANT. Every one fires only
# when the graph has a cumsum, so a reducer must keep the cumsum.
#   dynamo          Dynamo's graph is changed before any backend sees it
#   decompositions  a wrong decomposition of aten.cumsum (Inductor's table,
#                   which aot_eager_decomp_partition uses too)
#   inductor        a post-grad pass adds 1 to every float cumsum
#   inductor-raise  a post-grad pass raises when it sees a cumsum
import os

import torch
import torch._dynamo.output_graph
import torch._inductor.config
import torch._inductor.decomposition

aten = torch.ops.aten
PLANT = os.environ.get("PT2FUZZ_PLANT", "")


def _float_cumsums(graph):
    return [
        n
        for n in graph.nodes
        if n.op == "call_function"
        and n.target is aten.cumsum.default
        and isinstance(n.meta.get("val"), torch.Tensor)
        and n.meta["val"].is_floating_point()
    ]


def post_grad_off_by_one(graph):
    for n in _float_cumsums(graph):
        with graph.inserting_after(n):
            bumped = graph.call_function(aten.add.Tensor, (n, 1.0))
        n.replace_all_uses_with(bumped, delete_user_cb=lambda user: user is not bumped)


def post_grad_raise(graph):
    if any(n.op == "call_function" and n.target is aten.cumsum.default for n in graph.nodes):
        raise RuntimeError("planted lowering error: cumsum node 7 at 0x7f00deadbeef")


def wrong_cumsum(x, dim, dtype=None):
    """Wrong even over a dim of size 1 (cumprod alone would agree there)."""
    if not x.is_floating_point() or dtype is not None:
        return NotImplemented
    return aten.add.Tensor(aten.cumprod.default(x, dim), 1.0)


if PLANT == "dynamo":
    call_user_compiler = torch._dynamo.output_graph.OutputGraph.call_user_compiler

    def call_user_compiler_off_by_one(self, gm, *args, **kwargs):
        for n in gm.graph.nodes:
            ev = n.meta.get("example_value")
            if getattr(n.target, "__name__", "") == "cumsum" and isinstance(ev, torch.Tensor) and ev.is_floating_point():
                with gm.graph.inserting_after(n):
                    bumped = gm.graph.call_function(torch.add, (n, 1.0))
                n.replace_all_uses_with(bumped, delete_user_cb=lambda user: user is not bumped)
        gm.recompile()
        return call_user_compiler(self, gm, *args, **kwargs)

    torch._dynamo.output_graph.OutputGraph.call_user_compiler = call_user_compiler_off_by_one
elif PLANT == "decompositions":
    torch._inductor.decomposition.decompositions[aten.cumsum.default] = wrong_cumsum
elif PLANT == "inductor":
    torch._inductor.config.post_grad_custom_post_pass = post_grad_off_by_one
elif PLANT == "inductor-raise":
    torch._inductor.config.post_grad_custom_post_pass = post_grad_raise
elif PLANT:
    raise ValueError(f"PT2FUZZ_PLANT={PLANT}: unknown layer")
