# pt2fuzz numeric-b1d086ee6a59ea25 (numeric): index_add, addcdiv, sort, digamma; eager vs torch.compile(backend="inductor") vs a float64 run, input binding 1
import torch
torch._inductor.config.emulate_precision_casts = True  # float16/bfloat16 rounded as eager rounds
device = "cuda"

class Model(torch.nn.Module):
    def forward(self, x0, x1, x2, x3, x5, x6):
        v4 = torch.index_add(x0, 1, x2, x3, alpha=0)
        v7 = torch.addcdiv(x1, x5, x6, value=0.5)
        v8, v9 = torch.sort(v7, dim=1, descending=False, stable=False)
        v10 = torch.digamma(v8)
        return (v4, v9, v10)
def run(model, fp64=False):  # forward() on fresh inputs; float64 ones for the reference
    gen = torch.Generator().manual_seed(4134904439676106)  # input binding 1
    x0 = torch.randn((12, 5, 12), generator=gen).to(device)
    x1 = torch.randn((5, 12, 12, 2, 1), generator=gen).to(torch.float16).to(device)
    x2 = torch.randint(0, 1, (4,), generator=gen).to(device)
    x3 = torch.randn((12, 4, 12), generator=gen).to(device)
    x5 = torch.randn((5, 12, 12, 1, 1), generator=gen).to(torch.float16).to(device)
    x6 = torch.randn((1, 12, 2, 1), generator=gen).to(torch.float16).to(device)
    for x, dims in ((x0, (0, 2)), (x1, (1, 2)), (x3, (0, 2)), (x5, (1, 2)), (x6, 1)):
        torch._dynamo.maybe_mark_dynamic(x, dims)
    x0, x1, x3, x5, x6 = [x.double() if fp64 else x for x in (x0, x1, x3, x5, x6)]
    out = model(x0, x1, x2, x3, x5, x6)
    return {"output 0": out[0], "output 2": out[2]}

torch.set_grad_enabled(False)
eager, compiled = run(Model().to(device)), run(torch.compile(Model().to(device), backend="inductor"))
ref = run(Model().to(device).double(), fp64=True)
bad = [f"MISMATCH {k}: eager {e.dtype} {list(e.shape)}, compiled {c.dtype} {list(c.shape)}" for (k, e), c in zip(eager.items(), compiled.values())
       if not ((e.shape, e.dtype) == (c.shape, c.dtype) and (torch._dynamo.utils.same(e, c, fp64_ref=ref[k], equal_nan=True, tol={torch.float16: 1e-3, torch.bfloat16: 1e-2}.get(e.dtype, 1e-4)) if e.is_floating_point() else torch.equal(e, c)))]
print("compared:", ", ".join(eager))
print("\n".join(bad) or "PASS")
