# The pt2fuzz worker: runs programs emitted by pt2fuzz in eager, compiled and
# fp64 modes and reports what happened. It decides nothing; the C executor
# (harness/executor.c) owns timeouts and restarts, the C oracles judge.
#
# Started as `python3 -u -c BOOT` by the executor, which sends
# worker_coverage.py, worker_decisions.py, worker_scratch.py, worker_nudged.py
# and this file, joined, as the first frame on stdin.
# Protocol: docs/protocol.md.
import contextlib
import copy
import faulthandler
import fcntl
import logging
import os
import pathlib
import shutil
import struct
import sys
import tempfile
import time
import traceback

PROTO_IN = sys.stdin.buffer
# Protocol replies go to the real stdout; fd 1 then points at stderr so that
# anything torch or a program prints cannot corrupt the protocol.
PROTO_OUT = os.fdopen(os.dup(1), "wb", buffering=0)
os.dup2(2, 1)
sys.stdout = sys.stderr
# A crash (SIGSEGV in a compiled kernel, a runner or a loader) prints the
# Python stack of every thread to stderr: the finding's worker.log says where.
faulthandler.enable()

PROTOCOL_VERSION = 4  # harness/protocol.h's PROTOCOL_VERSION: the executor sends its own, and they must agree
DTYPE_CODES = {}  # torch dtype -> the executor's dtype code; filled after import
PROTO = None  # the constants the executor sent (Protocol); worker_coverage.py reads it too
SCRATCH = None  # this worker's temporary folder (worker_scratch.py's Scratch)


# The request's stages the executor may ask to be timed (docs/protocol.md,
# "The reply"): the whole request, then the compile's stages from torch's own
# timers (dynamo_timed's compilation_time_metrics: seconds per timer, nested),
# beside which serve() puts its own "request" timer.
# A stage is a timer less those nested in it (a leading "-"), so that the
# stages add up to Dynamo's whole compile; a torch without a timer reads 0.
STAGE_TIMERS = {
    "request": ("request",),
    "dynamo": ("_compile.compile_inner", "-OutputGraph.call_user_compiler"),
    "aot_autograd": ("OutputGraph.call_user_compiler", "-compile_fx_inner"),
    "lowering": ("compile_fx_inner", "-GraphLowering.codegen", "-PyCodeCache.load_by_key_path", "Scheduler.__init__"),
    "codegen": ("GraphLowering.codegen", "-Scheduler.__init__"),
    "kernels": ("PyCodeCache.load_by_key_path",),
}


def stage_usec(metrics, timers):
    """A stage's microseconds from torch's timers (never negative: a
    backward graph compiled lazily falls outside Dynamo's timer)."""
    seconds = sum(-sum(metrics.get(t[1:], ())) if t[0] == "-" else sum(metrics.get(t, ())) for t in timers)
    return min(max(int(seconds * 1e6), 0), 0xFFFFFFFF)


class Refused(Exception):
    """A start-up configuration this worker cannot serve: the executor reports the text."""


class LayoutMismatch(Exception):
    """The executor's reply layout names other fields than the worker fills."""


class Layout:
    """One part of the reply as the executor lays it out (harness/protocol.c:
    reply_parts): its fields' names and struct formats, in wire order. The
    worker fills fields by name; the executor decides their order and width."""

    def __init__(self, key, text):
        try:
            fields = [field.split(":") for field in text.split(",")]
            self.names = tuple(name for name, _ in fields)
            self.struct = struct.Struct("<" + "".join(code for _, code in fields))
        except (ValueError, struct.error):
            raise Refused(f"{key}: {text!r} is not a list of name:format (Python struct codes)") from None
        self.key = key

    def pack(self, **values):
        if values.keys() != set(self.names):
            raise LayoutMismatch(f"{self.key}: the executor's fields are {', '.join(self.names)}, "
                                 f"this worker fills {', '.join(values)}")
        return self.struct.pack(*(values[name] for name in self.names))

    def pack_each(self, values):
        """A field repeated: one pack of this one-field part per value."""
        (name,) = self.names
        return b"".join(self.pack(**{name: v}) for v in values)


class Protocol:
    """The constants both sides must agree on, as the executor sent them at
    start-up (harness/protocol.c: protocol_constants). The worker has no
    copies of its own: it checks what it cannot take (the version, the modes
    serve() implements, torch's dtypes) and takes the rest."""

    def __init__(self, cfg):
        def text(key):
            if key not in cfg:
                raise Refused(f"{key}: the executor sent none")
            return cfg[key][0]

        def number(key):
            value = text(key)
            if not value.isdigit():
                raise Refused(f"{key}: {value!r} is not a count")
            return int(value)

        version = number("proto_version")
        if version != PROTOCOL_VERSION:
            raise Refused(f"proto_version: the executor speaks version {version}, this worker {PROTOCOL_VERSION}")
        modes = tuple(text("modes").split(","))
        if modes != MODE_NAMES:
            raise Refused(f"modes: the executor's are {','.join(modes)}, this worker's {','.join(MODE_NAMES)}")
        self.dtypes = text("dtypes").split(",")
        self.other_dtype = len(self.dtypes)  # the code of any dtype not in the list
        self.max_rank, self.max_bindings, self.max_outputs = map(number, ("max_rank", "max_bindings", "max_outputs"))
        self.etype_max, self.emsg_max, self.frames_max, self.ebases_max = map(
            number, ("etype_max", "emsg_max", "frames_max", "ebases_max")
        )
        self.shm_header, self.busy_mode_at, self.busy_binding_at = map(
            number, ("shm_header", "busy_mode_at", "busy_binding_at")
        )
        if self.busy_binding_at != self.busy_mode_at + 4 or self.busy_binding_at + 4 > self.shm_header:
            raise Refused(f"busy_mode_at, busy_binding_at: {self.busy_mode_at}, {self.busy_binding_at} "
                          f"are not two adjacent u32 in a {self.shm_header}-byte header")
        # optional, so that an executor that asks for no timings gets the reply it knows
        self.stages = text("stages").split(",") if "stages" in cfg else []
        unknown = [name for name in self.stages if name not in STAGE_TIMERS]
        if unknown:
            raise Refused(f"stages: this worker cannot time {', '.join(unknown)}")
        self.max_message = number("max_message")
        if self.max_message < Trace.CAP + 4096:  # the trace, its note and header
            raise Refused(f"max_message: {self.max_message} bytes cannot carry a trace of {Trace.CAP}")
        # the reply's parts, laid out by the executor: docs/protocol.md, "The reply"
        self.head, self.record, self.count, self.output, self.dim, self.stage, self.tag = (
            Layout(key, text(key)) for key in ("reply_head", "reply_record", "reply_count", "reply_output",
                                                "reply_dim", "reply_stage", "reply_tag"))

    def torch_dtypes(self, torch):
        """torch dtype -> code, in the executor's order."""
        found = {name: getattr(torch, name, None) for name in self.dtypes}
        missing = [name for name, dt in found.items() if not isinstance(dt, torch.dtype)]
        if missing:
            raise Refused(f"dtypes: torch has no {', '.join(missing)}")
        return {found[name]: code for code, name in enumerate(self.dtypes)}


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
    return PROTO.count.pack(count=len(b)) + b


