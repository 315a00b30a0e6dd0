# Triage keeps up (fuzz/campaign.c, wrap_up_due): when findings of unknown
# bugs are not yet triaged in the last fifth of --time, the fuzzing round ends there
# and every slot of the campaign triages until the deadline. Here every input
# is a finding of its own (a planted backend that is wrong for graphs of 7 ops
# or more): the first pass alone files one per seed (6 generated graphs of
# 8 ops, each its own bucket, most of them of no known bug), more than
# 1 triage slot reduces on 2 cores
# before the wrap-up; with 2 jobs the campaign triages in 1 slot while it
# fuzzes, and in 2 at the wrap-up, each bounded to end before --time does.
# ENGINE (default fork) is the campaign's --engine and WRAP_UP_HOW what its
# wrap-up line says the last seconds go to: test_manager_wrap_up.sh runs this
# with the manager, which hands triage slots while the others fuzz on.
source "$(dirname "$0")/lib.sh"
ENGINE=${ENGINE:-fork} WRAP_UP_HOW=${WRAP_UP_HOW:-triage alone}
OUT=$TMP/out T=150
"$PT2FUZZ" gen --seed 4 --count 6 --size 8 --components 1 --target cpu --out "$TMP/seeds" >/dev/null
t0=$SECONDS
"$PT2FUZZ" fuzz --engine "$ENGINE" --time $T --jobs 2 --out "$OUT" --seeds "$TMP/seeds" --device cpu --stats-every 10 \
  --plugin "$ROOT/tests/integration/planted_backends.py" --backend planted_numeric_if_large >"$TMP/log" 2>&1 ||
  { cat "$TMP/log"; die "the campaign failed"; }
wall=$((SECONDS - t0))
grep -v '^   ' "$TMP/log"
# Findings of known bugs are not triaged, so too many of them leave no backlog:
# the count says which of the two a missing wrap-up means.
line=$(grep "pt2fuzz fuzz: wrap-up: [0-9]* findings of unknown bugs not yet triaged ([0-9]* being triaged); the last [0-9]* s go to $WRAP_UP_HOW" \
  "$TMP/log") ||
  die "no wrap-up; $(cat "$OUT"/findings/*/meta.json | grep -c '"known": "..*"' || true) of $(ls "$OUT"/findings | wc -l) findings matched known bugs"
left=$(sed 's/.*the last \([0-9]*\) s.*/\1/' <<<"$line")
echo "wrap-up with $left s left; wall $wall s"
[ "$left" -le $((T / 5)) ] || die "the wrap-up began with $left s left, before the last fifth of $T s"
# Two triage slots at once: batch-<time>-<slot> names slot 1 only when a second ran.
ls -d "$OUT"/triage/batch-*-1 >/dev/null 2>&1 || die "the wrap-up triaged in one slot, not the jobs' too"
bound=$((T * 105 / 100 + 30))
[ "$wall" -le "$bound" ] || die "the campaign ran $wall s, above $bound s"
[ "$ENGINE" != fork ] || grep -q "^  lender          [1-9][0-9]* workers started" "$TMP/log" ||
  die "the summary lost the lender's counts"
# Nothing of the wrap-up's triage outlives the campaign.
! pgrep -f -- "triage $OUT/triage/batch-" >/dev/null || die "a triage process outlived the campaign"
