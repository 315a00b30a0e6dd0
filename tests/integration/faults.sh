# Finding a campaign's processes to inject faults into (sourced by the
# tests and bench/faults). OUT names the campaign: only processes whose
# command line holds it are touched.

# A libFuzzer -fork job of the campaign writing into $1 (its command line
# has -features_dir; not the shell libFuzzer starts it by), waiting up to $2
# seconds; empty when none came.
fork_job() {
  local out=$1 i
  for ((i = 0; i < $2 * 2; i++)); do
    pgrep -f -- "^[^ ]*pt2fuzz_fuzzer .*-features_dir=.*--heartbeat $out/stats/heartbeat-round" | head -1 && return
    sleep 0.5
  done
}

# The worker process a borrower $1 holds (the python whose stdin is a pipe
# the borrower writes), waiting up to $2 seconds; empty when none.
worker_of() {
  local job=$1 i p pipes
  for ((i = 0; i < $2 * 2; i++)); do
    pipes=$(ls -l "/proc/$job/fd" 2>/dev/null | grep -o 'pipe:\[[0-9]*\]' | sort -u) || return 0
    for p in $(pgrep python3); do
      [ "$p" != "$job" ] && [ -n "$pipes" ] && grep -qxF "$(readlink "/proc/$p/fd/0" 2>/dev/null)" <<<"$pipes" &&
        { echo "$p"; return; }
    done
    sleep 0.5
  done
}

# A -merge=1 process (outer or inner; not the shell libFuzzer starts it by)
# of the campaign writing into $1,
# waiting up to $2 seconds.
merge_proc() {
  local out=$1 i
  for ((i = 0; i < $2 * 2; i++)); do
    pgrep -f -- "^[^ ]*pt2fuzz_fuzzer .*-merge.*--heartbeat $out/stats/heartbeat-merge" | tail -1 && return
    sleep 0.5
  done
}