def tagged(magic, rid, payload):
    """A message answering request rid that is not its reply (text, a trace)."""
    return PROTO.tag.pack(magic=magic, id=rid) + payload


class Shared:
    """The executor's memfd: busy markers in the header, tensor values after."""

    def __init__(self, fd, size, map_bytes):
        import mmap

        self.mm = mmap.mmap(fd, size)
        self.size = size
        self.data0 = PROTO.shm_header + map_bytes
        self.pos = self.data0

    def busy(self, mode, binding):
        self.mm[PROTO.busy_mode_at : PROTO.busy_binding_at + 4] = struct.pack("<II", mode, binding)

    def reset(self, at=0):
        self.pos = self.data0 + at
        self.busy(0xFFFFFFFF, 0)

    def put(self, torch, t):
        """Copies t's values (float64 for floats, int64 otherwise, float64
        pairs, real then imaginary, for complex); returns the offset in the
        data area, or None when it does not fit."""
        if t.is_complex():
            t = torch.view_as_real(t.detach().resolve_conj())
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


def type_name(t):
    return t.__qualname__ if t.__module__ == "builtins" else t.__module__ + "." + t.__qualname__


def innermost_cause(e):
    """The error a compiler's wrappers carry (InductorError's and
    BackendCompilerFailed's inner_exception, `raise ... from`), innermost."""
    seen = {id(e)}
    while True:
        inner = getattr(e, "inner_exception", None) or e.__cause__
        if not isinstance(inner, BaseException) or id(inner) in seen:
            return e
        seen.add(id(inner))
        e = inner


def error_message(e):
    """str(e); where the error it carries has no message (a bare `assert`),
    first "TYPE at FILE:FUNCTION", its site, the one thing that tells one
    such bug from another."""
    inner = innermost_cause(e)
    if str(inner).strip() or not inner.__traceback__:
        return str(e)
    site = traceback.extract_tb(inner.__traceback__)[-1]
    return f"{type_name(type(inner))} at {os.path.basename(site.filename)}:{site.name}\n{e}"


def describe_error(e):
    """Type, message, innermost frames, and the type's classes (its MRO) so
    that C can tell whether one error is an instance of another's type."""
    frames = traceback.extract_tb(e.__traceback__)[-6:]
    where = "\n".join(f"{os.path.basename(f.filename)}:{f.lineno}:{f.name}" for f in frames)
    bases = " ".join(type_name(c)[: PROTO.etype_max] for c in type(e).__mro__ if c is not object)
    if len(bases) > PROTO.ebases_max:
        bases = bases[: bases.rfind(" ", 0, PROTO.ebases_max + 1)]
    return type_name(type(e))[: PROTO.etype_max], error_message(e)[: PROTO.emsg_max], where[: PROTO.frames_max], bases


def storage_of(t):
    """Where t's storage lies (its address), or None: an empty storage has no
    place, and a tensor without storage (a subclass) shares none."""
    try:
        ptr = t.untyped_storage().data_ptr()
    except (RuntimeError, NotImplementedError):
        return None
    return ptr or None


def aliased_leaf(torch, leaves, t):
    """1 + the index of the first of leaves whose storage t shares, 0 for none."""
    ptr = storage_of(t)
    for i, leaf in enumerate(leaves):
        if ptr is not None and isinstance(leaf, torch.Tensor) and storage_of(leaf) == ptr:
            return i + 1
    return 0


def record_outputs(torch, shm, outs, leaves):
    """The reply's outputs; each says which of leaves (the inputs, then the
    module's parameters and buffers) it shares storage with."""
    if len(outs) > PROTO.max_outputs:
        raise ValueError(f"{len(outs)} outputs: a reply carries at most {PROTO.max_outputs}")
    other = PROTO.other_dtype
    recs = [PROTO.count.pack(count=len(outs))]
    for t in outs:
        if not isinstance(t, torch.Tensor):
            recs.append(PROTO.output.pack(is_tensor=0, dtype=other, rank=0, has_values=0, numel=0, offset=0, alias=0))
            continue
        code = DTYPE_CODES.get(t.dtype, other)
        off = shm.put(torch, t) if code != other else None
        rank = min(t.dim(), PROTO.max_rank)
        alias = min(aliased_leaf(torch, leaves, t), 0xFFFF)
        recs.append(PROTO.output.pack(is_tensor=1, dtype=code, rank=rank, has_values=off is not None,
                                      numel=t.numel(), offset=off or 0, alias=alias))
        recs.append(PROTO.dim.pack_each(list(t.shape)[:rank]) + PROTO.dim.pack_each(list(t.stride())[:rank]))
    return b"".join(recs)


def forward_or_backward(ns, backward):
    """The program's runner for this request, and how many gradients it appends
    to the outputs: run_backward (forward, then the GRADS leaves' gradients)
    when the request says backward, else run."""
    if backward:
        return ns["run_backward"], len(ns["GRADS"])
    return ns["run"], 0


