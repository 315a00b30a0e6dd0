#!/usr/bin/env bash
# bench/placement/gpu-check.sh: on a node of 2 or more GPUs, checks the
# manager engine's placement (fuzz/placement.h) with the real nvidia-smi and
# real workers: a campaign of --jobs N (default 2 per GPU) on --device
# cuda:auto; while it runs, every target's worker must run on the GPU its
# --device names (nvidia-smi's compute apps, by the worker's pid), the slots
# must spread over the GPUs (each GPU holds some when they start equally
# empty), and no GPU may pass 90% of its memory (its peak, as the summary
# says it). CPU machines check the same decisions with a fake nvidia-smi:
# tests/integration/test_manager_placement.sh. A check that passes appends a
# row to bench/results/placement.tsv (bench/record: commit, machine, torch,
# then seconds, jobs, gpus, placements checked, and the summary's GPU line).
#   bench/placement/gpu-check.sh [--time SECS=180] [--jobs N] [pt2fuzz fuzz options...]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-$ROOT/build}
SECS=180 JOBS=""
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --time) SECS=${2:?--time SECS}; shift 2 ;;
    --jobs) JOBS=${2:?--jobs N}; shift 2 ;;
    *) extra+=("$1"); shift ;;
  esac
done
[ -z "${CUDA_VISIBLE_DEVICES:-}" ] || { echo "gpu-check: unset CUDA_VISIBLE_DEVICES (the check maps nvidia-smi's indices)" >&2; exit 2; }
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
[ "$gpus" -ge 2 ] || { echo "gpu-check: $gpus GPUs: placement needs 2 or more" >&2; exit 2; }
JOBS=${JOBS:-$((2 * gpus))}
OUT=$(mktemp -d /tmp/pt2fuzz-placement.XXXXXX)
fail() { echo "gpu-check: FAILED: $*" >&2; echo "(files in $OUT)" >&2; exit 1; }
"$B/pt2fuzz" fuzz --jobs "$JOBS" --time "$SECS" --device cuda:auto --out "$OUT/out" --no-triage \
  "${extra[@]}" >"$OUT/run.log" 2>&1 &
runner=$!
# uuid -> index, then every few seconds: each target's --device against its workers' GPUs.
nvidia-smi --query-gpu=uuid,index --format=csv,noheader | tr -d ' ' >"$OUT/uuids"
checked=0
while kill -0 $runner 2>/dev/null; do
  nvidia-smi --query-compute-apps=pid,gpu_uuid --format=csv,noheader | tr -d ' ' >"$OUT/apps" || true
  for target in $(pgrep -f -- "--stats $OUT/out/stats" || true); do
    want=$(tr '\0' '\n' <"/proc/$target/cmdline" 2>/dev/null | awk 'p == "--device" { d = $0 } { p = $0 } END { print d }')
    for worker in $(pgrep -P "$target" || true); do
      # every GPU the worker holds a context on (one line each): only its own
      got=$(awk -F, -v p="$worker" 'NR == FNR { index_of[$1] = $2; next } $1 == p { printf "%scuda:%s", sep, index_of[$2]; sep = " " }' \
        "$OUT/uuids" "$OUT/apps")
      [ -n "$got" ] || continue # not on a GPU yet
      [ "$got" = "$want" ] || fail "target $target asked for $want, its worker $worker runs on $got"
      checked=$((checked + 1))
    done
  done
  sleep 5
done
wait $runner || fail "the campaign failed (see $OUT/run.log)"
[ "$checked" -gt 0 ] || fail "no worker was seen on a GPU"
line=$(grep "engine manager: GPUs:" "$OUT/run.log") || fail "no GPU line in the summary"
echo "$line"
echo "$line" | sed 's/.*GPUs: //; s/; /\n/g' |
  sed -n 's/^\(cuda:[0-9]*\) [0-9]* slots (most \([0-9]*\)), [0-9]*\/\([0-9]*\) MiB (peak \([0-9]*\))$/\1 \2 \3 \4/p' >"$OUT/gpus"
[ "$(wc -l <"$OUT/gpus")" -eq "$gpus" ] || fail "the summary's GPU line does not list $gpus GPUs"
while read -r gpu most total peak; do
  [ "$most" -ge 1 ] || fail "$gpu never held a slot"
  [ $((peak * 100)) -le $((total * 90)) ] || fail "$gpu peaked at $peak of $total MiB as placement saw it, past 90%"
done <"$OUT/gpus"
echo "gpu-check: $checked worker placements matched their --device over $gpus GPUs, $JOBS slots"
"$ROOT/bench/record" placement seconds="$SECS" jobs="$JOBS" gpus="$gpus" placements="$checked" gpu_line="${line#*GPUs: }"
