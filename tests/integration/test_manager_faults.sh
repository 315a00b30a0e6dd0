# Faults injected into a running campaign (bench/faults/run.sh has them
# all; docs/campaigns.md, *What happens on each fault*): a worker killed
# mid-request, then the whole campaign killed with -9 mid-request and its
# OUT damaged (truncated, random and half-written corpus and finding
# files). Each fault must be injected (a slot's worker asleep in
# planted_slow's compile), the campaign must go on, the same command must
# resume it, and no corpus input or finding may be lost. One component per
# input: the faults are the subject, and the 30 s resume must get through
# its corpus (damaged files included; alone, it runs some 15 inputs in 30 s).
# Runs alone: faults injected while a campaign runs.
source "$(dirname "$0")/lib.sh"
SLOW=$TMP/slow
mkdir "$SLOW"
source "$(dirname "$0")/faults.sh"
OUT=$TMP/out
ON_EXIT='kill -9 $(runner_of "$OUT") 2>/dev/null || true' # a failed check leaves no campaign running

fault_campaign "$OUT" 600 "$TMP/a.log" --components 1 &
shell=$!
job=$(campaign_target "$OUT" 120)
[ -n "$job" ] || { cat "$TMP/a.log"; die "no slot came"; }
slow_on 5

# A worker killed mid-request: the slot records the crash and starts another.
w=$(busy_worker "$OUT" 60)
[ -n "$w" ] || die "fault not injected: no worker mid-request"
kill -9 "$w"
echo "killed worker $w mid-request"
# The kill below needs a corpus to damage (and its busy_worker, a slot that
# went on after its worker died).
corpus_grew "$OUT" 120 || die "no corpus input came"

# The campaign killed with -9 mid-request (its targets follow it).
w=$(busy_worker "$OUT" 60)
runner=$(runner_of "$OUT")
[ -n "$w" ] && [ -n "$runner" ] || die "fault not injected: no campaign mid-request"
kill -9 "$runner"
echo "killed the campaign $runner while worker $w was mid-request"
wait "$shell" 2>/dev/null || true
slow_off
ls "$OUT/corpus" >"$TMP/corpus.before"
ls "$OUT/findings" >"$TMP/findings.before"
[ -s "$TMP/corpus.before" ] || die "no corpus to lose"
damage "$OUT"

# The same command again: it resumes, rejects the damaged inputs, ends well.
fault_campaign "$OUT" 30 "$TMP/b.log" --components 1 || { cat "$TMP/b.log"; die "the resumed campaign failed"; }
grep -v '^   ' "$TMP/b.log"
ended_well "$TMP/b.log" || die "no summary after the resume"
grep -q "resuming $OUT" "$TMP/b.log" || die "the campaign did not say it resumed"
grep -q "removed [1-9][0-9]* half-written temporary files" "$TMP/b.log" || die "a half-written temporary file stayed"
[ -z "$(ls -A "$OUT/corpus" | grep '^\..*\.tmp\.[0-9]*$')" ] || die "a temporary file is left in the corpus"
grep -q '^rejected	[1-9]' "$OUT/stats/totals.tsv" || die "the damaged corpus files were not rejected"
grep -q '^worker_crashes	[1-9]' "$OUT/stats/totals.tsv" || die "the killed worker was not counted"
undamage "$OUT"
cl=$(corpus_lost "$TMP/corpus.before" "$OUT/corpus") fl=$(findings_lost "$TMP/findings.before" "$OUT/findings")
echo "lost: $cl corpus files, $fl findings ($(wc -l <"$TMP/corpus.before") inputs, $(wc -l <"$TMP/findings.before") findings before)"
[ "$cl" = 0 ] || die "$cl corpus files lost"
[ "$fl" = 0 ] || die "$fl findings lost"