def malloc_checked():
    """Whether glibc's checking malloc runs here (harness/malloc_check.h):
    the executor asked for it and the loader found the library."""
    try:
        maps = pathlib.Path("/proc/self/maps").read_text()
    except OSError:
        return False
    return os.environ.get("MALLOC_CHECK_") == "3" and "libc_malloc_debug" in maps


# Messages of a failed CUDA graph capture. The failure can leave capture state
# behind (the CUDA generator's, the caching allocator's private pools) that the
# plain op of cuda_poisoned does not exercise, so the worker is replaced
# whatever that test says: a later program must not fail on it.
CAPTURE_FAILED = ("graph capture", "error during capture", "stream is capturing", "cudaErrorStreamCapture")


def capture_failed(emsg):
    return any(m in emsg for m in CAPTURE_FAILED)


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


def collect_env_text(torch):
    """What `python -m torch.utils.collect_env` prints. Its pip query raises
    where python has no pip (Debian's torch): that part then reads empty."""
    try:
        from torch.utils import collect_env

        pip_packages = collect_env.get_pip_packages

        def pip_or_empty(*args, **kwargs):
            try:
                return pip_packages(*args, **kwargs)
            except Exception:
                return "pip3", ""

        collect_env.get_pip_packages = pip_or_empty
        try:
            return collect_env.get_pretty_env_info()
        finally:
            collect_env.get_pip_packages = pip_packages
    except Exception as e:
        return f"PyTorch version: {torch.__version__}\ncollect_env failed: {describe_error(e)[1]}\n"


class Trace:
    """TORCH_TRACE for one request. torch reads the variable once, at import
    (torch/_logging/_internal.py: _init_logs hangs a LazyTraceHandler on
    trace_log); the same handler goes on for this request only, into a fresh
    directory of the worker's own filesystem (inside a chroot, its /tmp)."""

    CAP = 4 << 20  # bytes of trace text sent back

    def __init__(self):
        self.dir, self.handler, self.note = None, None, ""
        try:
            from torch._logging import _internal, structured

            self.dir = SCRATCH.mkdtemp("pt2fuzz-trace-")
            handler = _internal.LazyTraceHandler(self.dir)
            handler.setFormatter(_internal.TorchLogsFormatter(trace=True))
            for table in ("INTERN_TABLE", "DUMPED_FILES"):  # logged again: the trace stands alone
                getattr(structured, table, set()).clear()
            self.log = _internal.trace_log
            self.log.setLevel(logging.DEBUG)
            self.log.addHandler(handler)
            self.handler = handler
        except (ImportError, AttributeError, TypeError, OSError) as e:
            self.note = f"TORCH_TRACE could not be enabled at run time ({e})"

    def finish(self):
        """The note (a str), then the .log files' text (at most CAP bytes, cut at a line)."""
        if self.handler:
            self.log.removeHandler(self.handler)
            self.handler.close()
        text = b""
        if self.dir:
            text = b"".join(p.read_bytes() for p in sorted(pathlib.Path(self.dir).glob("*.log")))
            shutil.rmtree(self.dir, ignore_errors=True)
        if len(text) > self.CAP:
            text = text[: text.rfind(b"\n", 0, self.CAP) + 1]
            self.note = f"cut to its first {len(text)} bytes"
        elif not text and not self.note:
            self.note = "torch wrote no trace records for this request"
        return packstr(self.note) + text


class ExportFailed(Exception):
    """torch.export rejected a program that eager runs: the oracle's `export`
    class (oracles/judge_errors.c), kept apart from compiler bugs."""


ExportFailed.__module__ = "pt2fuzz"
# c10::ScalarType codes of the dtypes the runner exchanges (c10/core/ScalarType.h)
SCALAR_TYPES = {"uint8": 0, "int8": 1, "int16": 2, "int32": 3, "int64": 4, "float16": 5, "float32": 6,
                "float64": 7, "complex64": 9, "complex128": 10, "bool": 11, "bfloat16": 15}


def share_cxx_runtime():
    """Puts the process's libstdc++ (loaded with torch) in the global scope,
    so that every library loaded later binds to that one copy. A toolchain
    that links libstdc++ statically into shared objects (the H100 nodes'
    $CXX does) gives each AOTInductor package a copy of its own; through
    GNU-unique symbols such as std::collate<char>::id the two copies mix
    their locale facet numbering, and std::regex in the package's device
    parsing calls the wrong facet and crashes, in torch's own loader as in
    ours. With libstdc++ global, the package binds to the process's copy."""
    import ctypes

    try:
        ctypes.CDLL("libstdc++.so.6", mode=ctypes.RTLD_GLOBAL | os.RTLD_NOLOAD)
    except OSError:
        return  # not loaded by this torch: nothing to share
    if not hasattr(ctypes.CDLL(None), "_ZNSt6locale7classicEv"):
        raise RuntimeError("pt2fuzz: libstdc++ is loaded but not in the global scope: AOTInductor packages "
                           "built with a static libstdc++ would clash with it")


def aoti_toolchain(torch):
    """How Inductor builds AOTInductor packages: its C++ compiler ($CXX, else
    its own search), its C++ standard, torch's C++ ABI. The runner is built
    the same way, so that the runner, the package and the process agree on
    the C++ runtime (torch 2.15's headers need C++20, 2.6's C++17)."""
    try:
        from torch._inductor.cpp_builder import _get_cpp_std_cflag, get_cpp_compiler

        cxx, std = get_cpp_compiler(), "-" + _get_cpp_std_cflag()[0]
    except (ImportError, AttributeError):
        cxx, std = os.environ.get("CXX", "g++"), "-std=c++17"
    return [cxx, std, f"-D_GLIBCXX_USE_CXX11_ABI={int(torch._C._GLIBCXX_USE_CXX11_ABI)}"]


