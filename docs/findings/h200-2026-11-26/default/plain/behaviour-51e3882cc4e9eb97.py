# pt2fuzz behaviour-51e3882cc4e9eb97 (behaviour): argmin_all; eager vs torch.compile(backend="inductor") vs a float64 run, input binding 0
import torch
device = "cuda"

class Model(torch.nn.Module):
    def forward(self, x0):
        v1 = torch.argmin(x0)
        return (v1,)
def run(model, fp64=False):  # forward() on fresh inputs; float64 ones for the reference
    gen = torch.Generator().manual_seed(1049520000550556)  # input binding 0
    x0 = torch.randint(0, 1, (2, 1), generator=gen).to(device)
    out = model(x0)
    return {}

torch.set_grad_enabled(False)
eager, compiled = run(Model().to(device)), run(torch.compile(Model().to(device), backend="inductor"))
ref = run(Model().to(device).double(), fp64=True)
bad = [f"MISMATCH {k}: eager {e.dtype} {list(e.shape)}, compiled {c.dtype} {list(c.shape)}" for (k, e), c in zip(eager.items(), compiled.values())
       if not ((e.shape, e.dtype) == (c.shape, c.dtype) and (torch._dynamo.utils.same(e, c, fp64_ref=ref[k], equal_nan=True) if e.is_floating_point() else torch.equal(e, c)))]
print("compared:", ", ".join(eager))
print("\n".join(bad) or "PASS")
