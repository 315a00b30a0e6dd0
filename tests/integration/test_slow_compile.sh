# A configuration whose compiles are slow (settings and modes the catalogue
# marks slow-compile: autotuning, benchmarking, a C++ build) gets the request's
# --timeout times 1 + their number (at most 4): its slow compile is no hang.
# The planted backend's compile takes longer than --timeout
# (tests/integration/planted_backends.py: planted_slow_compile); the graph
# without slow settings hangs, the one with two (3 x --timeout) passes.
# Runs alone: a --timeout of 5 s.
source "$(dirname "$0")/lib.sh"
cd "$TMP"
export PT2FUZZ_COMPILE_SECS=8
run=(--device cpu --timeout 5 --plugin "$ROOT/tests/integration/planted_backends.py" --backend planted_slow_compile
  --findings f)
graph() { # the config line's settings, the graph's text file
  printf 'bindings 1\nseed 3\n%s\nx0 = input float32 [4, 8]\nv1 = relu(x0)\noutput v1\n' "$1" >"$2"
  "$PT2FUZZ" parse "$2" --out "${2%.txt}.bin"
}
graph "" plain.txt
graph "config inductor.max_autotune=True inductor.cpp_wrapper=True" slow.txt
"$PT2FUZZ" configs >configs.txt # whole: a grep -q that ends early breaks the pipe
grep -q "^inductor.cpp_wrapper .* slow-compile" configs.txt || die "configs does not mark cpp_wrapper slow-compile"
"$PT2FUZZ" run "${run[@]}" plain.bin >plain.out 2>&1 || true
grep -q ": hang" plain.out || die "a compile over --timeout without slow settings is no hang: $(cat plain.out)"
"$PT2FUZZ" run "${run[@]}" slow.bin >slow.out 2>&1 || { cat slow.out; die "run of the slow configuration failed"; }
grep -q ": pass" slow.out || die "the slow configuration did not get its longer limit: $(cat slow.out)"
echo "slow compile: a ${PT2FUZZ_COMPILE_SECS} s compile hangs at --timeout 5, passes with two slow settings"
