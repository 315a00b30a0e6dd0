# Python numbers as forward() arguments, and inputs changed in place between
# compiled calls. A graph that multiplies by a float input (a new value at each
# binding) passes under Inductor with --dynamic true (a SymFloat) and false
# (specialized, guarded, recompiled), and is a numeric finding under a backend
# that keeps the first call's float. A graph without numbers passes under
# Inductor and is a numeric finding under a backend that caches its result by
# the input tensors' identity: the judged call comes after a first call on the
# same tensors and a change of one in place. Under inductor.freezing the
# program makes no such call, and the caching backend passes.
# PT2FUZZ_TEST_DEVICE=cuda runs it on a GPU, where the changed-input graph must
# also pass under mode reduce-overhead (CUDA graph trees copy the inputs anew).
source "$(dirname "$0")/lib.sh"
DEVICE=${PT2FUZZ_TEST_DEVICE:-cpu}
run=("$PT2FUZZ" run --device "$DEVICE" --plugin "$ROOT/tests/integration/planted_backends.py")
cat > "$TMP/number.txt" <<'G'
bindings 3
seed 7
sym s0 = 3 5 7
x0 = input float32 [4, s0]
x1 = input float64 [] number
v2 = mul_scalar(x0, x1)
output v2
G
"$PT2FUZZ" parse "$TMP/number.txt" --out "$TMP/number.bin"
"$PT2FUZZ" emit "$TMP/number.bin" > "$TMP/number.py"
grep -q '"number")' "$TMP/number.py" || die "the program does not pass x1 as a number"
"$PY" "$TMP/number.py" > "$TMP/number.out" 2>&1 || true
[ "$(tail -1 "$TMP/number.out")" = PASS ] || die "the standalone program of the number graph does not pass"
"$PT2FUZZ" emit --plain "$TMP/number.bin" --binding 2 > "$TMP/plain.py"
grep -q '^    x1 = torch.randn((), generator=gen).to(torch.float64).item()$' "$TMP/plain.py" ||
  die "the plain program does not pass x1 as a Python float"
"$PY" "$TMP/plain.py" > "$TMP/plain.out" 2>&1 || true
[ "$(tail -1 "$TMP/plain.out")" = PASS ] || die "the plain program of the number graph does not pass"

cat > "$TMP/changed.txt" <<'G'
bindings 3
seed 9
sym s0 = 3 5 7
x0 = input float32 [4, s0]
v1 = sin(x0)
output v1
G
{ sed -n '1,3p' "$TMP/changed.txt"; echo "config inductor.freezing=True"; sed -n '4,$p' "$TMP/changed.txt"; } > "$TMP/frozen.txt"
# FILE passes under Inductor with --dynamic DYN, and BACKEND makes it a numeric finding (WHAT it plants).
judged() { # file dyn backend what
  local name
  name=$(basename "$1")
  "${run[@]}" --findings "$TMP/f-$name-$2" --dynamic "$2" "$1" | tee "$TMP/right"
  grep -q "$name: pass\$" "$TMP/right" || die "$name does not pass under Inductor, --dynamic $2"
  "${run[@]}" --findings "$TMP/f-$name-$2" --dynamic "$2" --backend "$3" "$1" | tee "$TMP/planted"
  grep -q "$name: numeric" "$TMP/planted" || die "$4 is not caught, --dynamic $2"
}
for dyn in true false; do
  judged "$TMP/number.txt" "$dyn" planted_first_scalar "a float kept from the first call"
  judged "$TMP/changed.txt" "$dyn" planted_cache_by_identity "a result cached by input identity"
done
"${run[@]}" --findings "$TMP/h" --dynamic false --backend planted_cache_by_identity "$TMP/frozen.txt" | tee "$TMP/frozen"
grep -q 'frozen.txt: pass$' "$TMP/frozen" || die "under freezing an input is still changed between calls"
if [ "$DEVICE" = cuda ]; then
  "${run[@]}" --findings "$TMP/c" --mode reduce-overhead "$TMP/changed.txt" | tee "$TMP/graphs"
  grep -q 'changed.txt: pass$' "$TMP/graphs" || die "CUDA graph trees miss an input changed between calls"
fi
echo "ok: a float kept from the first call and a result cached by input identity are caught; Inductor passes both"