def build_aoti_runner(torch, cache):
    """Compiles harness/aoti_runner.cpp (AOTI_RUNNER_CPP, linked in with this
    file) against this torch's headers and libraries, with Inductor's own
    toolchain (aoti_toolchain), once per torch version, toolchain and source
    (cached in the directory cache), and loads it. Raises with the compiler's output
    when it cannot: a set-up error, not a finding."""
    import ctypes
    import hashlib
    import subprocess
    from torch.utils import cpp_extension

    toolchain = aoti_toolchain(torch)
    key = hashlib.sha256((torch.__version__ + sys.version + " ".join(toolchain) + AOTI_RUNNER_CPP).encode()).hexdigest()[:16]
    lib = os.path.join(cache, f"aoti_runner-{key}.so")
    if not os.path.exists(lib):
        # built aside and renamed into place: a worker killed mid-build leaves no half library
        tmp = f"{lib}.{os.getpid()}"
        src = f"{tmp}.cpp"
        pathlib.Path(src).write_text(AOTI_RUNNER_CPP)
        libdirs = cpp_extension.library_paths()
        cmd = [*toolchain, "-O1", "-shared", "-fPIC", "-Wall", "-Wextra",
               *(f"-isystem{d}" for d in cpp_extension.include_paths()), src, "-o", tmp,
               *(f"-L{d}" for d in libdirs), *(f"-Wl,-rpath,{d}" for d in libdirs), "-lc10", "-ltorch_cpu", "-ltorch"]
        built = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        os.unlink(src)
        if built.returncode:
            raise RuntimeError(f"pt2fuzz: building the AOTInductor runner failed:\n{' '.join(cmd)}\n{built.stdout[-4000:]}")
        os.replace(tmp, lib)
    runner = ctypes.CDLL(lib)
    c = ctypes
    runner.pt2fuzz_aoti_load.restype = c.c_void_p
    runner.pt2fuzz_aoti_load.argtypes = [c.c_char_p, c.c_char_p, c.c_size_t]
    runner.pt2fuzz_aoti_free.argtypes = [c.c_void_p]
    runner.pt2fuzz_aoti_run.argtypes = [c.c_void_p, c.c_int, c.POINTER(c.c_void_p), c.POINTER(c.c_int),
                                        c.POINTER(c.c_int), c.POINTER(c.POINTER(c.c_int64)),
                                        c.POINTER(c.POINTER(c.c_int64)), c.c_char_p, c.c_char_p, c.c_size_t]
    runner.pt2fuzz_aoti_output.argtypes = [c.c_void_p, c.c_int, c.POINTER(c.c_int), c.POINTER(c.c_int64),
                                           c.POINTER(c.c_int64), c.c_int]
    runner.pt2fuzz_aoti_copy_out.argtypes = [c.c_void_p, c.c_int, c.c_void_p, c.c_char_p, c.c_size_t]
    runner.path, runner.toolchain = lib, " ".join(toolchain)
    return runner


def check_aoti_runner(torch, runner, device):
    """A runner broken on this device (a crash, wrong values) would turn every
    graph into a false finding. So before its first graph, a known-good model
    (Linear, ReLU) goes through export, AOTInductor and the runner and must
    match eager, once per runner and device type (a marker beside the cached
    runner). Failing, the worker stops at start-up: a set-up error with this
    log (a crash's native stack included), never a finding."""
    marker = f"{runner.path}.ok-{device.split(':')[0]}"
    if os.path.exists(marker):
        return
    print(f"pt2fuzz worker: checking the AOTInductor runner on {device} with a known-good model", flush=True)
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU()).to(device).eval()
    x = torch.randn(4, 8, device=device)
    got = AotiProgram(torch, runner, model, {})(x)
    if len(got) != 1 or not torch.allclose(got[0].to(device), model(x), rtol=1e-4, atol=1e-5):
        raise RuntimeError(f"pt2fuzz: the AOTInductor runner {runner.path} gives other values than eager on a "
                           f"known-good model on {device}: the runner is broken here, not the compiler")
    pathlib.Path(marker).touch()


