# Writes in place are judged like outputs (docs/oracle.md): a backend that
# loses a write to a graph input, a parameter or a buffer is a numeric
# finding on that written leaf; Inductor, which keeps them, passes, with
# static and dynamic shapes, on the shipped seed and on generated graphs of
# the in-place family.
source "$(dirname "$0")/lib.sh"
PLUGIN=$ROOT/tests/integration/planted_backends.py

# The seed writes an input through a transposed view, a parameter, a buffer.
"$PT2FUZZ" run --device cpu "$B/seeds/inplace_views_state.bin" | tee "$TMP/pass"
grep -q "inplace_views_state.bin: pass" "$TMP/pass" || die "Inductor does not pass the in-place seed"
"$PT2FUZZ" run --device cpu --dynamic true "$B/seeds/inplace_views_state.bin" | tee "$TMP/pass-dyn"
grep -q "inplace_views_state.bin: pass" "$TMP/pass-dyn" || die "Inductor does not pass the in-place seed with dynamic=True"

# A backend that runs the compiled graph on copies of its arguments loses the writes (and
# the views of its inputs it returns are copies too: alias findings on earlier outputs).
"$PT2FUZZ" run --device cpu --plugin "$PLUGIN" --backend planted_drop_writes --findings "$TMP/f1" \
  "$B/seeds/inplace_views_state.bin" | tee "$TMP/drop"
grep -qE "inplace_views_state.bin( \(also\))?: numeric/values: written leaf 0: binding 0 output 3" "$TMP/drop" ||
  die "the lost write to the input is not a numeric finding on written leaf 0"

# Only a buffer is written: its lost write is found too.
cat >"$TMP/buffer.txt" <<'G'
bindings 1
seed 7
b0 = buffer float32 [5]
x1 = input float32 [5]
v2 = mul_(b0, x1)
v3 = relu(x1)
output v3
G
"$PT2FUZZ" parse "$TMP/buffer.txt" --out "$TMP/buffer.bin"
"$PT2FUZZ" run --device cpu --plugin "$PLUGIN" --backend planted_drop_writes --findings "$TMP/f2" "$TMP/buffer.bin" |
  tee "$TMP/drop-buffer"
grep -q "buffer.bin: numeric/values: written leaf 0: binding 0 output 1" "$TMP/drop-buffer" ||
  die "the lost write to the buffer is not a numeric finding"
"$PT2FUZZ" run --device cpu "$TMP/buffer.bin" >"$TMP/keep-buffer"
grep -q "buffer.bin: pass" "$TMP/keep-buffer" || die "Inductor keeps the buffer write"

# Generated graphs of the in-place family: no false alarm.
"$PT2FUZZ" gen --seed 11 --count 8 --size 6 --family inplace --out "$TMP/gen" 2>/dev/null
"$PT2FUZZ" run --device cpu --jobs 2 --findings "$TMP/f3" "$TMP/gen" | tee "$TMP/gen.out"
grep -q "^run: 8 inputs .*: pass 8$" "$TMP/gen.out" || die "generated in-place graphs did not all pass"
