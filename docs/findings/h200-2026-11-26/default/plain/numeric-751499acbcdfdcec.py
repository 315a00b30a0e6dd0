# pt2fuzz numeric-751499acbcdfdcec (numeric): bernoulli; eager vs torch.compile(backend="inductor") vs a float64 run, input binding 0
import torch
torch._inductor.config.fallback_random = True  # random ops draw what eager draws
device = "cuda"

class Model(torch.nn.Module):
    def forward(self, x0):
        v1 = torch.bernoulli(torch.sigmoid(torch.nan_to_num(x0.float()))).to(x0.dtype)
        return (v1,)
def run(model, fp64=False):  # forward() on fresh inputs; float64 ones for the reference
    gen = torch.Generator().manual_seed(1809353915045461)  # input binding 0
    x0 = torch.randn((1, 4), generator=gen).to(device)
    x0 = x0.double() if fp64 else x0
    torch.manual_seed(1809348487)  # the random ops' draws
    return {f"output {k}": o for k, o in enumerate(model(x0))}

torch.set_grad_enabled(False)
eager, compiled = run(Model().to(device)), run(torch.compile(Model().to(device), backend="inductor"))
ref = run(Model().to(device).double(), fp64=True)
bad = [f"MISMATCH {k}: eager {e.dtype} {list(e.shape)}, compiled {c.dtype} {list(c.shape)}" for (k, e), c in zip(eager.items(), compiled.values())
       if not ((e.shape, e.dtype) == (c.shape, c.dtype) and (torch._dynamo.utils.same(e, c, fp64_ref=ref[k], equal_nan=True) if e.is_floating_point() else torch.equal(e, c)))]
print("compared:", ", ".join(eager))
print("\n".join(bad) or "PASS")
