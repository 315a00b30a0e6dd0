# Triage's wrap-up under `--engine manager` (fuzz/campaign.c, manager_wrap_up):
# test_campaign_wrap_up.sh's campaign and checks, the manager's slots in place
# of libFuzzer's round. Besides: triage takes as many slots as findings wait,
# its own one and the jobs' it needs beyond it (the rest fuzz on to the end);
# the manager's closing line comes after the wrap-up; the time triage ran on
# the jobs' slots is the profile's wrap_up row, not rest; and none of the
# slots' targets outlives the campaign.
ENGINE=manager WRAP_UP_HOW="triage on [0-9]* slots, [0-9]* of them the jobs'; the other [0-9]* jobs fuzz on"
source "$(dirname "$0")/test_campaign_wrap_up.sh"
read -r take handed other < <(sed 's/.*triage on \([0-9]*\) slots, \([0-9]*\) of them the jobs.; the other \([0-9]*\) jobs.*/\1 \2 \3/' <<<"$line")
[ $((handed + other)) -eq 2 ] || die "of 2 jobs, $handed handed to triage and $other fuzzing on"
[ "$take" -eq $((handed + 1)) ] || die "triage took $take slots: its own 1 and $handed of the jobs'"
[ "$handed" -ge 1 ] || die "every input is a finding here, yet triage took none of the jobs' slots"
grep -n "wrap-up: \|engine manager: [0-9]* replies" "$TMP/log" | head -1 | grep -q "wrap-up: " ||
  die "the manager ended before its wrap-up"
used=$(awk -F'\t' '$1 == "wrap_up" { print $3 }' "$OUT/stats/profile.tsv")
awk -v u="${used:-0}" 'BEGIN { exit !(u > 0) }' || die "triage ran on the $handed handed slots, yet the profile's wrap_up row is '${used}'"
! pgrep -f -- "--stats $OUT/stats --serve" >/dev/null || die "a slot's target outlived the campaign"
