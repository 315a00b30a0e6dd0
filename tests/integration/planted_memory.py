# Planted memory-corrupting torch.compile backends for pt2fuzz's tests: they
# run the graph through Inductor, then write past the end of an output's
# allocation (ctypes.memset beyond the tensor's storage on the heap, a
# Triton kernel's store beyond it on a GPU), the way a kernel with a wrong
# buffer size does. Each corrupts only graphs with a
# cumsum, so that in a directory of graphs one is the culprit. Loaded with
# `pt2fuzz run --plugin tests/integration/planted_memory.py`.
import ctypes
import functools
import os

import torch
from torch._dynamo import register_backend
from torch._inductor.compile_fx import compile_fx

_KEPT = []  # buffers planted_memory_late holds until the next compile


def _has_cumsum(gm):
    return any(getattr(n.target, "__name__", str(n.target)) == "cumsum" for n in gm.graph.nodes)


def _write_past_end(storage, nbytes=16):
    """Bytes past the end of the storage's allocation: malloc's next chunk header."""
    ctypes.memset(storage.data_ptr() + storage.nbytes(), 0x41, nbytes)


def _first_tensor(outs):
    return next((k for k, t in enumerate(outs) if isinstance(t, torch.Tensor) and t.numel()), None)


@register_backend
def planted_memory(gm, example_inputs):
    """Writes past the first output's buffer; the output is freed in the same
    request, where glibc's checking malloc notices."""
    compiled = compile_fx(gm, example_inputs)
    if not _has_cumsum(gm):
        return compiled

    def run(*args):
        outs = compiled(*args)
        k = _first_tensor(outs)
        if k is not None:
            _write_past_end(outs[k].untyped_storage())
        return outs

    return run


_libc = ctypes.CDLL(None)
_libc.malloc.restype = ctypes.c_void_p
_libc.malloc.argtypes = [ctypes.c_size_t]
_libc.free.argtypes = [ctypes.c_void_p]
# 8 KiB and a little: no tcache or fastbin, so plain glibc's free checks the
# next chunk's header; + 8 makes the usable size exact (8 + size is a multiple of 16)
_LATE_BYTES = 8200


def _adjacent_pair():
    """Two malloc'd blocks, the second right after the first (its header
    follows the first's last byte), so that writing past the first hits
    nothing but the second's header, which nothing else touches."""
    held = []
    try:
        for _ in range(64):
            a, b = _libc.malloc(_LATE_BYTES), _libc.malloc(_LATE_BYTES)
            if 0 < b - a <= _LATE_BYTES + 64:
                return a, b
            held += (a, b)
        raise RuntimeError("planted_memory_late: no adjacent blocks")
    finally:
        for p in held:
            _libc.free(p)


def _release():
    for p in _KEPT:
        _libc.free(p)  # the first: glibc finds the header after it broken, and aborts
    _KEPT.clear()


@register_backend
def planted_memory_late(gm, example_inputs):
    """The first output comes in a malloc'd block of its own with a second
    block right after it; the backend writes 8 bytes past the first's end,
    over the second's malloc header, and keeps both until a graph without
    cumsum compiles: freed there, the first crashes the next program, with
    or without glibc's checking malloc, and the culprit's own run stays
    silent (nothing frees either before)."""
    if not _has_cumsum(gm):
        _release()
        return compile_fx(gm, example_inputs)
    compiled = compile_fx(gm, example_inputs)

    def run(*args):
        outs = list(compiled(*args))
        k = _first_tensor(outs)
        span = k is not None and outs[k].element_size() * (
            outs[k].storage_offset() + sum((s - 1) * st for s, st in zip(outs[k].shape, outs[k].stride())) + 1)
        if k is not None and span <= _LATE_BYTES and not _KEPT:
            t = outs[k]
            first, second = _adjacent_pair()
            _KEPT.extend((first, second))
            block = torch.frombuffer((ctypes.c_char * _LATE_BYTES).from_address(first), dtype=torch.uint8)
            outs[k] = block.view(t.dtype).as_strided(t.shape, t.stride(), t.storage_offset()).copy_(t)
            ctypes.memset(first + _LATE_BYTES, 0x41, 8)
        return outs

    return run


_PROGRAMS = [0]  # programs this worker has compiled


@register_backend
def planted_abort_third(gm, example_inputs):
    """Aborts the worker while compiling its third program: a crash that no
    program causes and no replay brings back (blame stays unconfirmed). A
    new program is known by Dynamo's counters, which the worker clears
    before each request."""
    from torch._dynamo.utils import counters

    if "pt2fuzz_planted" not in counters:
        counters["pt2fuzz_planted"]["seen"] = 1
        _PROGRAMS[0] += 1
        if _PROGRAMS[0] == 3:
            os.abort()
    return compile_fx(gm, example_inputs)


_CUDA_WRITTEN = [False]  # planted_cuda_oob wrote past an output in this worker

# Triton compiles a kernel from its source file, and a plugin is no module
# file of its own: the kernel is written to one and imported from there.
_STORE_KERNEL = """
import triton
import triton.language as tl


@triton.jit
def store_at(ptr, offset):
    tl.store(ptr + offset + tl.arange(0, 4), tl.full((4,), 0x41, tl.uint8))
"""


@functools.cache
def _store_kernel():
    import importlib.util
    import tempfile

    path = os.path.join(tempfile.mkdtemp(prefix="pt2fuzz-planted-"), "planted_store.py")
    with open(path, "w") as f:
        f.write(_STORE_KERNEL)
    spec = importlib.util.spec_from_file_location("planted_store", path)
    kernel = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kernel)
    return kernel.store_at


def _store_past_end(storage):
    """A Triton kernel stores 4 bytes just past the storage's end: inside the
    caching allocator's block (silent), out of bounds for memcheck when each
    tensor is an allocation of its own."""
    bytes_ = torch.empty(0, dtype=torch.uint8, device=storage.device).set_(storage)
    _store_kernel()[(1,)](bytes_, storage.nbytes())


@register_backend
def planted_cuda_oob(gm, example_inputs):
    """On a GPU, a kernel writes past the first output of graphs with cumsum;
    the worker aborts at the next compile of a graph without one (the
    corruption surfacing in a later program). Replayed alone under
    compute-sanitizer, the culprit's own write is reported."""
    if not _has_cumsum(gm):
        if _CUDA_WRITTEN[0]:
            os.abort()
        return compile_fx(gm, example_inputs)
    compiled = compile_fx(gm, example_inputs)

    def run(*args):
        outs = compiled(*args)
        k = _first_tensor(outs)
        if k is not None and outs[k].is_cuda:
            _store_past_end(outs[k].untyped_storage())
            torch.cuda.synchronize()
            _CUDA_WRITTEN[0] = True
        return outs

    return run
