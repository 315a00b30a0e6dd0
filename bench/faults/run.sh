#!/usr/bin/env bash
# Fault injection into short campaigns (docs/campaigns.md, *What happens on
# each fault*): prints one row per fault: whether it was injected, whether
# the campaign survived (went on, or resumed, to a normal end), and how many
# findings and corpus files were lost (gone, or no longer decoding).
#   bench/faults/run.sh [WORKDIR]     (about 5 minutes on 2 cores)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-$ROOT/build}
PT2FUZZ=$B/pt2fuzz
source "$ROOT/tests/integration/faults.sh"
W=${1:-$(mktemp -d /tmp/pt2fuzz-faults.XXXXXX)}
mkdir -p "$W/seeds"
for s in doc001_s2_mm_add fam_shape_views fam_activation_softmax; do cp "$B/seeds/$s.bin" "$W/seeds/"; done
ROWS=()
row() { ROWS+=("$(printf '%-34s %-9s %-9s %-15s %s' "$@")"); }

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
campaign() { # out, time, log, extra options...
  local out=$1 t=$2 log=$3; shift 3
  "$PT2FUZZ" fuzz --time "$t" --jobs 1 --out "$out" --seeds "$W/seeds" --device cpu --no-triage --stats-every 5 "$@" >"$log" 2>&1
}
ended_well() { grep -q "pt2fuzz campaign summary" "$1"; }

# 1. One campaign, four faults in turn: a worker killed mid-request, the fork
# job killed, a merge killed, a worker stopped (a hang: the watchdog's).
O=$W/one
campaign "$O" 150 "$W/one.log" --merge-every 40 --watchdog 25 &
runner=$!
job=$(fork_job "$O" 90) w=$( [ -n "$job" ] && worker_of "$job" 40)
[ -n "$w" ] && kill -9 "$w" && k1=yes || k1=no
sleep 8
job=$(fork_job "$O" 40)
[ -n "$job" ] && kill -9 "$job" && k2=yes || k2=no
m=$(merge_proc "$O" 60)
[ -n "$m" ] && kill -9 "$m" && k3=yes || k3=no
job=$(fork_job "$O" 40) w=$( [ -n "$job" ] && worker_of "$job" 30)
[ -n "$w" ] && kill -STOP "$w" && k4=yes || k4=no
ls "$O/corpus" >"$W/one.corpus"; ls "$O/findings" >"$W/one.findings"
wait "$runner"; rc=$?
ok=$([ $rc = 0 ] && ended_well "$W/one.log" && echo yes || echo no)
fl=$(findings_lost "$W/one.findings" "$O/findings") cl=$(corpus_lost /dev/null "$O/corpus")
row "kill -9 a worker mid-request" $k1 "$ok" "$fl" "$cl"
row "kill -9 a fork job" $k2 "$ok" "$fl" "$cl"
row "kill -9 a merge" $k3 "$([ "$ok" = yes ] && [ ! -e "$O/corpus.merge" ] && echo yes || echo no)" "$fl" "$cl"
row "SIGSTOP a worker (hang)" $k4 "$([ "$ok" = yes ] && grep -q 'watchdog: libFuzzer round' "$W/one.log" && echo yes || echo no)" "$fl" "$cl"

# 2. The whole campaign killed mid-run (files being written), then corrupt
# and truncated corpus and finding files, then the same command again.
O=$W/two
campaign "$O" 600 "$W/two-a.log" --merge-every 0 &
shell=$!
fork_job "$O" 90 >/dev/null; sleep 20
runner=$(pgrep -o -f -- "pt2fuzz fuzz --time 600 --jobs 1 --out $O ")
[ -n "$runner" ] && kill -9 "$runner" && k5=yes || k5=no # its lender and libFuzzer follow (PR_SET_PDEATHSIG)
wait "$shell" 2>/dev/null
ls "$O/corpus" >"$W/two.corpus"; ls "$O/findings" >"$W/two.findings"
head -c 7 "$(ls "$O"/corpus/* | head -1)" >"$O/corpus/truncated-input"
head -c 300 /dev/urandom >"$O/corpus/random-input"
mkdir -p "$O/findings/numeric-corrupt" && head -c 40 /dev/urandom >"$O/findings/numeric-corrupt/graph.bin" &&
  echo '{"kind": "numer' >"$O/findings/numeric-corrupt/meta.json"
campaign "$O" 60 "$W/two-b.log" --merge-every 0; rc=$?
ok=$([ $rc = 0 ] && ended_well "$W/two-b.log" && grep -q "resuming" "$W/two-b.log" && echo yes || echo no)
rm -f "$O/corpus/truncated-input" "$O/corpus/random-input"; rm -rf "$O/findings/numeric-corrupt"
fl=$(findings_lost "$W/two.findings" "$O/findings") cl=$(corpus_lost "$W/two.corpus" "$O/corpus")
row "kill -9 the campaign, resume" $k5 "$ok" "$fl" "$cl"
row "truncated/corrupt corpus files" yes "$(grep -q '^rejected	[1-9]' "$O/stats/totals.tsv" && echo "$ok" || echo no)" "$fl" "$cl"
row "corrupt finding files" yes "$ok" "$fl" "$cl"

# 3. A full disk: OUT on a 4 MiB tmpfs.
O=$W/full
mkdir -p "$O" && mount -t tmpfs -o size=4m tmpfs "$O" && k6=yes || k6=no
dd if=/dev/zero of="$O/filler" bs=64k count=56 status=none 2>/dev/null
t0=$SECONDS
campaign "$O/out" 60 "$W/full.log" --merge-every 0; rc=$?
ok=$([ $((SECONDS - t0)) -le 93 ] && ended_well "$W/full.log" && echo yes || echo no)
rm -f "$O/filler"
cl=$(corpus_lost /dev/null "$O/out/corpus") fl=$(findings_lost /dev/null "$O/out/findings")
row "full disk (4 MiB tmpfs OUT)" $k6 "$ok" "$fl" "$cl"
umount "$O" 2>/dev/null

printf '%-34s %-9s %-9s %-15s %s\n' fault injected survived "findings lost" "corpus files lost"
printf '%s\n' "${ROWS[@]}"
