# A campaign's exit status (docs/campaigns.md): 0 when it ran inputs, even
# when its inputs are slow and the deadline cut one off (a short `make
# fuzz`); 1 when no input ran at all, said in the summary. planted_slow
# makes each compile sleep, so which case happens does not hang on the
# machine's speed: 12 s a compile fits two inputs in a 45 s campaign, and
# 120 s fits none.
# Runs alone: a 45 s campaign must fit two 12 s compiles.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/faults.sh"

# The campaign that runs none goes beside the other, with a slow switch of its own: each
# starts its worker on a core of its own, then both sleep in their compiles.
(
  slow_dir
  slow_on 120
  rc=0
  fault_campaign "$TMP/none" 30 "$TMP/none.log" --components 1 || rc=$?
  echo $rc >"$TMP/none.rc"
) &
none=$!
ON_EXIT='kill $(runner_of "$TMP/none") 2>/dev/null || true' # a failed check leaves no campaign running
slow_on 12
fault_campaign "$TMP/ran" 45 "$TMP/ran.log" --components 1 || { cat "$TMP/ran.log"; die "a campaign that ran inputs failed"; }
grep -v '^   ' "$TMP/ran.log"
ended_well "$TMP/ran.log" || die "no summary"
! grep -q "no input ran" "$TMP/ran.log" || die "the summary says no input ran, of a run whose inputs ran"
execs=$(sed -n 's/^  execs  *\([0-9]*\) .*/\1/p' "$TMP/ran.log")
[ "${execs:-0}" -ge 1 ] || die "the summary counts ${execs:-no} execs for a run whose inputs ran"
grep -q '^execs	[1-9]' "$TMP/ran/stats/totals.tsv" || die "the targets' counts were lost when they were stopped"

wait $none
ON_EXIT=
rc=$(cat "$TMP/none.rc")
grep -v '^   ' "$TMP/none.log"
[ "$rc" = 1 ] || die "a campaign that ran no input exited $rc, not 1"
grep -q "no input ran" "$TMP/none.log" || die "the summary does not say that no input ran"
