# The pt2fuzz worker: runs programs emitted by pt2fuzz in eager, compiled and
# fp64 modes and reports what happened. It decides nothing; the C executor
# (harness/executor.c) owns timeouts and restarts, the C oracles judge.
#
# Started as `python3 -u -c BOOT` by the executor, which sends this file as
# the first frame on stdin. Protocol: docs/protocol.md.
import copy
import importlib
import os
import re
import struct
import sys
import time
import traceback
import zlib

PROTO_IN = sys.stdin.buffer
# Protocol replies go to the real stdout; fd 1 then points at stderr so that
# anything torch or a program prints cannot corrupt the protocol.
PROTO_OUT = os.fdopen(os.dup(1), "wb", buffering=0)
os.dup2(2, 1)
sys.stdout = sys.stderr

MODES = ("eager", "compiled", "fp64")
DTYPE_CODES = {}  # torch dtype -> enum dtype (graph/dtype.h order); filled after import
HEADER = 4096  # shared memory: header page, coverage map, then tensor values
COVERAGE_BYTES = 1 << 16
COMPILER_SLOTS = 0xE000  # of the map: compiler lines and branches, then kernel names
KERNEL_SLOTS = 0x1000  # (the last 0x1000 are the C side's graph features)


def read_exact(n):
    buf = b""
    while len(buf) < n:
        chunk = PROTO_IN.read(n - len(buf))
        if not chunk:
            sys.exit(0)  # the executor went away
        buf += chunk
    return buf


def read_message():
    (n,) = struct.unpack("<I", read_exact(4))
    return read_exact(n)


def send_message(payload):
    PROTO_OUT.write(struct.pack("<I", len(payload)) + payload)


def parse_header(text):
    """key=value lines; a key may repeat (lists)."""
    out = {}
    for line in text.splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            out.setdefault(k, []).append(v)
    return out


def packstr(s):
    b = s.encode("utf-8", "replace")
    return struct.pack("<I", len(b)) + b


class Shared:
    """The executor's memfd: busy markers in the header, tensor values after."""

    def __init__(self, fd, size):
        import mmap

        self.mm = mmap.mmap(fd, size)
        self.size = size
        self.data0 = HEADER + COVERAGE_BYTES
        self.pos = self.data0

    def busy(self, mode, binding):
        self.mm[4:12] = struct.pack("<II", mode, binding)

    def reset(self):
        self.pos = self.data0
        self.busy(0xFFFFFFFF, 0)

    def put(self, torch, t):
        """Copies t's values (float64 for floats, int64 otherwise); returns
        the offset in the data area, or None when it does not fit."""
        n = t.numel()
        if self.pos + 8 * n > self.size:
            return None
        wide = torch.float64 if t.is_floating_point() else torch.int64
        off = self.pos
        if n:
            dst = torch.frombuffer(self.mm, dtype=wide, count=n, offset=off)
            dst.copy_(t.detach().reshape(-1).to("cpu", wide))
        self.pos += 8 * n
        return off - self.data0


def describe_error(e):
    t = type(e)
    name = t.__qualname__ if t.__module__ == "builtins" else t.__module__ + "." + t.__qualname__
    frames = traceback.extract_tb(e.__traceback__)[-6:]
    where = "\n".join(f"{os.path.basename(f.filename)}:{f.lineno}:{f.name}" for f in frames)
    return name[:95], str(e)[:1023], where[:1023]


def record_outputs(torch, shm, outs):
    recs = [struct.pack("<I", len(outs))]
    for t in outs:
        if not isinstance(t, torch.Tensor):
            recs.append(struct.pack("<BBBBQQ", 0, 7, 0, 0, 0, 0))
            continue
        code = DTYPE_CODES.get(t.dtype, 7)
        off = shm.put(torch, t) if code != 7 else None
        rank = min(t.dim(), 6)
        shape = list(t.shape)[:rank]
        stride = list(t.stride())[:rank]
        recs.append(struct.pack("<BBBBQQ", 1, code, rank, off is not None, t.numel(), off or 0))
        recs.append(struct.pack(f"<{rank}q", *shape) + struct.pack(f"<{rank}q", *stride))
    return b"".join(recs)


