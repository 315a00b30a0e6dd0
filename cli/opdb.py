# Maps PyTorch's operator database (op_db, torch's OpInfos) onto the catalogue
# for `pt2fuzz opdb` (cli/opdb.c). stdin: one catalogue row per line, `name
# TAB py TAB ctor`. stdout: `#torch TAB version`, then one line per op_db
# name, `name TAB rows`, the rows (comma-separated, maybe none) whose call is
# that op or one of its aliases.
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


REFLECTED = re.compile(r"^#\d+ (\*\*|[-+*/%&|^@]) @\d+$")
REFLECTED_NAMES = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod", "**": "pow", "&": "and", "|": "or",
                   "^": "xor", "@": "matmul"}
CALL = re.compile(r"(?:(torch(?:\.\w+)+|F\.\w+)|@\d+\.(\w+))\s*\(")


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


rows_of = {}
for line in sys.stdin:
    name, py, ctor = (line.rstrip("\n").split("\t") + ["", ""])[:3]
    for k in row_keys(name, py, ctor):
        rows_of.setdefault(k, set()).add(name)
mapped = {}
for info in op_db:
    rows = mapped.setdefault(info.name, set())
    for n in [info.name] + [a.name for a in info.aliases]:
        rows |= rows_of.get(key(n), set())
print("#torch\t" + torch.__version__)
for name in sorted(mapped):
    print(name + "\t" + ",".join(sorted(mapped[name])))
