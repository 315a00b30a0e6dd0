# The campaign's first pass (docs/campaigns.md): libFuzzer's -fork begins
# with a merge of the seeds in one process while the jobs' slots wait; the
# campaign runs the seeds first, as many at once as it has jobs, and the
# merge reads what they left in the replay cache. planted_slow makes each
# compile sleep and marks its worker busy meanwhile, so the test sees what
# compiles when: two seeds at once before any libFuzzer process, and none
# while libFuzzer's first merge runs. A seed that is a finding is recorded
# once, and the merge leaves it out without compiling it again. The jobs
# run without entropic scheduling. Configurations are off (--no-configs), so
# a seed runs as its bytes say and its finding's graph is the seed's.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/faults.sh"

bug=$(finding_seed)
[ -n "$bug" ] || die "no shipped seed is a finding on torch $TORCH_MINOR"
mkdir -p "$SLOW/seeds"
for s in doc001_s2_mm_add fam_shape_views fam_activation_softmax "$bug"; do cp "$B/seeds/$s.bin" "$SLOW/seeds/"; done

out=$TMP/out
busy() { ls "$SLOW" | grep -c '^[0-9]' || true; }
libfuzzer() { pgrep -f -- "--heartbeat $out/stats/heartbeat-round" >/dev/null; } # any process of the round
merging() { pgrep -f -- "-merge_inner=1 .*--heartbeat $out/stats/heartbeat-round" >/dev/null; }

slow_on 6
"$PT2FUZZ" fuzz --engine fork --time 75 --jobs 2 --out "$out" --seeds "$SLOW/seeds" --device cpu --no-triage --stats-every 5 \
  --components 1 --plugin "$ROOT/tests/integration/planted_backends.py" --backend planted_slow \
  --hunt-known --no-configs >"$TMP/log" 2>&1 & # the finding seed's component is a known bug's trigger, else dropped
campaign=$!
parallel=0 merge_compiled=0
while kill -0 $campaign 2>/dev/null; do
  n=$(busy)
  if [ "$n" -ge 2 ] && ! libfuzzer; then parallel=1; fi
  if [ "$n" -ge 1 ] && merging && ! pgrep -f -- "-features_dir=.*--heartbeat $out/stats/heartbeat-round" >/dev/null; then
    merge_compiled=1
  fi
  sleep 0.25
done
wait $campaign || { cat "$TMP/log"; die "the campaign failed"; }
grep -v '^   ' "$TMP/log"

# The finding seed is one of pt2fuzz's reported bugs (pipeline/known_bugs.txt): recorded, and it
# ends no process (a known finding does not, under the campaign's --keep-going).
grep -q "first pass: 4 of 4 inputs of the seed folders in [0-9]* s, [0-9]* processes (2 at once), 0 ended by a new finding, 0 stuck, 0 failed" \
  "$TMP/log" || die "the first pass did not run the 4 seeds, or not 2 at once, or a known finding ended a process"
grep -q "findings 1 (0 new, 0 awaiting, 0 known, 1 reported" "$TMP/log" || die "the seed's finding is not counted as a reported bug"
echo "two seeds compiling at once before libFuzzer: $parallel; a compile during its first merge: $merge_compiled"
[ $parallel = 1 ] || die "no two seeds compiled at once before libFuzzer started"
[ $merge_compiled = 0 ] || die "libFuzzer's first merge compiled an input the first pass had run"
grep -q "INFO: -fork=2: 3 seed inputs" "$out/fuzzer.log" || die "the merge did not keep the 3 seeds that are not findings"
# The -fork parent's header (its flags go to every job): no entropic scheduling,
# whose feature bookkeeping costs libFuzzer up to a second a run (bench/entropic/run.sh).
grep -B4 -- "INFO: -fork=2: fuzzing in separate" "$out/fuzzer.log" | grep -q "entropic power schedule" &&
  die "libFuzzer's jobs run with entropic scheduling"
[ "$(grep -l '^P2FX' "$out"/replay/* | wc -l)" = 1 ] || die "the finding seed is not in the replay cache as a finding"
seed_finding= # the seed's own (the jobs' mutants may find others)
for d in "$out"/findings/*/; do cmp -s "$d/graph.bin" "$SLOW/seeds/$bug.bin" && seed_finding=$d; done
[ -n "$seed_finding" ] || die "the seed's finding was not recorded"
grep -q '"count": 1\b' "$seed_finding/meta.json" || die "the seed's finding was counted more than once"
