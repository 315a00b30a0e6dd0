#!/bin/bash
# Output aliasing (docs/oracle.md, "Aliasing"): an output shares an input's
# storage in compiled mode exactly when it does in eager. A fresh output and
# a view of an input both pass under Inductor; planted_alias_input hands the
# fresh output back in the input's memory (same values) and
# planted_alias_copy returns a copy of the view: each is an alias finding,
# and nothing else tells them from a right compile (their values agree); the
# plain program of such a finding prints its MISMATCH alias line.
source "$(dirname "$0")/lib.sh"
RUN=("$PT2FUZZ" run --device cpu --plugin "$ROOT/tests/integration/planted_backends.py")

graph() { # name, node lines (x0 is the input)
  printf 'bindings 1\nseed 11\nx0 = input float32 [4, 6]\n%s\n' "$2" >"$TMP/$1.txt"
  "$PT2FUZZ" parse "$TMP/$1.txt" --out "$TMP/$1.bin"
}
graph fresh $'v1 = relu(x0)\noutput v1'
graph viewed $'v1 = transpose(x0; dim0=0, dim1=1)\nv2 = relu(v1)\noutput v1, v2'

"${RUN[@]}" --findings "$TMP/right" "$TMP/fresh.bin" "$TMP/viewed.bin" | tee "$TMP/right.out"
[ "$(grep -c ': pass$' "$TMP/right.out")" = 2 ] || die "a fresh output or a view of an input does not pass under Inductor"

"${RUN[@]}" --backend planted_alias_input --findings "$TMP/input" "$TMP/fresh.bin" | tee "$TMP/input.out"
grep -q "fresh.bin: alias/alias: binding 0 output 0: eager shares no leaf's storage, compiled leaf 0's storage" \
  "$TMP/input.out" || die "an output in the input's memory only in compiled mode is not an alias finding"
grep -q '"verdict": "alias"' "$TMP/input"/alias-*/meta.json || die "the finding's meta.json does not say alias"
# Its plain program shows it, run with the planted backend registered first.
"$PT2FUZZ" emit --plain "$TMP"/input/alias-* >"$TMP/plain.py"
"$PY" -c "exec(open('$ROOT/tests/integration/planted_backends.py').read()); exec(open('$TMP/plain.py').read())" \
  >"$TMP/plain.out" 2>"$TMP/plain.err" || die "the plain program failed: $(tail -3 "$TMP/plain.err")"
[ "$(tail -1 "$TMP/plain.out")" = "MISMATCH alias output 0: eager shares leaf None, compiled leaf 0" ] ||
  die "the plain program's last line: $(tail -1 "$TMP/plain.out")"

"${RUN[@]}" --backend planted_alias_copy --findings "$TMP/copy" "$TMP/viewed.bin" | tee "$TMP/copy.out"
grep -q "viewed.bin: alias/alias: binding 0 output 0: eager shares leaf 0's storage, compiled no leaf's storage" \
  "$TMP/copy.out" || die "a copy where eager returns a view of the input is not an alias finding"
# Inputs that share memory (layouts same and view) and compiled mode's second call: the first
# call gets copies of their own, the judged one the shared inputs. Backend eager (which runs
# the captured graph as it is) is right; planted_alias_first_call, which keeps the first call's
# aliasing for later calls, misses the write through x1 into x0: a numeric finding only the
# second call can show.
share() { # name, layout of x1
  printf 'bindings 1\nseed 11\nx0 = input float32 [4, 6]\nx1 = input float32 [4, 6] %s\n%s\n' "$2" \
    $'x2 = input float32 [4, 6]\nv3 = add_(x1, x2)\nv4 = mul(x0, x2)\noutput v4' >"$TMP/$1.txt"
  "$PT2FUZZ" parse "$TMP/$1.txt" --out "$TMP/$1.bin"
  # into files first: grep -q stops reading at its match, and under pipefail the writer's SIGPIPE fails the pipe
  "$PT2FUZZ" show "$TMP/$1.bin" >"$TMP/$1.show"
  "$PT2FUZZ" emit "$TMP/$1.bin" >"$TMP/$1.py"
  grep -q "^x1 = input float32 \[4, 6\] $2$" "$TMP/$1.show" || die "show does not say x1 is $2"
  grep -q '^SHARES = {1: 0}$' "$TMP/$1.py" || die "the program does not say x1 shares x0"
}
share same same
share view view
"${RUN[@]}" --backend eager --findings "$TMP/shared" "$TMP/same.bin" "$TMP/view.bin" | tee "$TMP/shared.out"
[ "$(grep -c ': pass$' "$TMP/shared.out")" = 2 ] || die "inputs that share memory do not pass a right compile"
"${RUN[@]}" --backend planted_alias_first_call --findings "$TMP/first" "$TMP/view.bin" | tee "$TMP/first.out"
grep -q 'view.bin: numeric/values: binding 0 output 0' "$TMP/first.out" ||
  die "a compile kept for the first call's aliasing is not a finding on the second call"
echo "ok: aliasing tells a right compile from one that shares an input's memory, copies a view of it, or keeps the first call's aliasing"
