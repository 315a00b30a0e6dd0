# pytorch/pytorch#198270 (CUDA variant; CPU NOBUG on 2.15.0): index_put_ then x.add_(x.flip(0)) wrong at large shapes
import torch
from torch._dynamo.utils import same

def f(x):
    x.index_put_((torch.arange(x.size(0), device=x.device),), x * 2.0)
    x.add_(x.flip(0))
    return x

torch.manual_seed(0)
x = torch.rand(1024, 2048, device="cuda")
eager = f(x.clone())
ref = f(x.double())
comp = torch.compile(f, backend="inductor")(x.clone())
if same(eager, comp, fp64_ref=ref):
    print("NOBUG")
else:
    print(f"BUG numeric: index_put_ + add_(flip) on CUDA: {(eager != comp).sum().item()} elements differ")
