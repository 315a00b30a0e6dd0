#!/usr/bin/env bash
# bench/entropic/run.sh: libFuzzer's own seconds per run with entropic scheduling on
# and off, for a target that sets FEATURES counters a run (a pt2fuzz compile
# sets about 30,000: two small seeds gave 67,758 features). Entropic keeps,
# per corpus input, a sorted vector of feature frequencies grown by
# insertion for each feature of each run; campaigns pass -entropic=0
# (fuzz/campaign.c).
# Appends a row to bench/results/entropic.tsv (bench/record: commit, machine,
# torch, then runs, features, and seconds, ms_per_run and corpus with
# entropic on, then off).
#   bench/entropic/run.sh [RUNS=100] [FEATURES=30000]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RUNS=${1:-100} FEATURES=${2:-30000}
W=$(mktemp -d /tmp/pt2fuzz-bench-entropic.XXXXXX)
trap 'rm -rf "$W"' EXIT
clang -O1 -fsanitize=fuzzer "$ROOT/bench/entropic/target.c" -o "$W/target"
printf '%-10s %6s %10s %12s %8s\n' entropic runs seconds "ms per run" corpus
fields=()
for e in 1 0; do
  mkdir -p "$W/corpus-$e"
  t0=$(date +%s.%N)
  FEATURES=$FEATURES "$W/target" -entropic=$e -runs="$RUNS" -seed=1 "$W/corpus-$e" >"$W/log-$e" 2>&1
  t1=$(date +%s.%N)
  read -r side secs ms corpus < <(awk -v e=$e -v r="$RUNS" -v a="$t0" -v b="$t1" -v c="$(ls "$W/corpus-$e" | wc -l)" \
    'BEGIN { printf "%s %.2f %.1f %d\n", e ? "on" : "off", b - a, 1000 * (b - a) / r, c }')
  printf '%-10s %6d %10s %12s %8d\n' "$side" "$RUNS" "$secs" "$ms" "$corpus"
  fields+=("seconds_$side=$secs" "ms_per_run_$side=$ms" "corpus_$side=$corpus")
done
"$ROOT/bench/record" entropic runs="$RUNS" features="$FEATURES" "${fields[@]}"
