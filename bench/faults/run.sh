#!/usr/bin/env bash
# Fault injection into short campaigns (docs/campaigns.md, *What happens on
# each fault*): prints one row per fault: whether it was injected, whether
# the campaign survived (went on, or resumed, to a normal end), and how many
# findings and corpus files were lost (gone, or no longer decoding). Every
# fault is injected into a state made on purpose (a worker asleep in a slow
# compile), found by a bounded poll; a fault
# that could not be injected says so and makes the script fail. Appends a row
# to bench/results/faults.tsv (bench/record: commit, machine, torch, then
# faults, injected, survived, findings_lost and corpus_lost summed over the
# campaigns, and failed: the faults not injected or not survived).
#   bench/faults/run.sh [WORKDIR]     (about 8 minutes on 2 cores)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-$ROOT/build}
PT2FUZZ=$B/pt2fuzz
W=${1:-$(mktemp -d /tmp/pt2fuzz-faults.XXXXXX)}
mkdir -p "$W"
SLOW=$W/slow
mkdir -p "$SLOW"
source "$ROOT/tests/integration/faults.sh"
ROWS=() MISSED=0 SURVIVED=0 FAILED=() LOST_F=0 LOST_C=0
row() {
  ROWS+=("$(printf '%-34s %-9s %-9s %-15s %s' "$@")")
  [ "$2" = yes ] || MISSED=$((MISSED + 1))
  [ "$3" = yes ] && SURVIVED=$((SURVIVED + 1))
  [ "$2" = yes ] && [ "$3" = yes ] || FAILED+=("$1")
}
# A campaign's losses (findings snapshot and folder, corpus snapshot and folder): fl and cl, added to the totals.
losses() {
  fl=$(findings_lost "$1" "$2") cl=$(corpus_lost "$3" "$4")
  LOST_F=$((LOST_F + fl)) LOST_C=$((LOST_C + cl))
}
no() { echo "faults: NOT INJECTED: $*" >&2; echo no; }

# 1. One campaign, three faults in turn: a worker killed mid-request, a
# slot's target killed, a worker stopped (a hang: the watchdog's).
O=$W/one
fault_campaign "$O" 240 "$W/one.log" --watchdog 60 &
shell=$!
job=$(campaign_target "$O" 120)
slow_on 6
w=$(busy_worker "$O" 90)
k1=$( [ -n "$w" ] && kill -9 "$w" && echo yes || no "no worker mid-request")
crash_counted "$O" 60 # before a target is killed: the one that counts it, maybe
job=$(campaign_target "$O" 60)
k2=$( [ -n "$job" ] && kill -9 "$job" && echo yes || no "no slot's target")
w=$(busy_worker "$O" 90)
k4=$( [ -n "$w" ] && kill -STOP "$w" && echo yes || no "no worker mid-request to stop")
stopped=$w
slow_off
ls "$O/findings" >"$W/one.findings"
wait "$shell"; rc=$?
ok=$([ $rc = 0 ] && ended_well "$W/one.log" && echo yes || echo no)
# (corpus: what is left must decode)
losses "$W/one.findings" "$O/findings" /dev/null "$O/corpus"
row "kill -9 a worker mid-request" "$k1" "$([ "$ok" = yes ] && grep -q '^worker_crashes	[1-9]' "$O/stats/totals.tsv" && echo yes || echo no)" "$fl" "$cl"
row "kill -9 a slot's target" "$k2" "$ok" "$fl" "$cl"
row "SIGSTOP a worker (hang)" "$k4" "$([ "$ok" = yes ] && grep -q 'watchdog: slot [0-9]* ran one input' "$O/fuzzer.log" &&
  ! kill -0 "${stopped:-0}" 2>/dev/null && echo yes || echo no)" "$fl" "$cl"

# 2. The whole campaign killed mid-request, then damage (truncated, corrupt
# and half-written corpus and finding files), then the same command again.
O=$W/two
fault_campaign "$O" 600 "$W/two-a.log" &
shell=$!
job=$(campaign_target "$O" 120)
corpus_grew "$O" 120 || echo "faults: no corpus input came" >&2
slow_on 6
w=$(busy_worker "$O" 90) runner=$(runner_of "$O")
k5=$( [ -n "$w" ] && [ -n "$(ls "$O/corpus")" ] && [ -n "$runner" ] && kill -9 "$runner" && echo yes || no "no campaign mid-request with a corpus") # its targets follow (PR_SET_PDEATHSIG)
slow_off
wait "$shell" 2>/dev/null
ls "$O/corpus" >"$W/two.corpus"; ls "$O/findings" >"$W/two.findings"
kd=$(damage "$O" >&2 && echo yes || no "nothing to damage")
fault_campaign "$O" 60 "$W/two-b.log"; rc=$?
ok=$([ $rc = 0 ] && ended_well "$W/two-b.log" && grep -q "resuming" "$W/two-b.log" &&
  grep -q "removed [1-9][0-9]* half-written temporary files" "$W/two-b.log" && echo yes || echo no)
undamage "$O"
losses "$W/two.findings" "$O/findings" "$W/two.corpus" "$O/corpus"
row "kill -9 the campaign, resume" "$k5" "$ok" "$fl" "$cl"
row "truncated/corrupt corpus files" "$kd" "$(grep -q '^rejected	[1-9]' "$O/stats/totals.tsv" && echo "$ok" || echo no)" "$fl" "$cl"
row "corrupt finding files" "$kd" "$ok" "$fl" "$cl"

# 3. A full disk: OUT on a 4 MiB tmpfs, 3.5 MiB of it taken.
O=$W/full
mkdir -p "$O"
k6=$(mount -t tmpfs -o size=4m tmpfs "$O" && echo yes || no "cannot mount a tmpfs (needs root)")
dd if=/dev/zero of="$O/filler" bs=64k count=56 status=none 2>/dev/null
t0=$SECONDS
fault_campaign "$O/out" 60 "$W/full.log"; rc=$?
ok=$([ $((SECONDS - t0)) -le 93 ] && ended_well "$W/full.log" && echo yes || echo no)
rm -f "$O/filler"
losses /dev/null "$O/out/findings" /dev/null "$O/out/corpus"
row "full disk (4 MiB tmpfs OUT)" "$k6" "$ok" "$fl" "$cl"
umount "$O" 2>/dev/null

printf '%-34s %-9s %-9s %-15s %s\n' fault injected survived "findings lost" "corpus files lost"
printf '%s\n' "${ROWS[@]}"
failed=$(printf '%s; ' "${FAILED[@]}")
"$ROOT/bench/record" faults engine=manager faults=${#ROWS[@]} injected=$((${#ROWS[@]} - MISSED)) survived=$SURVIVED \
  findings_lost=$LOST_F corpus_lost=$LOST_C failed="${failed%; }"
[ $MISSED = 0 ] || { echo "faults: $MISSED fault(s) not injected (logs in $W)" >&2; exit 1; }
