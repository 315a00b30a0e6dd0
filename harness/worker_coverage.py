# Compiler coverage for the pt2fuzz worker (docs/fuzzing.md). Linked in
# front of harness/worker.py (harness/worker_blob.S): the two run as one
# script; the map's layout comes from the executor's start-up config.
import importlib
import os
import re
import sys
import threading
import zlib


class Coverage:
    """Which lines and branches of torch's compiler a request runs, hashed
    into the shared coverage map (docs/fuzzing.md); each location reported
    once per request. The events come from MonitoringCoverage or
    TraceCoverage below, whichever this Python has."""

    PACKAGES = (
        "_dynamo", "_inductor", "_functorch", "fx", "_decomp", "_refs", "_prims", "_prims_common",
        "utils/_sympy", "_subclasses", "_higher_order_ops", "export", "_export",
    )  # fmt: skip
    KERNELS = re.compile(r"\b((?:triton|cpp)_\w*?fused_\w+?|extern_kernels\.\w+)(?:_\d+)?\b")

    @staticmethod
    def make(torch, mm, map_bytes, compiler_slots, kernel_slots):
        kind = MonitoringCoverage if hasattr(sys, "monitoring") else TraceCoverage
        return kind(torch, mm, map_bytes, compiler_slots, kernel_slots)

    def __init__(self, torch, mm, map_bytes, compiler_slots, kernel_slots):
        root = os.path.dirname(torch.__file__) + os.sep
        self.prefixes = tuple(root + p.replace("/", os.sep) + os.sep for p in self.PACKAGES)
        self.root_len = len(root) - len("torch/")
        self.files = {}  # filename -> crc of its path below site-packages, or None
        self.lines = set()  # (path, line) since the last dump: the exact measure
        self.map = memoryview(mm)[PROTO.shm_header : PROTO.shm_header + map_bytes]
        self.compiler_slots, self.kernel_slots = compiler_slots, kernel_slots
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

    def line(self, h, code, line):
        self.bump((h ^ (line * 0x9E3779B1)) % self.compiler_slots)
        self.lines.add((code.co_filename[self.root_len :], line))

    def branch(self, h, src, dst):
        self.bump((h ^ (src * 0x85EBCA6B) ^ (dst * 0xC2B2AE35)) % self.compiler_slots)

    def kernel(self, name):
        self.bump(self.compiler_slots + zlib.crc32(name.encode()) % self.kernel_slots)

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

    def dump(self):
        text = "".join(f"{f}:{n}\n" for f, n in sorted(self.lines))
        self.lines = set()
        return text.encode()


class MonitoringCoverage(Coverage):
    """Python >= 3.12: sys.monitoring, local LINE/BRANCH events only on
    compiler code objects, each DISABLEd once seen and re-armed per request
    (restart_events)."""

    ENGINE = "sys.monitoring"

    def __init__(self, torch, *layout):
        super().__init__(torch, *layout)
        mon = sys.monitoring
        self.mon, self.E = mon, mon.events
        self.tool = mon.COVERAGE_ID
        self.events = self.E.LINE | getattr(self.E, "BRANCH", 0)
        mon.use_tool_id(self.tool, "pt2fuzz")
        mon.register_callback(self.tool, self.E.PY_START, self.on_start)
        mon.register_callback(self.tool, self.E.LINE, self.on_line)
        if getattr(self.E, "BRANCH", 0):
            mon.register_callback(self.tool, self.E.BRANCH, self.on_branch)

    def on_start(self, code, offset):
        if self.file_hash(code.co_filename) is not None:
            self.mon.set_local_events(self.tool, code, self.events)
        return self.mon.DISABLE

    def on_line(self, code, line):
        h = self.files.get(code.co_filename)
        if h is not None:
            self.line(h, code, line)
        return self.mon.DISABLE

    def on_branch(self, code, src, dst):
        h = self.files.get(code.co_filename)
        if h is not None:
            self.branch(h, src, dst)
        return self.mon.DISABLE

    def begin(self):
        self.mon.set_events(self.tool, self.E.PY_START)
        self.mon.restart_events()

    def end(self):
        self.mon.set_events(self.tool, 0)


class TraceCoverage(Coverage):
    """Python 3.11 (Debian 12's, and a venv made from it): no sys.monitoring,
    so sys.settrace. The global tracer gives a local one only to frames of
    compiler code; it reports each line and each step from one line to the
    next (where sys.monitoring reports a branch), each (code, line) and
    (code, from, to) once per request."""

    ENGINE = "sys.settrace"

    def __init__(self, torch, *layout):
        super().__init__(torch, *layout)
        self.seen = set()  # (code, line) and (code, from, to) this request

    def on_call(self, frame, event, arg):
        code = frame.f_code
        h = self.file_hash(code.co_filename)
        if h is None:
            return None
        seen, prev = self.seen, None

        def on_event(frame, event, arg):
            nonlocal prev
            if event == "line":
                line = frame.f_lineno
                if (code, line) not in seen:
                    seen.add((code, line))
                    self.line(h, code, line)
                if prev is not None and (code, prev, line) not in seen:
                    seen.add((code, prev, line))
                    self.branch(h, prev, line)
                prev = line
            return on_event

        return on_event

    def begin(self):
        self.seen.clear()
        threading.settrace(self.on_call)
        sys.settrace(self.on_call)

    def end(self):
        sys.settrace(None)
        threading.settrace(None)
