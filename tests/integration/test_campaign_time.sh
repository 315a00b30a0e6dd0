# `--time` is a bound on the whole command, start-up and wrap-up included
# (docs/campaigns.md): the campaign returns within 1.05 x --time + 30 s, by
# its own `time` line and by the wall clock, even when a job stalls. Here the
# worker lent to the fork job is stopped (SIGSTOP: a hang the 120 s request
# timeout would wait out); the watchdog (--watchdog 25) restarts the round,
# which starts fuzzing again. One component per input and no compile
# configurations: the 25 s watchdog is meant for this stall alone, and a fresh
# 8-component input, or one whose configuration compiles slowly (cpp_wrapper,
# max-autotune: up to 4 x --timeout, docs/campaigns.md), can take that long
# on two busy cores (the default watchdog, 600 s, is above them all).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/faults.sh"
OUT=$TMP/out T=90
mkdir "$TMP/seeds"
for s in doc001_s2_mm_add fam_shape_views fam_activation_softmax; do cp "$B/seeds/$s.bin" "$TMP/seeds/"; done
t0=$SECONDS
"$PT2FUZZ" fuzz --engine fork --time $T --jobs 1 --components 1 --out "$OUT" --seeds "$TMP/seeds" --device cpu --watchdog 25 --stats-every 5 \
  --no-configs --no-triage >"$TMP/log" 2>&1 &
runner=$!
read -r job w < <(lent_worker "$OUT" 60) || true
[ -n "${w:-}" ] || { cat "$TMP/log"; die "no libFuzzer job held a worker in 60 s"; }
kill -STOP "$w"
echo "stopped worker $w of job $job at $((SECONDS - t0)) s"
wait "$runner" || { cat "$TMP/log"; die "the campaign failed"; }
wall=$((SECONDS - t0))
cat "$TMP/log" | grep -v '^   '

bound=$((T * 105 / 100 + 30))
said=$(sed -n 's/^  time  *\([0-9]*\) s.*/\1/p' "$TMP/log")
echo "wall $wall s, time line $said s, bound $bound s"
[ -n "$said" ] && [ "$said" -le "$bound" ] || die "the time line says ${said:-nothing}, above $bound s"
[ "$wall" -le "$bound" ] || die "the campaign ran $wall s, above $bound s"

# The watchdog saw the stall, said so, and the campaign fuzzed again after it.
grep -q "watchdog: libFuzzer round 1 made no progress for 25 s: restarting it" "$TMP/log" || die "no watchdog restart"
grep -q "watchdog        1 stalled jobs restarted" "$TMP/log" || die "the summary does not count the restart"
[ "$(grep -c -- '-fork=1: .* seed inputs' "$OUT/fuzzer.log")" -ge 2 ] || die "no round after the restart"
! kill -0 "$w" 2>/dev/null || die "the stopped worker $w was left behind"
