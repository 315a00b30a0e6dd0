# torch.compile (inductor) raises ZeroDivisionError on a graph holding unique_consecutive
# and repeat_interleave with a repeat count of 0 (data-dependent output shapes captured).
import torch
import torch._inductor.config

torch._dynamo.config.capture_dynamic_output_shape_ops = True
torch._dynamo.config.capture_scalar_outputs = True
torch._inductor.config.emulate_precision_casts = True  # as in the finding's run

def f(x0, x1, repeats):
    return torch.unique_consecutive(x0), torch.repeat_interleave(x1, repeats, dim=0)

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
x0 = torch.randn(9, 7, device=device)
x1 = torch.tensor([[1.421875, 1.171875]], dtype=torch.bfloat16, device=device)
repeats = torch.tensor([0], device=device)  # values 0..2 seen; 0 is the failing one
expected = f(x0, x1, repeats)
actual = torch.compile(f, backend="inductor")(x0, x1, repeats)  # 2.11.0+cu130, H100: ZeroDivisionError
torch.testing.assert_close(actual, expected)
print("compiled matches eager")
# Expected: compiled returns eager's (unique values, a [0, 2] empty tensor).
# Actual (torch 2.11.0+cu130, H100): ZeroDivisionError: integer division or modulo by zero
