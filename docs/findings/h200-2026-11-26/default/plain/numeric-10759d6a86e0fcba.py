# pt2fuzz numeric-10759d6a86e0fcba (numeric): i0, zeta; eager vs torch.compile(backend="inductor") vs a float64 run, input binding 0
import torch
device = "cuda"

class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        gen = torch.Generator().manual_seed(1227642028)  # pt2fuzz's values
        self.p2 = torch.nn.Parameter(torch.randn((1, 1), generator=gen))
    def forward(self, x0):
        v1 = torch.special.i0(x0)
        v3 = torch.special.zeta(v1, self.p2)
        return (v3,)
def run(model, fp64=False):  # forward() on fresh inputs; float64 ones for the reference
    gen = torch.Generator().manual_seed(1227645710926084)  # input binding 0
    x0 = torch.randn((4, 10), generator=gen).to(device)
    x0 = x0.double() if fp64 else x0
    return {f"output {k}": o for k, o in enumerate(model(x0))}

torch.set_grad_enabled(False)
eager, compiled = run(Model().to(device)), run(torch.compile(Model().to(device), backend="inductor"))
ref = run(Model().to(device).double(), fp64=True)
bad = [f"MISMATCH {k}: eager {e.dtype} {list(e.shape)}, compiled {c.dtype} {list(c.shape)}" for (k, e), c in zip(eager.items(), compiled.values())
       if not ((e.shape, e.dtype) == (c.shape, c.dtype) and (torch._dynamo.utils.same(e, c, fp64_ref=ref[k], equal_nan=True) if e.is_floating_point() else torch.equal(e, c)))]
print("compared:", ", ".join(eager))
print("\n".join(bad) or "PASS")
