# The node runner survives kill -9: a campaign on CPU Inductor with a
# planted bug (wrong results of graphs with a cumsum) is killed with
# SIGKILL once it has a corpus, a finding and stats rows; what it left
# behind is stopped by the next start; the restart keeps every corpus input
# and finding, puts back an interrupted merge's inputs, and its stats
# (plot_data) and what its jobs learned (OUT/learned) continue where the
# killed run ended. `pt2fuzz plot` draws the result as a PNG.
# Runs alone: the restart's 45 s must fit several inputs.
source "$(dirname "$0")/lib.sh"
OUT=$TMP/out
PLANT=(--plugin "$ROOT/tests/integration/planted_backends.py" --backend planted_numeric_if_cumsum)
mkdir "$TMP/seeds"
for s in fam_cumulative_scan doc001_s2_mm_add fam_shape_views fam_activation_softmax; do cp "$B/seeds/$s.bin" "$TMP/seeds/"; done
# One component per input: the restart's 45 s must fit several inputs on two busy cores.
ARGS=(--jobs 1 --components 1 --out "$OUT" --seeds "$TMP/seeds" --device cpu --stats-every 5 --no-triage "${PLANT[@]}")

"$PT2FUZZ" fuzz --time 600 "${ARGS[@]}" >"$TMP/run1.log" 2>&1 &
runner=$!
# Until it has fuzzed (libFuzzer's first jobs are done), found the bug and kept inputs.
for _ in $(seq 120); do
  sleep 2
  # plot_data's first row comes once a worker is ready: until then there is no file
  execs=$({ grep -v '^#' "$OUT/stats/plot_data" 2>/dev/null || true; } | tail -1 | cut -d, -f3 | tr -d ' ')
  [ "${execs:-0}" -ge 10 ] && ls "$OUT"/findings/numeric-* >/dev/null 2>&1 && [ -n "$(ls "$OUT/corpus")" ] && break
done
[ "${execs:-0}" -ge 10 ] || { cat "$TMP/run1.log"; die "no fuzzing in 4 minutes"; }
token=$(cat "$OUT/.runner")
kill -9 "$runner"
wait "$runner" 2>/dev/null || true
ls "$OUT/corpus" | sort >"$TMP/corpus.before"
ls "$OUT/findings" | sort >"$TMP/findings.before"
last=$(grep -v '^#' "$OUT/stats/plot_data" | tail -1)
# What the jobs learned (fuzz/learned.h) is on disk, whole, and only grows.
learned_runs() { awk -F'\t' '$1 == "op" { n += $3 } END { print n + 0 }' "$OUT/learned/counts.tsv"; }
runs_before=$(learned_runs)
[ "$runs_before" -gt 0 ] || die "the killed run's jobs learned no op runs"
[ "$(stat -c %s "$OUT/learned/seen.bin")" = 262144 ] || die "seen.bin is not the coverage map's size"
grep -q '^pair	input	' "$OUT/learned/counts.tsv" || die "no op pairs learned"
echo "killed at: $last; $(wc -l <"$TMP/corpus.before") inputs, findings: $(cat "$TMP/findings.before")"
# A merge the kill interrupted: its inputs must come back.
mkdir "$OUT/corpus.merge"
cp "$(ls -d "$OUT"/corpus/* | head -1)" "$OUT/corpus.merge/interrupted-merge-input"

"$PT2FUZZ" fuzz --time 45 "${ARGS[@]}" >"$TMP/run2.log" 2>&1 || { cat "$TMP/run2.log"; die "the restart failed"; }
cat "$TMP/run2.log"
grep -q "resuming $OUT after" "$TMP/run2.log" || die "the restart did not resume the stats"
[ "$(learned_runs)" -ge "$runs_before" ] || die "the learned op runs went back: $(learned_runs) < $runs_before"
! grep -q "learned state starts over" "$TMP/run2.log" "$OUT/fuzzer.log" || die "the killed run left a damaged learned state"

# The restart's profile is its own: what the killed run's targets last wrote
# is that run's, so the rows fit in the restart's 1 job x its time.
said=$(sed -n 's/^  time  *\([0-9]*\) s.*/\1/p' "$TMP/run2.log")
awk -F'\t' -v cap="$said" '$1 != "triage" { s += $3 } END { printf "restart profile: %.1f s of rows in %d s\n", s, cap
  exit !(s <= cap * 1.02 + 1) }' "$OUT/stats/profile.tsv" || die "the restart's profile holds more than its own time"

# Nothing the killed run left behind still runs.
for env in /proc/[0-9]*/environ; do
  if { tr '\0' '\n' <"$env"; } 2>/dev/null | grep -qx "PT2FUZZ_CAMPAIGN=$token"; then die "a process of the killed runner survived: $env"; fi
done
# Every input and finding is still there; the interrupted merge was undone.
ls "$OUT/corpus" | sort >"$TMP/corpus.after"
[ -z "$(comm -23 "$TMP/corpus.before" "$TMP/corpus.after")" ] || die "corpus inputs lost: $(comm -23 "$TMP/corpus.before" "$TMP/corpus.after")"
[ -z "$(comm -23 "$TMP/findings.before" <(ls "$OUT/findings" | sort))" ] || die "findings lost"
[ -e "$OUT/corpus/interrupted-merge-input" ] && [ ! -e "$OUT/corpus.merge" ] || die "the interrupted merge was not undone"
for f in "$OUT"/findings/*/; do [ -s "$f/repro.py" ] && [ -s "$f/meta.json" ] || die "incomplete finding $f"; done

# The stats went on: elapsed time and execs never go back, and pass the killed run's.
grep -v '^#' "$OUT/stats/plot_data" | awk -F', ' -v e0="$(echo "$last" | cut -d, -f2)" -v x0="$(echo "$last" | cut -d, -f3)" '
  { if ($2 + 0 < pe || $3 + 0 < px) { print "goes back at line " NR ": " $0; bad = 1 } pe = $2; px = $3 }
  END { if (pe <= e0 + 30) { print "elapsed " pe " not past " e0; bad = 1 }
        if (px < x0) { print "execs " px " below " x0; bad = 1 } exit bad }' || die "plot_data does not continue"

# The plot of this real run (tests/integration/test_plot.sh checks the details).
"$PT2FUZZ" plot "$OUT" --out "$TMP/plot.png" | tee "$TMP/plot.log"
head -c 8 "$TMP/plot.png" | od -An -c | grep -q 'P   N   G' || die "not a PNG"
size=$(od -An -tu1 -j16 -N8 "$TMP/plot.png" | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4 "x" $5*16777216 + $6*65536 + $7*256 + $8 }')
[ "$size" = 1200x780 ] || die "the PNG is $size, not 1200x780"
rows=$(grep -vc '^#' "$OUT/stats/plot_data")
grep -q ": $rows points over .*, [4-9] series in 1200x780$" "$TMP/plot.log" || die "not every row or series drawn"