class Coverage:
    """Which lines and branches of torch's compiler a request runs, hashed
    into the shared coverage map (docs/fuzzing.md). sys.monitoring (Python
    >= 3.12): local LINE/BRANCH events only on compiler code objects, each
    location reported once per request (DISABLE, then restart_events)."""

    PACKAGES = (
        "_dynamo", "_inductor", "_functorch", "fx", "_decomp", "_refs", "_prims", "_prims_common",
        "utils/_sympy", "_subclasses", "_higher_order_ops", "export", "_export",
    )  # fmt: skip
    KERNELS = re.compile(r"\b((?:triton|cpp)_\w*?fused_\w+?|extern_kernels\.\w+)(?:_\d+)?\b")

    def __init__(self, torch, mm):
        mon = sys.monitoring
        self.mon, self.E = mon, mon.events
        self.tool = mon.COVERAGE_ID
        root = os.path.dirname(torch.__file__) + os.sep
        self.prefixes = tuple(root + p.replace("/", os.sep) + os.sep for p in self.PACKAGES)
        self.root_len = len(root) - len("torch/")
        self.files = {}  # filename -> crc of its path below site-packages, or None
        self.lines = set()  # (path, line) since the last dump: the exact measure
        self.map = memoryview(mm)[HEADER : HEADER + COVERAGE_BYTES]
        self.events = self.E.LINE | getattr(self.E, "BRANCH", 0)
        mon.use_tool_id(self.tool, "pt2fuzz")
        mon.register_callback(self.tool, self.E.PY_START, self.on_start)
        mon.register_callback(self.tool, self.E.LINE, self.on_line)
        if getattr(self.E, "BRANCH", 0):
            mon.register_callback(self.tool, self.E.BRANCH, self.on_branch)
        self.patch_kernel_loader(torch)

    def file_hash(self, name):
        h = self.files.get(name, -1)
        if h == -1:
            h = zlib.crc32(name[self.root_len :].encode()) if name.startswith(self.prefixes) else None
            self.files[name] = h
        return h

    def bump(self, i):
        v = self.map[i]
        if v < 255:
            self.map[i] = v + 1

    def on_start(self, code, offset):
        if self.file_hash(code.co_filename) is not None:
            self.mon.set_local_events(self.tool, code, self.events)
        return self.mon.DISABLE

    def on_line(self, code, line):
        h = self.files.get(code.co_filename)
        if h is not None:
            self.bump((h ^ (line * 0x9E3779B1)) % COMPILER_SLOTS)
            self.lines.add((code.co_filename[self.root_len :], line))
        return self.mon.DISABLE

    def on_branch(self, code, src, dst):
        h = self.files.get(code.co_filename)
        if h is not None:
            self.bump((h ^ (src * 0x85EBCA6B) ^ (dst * 0xC2B2AE35)) % COMPILER_SLOTS)
        return self.mon.DISABLE

    def kernel(self, name):
        self.bump(COMPILER_SLOTS + zlib.crc32(name.encode()) % KERNEL_SLOTS)

    def patch_kernel_loader(self, torch):
        """Inductor's generated modules pass through PyCodeCache: their kernel
        names (triton_poi_fused_constant_pad_nd_relu, cpp_fused_add_exp,
        extern_kernels.mm) are features too."""
        try:
            cache = importlib.import_module("torch._inductor.codecache").PyCodeCache
            load = cache.load_by_key_path
        except (ImportError, AttributeError):
            return
        cov = self

        def load_and_note(*args, **kwargs):
            mod = load(*args, **kwargs)
            try:
                with open(mod.__file__) as f:
                    for name in set(cov.KERNELS.findall(f.read())):
                        cov.kernel(name)
            except Exception:
                pass
            return mod

        cache.load_by_key_path = load_and_note

    def begin(self):
        self.mon.set_events(self.tool, self.E.PY_START)
        self.mon.restart_events()

    def end(self):
        self.mon.set_events(self.tool, 0)

    def dump(self):
        text = "".join(f"{f}:{n}\n" for f, n in sorted(self.lines))
        self.lines = set()
        return text.encode()


def cuda_poisoned(torch, device):
    """After a CUDA error the context may be unusable: test it."""
    if not device.startswith("cuda"):
        return False
    try:
        torch.ones(1, device=device).add_(1)
        torch.cuda.synchronize()
        return False
    except Exception:
        return True


