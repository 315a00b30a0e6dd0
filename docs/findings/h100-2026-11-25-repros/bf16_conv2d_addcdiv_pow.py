# torch.compile (inductor, CUDA/Triton) fails on bf16 conv2d -> addcdiv -> pow
# (-> cummin, linear): Triton raises "PassManager::run failed"; eager runs.
import torch
import torch._inductor.config
import torch.nn.functional as F

torch._inductor.config.emulate_precision_casts = True  # as in the finding's run

def f(x, w, b, p, e, lw, lb):
    v1 = F.conv2d(x, w, b, stride=2, padding=3, dilation=1, groups=1)
    v5 = torch.pow(torch.addcdiv(v1, p, p, value=0.5), e)
    return torch.cummin(v5, dim=2).values, F.linear(v5, lw, lb)

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
bf = dict(device=device, dtype=torch.bfloat16)
args = (torch.randn(1, 45, 2, 1, **bf), torch.randn(3, 45, 2, 2, **bf) * 0.1,
        torch.randn(3, **bf), torch.randn(1, 1, 4, 3, **bf), torch.randn(1, 1, 4, 1, **bf),
        torch.randn(1, 3, **bf), torch.randn(1, **bf))
with torch.no_grad():
    expected = f(*args)
    actual = torch.compile(f, backend="inductor")(*args)  # torch 2.11.0+cu130 on H100: InductorError
torch.testing.assert_close(actual, expected, equal_nan=True, atol=1e-1, rtol=5e-2)
print("compiled matches eager")
# Expected: compiled outputs close to eager's (bf16 tolerances).
# Actual (torch 2.11.0+cu130, H100): InductorError: RuntimeError: PassManager::run failed
