# bench/validity's runner: reads framed programs from stdin, runs each in
# eager mode on CPU at every binding with every value returned, and prints
# one line per program. It decides nothing: C compares shapes and counts.
#
# Frame: "<length>\n<program bytes>". Reply, one line per program:
#   ok\t<binding>;<binding>...   a binding is "dtype:d0xd1x...@alias@overlap,..." per output,
#                                where alias names what the output shares memory with
#                                ("iN" forward input N, "sNAME" module state, "oK" output K, "-"
#                                nothing) and overlap is 1 when its elements overlap in memory
#   err\t<forward line that raised, or "">\t<ExceptionType>: <first line>
#   ran\t<binding>               a program with EXPECT_ERROR ran there without raising
# A program with EXPECT_ERROR (a near-invalid graph) runs every binding; its
# err line is the first binding's that raised elsewhere than binding 0, else
# binding 0's.
import os
import signal
import sys
import traceback

os.environ["PT2FUZZ_DEVICE"] = "cpu"
import torch  # noqa: E402

torch.set_grad_enabled(False)


class Timeout(Exception):
    pass


def on_alarm(signum, frame):
    raise Timeout("program ran past 60 s")


signal.signal(signal.SIGALRM, on_alarm)


def describe(t):
    if not isinstance(t, torch.Tensor):
        return "notensor:" + type(t).__name__
    return str(t.dtype).replace("torch.", "") + ":" + "x".join(str(s) for s in t.shape)


def storage(t):
    """The memory a tensor lives in (None for an empty one or no tensor)."""
    if not isinstance(t, torch.Tensor) or t.numel() == 0:
        return None
    return t.untyped_storage().data_ptr()


def describe_all(outs, inputs, model):
    """Each output's dtype and shape, what it shares memory with, whether its elements overlap."""
    owner = {}
    for i, x in enumerate(inputs):
        owner.setdefault(storage(x), f"i{i}")
    for name, t in model.state_dict(keep_vars=True).items():
        owner.setdefault(storage(t), f"s{name}")
    owner.pop(None, None)
    parts = []
    for k, t in enumerate(outs):
        key = storage(t)
        alias = owner.get(key, "-") if key is not None else "-"
        if key is not None:
            owner.setdefault(key, f"o{k}")
        overlap = isinstance(t, torch.Tensor) and torch._debug_has_internal_overlap(t) == 1
        parts.append(f"{describe(t)}@{alias}@{int(overlap)}")
    return ",".join(parts)


class Ran(Exception):
    pass


def where(e, lines):
    """The program line (of forward or __init__) that raised e."""
    found = ""
    for fr in traceback.extract_tb(e.__traceback__):
        if fr.filename == "<pt2fuzz>" and 0 < fr.lineno <= len(lines):
            found = lines[fr.lineno - 1].strip()
    return found


def run(src, lines):
    ns = {"__name__": "pt2fuzz_program"}
    exec(compile(src, "<pt2fuzz>", "exec"), ns)
    model = ns["Model"]().eval()
    shapes, errors = [], []
    for b in range(ns["BINDINGS"]):
        torch.manual_seed(ns["SEED"])
        if not ns.get("EXPECT_ERROR"):
            inputs = ns["make_inputs"](b, "cpu")
            with ns["modes"](model, inputs):  # the graph's global modes, as its run() sets them
                outs = model(*inputs)
            shapes.append(describe_all(outs, inputs, model))
            continue
        try:
            inputs = ns["make_inputs"](b, "cpu")
            with ns["modes"](model, inputs):
                model(*inputs)
        except Exception as e:
            errors.append(e)
            continue
        raise Ran(str(b))
    if errors:
        raise next((e for e in errors if where(e, lines) != where(errors[0], lines)), errors[0])
    return ";".join(shapes)


def main():
    inp = sys.stdin.buffer
    # Replies go to a copy of stdout; the programs' own stdout (oneMKL prints
    # its parameter errors there) goes to stderr, so no line interleaves.
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    while True:
        head = inp.readline()
        if not head:
            return
        src = inp.read(int(head)).decode()
        lines = src.splitlines()
        signal.alarm(60)
        try:
            reply = "ok\t" + run(src, lines)
        except Ran as e:
            reply = "ran\t" + str(e)
        except BaseException as e:  # noqa: B036 (a program may raise anything)
            msg = (str(e).strip().splitlines() or [""])[0][:300]
            line = where(e, lines).replace("\t", " ")
            reply = "err\t" + line + "\t" + type(e).__name__ + ": " + msg.replace("\t", " ")
        finally:
            signal.alarm(0)
        replies.write(reply + "\n")
        replies.flush()


main()
