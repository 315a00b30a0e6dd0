# pt2fuzz behaviour-05c4eaeaf0919c9a (behaviour): einsum_batched_dot, copysign_; eager vs torch.compile(backend="inductor") vs a float64 run, input binding 0
import torch
torch._inductor.config.emulate_precision_casts = True  # float16/bfloat16 rounded as eager rounds
device = "cuda"

class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        gen = torch.Generator().manual_seed(116513358)  # pt2fuzz's values
        self.p0 = torch.nn.Parameter(torch.randn((6, 5, 10, 10), generator=gen).to(torch.bfloat16))
        self.p1 = torch.nn.Parameter(torch.randn((6, 1, 10, 10), generator=gen).to(torch.bfloat16))
    def forward(self, x3):
        v2 = torch.einsum('...i,...i->...', self.p0, self.p1)
        v4 = v2.copysign_(x3)
        return (v4,)
def run(model, fp64=False):  # forward() on fresh inputs; float64 ones for the reference
    gen = torch.Generator().manual_seed(116513707540074)  # input binding 0
    x3 = torch.randn((6, 5, 10), generator=gen).to(device)
    x3 = x3.double() if fp64 else x3
    out = model(x3)
    return {"output 0": out[0], "self.p0 written in place": model.p0}

torch.set_grad_enabled(False)
eager, compiled = run(Model().to(device)), run(torch.compile(Model().to(device), backend="inductor"))
ref = run(Model().to(device).double(), fp64=True)
bad = [f"MISMATCH {k}: eager {e.dtype} {list(e.shape)}, compiled {c.dtype} {list(c.shape)}" for (k, e), c in zip(eager.items(), compiled.values())
       if not ((e.shape, e.dtype) == (c.shape, c.dtype) and (torch._dynamo.utils.same(e, c, fp64_ref=ref[k], equal_nan=True, tol={torch.float16: 1e-3, torch.bfloat16: 1e-2}.get(e.dtype, 1e-4)) if e.is_floating_point() else torch.equal(e, c)))]
print("compared:", ", ".join(eager))
print("\n".join(bad) or "PASS")
