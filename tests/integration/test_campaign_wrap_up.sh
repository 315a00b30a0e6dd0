# Triage keeps up (fuzz/campaign.c, wrap_up_due, manager_wrap_up): when
# findings of unknown bugs are not yet triaged in the last fifth of --time,
# triage takes as many slots as findings wait, its own one and the jobs' it
# needs beyond it (the rest fuzz on to the end), each bounded to end before
# --time does. Here every input is a finding of its own (a planted backend
# that is wrong for graphs of 7 ops or more): the seeds alone file one each
# (6 generated graphs of 8 ops, each its own bucket, most of them of no
# known bug), more than 1 triage slot reduces on 2 cores before the
# wrap-up; with 2 jobs the campaign triages in 1 slot while it fuzzes, and
# in 2 or 3 at the wrap-up. Besides: the manager's closing line comes after
# the wrap-up; the time triage ran on the jobs' slots is the profile's
# wrap_up row, not rest; and nothing of the wrap-up's triage, and none of
# the slots' targets, outlives the campaign.
# Runs alone: campaigns whose wrap-up is timed against --time.
source "$(dirname "$0")/lib.sh"
OUT=$TMP/out T=150
"$PT2FUZZ" gen --seed 4 --count 6 --size 8 --components 1 --target cpu --out "$TMP/seeds" >/dev/null
t0=$SECONDS
"$PT2FUZZ" fuzz --time $T --jobs 2 --out "$OUT" --seeds "$TMP/seeds" --device cpu --stats-every 10 \
  --plugin "$ROOT/tests/integration/planted_backends.py" --backend planted_numeric_if_large >"$TMP/log" 2>&1 ||
  { cat "$TMP/log"; die "the campaign failed"; }
wall=$((SECONDS - t0))
grep -v '^   ' "$TMP/log"
# Findings of known bugs are not triaged, so too many of them leave no backlog:
# the count says which of the two a missing wrap-up means.
line=$(grep "pt2fuzz fuzz: wrap-up: [0-9]* findings of unknown bugs not yet triaged ([0-9]* being triaged); the last [0-9]* s go to triage on [0-9]* slots, [0-9]* of them the jobs'; the other [0-9]* jobs fuzz on" \
  "$TMP/log") ||
  die "no wrap-up; $(cat "$OUT"/findings/*/meta.json | grep -c '"known": "..*"' || true) of $(ls "$OUT"/findings | wc -l) findings matched known bugs"
left=$(sed 's/.*the last \([0-9]*\) s.*/\1/' <<<"$line")
echo "wrap-up with $left s left; wall $wall s"
[ "$left" -le $((T / 5)) ] || die "the wrap-up began with $left s left, before the last fifth of $T s"
# Two triage slots at once: batch-<time>-<slot> names slot 1 only when a second ran.
ls -d "$OUT"/triage/batch-*-1 >/dev/null 2>&1 || die "the wrap-up triaged in one slot, not the jobs' too"
bound=$((T * 105 / 100 + 30))
[ "$wall" -le "$bound" ] || die "the campaign ran $wall s, above $bound s"
read -r take handed other < <(sed 's/.*triage on \([0-9]*\) slots, \([0-9]*\) of them the jobs.; the other \([0-9]*\) jobs.*/\1 \2 \3/' <<<"$line")
[ $((handed + other)) -eq 2 ] || die "of 2 jobs, $handed handed to triage and $other fuzzing on"
[ "$take" -eq $((handed + 1)) ] || die "triage took $take slots: its own 1 and $handed of the jobs'"
[ "$handed" -ge 1 ] || die "every input is a finding here, yet triage took none of the jobs' slots"
grep -n "wrap-up: \|engine manager: [0-9]* replies" "$TMP/log" | head -1 | grep -q "wrap-up: " ||
  die "the manager ended before its wrap-up"
used=$(awk -F'\t' '$1 == "wrap_up" { print $3 }' "$OUT/stats/profile.tsv")
awk -v u="${used:-0}" 'BEGIN { exit !(u > 0) }' || die "triage ran on the $handed handed slots, yet the profile's wrap_up row is '${used}'"
! pgrep -f -- "triage $OUT/triage/batch-" >/dev/null || die "a triage process outlived the campaign"
! pgrep -f -- "--stats $OUT/stats --serve" >/dev/null || die "a slot's target outlived the campaign"
