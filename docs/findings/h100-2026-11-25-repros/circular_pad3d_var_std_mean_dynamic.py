# torch.compile (inductor) raises on circular_pad3d -> var -> std_mean when
# dims 0 and 2 of the input are dynamic; eager runs.
import torch
import torch.nn.functional as F

def f(x):
    v1 = F.pad(x, (0, 1, 1, 1, 2, 3), mode="circular")  # = nn.CircularPad3d
    v2 = torch.var(v1, dim=(4,), correction=0, keepdim=False)
    return torch.std_mean(v2, dim=(-3,), correction=1, keepdim=True)

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
cf = torch.compile(f, backend="inductor")
for shape in [(5, 8, 3, 1, 1), (6, 8, 4, 1, 1)]:
    x = torch.randn(shape, device=device)
    torch._dynamo.mark_dynamic(x, 0)
    torch._dynamo.mark_dynamic(x, 2)
    expected = f(x)
    actual = cf(x)  # torch 2.11.0+cu130 on H100: InductorError
    torch.testing.assert_close(actual, expected)
print("compiled matches eager")
# Expected: compiled (std, mean) equal eager's for both shapes.
# Actual (torch 2.11.0+cu130, H100): torch._inductor.exc.InductorError while compiling.
