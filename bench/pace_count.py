# bench/pace's counter, run once in each worker (--plugin): every graph that
# Inductor compiles appends its number of FX call_function nodes and the time
# (Unix seconds) to a file of this process under $PT2FUZZ_PACE_DIR. compile_fx calls itself (config
# patches, the backward graph's own entry): only the outermost call counts.
import os
import threading
import time

import torch._inductor.compile_fx as _cf

_dir = os.environ.get("PT2FUZZ_PACE_DIR")
if _dir:
    _inner = _cf.compile_fx
    _depth = threading.local()
    _path = os.path.join(_dir, "nodes-%d.txt" % os.getpid())

    def _counted(gm, *args, **kwargs):
        outer = not getattr(_depth, "n", 0)
        # Counted before the compile, whose passes rewrite gm in place; written after it succeeds.
        n = sum(1 for x in gm.graph.nodes if x.op == "call_function") if outer else 0
        _depth.n = getattr(_depth, "n", 0) + 1
        try:
            out = _inner(gm, *args, **kwargs)
        finally:
            _depth.n -= 1
        if outer:
            with open(_path, "a") as f:
                f.write("%d %.3f\n" % (n, time.time()))
        return out

    _cf.compile_fx = _counted
