# torch.compile (inductor) raises on avg_pool2d with dynamic spatial dims and
# count_include_pad=False (with ceil_mode=False or True); eager runs.
import torch
import torch.nn.functional as F

def f_no_pad_count(x):  # 3-d input (C, H, W), dims 0 and 2 dynamic
    return F.avg_pool2d(x, 5, stride=1, padding=1, ceil_mode=False, count_include_pad=False)

def f_ceil(x):  # 4-d input, dims 1, 2 and 3 dynamic
    v = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
    return torch.count_nonzero(torch.any(v, dim=1), dim=0)

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
cases = [(f_no_pad_count, [(2, 3, 5), (13, 3, 16)], (0, 2)),
         (f_ceil, [(1, 2, 2, 2), (1, 8, 8, 8)], (1, 2, 3))]
for f, shapes, dyn in cases:
    cf = torch.compile(f, backend="inductor")
    for shape in shapes:
        x = torch.randn(shape, device=device)
        for d in dyn:
            torch._dynamo.mark_dynamic(x, d)
        expected = f(x)
        actual = cf(x)  # torch 2.11.0+cu130 on H100: InductorError
        torch.testing.assert_close(actual, expected)
    print(f"{f.__name__}: compiled matches eager")
# Expected: compiled output equals eager for every shape.
# Actual (torch 2.11.0+cu130, H100): torch._inductor.exc.InductorError while compiling.
