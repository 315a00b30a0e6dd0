# A torch.compile backend for pt2fuzz's tests that writes down the settings
# in force when it compiles, then runs the graph as Dynamo traced it. Loaded
# with `pt2fuzz run --plugin tests/integration/planted_config.py --backend
# record_config`; PT2FUZZ_CONFIG_RECORD names the file it appends to.
import os

import torch
from torch._dynamo import register_backend

RECORDED = ("inductor.max_fusion_size", "inductor.fallback_random", "inductor.split_reductions",
            "dynamo.specialize_int", "functorch.cse")
MODULES = {"inductor": torch._inductor.config, "dynamo": torch._dynamo.config, "functorch": torch._functorch.config}


@register_backend
def record_config(gm, example_inputs):
    with open(os.environ["PT2FUZZ_CONFIG_RECORD"], "a") as f:
        for name in RECORDED:
            module, attr = name.split(".", 1)
            f.write(f"{name}={getattr(MODULES[module], attr)!r}\n")
    return gm.forward


@register_backend
def planted_fusion_size(gm, example_inputs):
    """The planted bug of a setting: with inductor.max_fusion_size 4, the first
    float output comes out 1 too large; with any other value, none."""
    if torch._inductor.config.max_fusion_size != 4:
        return gm.forward

    def run(*args):
        outs = list(gm.forward(*args))
        for i, o in enumerate(outs):
            if isinstance(o, torch.Tensor) and o.is_floating_point():
                outs[i] = o + 1
                break
        return tuple(outs)

    return run


@register_backend
def record_debug_dump(gm, example_inputs):
    """Compiles with Inductor, then writes down where compile debug dumps go
    and how many files Inductor's dump (inductor.trace.enabled) left there."""
    from torch._inductor.compile_fx import compile_fx

    compiled = compile_fx(gm, example_inputs)
    root = torch._dynamo.config.debug_dir_root
    files = sum(len(names) for _, _, names in os.walk(root))
    with open(os.environ["PT2FUZZ_CONFIG_RECORD"], "a") as f:
        f.write(f"debug_root={root}\ndebug_files={files}\n")
    return compiled


def _record_aoti_packages():
    """Writes down each AOTInductor package built (backend aoti), then builds it."""
    build = torch._inductor.aoti_compile_and_package

    def recorded(*args, **kwargs):
        with open(os.environ["PT2FUZZ_CONFIG_RECORD"], "a") as f:
            f.write("aoti_package=built\n")
        return build(*args, **kwargs)

    torch._inductor.aoti_compile_and_package = recorded


_record_aoti_packages()