class AotiProgram:
    """--backend aoti: torch.export, an AOTInductor package, and the C++
    runner on each binding's inputs. Called like a module; the package is
    built on the first call so that its errors are compiled mode's, and the
    same error is raised at every later binding. Where export specialized a
    dim asked to be dynamic (Dim.AUTO allows it; a guard such as ceil_mode
    pooling needs it), each binding's shapes get their own package: a
    package does not check its inputs' sizes, so reusing it would compute
    garbage that is no compiler bug. Python-number inputs are constants to
    export, so each binding's numbers get their own package too."""

    MAX_RANK = 8

    def __init__(self, torch, runner, model, dynamic_dims):
        self.torch, self.runner, self.model, self.dynamic_dims = torch, runner, model, dynamic_dims
        self.handles, self.error, self.packages, self.kept_dynamic = {}, None, 0, False

    def dynamic_shapes(self, inputs):
        """The program's dynamic dims (DYNAMIC: input index -> dims) as export's Dims."""
        if not self.dynamic_dims:
            return None
        dim = self.torch.export.Dim
        return tuple({d: dim.AUTO for d in self.dynamic_dims.get(i, ())} or None for i in range(len(inputs)))

    def dims_kept_dynamic(self, exported):
        """Whether every requested dynamic dim is still symbolic in the export."""
        user = set(exported.graph_signature.user_inputs)
        vals = [n.meta.get("val") for n in exported.graph.nodes if n.op == "placeholder" and n.name in user]
        concrete = self.torch.fx.experimental.symbolic_shapes.is_concrete_int  # a SymInt may be one
        return not any(concrete(vals[i].shape[d]) for i, dims in self.dynamic_dims.items() if i < len(vals) for d in dims)

    def build(self, inputs):
        torch = self.torch
        try:
            exported = torch.export.export(self.model, tuple(inputs), dynamic_shapes=self.dynamic_shapes(inputs))
        except Exception as e:
            raise ExportFailed(f"{type_name(type(e))}: {e}") from e
        with tempfile.TemporaryDirectory(prefix="pt2fuzz-aoti-", dir=SCRATCH.dir) as d:
            path = torch._inductor.aoti_compile_and_package(exported, package_path=os.path.join(d, "model.pt2"))
            err = bytes(1024)
            handle = self.runner.pt2fuzz_aoti_load(path.encode(), err, len(err))  # extracts its own copy
            if not handle:
                raise RuntimeError(f"AOTIModelPackageLoader: {err.rstrip(bytes(1)).decode(errors='replace')}")
        self.packages += 1
        self.kept_dynamic = self.dims_kept_dynamic(exported)
        self.handles[self.shapes(inputs)] = handle
        return handle

    def shapes(self, inputs):
        """The key of the package for these inputs: their Python numbers (export bakes each into
        the package as a constant), and their shapes unless export kept the dims dynamic."""
        tensor = self.torch.Tensor
        numbers = tuple((type(x).__name__, x) for x in inputs if not isinstance(x, tensor))
        return numbers, None if self.kept_dynamic else tuple(tuple(t.shape) for t in inputs if isinstance(t, tensor))

    def __call__(self, *inputs):
        if self.error:
            raise self.error
        handle = self.handles.get(self.shapes(inputs))
        if not handle:
            try:
                handle = self.build(inputs)
            except Exception as e:
                self.error = e
                raise
        return self.run(handle, inputs)

    def run(self, handle, inputs):
        import ctypes as c

        torch = self.torch
        inputs = [t for t in inputs if isinstance(t, torch.Tensor)]  # the package holds the numbers
        n = len(inputs)
        shapes = [(c.c_int64 * max(t.dim(), 1))(*t.shape) for t in inputs]
        strides = [(c.c_int64 * max(t.dim(), 1))(*t.stride()) for t in inputs]
        err = bytes(1024)
        nout = self.runner.pt2fuzz_aoti_run(
            handle, n, (c.c_void_p * n)(*(t.data_ptr() for t in inputs)),
            (c.c_int * n)(*(SCALAR_TYPES[str(t.dtype).split(".")[1]] for t in inputs)),
            (c.c_int * n)(*(t.dim() for t in inputs)),
            (c.POINTER(c.c_int64) * n)(*shapes), (c.POINTER(c.c_int64) * n)(*strides),
            str(inputs[0].device).encode() if n else b"cpu", err, len(err))
        if nout < 0:
            raise RuntimeError(f"AOTIModelPackageLoader.run: {err.rstrip(bytes(1)).decode(errors='replace')}")
        by_code = {code: getattr(torch, name) for name, code in SCALAR_TYPES.items()}
        outs = []
        for k in range(nout):
            code, shape, stride = c.c_int(), (c.c_int64 * self.MAX_RANK)(), (c.c_int64 * self.MAX_RANK)()
            rank = self.runner.pt2fuzz_aoti_output(handle, k, c.byref(code), shape, stride, self.MAX_RANK)
            if rank < 0 or code.value not in by_code:
                raise RuntimeError(f"AOTI output {k}: rank or dtype out of range")
            host = torch.empty_strided(tuple(shape[:rank]), tuple(stride[:rank]), dtype=by_code[code.value])
            if self.runner.pt2fuzz_aoti_copy_out(handle, k, host.data_ptr(), err, len(err)):
                raise RuntimeError(f"AOTI output {k}: {err.rstrip(bytes(1)).decode(errors='replace')}")
            outs.append(host)
        return tuple(outs)

    def __del__(self):
        for handle in self.handles.values():
            self.runner.pt2fuzz_aoti_free(handle)


def setting_value(name, text, default):
    """A pinned setting's text as a value of its default's type: a bool from
    True/true/1 or False/false/0 (Python's bool('False') is true), an int, a
    float, a string, a dict of pass names (config/settings.h's SET_DICT); a
    ValueError that says why for text the type cannot take."""
    if isinstance(default, bool):
        if text in ("True", "true", "1"):
            return True
        if text in ("False", "false", "0"):
            return False
        raise ValueError(f"setting {name} is a bool (True, False, true, false, 1 or 0), not {text!r}")
    for kind in (int, float):
        if isinstance(default, kind):
            try:
                return kind(text)
            except ValueError:
                raise ValueError(f"setting {name} is {kind.__name__}, not {text!r}") from None
    if isinstance(default, str):
        return text
    if isinstance(default, dict):  # pass names joined by '+', each with its default options; none: {}
        return {} if text == "none" else {name: {} for name in text.split("+")}
    raise ValueError(f"setting {name} cannot be pinned from text: its default {default!r} is {type(default).__name__}")


class Request:
    """A request's header (docs/protocol.md, "A request"), and its program's source."""

    def __init__(self, message):
        head, _, self.src = message.partition(b"\n\n")
        h = parse_header(head.decode())
        self.id = int(h["id"][0])
        self.text = next((key for key in TEXT_REPLIES if key in h), None)  # answered with text, no program
        if self.text:
            return
        self.trace = "trace" in h
        self.modes = int(h["modes"][0])
        # A continuation after a poisoned CUDA context: only these (binding,
        # mode) pairs (bit len(MODES) * binding + mode), values after those already sent.
        self.pairs = int(h.get("pairs", ["-1"])[0])
        self.data_at = int(h.get("data_at", ["0"])[0])
        self.backend = h.get("backend", ["inductor"])[0]
        self.compile_mode = h.get("mode", [""])[0] or None
        self.dynamic = h.get("dynamic", [None])[0]
        self.backward = h.get("backward", ["0"])[0] == "1"
        self.pins = h.get("inductor", [])

    def runs(self, index, binding):
        """Whether the pair (binding, the mode at index of MODES) runs."""
        return self.modes >> index & 1 and self.pairs >> (len(MODES) * binding + index) & 1


# Requests answered with text: header key -> (magic, the text from the Worker).
TEXT_REPLIES = {
    "dump_lines": (b"P2FL", lambda w: w.coverage.dump() if w.coverage else b""),  # the exact line set since the last dump
    "collect_env": (b"P2FE", lambda w: collect_env_text(w.torch).encode("utf-8", "replace")),
}


