# bench/overhead's baseline: the same programs, exec'd, compiled and run in
# one plain Python process with no harness — eager, compiled and fp64 at
# every binding, Dynamo reset per program, as pt2fuzz's worker does.
# Programs arrive framed on stdin ("<length>\n<source>"); prints the count.
# PT2FUZZ_BARE_SECS stops it after that many seconds from its start
# (bench/scale's time-boxed ceiling).
import copy
import os
import sys
import time

t0 = time.perf_counter()
device = os.environ.get("PT2FUZZ_DEVICE", "cpu")
import torch  # noqa: E402
import torch._dynamo  # noqa: E402
import torch._inductor.config  # noqa: E402

torch.set_grad_enabled(False)
torch._inductor.config.fallback_random = True
n = ok = 0
budget = float(os.environ.get("PT2FUZZ_BARE_SECS", "inf"))
while time.perf_counter() - t0 < budget:
    head = sys.stdin.buffer.readline()
    if not head:
        break
    src = sys.stdin.buffer.read(int(head)).decode()
    ns = {"__name__": "bare"}
    torch._dynamo.reset()
    try:
        exec(compile(src, "<bare>", "exec"), ns)
        torch._inductor.config.emulate_precision_casts = bool(ns["LOW_PRECISION"])
        torch.manual_seed(ns["SEED"])
        model = ns["Model"]().eval().to(device)
        fp64 = copy.deepcopy(model).to(torch.float64)
        compiled = torch.compile(model)
        for b in range(ns["BINDINGS"]):
            for m in (model, compiled, fp64):
                inputs = ns["make_inputs"](b, device)
                if m is compiled:
                    ns["mark_dynamic"](inputs)
                if m is fp64:
                    inputs = [ns["to_fp64"](x) for x in inputs]
                outs = [t.cpu() for t in ns["run"](m, inputs)]
        ok += 1
    except Exception as e:  # a finding in the baseline is not its business
        print(f"program {n}: {type(e).__name__}", file=sys.stderr)
    n += 1
print(f"bare: {n} programs ({ok} without error) in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
