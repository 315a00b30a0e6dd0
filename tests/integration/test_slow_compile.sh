# A slow compile is no hang. A configuration whose compiles are slow
# (settings and modes the catalogue marks slow-compile: autotuning,
# benchmarking, a C++ build) gets the request's --timeout times 1 + their
# number (at most 4). And a run past its limit is run again alone in a fresh
# worker given 3 times as long (pipeline/hang_confirm.h): finishing, its
# verdict is the rerun's; hanging again, the hang stands, confirmed. In a
# campaign the rerun ends before the watchdog and the deadline, or is not
# made and the hang stands, unconfirmed.
# The planted backend's compile takes $PT2FUZZ_COMPILE_SECS
# (tests/integration/planted_backends.py: planted_slow_compile).
# Runs alone: limits of seconds.
source "$(dirname "$0")/lib.sh"
cd "$TMP"
run=(--device cpu --timeout 4 --plugin "$ROOT/tests/integration/planted_backends.py" --backend planted_slow_compile)
graph() { # the config line's settings, the graph's text file
  printf 'bindings 1\nseed 3\n%s\nx0 = input float32 [4, 8]\nv1 = relu(x0)\noutput v1\n' "$1" >"$2"
  "$PT2FUZZ" parse "$2" --out "${2%.txt}.bin"
}
graph "" plain.txt
graph "config inductor.max_autotune=True inductor.cpp_wrapper=True" slow.txt
"$PT2FUZZ" configs >configs.txt # whole: a grep -q that ends early breaks the pipe
grep -q "^inductor.cpp_wrapper .* slow-compile" configs.txt || die "configs does not mark cpp_wrapper slow-compile"

# 8 s: past the plain graph's 4 s, within its rerun's 12 s and the slow configuration's 12 s.
export PT2FUZZ_COMPILE_SECS=8
"$PT2FUZZ" run "${run[@]}" --findings f plain.bin >plain.out 2>&1 || { cat plain.out; die "run of the plain graph failed"; }
grep -q ": pass (not a hang: alone in a fresh worker given 12 s it finished in [0-9]* s (its limit: 4 s))$" plain.out ||
  die "a compile over --timeout that ends within 3 times it is not judged by its rerun: $(cat plain.out)"
"$PT2FUZZ" run "${run[@]}" --findings f slow.bin >slow.out 2>&1 || { cat slow.out; die "run of the slow configuration failed"; }
grep -q ": pass$" slow.out || die "the slow configuration did not get its longer limit: $(cat slow.out)"
[ ! -e f ] || die "a slow compile was filed: $(ls f)"

# A compile that never ends: the hang stands, confirmed by its rerun.
PT2FUZZ_COMPILE_SECS=3600 "$PT2FUZZ" run "${run[@]}" --findings f plain.bin >hang.out 2>&1 || true
grep -q ": hang: .*(confirmed: it hung again alone in a fresh worker given 12 s)" hang.out ||
  die "a hang is not confirmed by its rerun: $(cat hang.out)"
grep -q '"confirmation": *"confirmed"' f/hang-*/meta.json || die "the hang finding does not say it was confirmed"

# A campaign: the 8 s compile is judged by its rerun, a pass; an input whose rerun would end
# past the deadline is filed as a hang, unconfirmed, never confirmed.
mkdir seeds && cp plain.bin seeds/
"$PT2FUZZ" fuzz --jobs 1 --time 45 --out c1 --seeds seeds "${run[@]}" --no-triage --no-configs >c1.log 2>&1 ||
  { cat c1.log; die "the campaign failed"; }
grep -q "^  verdicts  *pass [1-9]" c1.log || { cat c1.log; die "no input of the campaign passed by its rerun"; }
! grep -q '"confirmation": *"confirmed"' c1/findings/hang-*/meta.json 2>/dev/null ||
  die "a campaign confirmed a slow compile as a hang"
# A hang near the deadline: its rerun is cut to end 5 s before it (or not made), so the
# hang is filed; a rerun given its full 12 s would end past the deadline, cut off with it.
PT2FUZZ_COMPILE_SECS=3600 "$PT2FUZZ" fuzz --jobs 1 --time 20 --out c2 --seeds seeds "${run[@]}" \
  --no-triage --no-configs >c2.log 2>&1 || { cat c2.log; die "the second campaign failed"; }
hang=$(ls -d c2/findings/hang-* 2>/dev/null | head -1)
[ -n "$hang" ] || { cat c2.log; die "the campaign lost its hang to the deadline"; }
grep -q '"confirmation": *"\(un\)\{0,1\}confirmed"' "$hang/meta.json" || die "the hang finding says nothing of its rerun"
echo "slow compile: an 8 s compile passes at --timeout 4 by its rerun and with two slow settings; a hang is confirmed; campaigns file the hang only"
