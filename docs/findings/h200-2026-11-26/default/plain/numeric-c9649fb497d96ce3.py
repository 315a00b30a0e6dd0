# pt2fuzz numeric-c9649fb497d96ce3 (numeric): zeta, i0; eager vs torch.compile(backend="inductor") vs a float64 run, input binding 0
import torch
device = "cuda"

class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        gen = torch.Generator().manual_seed(1709484454)  # pt2fuzz's values
        self.p1 = torch.nn.Parameter(torch.randn((8, 1, 6, 7, 4), generator=gen))
    def forward(self, x0, x3):
        v2 = torch.special.zeta(x0, self.p1)
        v4 = torch.special.zeta(v2, x3)
        v5 = torch.special.i0(v4)
        return (v5,)
def run(model, fp64=False):  # forward() on fresh inputs; float64 ones for the reference
    gen = torch.Generator().manual_seed(1709489582453362)  # input binding 0
    x0 = torch.randn((8, 1, 6, 7, 4), generator=gen).to(device)
    x3 = torch.randn((1, 1, 1, 7, 1), generator=gen).to(device)
    x0, x3 = [x.double() if fp64 else x for x in (x0, x3)]
    return {f"output {k}": o for k, o in enumerate(model(x0, x3))}

torch.set_grad_enabled(False)
eager, compiled = run(Model().to(device)), run(torch.compile(Model().to(device), backend="inductor"))
ref = run(Model().to(device).double(), fp64=True)
bad = [f"MISMATCH {k}: eager {e.dtype} {list(e.shape)}, compiled {c.dtype} {list(c.shape)}" for (k, e), c in zip(eager.items(), compiled.values())
       if not ((e.shape, e.dtype) == (c.shape, c.dtype) and (torch._dynamo.utils.same(e, c, fp64_ref=ref[k], equal_nan=True) if e.is_floating_point() else torch.equal(e, c)))]
print("compared:", ", ".join(eager))
print("\n".join(bad) or "PASS")
