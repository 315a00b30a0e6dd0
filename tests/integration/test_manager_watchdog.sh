# `pt2fuzz fuzz --watchdog SECS`: a slot stuck in one input
# longer than the watchdog (here far below the worker's own --timeout) is
# killed and replaced, its stuck worker with it, its input filed as a hang
# finding (findings/hang-*, with its program) and kept in crashes/ as
# timeout-*, and the campaign goes on to its --time. The planted backend hangs in every compile
# (tests/integration/planted_backends.py: planted_hang).
# Runs alone: the watchdog and --time bound the wall time.
source "$(dirname "$0")/lib.sh"
OUT=$TMP/out T=60 W=20
mkdir "$TMP/seeds"
"$PT2FUZZ" gen --seed 5 --count 1 --size 3 --target cpu --configs 0 --out "$TMP/seeds" >/dev/null
t0=$SECONDS
"$PT2FUZZ" fuzz --jobs 1 --time $T --watchdog $W --timeout 600 --out "$OUT" --seeds "$TMP/seeds" \
  --device cpu --no-triage --plugin "$ROOT/tests/integration/planted_backends.py" --backend planted_hang \
  >"$TMP/run.log" 2>&1 &
runner=$!
# Once the watchdog has killed a slot, its stuck worker is gone with it: the
# campaign's processes (its token in their environment) hold one worker at most.
until grep -q "killed, replaced" "$OUT/fuzzer.log" 2>/dev/null || ! kill -0 $runner 2>/dev/null; do sleep 0.5; done
sleep 2
token=$(cat "$OUT/.runner")
workers=0
for env in /proc/[0-9]*/environ; do
  pid=${env#/proc/} pid=${pid%/environ}
  tr '\0' '\n' <"$env" 2>/dev/null | grep -qx "PT2FUZZ_CAMPAIGN=$token" || continue
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "python.* -u -c" && workers=$((workers + 1))
done
wait $runner || { cat "$TMP/run.log"; die "the campaign failed"; }
wall=$((SECONDS - t0))
cat "$TMP/run.log"
[ "$workers" -le 1 ] || die "$workers workers after the watchdog's kill: the stuck one outlived its target"
bound=$((T + 15))
[ "$wall" -le "$bound" ] || die "the campaign ran $wall s, above $bound s"
grep -q "watchdog: slot 0 ran one input for over $W s: killed, replaced" "$OUT/fuzzer.log" || die "the watchdog did not kill the stuck slot"
hang=$(ls -d "$OUT"/findings/hang-* 2>/dev/null | head -1)
[ -n "$hang" ] || die "no hang finding"
grep -q "\"verdict\": *\"hang\"" "$hang/meta.json" || die "$hang/meta.json is not a hang"
grep -q "over $W s (--watchdog)" "$hang/meta.json" || die "the hang finding does not say the watchdog filed it"
[ -s "$hang/repro.py" ] && [ -s "$hang/graph.bin" ] || die "the hang finding has no program or graph"
ls "$OUT"/crashes/timeout-* >/dev/null 2>&1 || die "the stuck input is not kept in crashes/"
killed=$(sed -n 's/.*, \([0-9]*\) stuck ones killed by the watchdog.*/\1/p' "$TMP/run.log")
started=$(sed -n 's/.* \([0-9]*\) target processes started.*/\1/p' "$TMP/run.log")
[ "${killed:-0}" -ge 1 ] && [ "${started:-0}" -gt "$killed" ] ||
  die "the stuck slot was not replaced ($killed killed, $started processes started)"
grep -q "^  watchdog        $killed stalled jobs restarted (no progress for $W s)" "$TMP/run.log" || die "the summary does not count the watchdog's kills"
! pgrep -f -- "--stats $OUT/stats" >/dev/null || die "a target outlived the campaign"
echo "watchdog: $killed stuck slots killed and replaced in $wall s ($workers worker after the first), $(ls -d "$OUT"/findings/hang-* | wc -l) hang findings"
