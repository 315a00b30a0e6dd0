#!/bin/bash
# Fill values held in 0-dim tensors (docs/adding-an-operator.md, "Tensor
# fills"): masked_fill, index_fill, where's other branch and fill_ take an
# input's, a parameter's or a node's 0-dim tensor. Under Inductor such a
# graph passes; planted_baked_fill bakes the first value each 0-dim fill
# tensor had and ignores the later bindings' values: a numeric finding naming
# the row, where the fill is an input (new values at every binding), and a
# pass where it is a parameter (the same value at every binding).
source "$(dirname "$0")/lib.sh"
RUN=("$PT2FUZZ" run --device cpu --plugin "$ROOT/tests/integration/planted_backends.py")

graph() { # name, leaf and node lines (x0: float32 [4, s0], x1: bool [4, s0])
  printf 'bindings 2\nseed 11\nsym s0 = 3 5\nx0 = input float32 [4, s0]\nx1 = input bool [4, s0]\n%s\n' "$2" \
    >"$TMP/$1.txt"
  "$PT2FUZZ" parse "$TMP/$1.txt" --out "$TMP/$1.bin"
}
graph all $'x2 = input float32 []\nx3 = input int64 [3] range 0 3\np4 = param float32 []
v5 = masked_fill_tensor(x0, x1, x2)\nv6 = where_tensor_fill(x0, x1, p4)\nv7 = exp(x2)
v8 = index_fill_tensor(x0, x3, v7; dim=0)\nv9 = mul(x0, x0)\nv10 = fill_tensor_(v9, x2)
v11 = add(x0, x0)\nv12 = masked_fill_tensor_(v11, x1, p4)\noutput v5, v6, v8, v10, v12'
graph input_fill $'x2 = input float32 []\nv3 = masked_fill_tensor(x0, x1, x2)\noutput v3'
graph param_fill $'p2 = param float32 []\nv3 = where_tensor_fill(x0, x1, p2)\noutput v3'

# The program passes the tensors themselves: no .item(), no number baked in.
"$PT2FUZZ" emit "$TMP/all.bin" >"$TMP/all.py"
for call in 'torch.masked_fill(x0, x1, x2)' 'torch.where(x1, x0, self.p4)' 'torch.index_fill(x0, 0, x3, v7)' \
  'v9.fill_(x2)' 'v11.masked_fill_(x1, self.p4)'; do
  grep -qF "$call" "$TMP/all.py" || die "the program does not spell $call"
done
awk '/def forward/ { on = 1; next } on && /^    def |^[^ ]/ { on = 0 } on' "$TMP/all.py" >"$TMP/forward.py"
grep -q 'masked_fill' "$TMP/forward.py" || die "forward() not found in the program"
grep -q '\.item()' "$TMP/forward.py" && die "forward() reads a fill with .item()"
"$PT2FUZZ" show "$TMP/all.bin" | grep -q '^v10 = fill_tensor_(v9, x2)' || die "the text form does not round-trip fill_tensor_"

"${RUN[@]}" --findings "$TMP/right" "$TMP/all.bin" "$TMP/param_fill.bin" | tee "$TMP/right.out"
[ "$(grep -c ': pass$' "$TMP/right.out")" = 2 ] || die "a graph of tensor fills does not pass under Inductor"

"${RUN[@]}" --backend planted_baked_fill --findings "$TMP/baked" "$TMP/input_fill.bin" | tee "$TMP/baked.out"
grep -q "input_fill.bin: numeric/values: binding 1 output 0" "$TMP/baked.out" ||
  die "a compile that bakes the first binding's fill is not a numeric finding at binding 1"
grep -q '"masked_fill_tensor"' "$TMP/baked"/numeric-*/meta.json || die "the finding does not name masked_fill_tensor"

"${RUN[@]}" --backend planted_baked_fill --findings "$TMP/baked_param" "$TMP/param_fill.bin" | tee "$TMP/param.out"
grep -q "param_fill.bin: pass$" "$TMP/param.out" ||
  die "a parameter fill (one value at every binding) is a finding under the baking backend"
echo "ok: tensor fills pass under Inductor; a compile that bakes an input fill's first value is a numeric finding"
