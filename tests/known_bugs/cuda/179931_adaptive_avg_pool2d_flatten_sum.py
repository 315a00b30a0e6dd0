# pytorch/pytorch#179931 (CUDA; NOBUG on CPU): adaptive_avg_pool2d + flatten + sum reads pooled buffer with a
# padded stride, every batch except 0 wrong
import torch
from torch._dynamo.utils import same

def f(x):
    y = torch.nn.functional.adaptive_avg_pool2d(x, 7)
    return y.flatten(1).sum(dim=-1)

torch.manual_seed(0)
x = torch.randn(4, 65, 8, 8, device="cuda")
eager = f(x)
ref = f(x.double())
comp = torch.compile(f, backend="inductor")(x)
if same(eager, comp, fp64_ref=ref):
    print("NOBUG")
else:
    print(f"BUG numeric: adaptive_avg_pool2d+flatten+sum on CUDA: eager {eager.tolist()} vs compiled {comp.tolist()}")
