# pt2fuzz numeric-57ed2efc09c1c200 (numeric): conv_transpose2d; eager vs torch.compile(backend="inductor") vs a float64 run, input binding 0
import torch
torch.backends.cudnn.allow_tf32 = False  # float32 convolutions in float32
device = "cuda"

class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(1594841596)  # module initializers
        self.m0 = torch.nn.ConvTranspose2d(9, 2, 1, stride=1, padding=0, output_padding=0, groups=1, bias=True, dilation=1, dtype=torch.float32)
    def forward(self, x0):
        v1 = self.m0(x0)
        return (v1,)
def run(model, fp64=False):  # forward() on fresh inputs; float64 ones for the reference
    gen = torch.Generator().manual_seed(1594846380524788)  # input binding 0
    x0 = torch.randn((9, 1, 2), generator=gen).to(device)
    x0 = x0.double() if fp64 else x0
    return {f"output {k}": o for k, o in enumerate(model(x0))}

torch.set_grad_enabled(False)
eager, compiled = run(Model().to(device)), run(torch.compile(Model().to(device), backend="inductor"))
ref = run(Model().to(device).double(), fp64=True)
bad = [f"MISMATCH {k}: eager {e.dtype} {list(e.shape)}, compiled {c.dtype} {list(c.shape)}" for (k, e), c in zip(eager.items(), compiled.values())
       if not ((e.shape, e.dtype) == (c.shape, c.dtype) and (torch._dynamo.utils.same(e, c, fp64_ref=ref[k], equal_nan=True) if e.is_floating_point() else torch.equal(e, c)))]
print("compared:", ", ".join(eager))
print("\n".join(bad) or "PASS")