class Mode:
    """A way serve() runs a program (one row of MODES): how the request
    builds the mode's model, and how a binding's inputs run through it. The
    defaults run the program's own model on its own inputs."""

    name = None
    on_demand = False  # built only for a request that runs the mode (else for every request)
    calls_before = False  # whether the program's calls before the judged one are this mode's

    def build(self, worker, program):
        return program.model

    def inputs(self, program, inputs, binding):
        return inputs

    def context(self, program, binding):
        return contextlib.nullcontext()

    def call(self, program, model, inputs):
        return program.runner(model, inputs)

    def owner(self, program, model):
        """Whose parameters and buffers the outputs may share."""
        return model


class Eager(Mode):
    """The program's own model, as it is: what the other modes start from."""

    name = "eager"

    def context(self, program, binding):
        """Where the nudged run follows, its record of eager's tests against zero."""
        if "nudged" not in program.models:
            return contextlib.nullcontext()
        return record_zero_tests(program.torch, program.zero_tests.setdefault(binding, []))


class Compiled(Mode):
    """torch.compile (or --backend aoti's deployment) of the eager model, with
    Dynamo's dynamic marks. Built for every request, as torch.compile is lazy:
    a backend torch does not know fails the request's setup, eager's pairs too."""

    name = "compiled"
    calls_before = True  # shared or changed inputs: compiled mode's earlier calls

    def build(self, worker, program):
        req = program.req
        if req.backend == "aoti":
            return worker.aoti_program(program.model, program.ns, program.dynamic)
        return worker.torch.compile(program.model, backend=req.backend, mode=req.compile_mode,
                                    dynamic={"true": True, "false": False}.get(program.dynamic),
                                    fullgraph=bool(program.ns.get("FULLGRAPH")))

    def call(self, program, model, inputs):
        return program.runner(model, program.mark(inputs))

    def owner(self, program, model):
        return program.model


class Fp64(Mode):
    """A float64 copy of the model on float64 inputs: the reference. The
    program's upcast graph where it has one (older programs do not)."""

    name = "fp64"
    on_demand = True

    def build(self, worker, program):
        return copy.deepcopy(program.model).to(worker.torch.float64)

    def inputs(self, program, inputs, binding):
        ns = program.ns
        return ns.get("inputs_to_fp64", lambda xs: [ns["to_fp64"](x) for x in xs])(inputs)

    def context(self, program, binding):
        return program.ns.get("Upcast", contextlib.nullcontext)()


class Nudged(Mode):
    """A copy of the model whose float parameters and buffers are nudged, on
    nudged inputs, run with nudge_made_floats, split_repeats and
    flip_rounded_zero_tests
    (worker_nudged.py; generators seeded by the program's SEED)."""

    name = "nudged"
    on_demand = True

    def build(self, worker, program):
        torch, model = worker.torch, copy.deepcopy(program.model)
        nudge(torch, list(model.parameters()) + list(model.buffers()), torch.Generator().manual_seed(program.ns["SEED"]))
        return model

    def inputs(self, program, inputs, binding):
        torch = program.torch
        nudge(torch, inputs, torch.Generator().manual_seed(program.ns["SEED"] + 1 + binding))
        return inputs

    @contextlib.contextmanager
    def context(self, program, binding):
        torch = program.torch
        # flip_rounded_zero_tests the inner mode: it sees a call's own operands, before split_repeats copies them
        seed = program.ns["SEED"] + 1 + program.bindings
        with nudge_made_floats(torch, torch.Generator().manual_seed(seed + 1)), \
                split_repeats(torch, torch.Generator().manual_seed(seed)), \
                flip_rounded_zero_tests(torch, program.zero_tests.pop(binding, [])):
            yield


MODES = (Eager(), Compiled(), Fp64(), Nudged())  # what serve() runs, in the executor's enum run_mode order
MODE_NAMES = tuple(mode.name for mode in MODES)


