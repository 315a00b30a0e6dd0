# pytorch/pytorch#183901 (CUDA-only): int64 arange * large int64 constant overflows int32 in Triton codegen
import torch

def f(x):
    return torch.arange(0, 8, device=x.device, dtype=torch.int64) * 1500000000

x = torch.zeros(1, device="cuda")
eager = f(x)
comp = torch.compile(f, backend="inductor")(x)
if torch.equal(eager, comp):  # int64: exact
    print("NOBUG")
else:
    print(f"BUG numeric: int64 arange * 1.5e9 on CUDA: eager {eager[2].item()} vs compiled {comp[2].item()}")
