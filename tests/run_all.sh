#!/usr/bin/env bash
# Runs every test suite and ends with one line: `N passed, N failed`.
#   unit       build/unit_tests (C, ASan+UBSan): one count per TEST
#   fuzz       the decoder under libFuzzer, 300,000 inputs: one test
#   integration build/integration_tests (C, real torch runtime): one count per TEST
#               (the unit suite runs beside these two, one core each)
#   end-to-end  tests/integration/test_*.sh (the tools as a user runs them): one test each;
#               E2E_JOBS at a time (default 2: most keep one core busy), except those
#               whose file says "# Runs alone:" (a campaign's --time, a watchdog, a
#               deadline: what the machine's speed decides), which run after them, one by one
# TESTS=substring limits the integration tests run (e.g. TESTS=seeds).
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
passed=0 failed=0
failures=()

suite_run() { # label, binary: a tests/run.c binary, its output in test-logs/LABEL.log
  local t0=$SECONDS
  "$2" >"$B/test-logs/$1.log" 2>&1
  echo $((SECONDS - t0)) >"$B/test-logs/$1.secs"
}

suite() { # label: what suite_run left; every TEST counts
  local label=$1 log="$B/test-logs/$1.log" line
  echo "== $label"
  grep -E '^(ok|FAIL)' "$log" | sed 's/^/  /'
  grep -E 'CHECK|ERROR|runtime error|setup:' "$log" | head -20 | sed 's/^/    /'
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  if [ -z "$line" ]; then
    failed=$((failed + 1)); failures+=("$label (crashed: see $log)"); tail -20 "$log" | sed 's/^/    /'; return
  fi
  passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
  failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
  grep -q '^FAIL' "$log" && failures+=("$label")
  echo "  ($(cat "$B/test-logs/$label.secs") s)"
}

# libFuzzer writes crash-, slow-unit-, timeout-, leak- and oom- files into its
# working directory unless told where: a test must send them to its own files.
artifacts() { ls -d crash-* slow-unit-* timeout-* leak-* oom-* 2>/dev/null || true; }
stray_artifacts() { # the artifacts listed before a test: those it added
  comm -13 <(echo "$1") <(artifacts) | xargs
}

one() { # name, command...: its line printed, its exit status left in test-logs/NAME.rc
  local name=$1; shift
  local log="$B/test-logs/$name.log" t0=$SECONDS before stray
  before=$(artifacts)
  "$@" >"$log" 2>&1
  local rc=$?
  stray=$(stray_artifacts "$before")
  [ -n "$stray" ] && { echo "FAILED: left libFuzzer files in $PWD: $stray" >>"$log"; rc=1; }
  if [ $rc = 0 ]; then
    printf 'ok   %-40s %4ss\n' "$name" $((SECONDS - t0))
  else # one write, so that a test beside it does not cut into it
    printf 'FAIL %-40s %4ss  (log: %s)\n%s\n' "$name" $((SECONDS - t0)) "$log" "$(tail -25 "$log" | sed 's/^/    /')"
  fi
  echo $rc >"$B/test-logs/$name.rc"
}

tally() { # names: counts what their runs by `one` left
  local name
  for name; do
    if [ "$(cat "$B/test-logs/$name.rc" 2>/dev/null)" = 0 ]; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1)); failures+=("$name")
    fi
  done
}

mkdir -p "$B/test-logs"
# The unit suite (one core, no torch) runs beside the decoder fuzzing and the
# integration suite: no limit of theirs is near what they take.
rm -f "$B"/test-logs/unit.secs "$B"/test-logs/integration.secs
suite_run unit "$B/unit_tests" &
unit_pid=$!

if [ -x "$B/decode_fuzzer" ]; then
  echo "== decoder fuzzing (libFuzzer, ASan+UBSan)"
  one decode-fuzzer-300k make -s B="$B" fuzz-test
  tally decode-fuzzer-300k
fi
suite_run integration "$B/integration_tests"
wait "$unit_pid"
suite unit

echo "== torch runtime: $(grep PT2FUZZ_TORCH "$B/runtime.env" 2>/dev/null | cut -d= -f2)"
suite integration
echo "== end-to-end tests"
# A stray libFuzzer file of a test run beside another fails one of the two.
rm -f "$B"/test-logs/*.rc
paired=() alone=()
for t in tests/integration/test_*.sh; do
  name=$(basename "$t" .sh)
  [ -n "${TESTS:-}" ] && [[ $name != *"$TESTS"* ]] && continue
  if grep -q '^# Runs alone:' "$t"; then alone+=("$name"); else paired+=("$name"); fi
done
for name in "${paired[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "${E2E_JOBS:-2}" ]; do wait -n; done
  one "$name" bash "tests/integration/$name.sh" &
done
wait
for name in "${alone[@]}"; do one "$name" bash "tests/integration/$name.sh"; done
tally "${paired[@]}" "${alone[@]}"

for f in "${failures[@]}"; do echo "failed: $f"; done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
