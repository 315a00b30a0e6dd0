# Global modes (mode.* rows of a graph's configuration) are in force around
# eager, compiled and float64 runs alike, in the harness, the emitted program
# and the plain repro. Per mode, one graph tells a correct compile from a
# broken one: under the mode it passes with Inductor and is a finding with a
# backend that goes wrong under that mode (tests/integration/planted_modes.py:
# deterministic algorithms, grad mode, inference tensors as inputs; one that
# compiles and runs with autocast off), which passes the same graph without
# the mode. The emitted program passes alone; the plain repro names the mode,
# passes with Inductor and prints MISMATCH with the broken backend. A pinned
# mode (--inductor mode.NAME=1) is in force too. PT2FUZZ_TEST_DEVICE=cuda runs
# it all on a GPU (autocast and deterministic kernels on CUDA).
source "$(dirname "$0")/lib.sh"
DEVICE=${PT2FUZZ_TEST_DEVICE:-cpu}
cd "$TMP"
PLANTED=$ROOT/tests/integration/planted_modes.py
run=("$PT2FUZZ" run --device "$DEVICE" --findings f)
cat >g.txt <<'TXT'
bindings 1
seed 3
x0 = input float32 [4, 8]
p1 = param float32 [8, 5]
v2 = mm(x0, p1)
v3 = relu(v2)
output v3
TXT
"$PT2FUZZ" parse g.txt --out g.bin
declare -A broken=([deterministic_algorithms]=planted_wrong_deterministic [enable_grad]=planted_wrong_grad
  [inference_inputs]=planted_wrong_inference [autocast_bfloat16]=planted_ignores_autocast)
declare -A plain_line=([deterministic_algorithms]='^torch.use_deterministic_algorithms(True, warn_only=True)'
  [enable_grad]='^torch.set_grad_enabled(True)$' [inference_inputs]='^    x0 = as_inference(x0)'
  [autocast_bfloat16]='^@torch.autocast(\("cpu"\|device\), dtype=torch.bfloat16)')
modes=(deterministic_algorithms enable_grad inference_inputs autocast_bfloat16)
for m in "${modes[@]}"; do
  sed "s/^seed 3\$/seed 3\nconfig mode.$m=True/" g.txt >"$m.txt"
  "$PT2FUZZ" parse "$m.txt" --out "$m.bin"
done
"${run[@]}" g.bin "${modes[@]/%/.bin}" | tee right.txt
[ "$(grep -c '\.bin: pass$' right.txt)" = 5 ] || die "a graph under a global mode does not pass with Inductor"
for m in "${modes[@]}"; do
  "${run[@]}" --plugin "$PLANTED" --backend "${broken[$m]}" g.bin "$m.bin" | tee wrong.txt
  grep -q "^$m.bin: numeric/" wrong.txt || die "${broken[$m]} under mode.$m is not caught"
  grep -q '^g.bin: pass$' wrong.txt || die "${broken[$m]} without mode.$m is not a pass"
  "$PT2FUZZ" emit "$m.bin" >prog.py
  grep -q "\"mode.$m\": True" prog.py || die "the program's CONFIG lacks mode.$m"
  PT2FUZZ_DEVICE=$DEVICE $PY prog.py >prog.out 2>&1 || { cat prog.out; die "the emitted program of mode.$m failed"; }
  [ "$(tail -1 prog.out)" = PASS ] || die "the emitted program of mode.$m: $(tail -1 prog.out)"
  "$PT2FUZZ" emit --plain --device "$DEVICE" "$m.bin" >plain.py
  grep -q "${plain_line[$m]}" plain.py || die "the plain repro does not set mode.$m: $(cat plain.py)"
  [ "$($PY plain.py 2>&1 | tail -1)" = PASS ] || die "the plain repro of mode.$m does not pass with Inductor"
  "$PT2FUZZ" emit --plain --device "$DEVICE" --backend "${broken[$m]}" "$m.bin" >plain_broken.py
  $PY -c 'import runpy, sys; runpy.run_path(sys.argv[1]); runpy.run_path(sys.argv[2], run_name="__main__")' \
    "$PLANTED" plain_broken.py >plain.out 2>&1 || true
  grep -q '^MISMATCH output 0' plain.out || die "the plain repro of mode.$m with ${broken[$m]}: $(tail -3 plain.out)"
done
"${run[@]}" --plugin "$PLANTED" --backend planted_wrong_grad --inductor mode.enable_grad=1 g.bin | tee pinned.txt
grep -q '^g.bin: numeric/' pinned.txt || die "a pinned mode.enable_grad is not in force"
echo "ok: each global mode is in force in eager and compiled runs, the program and the plain repro; a backend wrong under it is caught"
