# pt2fuzz numeric-aa0b728e660302b6 (numeric): modified_bessel_i0, zeta, xlog1py; eager vs torch.compile(backend="inductor") vs a float64 run, input binding 0
import torch
device = "cuda"

class Model(torch.nn.Module):
    def forward(self, x0, x3):
        v1 = torch.special.modified_bessel_i0(x0)
        v2 = torch.special.zeta(v1, v1)
        v4 = torch.special.xlog1py(v2, x3)
        return (v4,)
def run(model, fp64=False):  # forward() on fresh inputs; float64 ones for the reference
    gen = torch.Generator().manual_seed(913451977347711)  # input binding 0
    x0 = torch.randint(0, 1, (11, 12, 1, 1), generator=gen).to(torch.bool).to(device)
    x3 = torch.randn((11, 12, 1, 1), generator=gen).to(device)
    x3 = x3.double() if fp64 else x3
    return {f"output {k}": o for k, o in enumerate(model(x0, x3))}

torch.set_grad_enabled(False)
eager, compiled = run(Model().to(device)), run(torch.compile(Model().to(device), backend="inductor"))
ref = run(Model().to(device).double(), fp64=True)
bad = [f"MISMATCH {k}: eager {e.dtype} {list(e.shape)}, compiled {c.dtype} {list(c.shape)}" for (k, e), c in zip(eager.items(), compiled.values())
       if not ((e.shape, e.dtype) == (c.shape, c.dtype) and (torch._dynamo.utils.same(e, c, fp64_ref=ref[k], equal_nan=True) if e.is_floating_point() else torch.equal(e, c)))]
print("compared:", ", ".join(eager))
print("\n".join(bad) or "PASS")
