# pytorch/pytorch#184408 (CUDA-only): div(rounding_mode='trunc') off by one under inductor (approximate division)
import torch
from torch._dynamo.utils import same

def f(a, b):
    return torch.div(a, b, rounding_mode="trunc")

a = torch.tensor([14.999999, 26.999999, 13.999999, 148.0, 1073.0, 2112.0], device="cuda")
b = torch.tensor([3.0, 3.0, 7.0, 37.0, 37.0, 33.0], device="cuda")
eager = f(a, b)
ref = f(a.double(), b.double())
comp = torch.compile(f, backend="inductor")(a.clone(), b.clone())
if same(eager, comp, fp64_ref=ref):
    print("NOBUG")
else:
    print(f"BUG numeric: trunc division off by one on CUDA: eager {eager.tolist()} vs compiled {comp.tolist()}")
