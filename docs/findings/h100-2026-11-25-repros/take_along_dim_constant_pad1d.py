# torch.compile (inductor, CUDA/Triton) fails to compile take_along_dim followed by
# a constant pad: the generated Triton kernel does not compile at libdevice.signbit.
import torch
import torch.nn.functional as F

def f(x, idx):
    v = torch.take_along_dim(x, idx, dim=0)
    return F.pad(v, (1, 0), mode="constant", value=0.001)  # = nn.ConstantPad1d((1, 0), 0.001)

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.randn(2, device=device)
idx = torch.zeros(1, dtype=torch.int64, device=device)
expected = f(x, idx)
actual = torch.compile(f, backend="inductor")(x, idx)  # torch 2.11.0+cu130 on H100: InductorError
torch.testing.assert_close(actual, expected)
print("compiled matches eager")
# Expected: compiled output equals eager ([0.001, x[0]]).
# Actual (torch 2.11.0+cu130, H100): InductorError; the Triton source shows
#   tmp10 = (libdevice.signbit(tmp7) != 0) if (tmp7).dtype is tl.float32 else tmp7 < 0
