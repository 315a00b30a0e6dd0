# Two `pt2fuzz fuzz` runners on one machine, each with its own
# OUT, share one --sync folder (fuzz/campaign.c, manager_sync): each publishes
# its corpus's inputs into DIR and its findings into DIR.findings, and imports
# the other's. Under a planted backend that is wrong for graphs of 7 or more
# ops, both have a chain of 8 ops among their seeds (a numeric finding) and a
# generated graph of 3 ops of their own (it passes, and is kept). A starts
# first; B starts once A's finding is in DIR.findings. Then B, which imports
# before it runs its first input, holds A's finding folder and counts its own
# hit of the chain as a repeat of it, not a new finding; B's corpus holds an
# input A had published (run like a seed, kept for its features) and A's
# holds B's seed. One job each: two runners, two workers, two cores, where a
# worker's start takes half a minute: B's --time leaves it its two seeds and
# one of A's inputs, A's the import of B's seed.
# Runs alone: B's 100 s must reach A's inputs.
source "$(dirname "$0")/lib.sh"
S=$TMP/sync
mkdir "$TMP/seeds-a" "$TMP/seeds-b"
"$PT2FUZZ" gen --seed 5 --count 1 --size 3 --target cpu --configs 0 --out "$TMP/seeds-a" >/dev/null
"$PT2FUZZ" gen --seed 6 --count 1 --size 3 --target cpu --configs 0 --out "$TMP/seeds-b" >/dev/null
"$PT2FUZZ" parse "$ROOT/tests/integration/large_chain.txt" --out "$TMP/seeds-a/chain.bin"
cp "$TMP/seeds-a/chain.bin" "$TMP/seeds-b/chain.bin"
COMMON=(--jobs 1 --components 1 --device cpu --stats-every 5 --no-triage --sync "$S" --sync-every 10
        --plugin "$ROOT/tests/integration/planted_backends.py" --backend planted_numeric_if_large)
"$PT2FUZZ" fuzz --time 150 --out "$TMP/a" --seeds "$TMP/seeds-a" "${COMMON[@]}" >"$TMP/a.log" 2>&1 &
a_pid=$!
ON_EXIT="kill $a_pid 2>/dev/null || true"
# A's finding of the chain: A publishes its findings in batches, mutants' too,
# so the chain's is the one whose graph holds the chain's ops (a campaign may
# give a seed a compile configuration: the config line may differ).
ops() { "$PT2FUZZ" show "$1" | grep -v '^config '; }
chain_ops=$(ops "$TMP/seeds-a/chain.bin")
published=
for _ in $(seq 100); do
  for f in "$S".findings/numeric-*/; do
    [ -s "$f/meta.json" ] && [ "$(ops "$f/graph.bin")" = "$chain_ops" ] && published=$(basename "$f") && break
  done
  [ -n "$published" ] && break
  sleep 1
done
[ -n "$published" ] || { cat "$TMP/a.log"; die "A published no finding of the chain into $S.findings in 100 s"; }
for f in meta.json graph.bin repro.py; do
  [ -s "$S.findings/$published/$f" ] || die "A's published finding lacks $f"
done
ls "$S" >"$TMP/a-published"
"$PT2FUZZ" fuzz --time 100 --out "$TMP/b" --seeds "$TMP/seeds-b" "${COMMON[@]}" >"$TMP/b.log" 2>&1 ||
  { cat "$TMP/b.log"; die "runner B failed"; }
wait $a_pid || { cat "$TMP/a.log"; die "runner A failed"; }
ON_EXIT=
echo "--- A"; cat "$TMP/a.log"; echo "--- B"; cat "$TMP/b.log"

# B knows A's finding and does not file it again: its hit of the chain is a repeat.
[ -f "$TMP/b/findings/$published/meta.json" ] || die "B's findings lack A's $published"
grep -q "pt2fuzz: repeated finding $TMP/b/findings/$published" "$TMP/b/fuzzer.log" ||
  die "B did not count its hit of the chain as a repeat of A's $published"
! grep -q "pt2fuzz: new finding $TMP/b/findings/$published" "$TMP/b/fuzzer.log" || die "B filed A's finding again as new"
count=$(sed -n 's/.*"count": *\([0-9]*\).*/\1/p' "$TMP/b/findings/$published/meta.json")
[ "$count" = 2 ] || die "B's copy of $published counts $count hits, not A's and B's 2"
twice=$(cat "$TMP/b/findings"/*/meta.json | sed -n 's/.*"bucket": *"\([^"]*\)".*/\1/p' | sort | uniq -d)
[ -z "$twice" ] || die "B's findings hold bucket $twice twice"

# A's inputs reach B's corpus (names are content hashes): published, imported,
# run and kept for their features.
from_a=$(ls "$TMP/b/corpus" | grep -cxFf "$TMP/a-published" || true)
[ "$from_a" -ge 1 ] || die "B's corpus holds none of the $(wc -l <"$TMP/a-published") inputs A had published"
# B's seed reaches A's corpus, byte for byte, likewise.
holds() { # folder, file: whether the folder holds a copy of the file
  local f
  for f in "$1"/*; do cmp -s "$f" "$2" && return 0; done
  return 1
}
seed=$(ls "$TMP/seeds-b"/* | grep -v chain.bin)
holds "$TMP/b/corpus" "$seed" || die "B did not keep its seed"
holds "$S" "$seed" || die "B did not publish its seed into $S"
holds "$TMP/a/corpus" "$seed" || die "A's corpus lacks B's seed: not imported, or not kept"
for r in a b; do
  line=$(grep "pt2fuzz fuzz: sync $S: [0-9]* inputs and [0-9]* findings published, [0-9]* inputs and [0-9]* findings imported; triage: [0-9]* published, [0-9]* taken" \
    "$TMP/$r.log") || die "runner $r wrote no sync summary"
  imported=$(sed 's/.*published, \([0-9]*\) inputs.*/\1/' <<<"$line")
  [ "$imported" -ge 1 ] || die "runner $r imported no input: $line"
  echo "runner $r: $line"
done
grep -q "findings published, [0-9]* inputs and [1-9][0-9]* findings imported" "$TMP/b.log" ||
  die "B did not count A's finding imported"
! ls -a "$S.findings" "$TMP/b/findings" | grep -q '\.tmp\.' || die "a half-copied finding folder was left"
