# In-place writes eager raises at or defines, dtype views, integer targets
# (graph/ops/inplace.c, view_dtype in graph/ops/cast.c), against planted
# backends (planted_inplace.py) that Inductor's correct compile passes:
# a compile that ignores elements sharing memory is a missing-error on the
# near-invalid overlap_write graphs; one that casts where x.view(dtype) reads
# the bits is a numeric finding, and so is one that writes an integer tensor
# out of place. The graphs' plain programs run alone, and the dtype-view
# finding reduces keeping its view.
# Beside another test: a reduction cut short by --time keeps the dtype view all the same.
source "$(dirname "$0")/lib.sh"
PLANT=(--plugin "$ROOT/tests/integration/planted_inplace.py" --device cpu --jobs 2)
last_line() { grep -v '^$' "$1" | tail -1; }

mkdir -p "$TMP/over" "$TMP/views"
"$PT2FUZZ" gen --seed 5 --count 3 --size 3 --break overlap_write --out "$TMP/over" 2>/dev/null
"$PT2FUZZ" gen --seed 7 --count 2 --size 3 --break inplace_result --out "$TMP/views" 2>/dev/null
for f in "$TMP"/over/*.bin; do
  "$PT2FUZZ" show "$f" | grep -Eq '= (copy|clamp)_\(x[0-9]+.* breaks overlap_write' || die "$f: no write into an expanded input"
done
# x.view(int32) and x.view(uint8) (last dim x4) of float inputs, as outputs.
cat >"$TMP/dtype_view.txt" <<'G'
bindings 2
seed 11
sym s0 = 3 5
x0 = input float32 [s0, 4]
v1 = view_dtype(x0; dtype=int32)
x2 = input float32 [s0, 4]
v3 = view_dtype(x2; dtype=uint8)
output v1, v3
G
# An integer tensor written in place, then read through its old value.
cat >"$TMP/int_write.txt" <<'G'
bindings 2
seed 12
sym s0 = 3 5
x0 = input int64 [s0, 4] range -8 8
x1 = input int64 [s0, 4] range -8 8
v2 = add(x0, x1)
x3 = input int64 [4] range 0 7
v4 = bitwise_xor_(v2, x3)
v5 = mul(v2, x1)
output v5
G
for g in dtype_view int_write; do "$PT2FUZZ" parse "$TMP/$g.txt" --out "$TMP/views/$g.bin"; done

# A write through a dtype view, or into an integer leaf's index range, is refused.
sed 's/^output v1, v3$/x4 = input int32 [4] range 0 7\nv5 = bitwise_xor_(v1, x4)\noutput v5/' "$TMP/dtype_view.txt" >"$TMP/through.txt"
"$PT2FUZZ" parse "$TMP/through.txt" --out "$TMP/through.bin" 2>"$TMP/through.err" && die "a write through a dtype view was accepted"
grep -q 'dtype view of v0' "$TMP/through.err" || die "through a dtype view: $(cat "$TMP/through.err")"
sed 's/^v4 = bitwise_xor_(v2, x3)$/v4 = add_(x0, x3)/' "$TMP/int_write.txt" >"$TMP/leaf.txt"
"$PT2FUZZ" parse "$TMP/leaf.txt" --out "$TMP/leaf.bin" 2>"$TMP/leaf.err" && die "a write past an integer leaf's bounds was accepted"
grep -q 'breaks the bounds' "$TMP/leaf.err" || die "into an integer leaf: $(cat "$TMP/leaf.err")"

# Inductor: eager's errors raised, eager's values matched.
"$PT2FUZZ" run --device cpu --jobs 2 --findings "$TMP/f-inductor" "$TMP/over" "$TMP/views" | tee "$TMP/inductor.out"
grep -q '^run: 7 inputs .*: pass 7$' "$TMP/inductor.out" || die "inductor does not pass every graph"

# (a) Overlap checks planted away: the write compiles and runs.
"$PT2FUZZ" run "${PLANT[@]}" --backend planted_overlap_swallow --findings "$TMP/f-over" "$TMP/over" | tee "$TMP/over.out"
grep -q ': missing-error 3$' "$TMP/over.out" || die "a compiled write into an expanded view was not caught"
grep -q 'single memory location' "$TMP/over.out" || die "the finding does not name eager's overlap error"

# (b) x.view(dtype) compiled as a cast.
"$PT2FUZZ" run "${PLANT[@]}" --backend planted_dtype_view_casts --findings "$TMP/f-view" "$TMP/views/dtype_view.bin" \
  "$TMP/views/int_write.bin" | tee "$TMP/view.out"
grep -q 'dtype_view.bin: numeric/values: .* int32 values differ' "$TMP/view.out" || die "a cast dtype view was not caught"
grep -q 'int_write.bin: pass' "$TMP/view.out" || die "the planted view bug hit a graph without a view"

# (c) An integer write done out of place.
"$PT2FUZZ" run "${PLANT[@]}" --backend planted_int_write_dropped --findings "$TMP/f-int" "$TMP/views/dtype_view.bin" \
  "$TMP/views/int_write.bin" | tee "$TMP/int.out"
grep -q 'int_write.bin: numeric/values: .* int64 values differ' "$TMP/int.out" || die "a dropped integer write was not caught"
grep -q 'dtype_view.bin: pass' "$TMP/int.out" || die "the planted write bug hit a graph without a write"

# The plain programs run alone and pass; the fp64 reference reads the views' bits at float32.
for g in dtype_view int_write; do
  "$PT2FUZZ" emit --plain "$TMP/views/$g.bin" >"$TMP/$g.py"
  PT2FUZZ_DEVICE=cpu "$PY" "$TMP/$g.py" >"$TMP/$g.out" 2>"$TMP/$g.err" || die "$g plain: $(tail -2 "$TMP/$g.err")"
  [ "$(last_line "$TMP/$g.out")" = PASS ] || die "$g plain: $(last_line "$TMP/$g.out")"
done
grep -q '\.to(torch\.float32)\.view(torch\.int32)' "$TMP/dtype_view.py" || die "the plain program does not spell the view"

# The reduced dtype-view finding keeps its view.
f=$(ls -d "$TMP"/f-view/numeric-* | head -1)
"$PT2FUZZ" reduce "$f" "${PLANT[@]}" --backend planted_dtype_view_casts --time 120 >"$TMP/reduce.out"
"$PT2FUZZ" show "$f/reduced/graph.bin" | grep -q 'view_dtype(' || die "the reduced graph lost its dtype view"
echo "test_overlap_inplace: ok"
