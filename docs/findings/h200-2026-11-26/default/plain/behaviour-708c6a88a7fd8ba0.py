# pt2fuzz behaviour-708c6a88a7fd8ba0 (behaviour): binary_cross_entropy_weight; eager vs torch.compile(backend="inductor") vs a float64 run, input binding 0
import torch
import torch.nn.functional as F
device = "cuda"

class Model(torch.nn.Module):
    def forward(self, x0, x1, x2):
        v3 = F.binary_cross_entropy(torch.sigmoid(torch.nan_to_num(x0)), x1.to(x0.dtype), weight=x2, reduction='none')
        return (v3,)
def run(model, fp64=False):  # forward() on fresh inputs; float64 ones for the reference
    gen = torch.Generator().manual_seed(3159327896955257)  # input binding 0
    x0 = torch.randn((2, 3, 6, 9), generator=gen).to(device)
    x1 = torch.randint(0, 1, (2, 3, 6, 9), generator=gen).to(device)
    x2 = (torch.rand((9,), generator=gen) + 0.5).to(device)
    torch._dynamo.maybe_mark_dynamic(x0, 0)
    torch._dynamo.maybe_mark_dynamic(x1, 0)
    x0, x2 = [x.double() if fp64 else x for x in (x0, x2)]
    return {f"output {k}": o for k, o in enumerate(model(x0, x1, x2))}

torch.set_grad_enabled(False)
eager, compiled = run(Model().to(device)), run(torch.compile(Model().to(device), backend="inductor"))
ref = run(Model().to(device).double(), fp64=True)
bad = [f"MISMATCH {k}: eager {e.dtype} {list(e.shape)}, compiled {c.dtype} {list(c.shape)}" for (k, e), c in zip(eager.items(), compiled.values())
       if not ((e.shape, e.dtype) == (c.shape, c.dtype) and (torch._dynamo.utils.same(e, c, fp64_ref=ref[k], equal_nan=True) if e.is_floating_point() else torch.equal(e, c)))]
print("compared:", ", ".join(eager))
print("\n".join(bad) or "PASS")