class Program:
    """A request's program, exec'd as a module under the request's settings,
    and the model of each mode the request builds."""

    def __init__(self, worker, req):
        torch = self.torch = worker.torch
        self.req, self.device = req, worker.device
        ns = self.ns = {"__name__": "pt2fuzz_program"}
        exec(compile(req.src.decode(), "<pt2fuzz>", "exec"), ns)
        worker.undo_settings()
        worker.set_request_settings(ns, req.pins)
        torch.manual_seed(ns["SEED"])
        self.model = ns["Model"]().eval().to(self.device)
        self.dynamic = req.dynamic or ns.get("COMPILE_DYNAMIC", "marks")  # the request's, else the program's
        self.models = {mode.name: mode.build(worker, self)
                       for index, mode in enumerate(MODES) if not mode.on_demand or req.modes >> index & 1}
        self.bindings = ns["BINDINGS"]
        self.zero_tests = {}  # binding -> the eager run's tests against zero (worker_nudged.py)
        if self.bindings > PROTO.max_bindings:
            raise ValueError(f"{self.bindings} bindings: a reply carries at most {PROTO.max_bindings}")
        self.runner, self.ngrad = forward_or_backward(ns, req.backward)

    def mark(self, inputs):
        """Dynamo's dynamic marks where the request asks for them (aoti: export's dynamic_shapes instead)."""
        if self.dynamic == "marks" and self.req.backend != "aoti":
            return self.ns["mark_dynamic"](inputs)
        return inputs

    def run(self, mode, binding):
        """mode on binding's inputs: the outputs, and the leaves they may share
        storage with (the inputs, then the owner's parameters and buffers)."""
        ns, model = self.ns, self.models[mode.name]
        call = (lambda xs: mode.call(self, model, xs)) if mode.calls_before else None
        # programs emitted before judged_inputs (a finding's repro.py) make them plainly
        if "judged_inputs" in ns:
            inputs = ns["judged_inputs"](binding, self.device, call)
        else:
            inputs = ns["make_inputs"](binding, self.device)
        inputs = mode.inputs(self, inputs, binding)
        with mode.context(self, binding):
            outs = mode.call(self, model, inputs)
        if self.device.startswith("cuda"):
            self.torch.cuda.synchronize()
        owner = mode.owner(self, model)
        return outs, list(inputs) + list(owner.parameters()) + list(owner.buffers())


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
        import torch._functorch.config
        import torch._inductor.config
        from torch._dynamo import utils as dynamo_utils

        SCRATCH.take_temporaries()
        self.torch = torch
        self.counters = dynamo_utils.counters
        self.timers = getattr(dynamo_utils, "compilation_time_metrics", {})  # absent: "compile, not split"
        if self.device == "auto":
            self.device = "cuda" if torch.cuda.is_available() else "cpu"
        if self.device.startswith("cuda:"):
            # torch's calls that name no device (synchronize, Triton's benchmarks) then stay on this
            # worker's GPU, not open a context on GPU 0
            torch.cuda.set_device(self.device)
        DTYPE_CODES.update(PROTO.torch_dtypes(torch))
        torch.set_grad_enabled(False)
        # float32 convolutions in float32: cuDNN may take TF32 kernels by default, and eager and
        # compiled mode (another layout) take different ones
        torch.backends.cudnn.allow_tf32 = False
        torch._inductor.config.fallback_random = True
        torch._dynamo.config.suppress_errors = False
        self.setting_modules = {
            "inductor": torch._inductor.config,
            "dynamo": torch._dynamo.config,
            "functorch": torch._functorch.config,
        }
        self.setting_defaults = {}
        layout = [int(cfg[k][0]) for k in ("map_bytes", "compiler_slots", "kernel_slots", "decision_slots")]
        map_bytes, compiler_slots, kernel_slots, decision_slots = layout
        if compiler_slots + kernel_slots + decision_slots > map_bytes:
            raise Refused(f"compiler_slots, kernel_slots, decision_slots: {layout[1:]} overflow a {map_bytes}-byte map")
        self.shm = Shared(int(cfg["shm_fd"][0]), int(cfg["shm_size"][0]), map_bytes)
        self.coverage = self.decisions = None
        if cfg.get("coverage", ["0"])[0] == "1":
            self.coverage = Coverage.make(torch, self.shm.mm, *layout[:3])
            self.decisions = Decisions(self.shm.mm, compiler_slots + kernel_slots, decision_slots)
        # --backend aoti: built and checked now so that a runner that cannot build, or is broken on this
        # device, stops the start-up (before the plugin, whose planted bugs the check must not see)
        self.aoti_runner = self.load_aoti_runner() if cfg.get("aoti_runner", ["0"])[0] == "1" else None
        plugin = cfg.get("plugin_len", ["0"])[0]
        if plugin != "0":
            src = read_exact(int(plugin)).decode()
            exec(compile(src, "<pt2fuzz-plugin>", "exec"), {"__name__": "pt2fuzz_plugin"})

    def hello(self):
        torch = self.torch
        info = {
            "protocol": PROTOCOL_VERSION,
            "torch": torch.__version__,
            "python": sys.version.split()[0],
            "cuda": str(torch.version.cuda),
            "device": self.device,
            "coverage": self.coverage.ENGINE if self.coverage else "off",
            "aoti_runner": self.aoti_runner.path if self.aoti_runner else "off",
            "malloc_check": "on" if malloc_checked() else "off",
            "scratch": SCRATCH.dir,  # the executor removes it once this worker is dead
        }
        if self.aoti_runner:  # what it was built with: Inductor's toolchain
            info["aoti_cxx"] = self.aoti_runner.toolchain
        try:
            import triton

            info["triton"] = triton.__version__
        except Exception:
            info["triton"] = "none"
        if self.device.startswith("cuda"):
            info["gpu"] = torch.cuda.get_device_name(self.device)
        return "".join(f"{k}={v}\n" for k, v in info.items()).encode()

    def setting_place(self, name):
        """A setting's module and attribute: dynamo.NAME, functorch.NAME,
        inductor.NAME, or NAME of Inductor's config."""
        module, _, attr = name.partition(".")
        cfg = self.setting_modules.get(module) if attr else None
        if cfg is None:
            cfg, attr = self.setting_modules["inductor"], name
        try:
            getattr(cfg, attr)
        except AttributeError:
            raise ValueError(f"unknown inductor config {name}") from None
        return cfg, attr

    def set_setting(self, name, value):
        cfg, attr = self.setting_place(name)
        self.setting_defaults.setdefault((cfg, attr), getattr(cfg, attr))
        setattr(cfg, attr, value)

    def undo_settings(self):
        for (cfg, attr), old in self.setting_defaults.items():
            setattr(cfg, attr, old)
        self.setting_defaults = {}

    def set_request_settings(self, ns, pins):
        """Request-scoped settings, undone after the request: what the
        program implies (emulate_precision_casts for float16/bfloat16,
        Dynamo's capture flags for data-dependent ops), then its CONFIG, then
        the request's pins (`inductor=NAME=TEXT`, typed by the setting's
        default: the value before the request, not the one the program's
        CONFIG, which names the pins too, set)."""
        datadep = bool(ns.get("DATA_DEPENDENT"))
        implied = {"emulate_precision_casts": bool(ns.get("LOW_PRECISION"))}
        if datadep:
            implied.update({"dynamo.capture_dynamic_output_shape_ops": True, "dynamo.capture_scalar_outputs": True})
        for name, value in list(implied.items()) + list(ns.get("CONFIG", {}).items()):
            if not name.startswith("mode."):  # global modes: the program's run() sets them
                self.set_setting(name, value)
        for pair in pins:
            name, text = pair.split("=", 1)
            if name.startswith("mode."):  # pinned in the program's own CONFIG, which its run() reads
                ns.setdefault("CONFIG", {})[name] = setting_value(name, text, False)
                continue
            cfg, attr = self.setting_place(name)
            default = self.setting_defaults.get((cfg, attr), getattr(cfg, attr))
            self.set_setting(name, setting_value(name, text, default))

    def stage_times(self, started):
        """The timed stages the executor asked for: their count, then microseconds each."""
        if not PROTO.stages:
            return b""
        timers = dict(self.timers, request=[time.perf_counter() - started])
        times = [stage_usec(timers, STAGE_TIMERS[name]) for name in PROTO.stages]
        return PROTO.count.pack(count=len(times)) + PROTO.stage.pack_each(times)

    def load_aoti_runner(self):
        share_cxx_runtime()
        # Workers starting at once build and check the runner one at a time: the check's
        # AOTInductor compiles of one model at once share Inductor's cache, and a loader read
        # another's half-written file ("parse error ... empty input")
        cache = os.path.join(SCRATCH.root, "pt2fuzz-aoti-runner")
        os.makedirs(cache, exist_ok=True)
        with open(os.path.join(cache, "lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            runner = build_aoti_runner(self.torch, cache)
            check_aoti_runner(self.torch, runner, self.device)
        return runner

    def aoti_program(self, model, ns, dynamic):
        """The program's dynamic dims per --dynamic (marks: the program's
        DYNAMIC; true: every dim; false: none) for torch.export."""
        if not self.aoti_runner:
            self.aoti_runner = self.load_aoti_runner()
        every = {i: tuple(range(len(spec[0]))) for i, spec in enumerate(ns["INPUTS"][0])}
        dims = {"marks": ns["DYNAMIC"], "true": every}.get(dynamic, {})
        return AotiProgram(self.torch, self.aoti_runner, model, dims)

    def serve(self, message):
        started = time.perf_counter()
        req = Request(message)
        if req.text:
            magic, text = TEXT_REPLIES[req.text]
            send_message(tagged(magic, req.id, text(self)))
            return
        trace = Trace() if req.trace else None
        self.begin(req)
        program, setup_error = self.build(req)
        records, poisoned = self.run_pairs(req, program, setup_error)
        self.end(poisoned)
        send_message(self.reply(req, program, records, poisoned, started))
        if trace:
            send_message(tagged(b"P2FT", req.id, trace.finish()))
        if poisoned:
            sys.exit(3)  # a poisoned CUDA context cannot serve again: ask for a restart

    def begin(self, req):
        """Fresh state for a request: shared memory from its data_at, coverage, Dynamo and its counters."""
        self.shm.reset(req.data_at)
        if self.coverage:
            self.coverage.begin()
        if self.decisions:
            self.decisions.begin()
        # compile debug dumps (inductor.trace.enabled) go to a folder of the request's own, removed
        # at its end, not to the working directory
        self.torch._dynamo.config.debug_dir_root = SCRATCH.mkdtemp("pt2fuzz-debug-")
        self.torch._dynamo.reset()
        self.counters.clear()
        self.timers.clear()

    def end(self, poisoned=False):
        if not poisoned:  # else the marker stays on the pair that poisoned the context: a report in the log is that mode's
            self.shm.busy(0xFFFFFFFF, 0)
        self.undo_settings()
        shutil.rmtree(self.torch._dynamo.config.debug_dir_root, ignore_errors=True)
        if self.coverage:
            self.coverage.end()
        if self.decisions:
            self.decisions.end(self.counters)

    def build(self, req):
        """The request's Program, or the error that stopped it (describe_error's):
        a program that cannot even be built fails every pair, eager too."""
        try:
            return Program(self, req), None
        except Exception as e:
            return None, describe_error(e)

    def run_pairs(self, req, program, setup_error):
        """The records of the (binding, mode) pairs the request runs, bindings
        outer, modes in MODES order; and whether a CUDA error poisoned the
        context, after which nothing here can run: the executor goes on with
        the pairs left in a fresh worker."""
        records = []
        for binding in range(program.bindings if program else 1):
            for index, mode in enumerate(MODES):
                if not req.runs(index, binding):
                    continue
                record, poisoned = self.run_pair(program, setup_error, index, mode, binding)
                records.append(record)
                if poisoned:
                    return records, True
        return records, False

    def run_pair(self, program, setup_error, index, mode, binding):
        """One mode on one binding, under its busy marker: its record, and
        whether its error poisoned the CUDA context."""
        self.shm.busy(index, binding)
        started = time.perf_counter()
        poisoned = False
        try:
            if setup_error:
                raise RuntimeError("setup")
            outs, leaves = program.run(mode, binding)
            body = record_outputs(self.torch, self.shm, outs, leaves)
            # freed now, under this mode's busy marker: glibc's checking malloc then
            # reports a kernel's write past an output's end in the mode that did it
            del outs
            ok, ngrad = 1, program.ngrad
        except LayoutMismatch:
            raise
        except Exception as e:
            etype, emsg, frames, bases = setup_error or describe_error(e)
            body = packstr(etype) + packstr(emsg) + packstr(frames) + packstr(bases)
            ok, ngrad = 0, 0
            poisoned = capture_failed(emsg) or ("CUDA" in emsg and cuda_poisoned(self.torch, self.device))
        usec = min(int((time.perf_counter() - started) * 1e6), 0xFFFFFFFF)
        head = PROTO.record.pack(mode=index, binding=binding, ok=ok, ngrad=ngrad, microseconds=usec)
        return head + body, poisoned

    def reply(self, req, program, records, poisoned, started):
        compiled = program.models.get("compiled") if program else None
        if isinstance(compiled, AotiProgram):
            graphs = compiled.packages
        else:
            graphs = self.counters["stats"].get("unique_graphs", 0)
        head = PROTO.head.pack(magic=b"P2FR", id=req.id, compiled_graphs=graphs,
                               graph_breaks=sum(self.counters["graph_break"].values()),
                               restart=int(poisoned), nrecords=len(records))
        return head + b"".join(records) + self.stage_times(started)


def main():
    global PROTO, SCRATCH
    cfg = parse_header(read_message().decode())
    SCRATCH = Scratch(cfg)
    try:
        PROTO = Protocol(cfg)
        w = Worker(cfg)
    except Refused as e:  # the executor reports this as a start-up error
        send_message(f"refused={e}\n".encode())
        sys.exit(2)
    send_message(w.hello())
    while True:
        w.serve(read_message())


main()
