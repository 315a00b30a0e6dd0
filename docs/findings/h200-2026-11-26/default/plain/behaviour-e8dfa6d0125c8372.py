# pt2fuzz behaviour-e8dfa6d0125c8372 (behaviour): multi_margin_loss, bce_with_logits_pos_weight; eager vs torch.compile(backend="inductor") vs a float64 run, input binding 0
import torch
import torch.nn.functional as F
device = "cuda"

class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        gen = torch.Generator().manual_seed(4163086527)  # pt2fuzz's values
        self.p4 = torch.nn.Parameter((torch.rand((), generator=gen) + 0.5))
    def forward(self, x0, x1, x3):
        v2 = F.multi_margin_loss(x0, x1, p=1, margin=0.0, reduction='none')
        v5 = F.binary_cross_entropy_with_logits(v2, x3.to(v2.dtype), reduction='none', pos_weight=self.p4)
        return (v5,)
def run(model, fp64=False):  # forward() on fresh inputs; float64 ones for the reference
    gen = torch.Generator().manual_seed(4163099016259581)  # input binding 0
    x0 = torch.randn((1,), generator=gen).to(device)
    x1 = torch.randint(0, 1, (), generator=gen).to(device)
    x3 = torch.randint(0, 1, (), generator=gen).to(device)
    x0 = x0.double() if fp64 else x0
    return {f"output {k}": o for k, o in enumerate(model(x0, x1, x3))}

torch.set_grad_enabled(False)
eager, compiled = run(Model().to(device)), run(torch.compile(Model().to(device), backend="inductor"))
ref = run(Model().to(device).double(), fp64=True)
bad = [f"MISMATCH {k}: eager {e.dtype} {list(e.shape)}, compiled {c.dtype} {list(c.shape)}" for (k, e), c in zip(eager.items(), compiled.values())
       if not ((e.shape, e.dtype) == (c.shape, c.dtype) and (torch._dynamo.utils.same(e, c, fp64_ref=ref[k], equal_nan=True) if e.is_floating_point() else torch.equal(e, c)))]
print("compared:", ", ".join(eager))
print("\n".join(bad) or "PASS")
