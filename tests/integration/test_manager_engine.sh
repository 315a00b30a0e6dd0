# `pt2fuzz fuzz`'s engine (fuzz/manager.h): a 60 s CPU campaign of two
# persistent targets under a planted backend that is wrong for graphs of 7 or
# more ops, from two seeds: a generated graph of 3 ops (it passes; mutants of
# it are kept) and a chain of 8 ops (the planted bug: a new finding, filed
# through the findings path without ending its target). The campaign grows
# the corpus beyond its seeds, reaches compiler lines, ends within --time's
# bound, leaving no process and no worker's temporary folder behind (the
# targets' workers are killed at the deadline), counts the inputs it cut off at the
# deadline in the profile's cut row, and a second run resumes from its own
# folder: its stats go on and the corpus it kept runs again (from the replay
# cache) before any mutant.
# Two seeds, not more: a worker's start and one compile take most of a
# minute on two shared cores, and mutants must run in the time left.
# Runs alone: campaigns timed against --time.
source "$(dirname "$0")/lib.sh"
OUT=$TMP/out T=60
own_tmpdir
mkdir "$TMP/seeds"
"$PT2FUZZ" gen --seed 5 --count 1 --size 3 --target cpu --configs 0 --out "$TMP/seeds" >/dev/null
"$PT2FUZZ" parse "$ROOT/tests/integration/large_chain.txt" --out "$TMP/seeds/chain.bin"
ARGS=(--jobs 2 --components 1 --out "$OUT" --seeds "$TMP/seeds" --device cpu --stats-every 5 --no-triage
      --plugin "$ROOT/tests/integration/planted_backends.py" --backend planted_numeric_if_large)
t0=$SECONDS
"$PT2FUZZ" fuzz --time $T "${ARGS[@]}" >"$TMP/run1.log" 2>&1 || { cat "$TMP/run1.log"; die "the campaign failed"; }
wall=$((SECONDS - t0))
cat "$TMP/run1.log"
bound=$((T * 105 / 100 + 30))
[ "$wall" -le "$bound" ] || die "the campaign ran $wall s, above $bound s"
corpus=$(ls "$OUT/corpus" | wc -l)
[ "$corpus" -ge 2 ] || die "the corpus holds $corpus inputs: no mutant was kept (the chain is a finding, never kept)"
lines=$(wc -l <"$OUT/stats/lines.txt")
[ "$lines" -gt 1000 ] || die "only $lines compiler lines reached"
ls -d "$OUT"/findings/numeric-* >/dev/null 2>&1 || die "no numeric finding under the planted backend"
grep -q "pt2fuzz: new finding .*numeric-" "$OUT/fuzzer.log" || die "the target did not say the new finding"
[ "$(ls "$OUT/crashes" | wc -l)" -ge 1 ] || die "the new finding's input is not kept in crashes/"
! grep -q "deadly signal" "$OUT/fuzzer.log" || die "a target aborted: a served target goes on after a new finding"
grep -q "engine manager" "$TMP/run1.log" || die "the campaign does not say its engine"
grep -q "^  profile .*worker_start.*stats.*rest" "$TMP/run1.log" || die "no profile line"
# Inputs the deadline cut off are time inside inputs: the profile's cut row
# holds what the closing line says (less where the rows outgrow the wall
# time and every row is scaled down, campaigns.md), not rest.
read -r cut cut_s < <(sed -n 's/.*; \([0-9]*\) inputs cut off at the deadline (\([0-9.]*\) s in them)/\1 \2/p' "$TMP/run1.log")
[ -n "$cut" ] || die "the manager's closing line does not say the inputs cut off at the deadline"
row=$(awk -F'\t' '$1 == "cut" { print $3 }' "$OUT/stats/profile.tsv")
awk -v n="$cut" -v s="$cut_s" -v r="${row:-x}" 'BEGIN { exit !(r != "x" && (n == 0 ? r == 0 : r > 0 && r <= s + 0.1)) }' ||
  die "$cut inputs cut off ($cut_s s in them), yet the profile's cut row is '${row}'"
left=$(cd "$TMPDIR" && ls -d pt2fuzz-scratch-* 2>/dev/null | xargs || true)
[ -z "$left" ] || die "the campaign left its workers' temporary folders: $left ($(cd "$TMPDIR" && ls -lA $left | xargs);" \
  "locks held: $(grep -c FLOCK /proc/locks || true))"
execs1=$(grep -v '^#' "$OUT/stats/plot_data" | tail -1 | cut -d, -f3 | tr -d ' ')
[ "${execs1:-0}" -ge 3 ] || die "only ${execs1:-0} execs: not the two seeds and a mutant"

# The same command again resumes: the stats go on from the first run's, and
# the corpus it kept runs first (from the replay cache: no compile) and is
# kept again, so mutants start from it (30 s: the replays take seconds).
"$PT2FUZZ" fuzz --time 30 "${ARGS[@]}" >"$TMP/run2.log" 2>&1 || { cat "$TMP/run2.log"; die "the restart failed"; }
cat "$TMP/run2.log"
grep -q "resuming $OUT after" "$TMP/run2.log" || die "the restart did not resume"
! grep -q "left behind" "$TMP/run2.log" || die "the first run left processes behind (its targets' workers)"
execs2=$(grep -v '^#' "$OUT/stats/plot_data" | tail -1 | cut -d, -f3 | tr -d ' ')
[ "$execs2" -gt "$execs1" ] || die "execs went from $execs1 to $execs2"
grep -q "engine manager: $corpus inputs of $OUT/corpus and 2 of the seed folders run first" "$TMP/run2.log" ||
  die "the restart did not list its corpus folder's $corpus inputs"
kept2=$(sed -n 's/.*engine manager: [0-9]* replies, \([0-9]*\) inputs kept.*/\1/p' "$TMP/run2.log")
[ "${kept2:-0}" -ge "$corpus" ] || die "the restart kept ${kept2:-0} inputs, not its corpus's $corpus"
[ "$(ls "$OUT/corpus" | wc -l)" -ge "$corpus" ] || die "the restart lost corpus inputs"

# A libFuzzer flag is a clear error: the campaign's loop is its own.
! "$PT2FUZZ" fuzz -max_len=100 --time 5 --out "$TMP/bad" 2>"$TMP/bad.log" || die "a campaign ran with a libFuzzer flag"
grep -q "'-max_len=100': libFuzzer's flags are not a campaign's" "$TMP/bad.log" || die "no message for a libFuzzer flag"
echo "manager engine: corpus $corpus, lines $lines, execs $execs1 then $execs2, kept $kept2 on resuming"
