# A planted bug in Inductor's backward graph, for testing backward mode. Loaded
# with `--plugin`: a post-grad custom pass that, in a backward graph only
# (AOTAutograd names its placeholders tangents_N there), multiplies the first
# gradient the graph returns by 1.5. Forward graphs are left alone, so only a
# gradient can diverge; aot_eager and aot_eager_decomp_partition never run
# Inductor's passes, so bisection must name inductor.
import torch
import torch._inductor.config

aten = torch.ops.aten


def scale_first_gradient(graph):
    if not any(n.op == "placeholder" and n.name.startswith("tangents") for n in graph.nodes):
        return
    out = next(n for n in graph.nodes if n.op == "output")
    grads = list(out.args[0])
    for i, g in enumerate(grads):
        val = getattr(g, "meta", {}).get("val")
        if isinstance(val, torch.Tensor) and val.is_floating_point():
            with graph.inserting_before(out):
                grads[i] = graph.call_function(aten.mul.Tensor, (g, 1.5))
            out.args = (tuple(grads),) + tuple(out.args[1:])
            return


torch._inductor.config.post_grad_custom_post_pass = scale_first_gradient
