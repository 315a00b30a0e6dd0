# Planted bugs for --backend aoti, loaded with `--plugin`; which one comes from
# the environment variable PT2FUZZ_PLANT.
#   perturb       an Inductor post-grad pass, set only while AOTInductor
#                 compiles, adds 1 to the first float output: compiled into
#                 the package, so only the C++ runner's outputs are wrong
#   export-raise  torch.export.export raises (eager still runs): the `export` class
import os

import torch
import torch._inductor
import torch._inductor.config

aten = torch.ops.aten
PLANT = os.environ.get("PT2FUZZ_PLANT", "")


def perturb_first_float_output(graph):
    out = next(n for n in graph.nodes if n.op == "output")
    for n in out.args[0]:
        val = getattr(n, "meta", {}).get("val")
        if isinstance(val, torch.Tensor) and val.is_floating_point():
            with graph.inserting_before(out):
                bumped = graph.call_function(aten.add.Tensor, (n, 1.0))
            out.replace_input_with(n, bumped)
            return


def during_aoti_compile(compile_and_package):
    def compile_perturbed(*args, **kwargs):
        with torch._inductor.config.patch(post_grad_custom_post_pass=perturb_first_float_output):
            return compile_and_package(*args, **kwargs)

    return compile_perturbed


def export_raises(*args, **kwargs):
    raise torch._dynamo.exc.UserError(torch._dynamo.exc.UserErrorType.DYNAMIC_CONTROL_FLOW,
                                      "planted export failure at 0x7f00deadbeef")


if PLANT == "perturb":
    torch._inductor.aoti_compile_and_package = during_aoti_compile(torch._inductor.aoti_compile_and_package)
elif PLANT == "export-raise":
    torch.export.export = export_raises
elif PLANT:
    raise ValueError(f"PT2FUZZ_PLANT={PLANT}: unknown plant")
