# Triage's wrap-up under `--engine manager` (fuzz/campaign.c, wrap_up_due):
# test_campaign_wrap_up.sh's campaign and checks, the manager's slots in place
# of libFuzzer's round. Besides: the slots stop at the wrap-up (the manager's
# closing line comes after it), and none of their targets outlives the campaign.
ENGINE=manager
source "$(dirname "$0")/test_campaign_wrap_up.sh"
grep -n "wrap-up: \|engine manager: [0-9]* replies" "$TMP/log" | head -1 | grep -q "wrap-up: " ||
  die "the manager's slots did not stop at the wrap-up"
! pgrep -f -- "--stats $OUT/stats --serve" >/dev/null || die "a slot's target outlived the campaign"