class Worker:
    def __init__(self, cfg):
        self.cfg = cfg
        self.device = cfg.get("device", ["cpu"])[0]
        threads = cfg.get("compile_threads", ["0"])[0]
        if threads != "0":
            os.environ["TORCHINDUCTOR_COMPILE_THREADS"] = threads
        if cfg.get("fx_graph_cache", ["0"])[0] == "0":
            os.environ["TORCHINDUCTOR_FX_GRAPH_CACHE"] = "0"
            os.environ["TORCHINDUCTOR_AUTOGRAD_CACHE"] = "0"
        import torch
        import torch._dynamo
        import torch._inductor.config
        from torch._dynamo.utils import counters

        self.torch = torch
        self.counters = counters
        if self.device == "auto":
            self.device = "cuda" if torch.cuda.is_available() else "cpu"
        DTYPE_CODES.update(
            {
                torch.float32: 0,
                torch.float16: 1,
                torch.bfloat16: 2,
                torch.float64: 3,
                torch.int32: 4,
                torch.int64: 5,
                torch.bool: 6,
            }
        )
        torch.set_grad_enabled(False)
        torch._inductor.config.fallback_random = True
        torch._dynamo.config.suppress_errors = False
        self.inductor_defaults = {}
        self.shm = Shared(int(cfg["shm_fd"][0]), int(cfg["shm_size"][0]))
        self.coverage = None
        if cfg.get("coverage", ["0"])[0] == "1" and hasattr(sys, "monitoring"):
            self.coverage = Coverage(torch, self.shm.mm)
        plugin = cfg.get("plugin_len", ["0"])[0]
        if plugin != "0":
            src = read_exact(int(plugin)).decode()
            exec(compile(src, "<pt2fuzz-plugin>", "exec"), {"__name__": "pt2fuzz_plugin"})

    def hello(self):
        torch = self.torch
        info = {
            "torch": torch.__version__,
            "python": sys.version.split()[0],
            "cuda": str(torch.version.cuda),
            "device": self.device,
            "coverage": "sys.monitoring" if self.coverage else "off",
        }
        try:
            import triton

            info["triton"] = triton.__version__
        except Exception:
            info["triton"] = "none"
        if self.device.startswith("cuda"):
            info["gpu"] = torch.cuda.get_device_name(self.device)
        return "".join(f"{k}={v}\n" for k, v in info.items()).encode()

    def set_inductor_config(self, pairs):
        """Request-scoped Inductor settings: applied now, undone next request."""
        cfg = self.torch._inductor.config
        for name, old in self.inductor_defaults.items():
            setattr(cfg, name, old)
        self.inductor_defaults = {}
        for pair in pairs:
            name, value = pair.split("=", 1)
            if not hasattr(cfg, name):
                raise ValueError(f"unknown inductor config {name}")
            self.inductor_defaults[name] = getattr(cfg, name)
            setattr(cfg, name, type(getattr(cfg, name))(int(value)) if value.isdigit() else value)

    def serve(self, req):
        torch = self.torch
        head, _, src = req.partition(b"\n\n")
        h = parse_header(head.decode())
        rid = int(h["id"][0])
        if "dump_lines" in h:  # the exact line set since the last dump
            lines = self.coverage.dump() if self.coverage else b""
            send_message(struct.pack("<4sI", b"P2FL", rid) + lines)
            return
        modes = int(h["modes"][0])
        backend = h.get("backend", ["inductor"])[0]
        mode = h.get("mode", [""])[0] or None
        dynamic = h.get("dynamic", ["marks"])[0]
        device = self.device
        self.shm.reset()
        if self.coverage:
            self.coverage.begin()
        torch._dynamo.reset()
        self.counters.clear()
        ns = {"__name__": "pt2fuzz_program"}
        records = []
        setup_error = None
        try:
            exec(compile(src.decode(), "<pt2fuzz>", "exec"), ns)
            low = bool(ns.get("LOW_PRECISION"))
            self.set_inductor_config(h.get("inductor", []) + [f"emulate_precision_casts={int(low)}"])
            torch.manual_seed(ns["SEED"])
            model = ns["Model"]().eval().to(device)
            fp64_model = copy.deepcopy(model).to(torch.float64)
            dyn = {"true": True, "false": False}.get(dynamic)
            compiled = torch.compile(model, backend=backend, mode=mode, dynamic=dyn)
            nbind = ns["BINDINGS"]
        except Exception as e:  # a program that cannot even be built is an eager failure
            setup_error = describe_error(e)
            nbind = 1
        poisoned = False
        for b in range(nbind):
            for m in range(3):
                if not modes >> m & 1:
                    continue
                self.shm.busy(m, b)
                t0 = time.perf_counter()
                try:
                    if setup_error:
                        raise RuntimeError("setup")
                    inputs = ns["make_inputs"](b, device)
                    if m == 1:
                        if dynamic == "marks":
                            ns["mark_dynamic"](inputs)
                        outs = ns["run"](compiled, inputs)
                    elif m == 2:
                        outs = ns["run"](fp64_model, [ns["to_fp64"](x) for x in inputs])
                    else:
                        outs = ns["run"](model, inputs)
                    if device.startswith("cuda"):
                        torch.cuda.synchronize()
                    body = record_outputs(torch, self.shm, outs)
                    ok = 1
                except Exception as e:
                    etype, emsg, frames = setup_error or describe_error(e)
                    body = packstr(etype) + packstr(emsg) + packstr(frames)
                    ok = 0
                    poisoned = poisoned or ("CUDA" in emsg and cuda_poisoned(torch, device))
                usec = int((time.perf_counter() - t0) * 1e6)
                records.append(struct.pack("<BBBBI", m, b, ok, 0, min(usec, 0xFFFFFFFF)) + body)
        self.shm.busy(0xFFFFFFFF, 0)
        if self.coverage:
            self.coverage.end()
        stats = self.counters["stats"]
        graphs = stats.get("unique_graphs", 0)
        breaks = sum(self.counters["graph_break"].values())
        head = struct.pack("<4sIIIII", b"P2FR", rid, graphs, breaks, int(poisoned), len(records))
        send_message(head + b"".join(records))
        if poisoned:
            sys.exit(3)  # a poisoned CUDA context cannot serve again: ask for a restart


def main():
    cfg = parse_header(read_message().decode())
    w = Worker(cfg)
    send_message(w.hello())
    while True:
        w.serve(read_message())


main()
