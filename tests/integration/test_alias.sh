#!/bin/bash
# Output aliasing (docs/oracle.md, "Aliasing"): an output shares an input's
# storage in compiled mode exactly when it does in eager. A fresh output and
# a view of an input both pass under Inductor; planted_alias_input hands the
# fresh output back in the input's memory (same values) and
# planted_alias_copy returns a copy of the view: each is an alias finding,
# and nothing else tells them from a right compile (their values agree).
source "$(dirname "$0")/lib.sh"
RUN=("$PT2FUZZ" run --device cpu --plugin "$ROOT/tests/integration/planted_backends.py")

graph() { # name, node lines (x0 is the input)
  printf 'bindings 1\nseed 11\nx0 = input float32 [4, 6]\n%s\n' "$2" >"$TMP/$1.txt"
  "$PT2FUZZ" parse "$TMP/$1.txt" --out "$TMP/$1.bin"
}
graph fresh $'v1 = relu(x0)\noutput v1'
graph view $'v1 = transpose(x0; dim0=0, dim1=1)\nv2 = relu(v1)\noutput v1, v2'

"${RUN[@]}" --findings "$TMP/right" "$TMP/fresh.bin" "$TMP/view.bin" | tee "$TMP/right.out"
[ "$(grep -c ': pass$' "$TMP/right.out")" = 2 ] || die "a fresh output or a view of an input does not pass under Inductor"

"${RUN[@]}" --backend planted_alias_input --findings "$TMP/input" "$TMP/fresh.bin" | tee "$TMP/input.out"
grep -q "fresh.bin: alias/alias: binding 0 output 0: eager shares no leaf's storage, compiled leaf 0's storage" \
  "$TMP/input.out" || die "an output in the input's memory only in compiled mode is not an alias finding"
grep -q '"verdict": "alias"' "$TMP/input"/alias-*/meta.json || die "the finding's meta.json does not say alias"

"${RUN[@]}" --backend planted_alias_copy --findings "$TMP/copy" "$TMP/view.bin" | tee "$TMP/copy.out"
grep -q "view.bin: alias/alias: binding 0 output 0: eager shares leaf 0's storage, compiled no leaf's storage" \
  "$TMP/copy.out" || die "a copy where eager returns a view of the input is not an alias finding"
echo "ok: output aliasing tells a right compile from one that shares an input's memory, or copies a view of it"
