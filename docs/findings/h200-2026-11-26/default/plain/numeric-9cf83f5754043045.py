# pt2fuzz numeric-9cf83f5754043045 (numeric): special_log1p, multi_margin_loss; eager vs torch.compile(backend="inductor") vs a float64 run, input binding 0
import torch
import torch.nn.functional as F
device = "cuda"

class Model(torch.nn.Module):
    def forward(self, x0, x2):
        v1 = torch.special.log1p(x0)
        v3 = F.multi_margin_loss(v1, x2, p=1, margin=0.0, reduction='none')
        return (v3,)
def run(model, fp64=False):  # forward() on fresh inputs; float64 ones for the reference
    gen = torch.Generator().manual_seed(4109478889399683)  # input binding 0
    x0 = torch.randn((4, 2), generator=gen).to(device)
    x2 = torch.randint(0, 1, (4,), generator=gen).to(device)
    x0 = x0.double() if fp64 else x0
    return {f"output {k}": o for k, o in enumerate(model(x0, x2))}

torch.set_grad_enabled(False)
eager, compiled = run(Model().to(device)), run(torch.compile(Model().to(device), backend="inductor"))
ref = run(Model().to(device).double(), fp64=True)
bad = [f"MISMATCH {k}: eager {e.dtype} {list(e.shape)}, compiled {c.dtype} {list(c.shape)}" for (k, e), c in zip(eager.items(), compiled.values())
       if not ((e.shape, e.dtype) == (c.shape, c.dtype) and (torch._dynamo.utils.same(e, c, fp64_ref=ref[k], equal_nan=True) if e.is_floating_point() else torch.equal(e, c)))]
print("compared:", ", ".join(eager))
print("\n".join(bad) or "PASS")
