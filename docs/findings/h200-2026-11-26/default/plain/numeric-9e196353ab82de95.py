# pt2fuzz numeric-9e196353ab82de95 (numeric): cross_entropy; eager vs torch.compile(backend="inductor") vs a float64 run, input binding 0
import torch
import torch.nn.functional as F
device = "cuda"

class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        gen = torch.Generator().manual_seed(2415120182)  # pt2fuzz's values
        self.register_buffer("b0", (torch.rand((1,), generator=gen) + 0.5))
    def forward(self, x1):
        v2 = F.cross_entropy(self.b0, x1, ignore_index=0, label_smoothing=0.0, reduction='mean')
        return (v2,)
def run(model, fp64=False):  # forward() on fresh inputs; float64 ones for the reference
    gen = torch.Generator().manual_seed(2415127427360546)  # input binding 0
    x1 = torch.randint(0, 1, (), generator=gen).to(device)
    return {f"output {k}": o for k, o in enumerate(model(x1))}

torch.set_grad_enabled(False)
eager, compiled = run(Model().to(device)), run(torch.compile(Model().to(device), backend="inductor"))
ref = run(Model().to(device).double(), fp64=True)
bad = [f"MISMATCH {k}: eager {e.dtype} {list(e.shape)}, compiled {c.dtype} {list(c.shape)}" for (k, e), c in zip(eager.items(), compiled.values())
       if not ((e.shape, e.dtype) == (c.shape, c.dtype) and (torch._dynamo.utils.same(e, c, fp64_ref=ref[k], equal_nan=True) if e.is_floating_point() else torch.equal(e, c)))]
print("compared:", ", ".join(eager))
print("\n".join(bad) or "PASS")
