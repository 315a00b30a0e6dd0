# pt2fuzz numeric-72714c61d0aa8d32 (numeric): floor_divide; eager vs torch.compile(backend="inductor") vs a float64 run, input binding 0
import torch
torch._inductor.config.emulate_precision_casts = True  # float16/bfloat16 rounded as eager rounds
device = "cuda"

class Model(torch.nn.Module):
    def forward(self, x0, x1):
        v2 = torch.floor_divide(x0, x1)
        return (v2,)
def run(model, fp64=False):  # forward() on fresh inputs; float64 ones for the reference
    gen = torch.Generator().manual_seed(2199302429887496)  # input binding 0
    x0 = torch.randn((14, 1, 1, 1, 2), generator=gen).to(torch.bfloat16).to(device)
    x1 = torch.randn((14, 1, 1, 2, 2), generator=gen).to(torch.bfloat16).to(device)
    x0, x1 = [x.double() if fp64 else x for x in (x0, x1)]
    return {f"output {k}": o for k, o in enumerate(model(x0, x1))}

torch.set_grad_enabled(False)
eager, compiled = run(Model().to(device)), run(torch.compile(Model().to(device), backend="inductor"))
ref = run(Model().to(device).double(), fp64=True)
bad = [f"MISMATCH {k}: eager {e.dtype} {list(e.shape)}, compiled {c.dtype} {list(c.shape)}" for (k, e), c in zip(eager.items(), compiled.values())
       if not ((e.shape, e.dtype) == (c.shape, c.dtype) and (torch._dynamo.utils.same(e, c, fp64_ref=ref[k], equal_nan=True, tol={torch.float16: 1e-3, torch.bfloat16: 1e-2}.get(e.dtype, 1e-4)) if e.is_floating_point() else torch.equal(e, c)))]
print("compared:", ", ".join(eager))
print("\n".join(bad) or "PASS")
