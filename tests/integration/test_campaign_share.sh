# Two node runners on one machine share a findings directory and a synced
# corpus, as runners on several nodes share them through a shared
# filesystem: both hit the same planted bug (wrong results of graphs with a
# cumsum) on the same input, which stays one finding whose count both raised; each publishes
# its inputs into the shared corpus and reads the other's in its next round;
# both merge (their own corpus, and the shared one, one runner at a time)
# without leaving anything half-done; runner A triages the finding in the
# background.
source "$(dirname "$0")/lib.sh"
S=$TMP/shared
mkdir -p "$S/findings" "$TMP/seeds"
for s in fam_cumulative_scan doc001_s2_mm_add fam_shape_views; do cp "$B/seeds/$s.bin" "$TMP/seeds/"; done
# One component per input: two runners share two cores, and sync and merge rounds need inputs
# that compile in seconds (a mutant of the default 8 components is 8 graphs to compile).
# --no-configs: a seed runs as its bytes say, so the shared finding's graph.bin is the input
# both runners kept (a configuration drawn on a seed's run would be in graph.bin, not the input).
COMMON=(--engine fork --time 150 --jobs 1 --components 1 --no-configs --seeds "$TMP/seeds" --device cpu --stats-every 5 --findings "$S/findings" --sync "$S/corpus"
        --sync-every 40 --merge-every 60 --plugin "$ROOT/tests/integration/planted_backends.py" --backend planted_numeric_if_cumsum)
"$PT2FUZZ" fuzz --out "$TMP/a" --triage-time 30 "${COMMON[@]}" >"$TMP/a.log" 2>&1 &
a=$!
sleep 5
"$PT2FUZZ" fuzz --out "$TMP/b" --no-triage "${COMMON[@]}" >"$TMP/b.log" 2>&1 || { cat "$TMP/b.log"; die "runner B failed"; }
wait "$a" || { cat "$TMP/a.log"; die "runner A failed"; }
tail -25 "$TMP/a.log"

# One finding for one input, counted by both runners. The cumsum seed fails
# in each runner (both keep it as the same crash-<sha1>: libFuzzer's merge of
# the seeds runs it first, and a merge's finding aborts, --keep-going or not);
# the shared finding whose graph.bin is that input must count both hits.
# Other graphs with a cumsum may add findings of their own (the output that
# differs is part of a numeric signature).
f=""
for d in "$S"/findings/numeric-*; do
  [ -e "$d/graph.bin" ] || continue
  h=$(sha1sum "$d/graph.bin" | cut -d' ' -f1)
  if [ -e "$TMP/a/crashes/crash-$h" ] && [ -e "$TMP/b/crashes/crash-$h" ]; then f=$d; fi
done
[ -n "$f" ] || die "no numeric finding of an input both runners hit (findings: $(ls "$S/findings" | tr '\n' ' '))"
count=$(sed -n 's/.*"count": \([0-9]*\).*/\1/p' "$f/meta.json")
echo "$f: count $count, hit by both runners"
[ "$count" -ge 2 ] || die "the shared finding's count is $count, expected hits from both runners"
python3 -m json.tool "$f/meta.json" >/dev/null 2>&1 || ! command -v python3 >/dev/null || die "meta.json is not valid JSON"
[ -z "$(ls "$TMP/a/findings" "$TMP/b/findings" 2>/dev/null)" ] || die "findings went to a runner's own directory"

# Both published into the shared corpus; each later round read it.
for r in a b; do
  n=$(sed -n 's/.*sync .*: \([0-9]*\) published.*/\1/p' "$TMP/$r.log" | tail -1)
  echo "runner $r published ${n:-0} inputs"
done
[ "$(ls "$S/corpus" | wc -l)" -gt 0 ] || die "the shared corpus is empty"
# A round begins with a first pass over the seed folders and the shared corpus
# (libFuzzer's own "N seed inputs" line comes later, after its corpus read,
# and a round that starts near the deadline is stopped before it): the second
# pass ran more inputs than runner A's own 3 seeds, the others' among them.
passes=$(grep -c "first pass: [0-9]* of [0-9]* inputs of the seed folders" "$TMP/a.log" || true)
[ "$passes" -ge 2 ] || die "runner A ran only one round"
later=$(grep "first pass: [0-9]* of [0-9]* inputs of the seed folders" "$TMP/a.log" | sed -n '2s/.*first pass: [0-9]* of \([0-9]*\) inputs.*/\1/p')
[ "${later:-0}" -gt 3 ] || die "runner A's second round read ${later:-0} inputs: not the shared corpus beside its 3 seeds"
# Every merge finished or was undone: no merge directories, no temporaries, no half-published files.
[ ! -e "$S/corpus.merge" ] && [ ! -e "$TMP/a/corpus.merge" ] && [ ! -e "$TMP/b/corpus.merge" ] || die "a merge was left half-done"
! ls -a "$S/corpus" | grep -q '^\.tmp' || die "temporary files left in the shared corpus"
grep -q "MERGE-OUTER" "$TMP/a/merge.log" "$TMP/b/merge.log" || die "no corpus merge ran"

# Runner A's background triage reduced the finding (or is shown to have started on it).
if [ -e "$f/.triaged" ]; then
  [ -s "$f/reduced/graph.bin" ] && [ -s "$f/bisect.json" ] || die "triaged without reduced/ or bisect.json"
  ls "$TMP"/a/triage/batch-*/triage.md >/dev/null || die "no triage table"
else
  ls -d "$TMP"/a/triage/batch-* >/dev/null 2>&1 || die "runner A never started triage"
  echo "(triage had not finished when runner A stopped)"
fi
