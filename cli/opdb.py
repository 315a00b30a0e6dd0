# Maps PyTorch's operator database (op_db, torch's OpInfos) onto the catalogue
# for `pt2fuzz opdb` (cli/opdb.c). stdin: one catalogue row per line, `name
# TAB py TAB ctor TAB cpu TAB cuda`, the last two the dtypes its input 0 takes
# on that device (comma-separated; `-` or left off where it does not run).
# stdout: `#torch
# TAB version`, then one line per op_db name, `name TAB rows`, the rows
# (comma-separated, maybe none) whose call is that op or one of its aliases,
# then one line per disagreement of a row's dtypes with its entries' OpInfos,
# `#dtype TAB row TAB entries TAB device TAB claims-unsupported|unclaimed TAB
# dtypes` or `#dtype TAB row TAB entries TAB - TAB unchecked TAB -` (see
# check_dtypes).
# A row's call is the first call of its Python spelling (and the one inside
# it when that is torch.view_as_real, which reads a complex result), or the functional of
# its nn.Module; torch.X, F.X and Tensor.X (and X_, in place) are one op X.
# A Python number on an operator's left (`#0 - @0`) is the reflected op
# (__rsub__), a subscript (`@0[#0:#1]`) __getitem__, an attribute (`@0.mT`)
# that attribute.
import re
import sys

try:
    import torch
    import torch.testing._internal.common_cuda as common_cuda

    # OpInfo's CUDA dtypes depend on the GPU (bfloat16 from sm_53 or sm_80 on):
    # without one, judge them for the sm_90 the campaigns run on (an H200).
    if not torch.cuda.is_available():
        for flag in ("SM53OrLater", "SM60OrLater", "SM70OrLater", "SM75OrLater", "SM80OrLater", "SM89OrLater",
                     "SM90OrLater"):
            setattr(common_cuda, flag, True)
    from torch.testing._internal.common_methods_invocations import op_db
except ImportError as e:  # expecttest, which torch's test helpers import
    print(f"cannot import torch's op_db: {e}", file=sys.stderr)
    sys.exit(3)


def key(dotted):
    k = re.sub(r"^(torch\.nn\.functional\.|nn\.functional\.|torch\.Tensor\.|torch\.|F\.|Tensor\.)", "", dotted)
    return k[:-1] if k.endswith("_") and not k.endswith("__") else k


def module_keys(cls):  # nn.BatchNorm2d: batch_norm2d, batch_norm
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", cls).lower()
    return {s, re.sub(r"_?[123]d$", "", s)}


# The number may be parenthesized: `(-2.0) ** x` is not `-2.0 ** x`.
REFLECTED = re.compile(r"^(?:#\d+|\(#\d+\)) (\*\*|//|[-+*/%&|^@]) @\d+$")
REFLECTED_NAMES = {"+": "add", "-": "sub", "*": "mul", "/": "div", "//": "floordiv", "%": "mod", "**": "pow",
                   "&": "and", "|": "or", "^": "xor", "@": "matmul"}
CALL = re.compile(r"(?:(torch(?:\.\w+)+|F\.\w+)|@\d+\.(\w+))\s*\(")


def op_call(py):
    """The call that names a row's op, as row_keys reads it, or None."""
    calls = list(CALL.finditer(py)) if py and not py.startswith("#m") else []
    return calls[1] if len(calls) > 1 and calls[0].group(1) == "torch.view_as_real" else (calls or [None])[0]


def operands(text):
    """The comma-separated operands at the top of text, which starts inside a
    call's parentheses (or a list's, or a tuple's), up to where they close."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}" and depth:
            depth -= 1
        elif c in ")]}" or (c == "," and not depth):
            out.append(text[start:i].strip())
            start = i + 1
            if c != ",":
                break
    return [re.sub(r"^\w+=", "", a) for a in out]


def takes_input0(py):
    """Whether the op takes input 0 itself as an operand (or in a list of
    them), so that the row's input-0 dtypes are the op's: not when it is
    converted first (`torch.bernoulli(@0.float())`), or built into another
    matrix, or only lends a size and device (the factories, whose dtype is an
    attribute)."""
    m = op_call(py)
    if not m:
        return True  # an operator, a subscript, an attribute, a module
    if m.group(2):
        return m.group(0).startswith("@0.")
    args = operands(py[m.end():])
    return "@0" in args or any("@0" in operands(a[1:]) for a in args if a[:1] in "([")


def row_keys(name, py, ctor):
    keys = {key(name)}
    m = REFLECTED.match(py)
    if m:
        keys.add(f"__r{REFLECTED_NAMES[m.group(1)]}__")
    if re.match(r"^@\d+\[", py):
        keys.add("__getitem__")
    m = re.match(r"^@\d+\.(\w+)$", py)
    if m:
        keys.add(m.group(1))
    calls = list(CALL.finditer(py)) if py and not py.startswith("#m") else []
    for m in calls[:2]:
        keys.add(key(m.group(1) or m.group(2)))
        if m.group(1) != "torch.view_as_real":
            break
    m = None if calls else re.match(r"torch\.nn\.(\w+)\(", ctor)
    if m:
        keys |= module_keys(m.group(1))
    return keys


def names(field):
    return [n for n in field.split(",") if n]


def check_dtypes(claims, infos_of):
    """A row's claims against the OpInfos of its entries, per device it runs
    on: `claims-unsupported`, the dtypes it generates that none of its entries
    supports there (an entry is one op under several names: any will do), and
    `unclaimed`, those an entry supports that it never generates (lost reach),
    both among the catalogue's dtypes (those its rows name); `unchecked`
    when the op does not take input 0 itself (takes_input0)."""
    catalogue = set().union(*(dtypes for on, _ in claims.values() for dtypes in on.values()))
    for row in sorted(infos_of):
        on, direct = claims[row]
        entries = ",".join(sorted({info.name for info in infos_of[row]}))
        if not direct:
            print("\t".join(("#dtype", row, entries, "-", "unchecked", "-")))
            continue
        for device, dtypes in on.items():
            supported = {str(d).removeprefix("torch.") for info in infos_of[row] for d in info.supported_dtypes(device)}
            unclaimed = (supported & catalogue) - dtypes
            for kind, diff in (("claims-unsupported", dtypes - supported), ("unclaimed", unclaimed)):
                if diff:
                    print("\t".join(("#dtype", row, entries, device, kind, ",".join(sorted(diff)))))


rows_of, claims = {}, {}
for line in sys.stdin:
    name, py, ctor, cpu, cuda = (line.rstrip("\n").split("\t") + ["", "", "", ""])[:5]
    on = {device: set(names(dtypes)) for device, dtypes in (("cpu", cpu), ("cuda", cuda)) if dtypes not in ("", "-")}
    claims[name] = (on, takes_input0(py))
    for k in row_keys(name, py, ctor):
        rows_of.setdefault(k, set()).add(name)
mapped, infos_of = {}, {}
for info in op_db:
    rows = set().union(*(rows_of.get(key(n), set()) for n in [info.name] + [a.name for a in info.aliases]))
    mapped.setdefault(info.name, set()).update(rows)
    for row in rows:
        infos_of.setdefault(row, []).append(info)
print("#torch\t" + torch.__version__)
for name in sorted(mapped):
    print(name + "\t" + ",".join(sorted(mapped[name])))
check_dtypes(claims, infos_of)
