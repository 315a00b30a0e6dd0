# bench/validity's runner: reads framed programs from stdin, runs each in
# eager mode on CPU at every binding with every value returned, and prints
# one line per program. It decides nothing: C compares shapes and counts.
#
# Frame: "<length>\n<program bytes>". Reply, one line per program:
#   ok\t<binding>;<binding>...   a binding is "dtype:d0xd1x...,..." per output
#   err\t<forward line that raised, or "">\t<ExceptionType>: <first line>
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


def run(src):
    ns = {"__name__": "pt2fuzz_program"}
    exec(compile(src, "<pt2fuzz>", "exec"), ns)
    model = ns["Model"]().eval()
    shapes = []
    for b in range(ns["BINDINGS"]):
        torch.manual_seed(ns["SEED"])
        out = model(*ns["make_inputs"](b, "cpu"))
        shapes.append(",".join(describe(t) for t in out))
    return ";".join(shapes)


def main():
    inp = sys.stdin.buffer
    while True:
        head = inp.readline()
        if not head:
            return
        src = inp.read(int(head)).decode()
        lines = src.splitlines()
        signal.alarm(60)
        try:
            reply = "ok\t" + run(src)
        except BaseException as e:  # noqa: B036 (a program may raise anything)
            where = ""
            for fr in traceback.extract_tb(e.__traceback__):
                if fr.filename == "<pt2fuzz>" and 0 < fr.lineno <= len(lines):
                    where = lines[fr.lineno - 1].strip()
            msg = (str(e).strip().splitlines() or [""])[0][:300]
            reply = "err\t" + where.replace("\t", " ") + "\t" + type(e).__name__ + ": " + msg.replace("\t", " ")
        finally:
            signal.alarm(0)
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()


main()
