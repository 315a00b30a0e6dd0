# Injecting faults into a campaign (sourced by
# tests/integration/test_manager_faults.sh and bench/faults/run.sh). OUT
# names the campaign: only processes whose command line holds it are
# touched. Every wait is a bounded poll; a helper that finds nothing prints
# nothing, and the caller fails loudly.
# Needs PT2FUZZ, and ROOT, B (lib.sh's) for the seeds and the plugin.

# The campaigns' slow switch: planted_slow (planted_backends.py) sleeps in
# each compile while $SLOW/slow holds a number of seconds, and marks its
# worker busy in $SLOW meanwhile. slow_dir makes a fresh one (inside a test's TMP, which goes
# with it): the caller's SLOW if it set one, else this; a campaign beside another takes its own.
slow_dir() { SLOW=$(mktemp -d "${TMP:-/tmp}/pt2fuzz-slow.XXXXXX") && export PT2FUZZ_SLOW_DIR=$SLOW; }
if [ -n "${SLOW:-}" ]; then export PT2FUZZ_SLOW_DIR=$SLOW; else slow_dir; fi
slow_on() { echo "$1" >"$SLOW/slow"; }
slow_off() { rm -f "$SLOW/slow"; }

# A short campaign: OUT, --time, log, then more options. Three small seeds,
# one job, CPU, Inductor through planted_slow.
fault_campaign() {
  local out=$1 t=$2 log=$3; shift 3
  mkdir -p "$SLOW/seeds"
  for s in doc001_s2_mm_add fam_shape_views fam_activation_softmax; do cp "$B/seeds/$s.bin" "$SLOW/seeds/"; done
  "$PT2FUZZ" fuzz --time "$t" --jobs 1 --out "$out" --seeds "$SLOW/seeds" --device cpu --no-triage --stats-every 5 \
    --plugin "$ROOT/tests/integration/planted_backends.py" --backend planted_slow "$@" >"$log" 2>&1
}
ended_well() { grep -q "pt2fuzz campaign summary" "$1"; }

# The persistent targets (slots) of the manager's campaign writing into $1.
slot_procs() { pgrep -f -- "^[^ ]*pt2fuzz_fuzzer .*--stats $1/stats --serve"; }

# One of them, waiting up to $2 seconds; empty when none came.
campaign_target() {
  local i
  for ((i = 0; i < $2 * 2; i++)); do
    slot_procs "$1" | head -1 && return
    sleep 0.5
  done
}

# The pipes process $1 holds open (none: nothing; a process gone: nothing).
pipes_of() { ls -l "/proc/$1/fd" 2>/dev/null | grep -o 'pipe:\[[0-9]*\]' | sort -u || true; }

# A worker mid-request for a slot of the campaign writing into $1: asleep
# in planted_slow's compile (slow_on first), its stdin a pipe that slot's
# target holds. Waits up to $2 seconds (targets are replaced: each look asks
# afresh); empty when none.
busy_worker() {
  local i p j pipes
  for ((i = 0; i < $2 * 2; i++)); do
    pipes=$(for j in $(slot_procs "$1"); do pipes_of "$j"; done)
    for p in $(ls "$SLOW" 2>/dev/null | grep -x '[0-9]*'); do
      [ -n "$pipes" ] && [ "$(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null)" = S ] &&
        grep -qxF "$(readlink "/proc/$p/fd/0" 2>/dev/null)" <<<"$pipes" && { echo "$p"; return; }
    done
    sleep 0.5
  done
}

# Waits up to $2 seconds for OUT ($1) to hold a corpus input; fails when
# none came.
corpus_grew() {
  local i
  for ((i = 0; i < $2 * 2; i++)); do
    [ -n "$(ls "$1/corpus" 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  return 1
}

# Waits up to $2 seconds for a target of OUT ($1) to count a worker crash.
crash_counted() {
  local i
  for ((i = 0; i < $2 * 2; i++)); do
    grep -qs '^worker_crashes	[1-9]' "$1"/stats/totals.tsv "$1"/stats/fuzzer-*.tsv && return 0
    sleep 0.5
  done
  return 1
}

# The runner of the campaign writing into $1 (pt2fuzz fuzz ... --out $1).
runner_of() { pgrep -o -f -- "pt2fuzz fuzz .*--out $1 "; }

# Inputs of a corpus snapshot missing now, plus corpus files that do not decode.
corpus_lost() { # snapshot, dir
  local n=0 f
  while read -r f; do [ -e "$2/$f" ] || n=$((n + 1)); done <"$1"
  for f in "$2"/*; do [ -e "$f" ] && ! "$PT2FUZZ" check "$f" >/dev/null 2>&1 && n=$((n + 1)); done
  echo $n
}
# Findings of a snapshot missing now, plus findings whose graph.bin or meta.json are not whole.
findings_lost() { # snapshot, dir
  local n=0 f
  while read -r f; do [ -e "$2/$f" ] || n=$((n + 1)); done <"$1"
  for f in "$2"/*/; do
    [ -e "$f" ] || continue
    { "$PT2FUZZ" check "$f/graph.bin" >/dev/null 2>&1 && python3 -m json.tool "$f/meta.json" >/dev/null 2>&1; } || n=$((n + 1))
  done
  echo $n
}

# Damage as a crash or a bad disk leaves it, in OUT ($1): a truncated and a
# random corpus file, a finding with a corrupt graph.bin and meta.json,
# half-written temporary files (what a kill -9 mid-write leaves beside the
# file it was replacing).
damage() {
  local out=$1 one
  one=$(ls "$out"/corpus/* 2>/dev/null | head -1)
  [ -n "$one" ] || { echo "faults: no corpus input to damage in $out" >&2; return 1; }
  head -c 7 "$one" >"$out/corpus/truncated-input"
  head -c 300 /dev/urandom >"$out/corpus/random-input"
  head -c 5 "$one" >"$out/corpus/.$(basename "$one").tmp.99999"
  mkdir -p "$out/findings/numeric-corrupt"
  head -c 40 /dev/urandom >"$out/findings/numeric-corrupt/graph.bin"
  echo '{"kind": "numer' >"$out/findings/numeric-corrupt/meta.json"
  one=$(ls -d "$out"/findings/*/ | grep -v numeric-corrupt | head -1)
  [ -z "$one" ] || echo '{"signa' >"$one/.meta.json.tmp.99999"
}
# Takes back what damage() planted (so that what is left can be counted).
undamage() {
  rm -f "$1/corpus/truncated-input" "$1/corpus/random-input" "$1"/corpus/.*.tmp.99999 "$1"/findings/*/.meta.json.tmp.99999
  rm -rf "$1/findings/numeric-corrupt"
}
