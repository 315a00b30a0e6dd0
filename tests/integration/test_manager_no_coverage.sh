# `pt2fuzz fuzz --no-coverage` (fuzz/manager.c, next_mutant):
# pure generation under the manager. After its one seed, every input is a
# freshly generated graph (gen_fresh_bytes), not a mutant: the campaign runs
# more inputs than the seed, no mutator is ever tried, and the corpus keeps
# nothing new (the targets reply with one constant feature).
# Runs alone: a 30 s campaign (it runs over ten generated inputs; one is needed).
source "$(dirname "$0")/lib.sh"
OUT=$TMP/out
mkdir "$TMP/seeds"
"$PT2FUZZ" gen --seed 5 --count 1 --size 3 --target cpu --configs 0 --out "$TMP/seeds" >/dev/null
"$PT2FUZZ" fuzz --no-coverage --time 30 --jobs 1 --size 3 --components 1 --out "$OUT" \
  --seeds "$TMP/seeds" --device cpu --no-triage >"$TMP/log" 2>&1 || { cat "$TMP/log"; die "the campaign failed"; }
grep -v '^   ' "$TMP/log"
replies=$(sed -n 's/.*engine manager: \([0-9]*\) replies.*/\1/p' "$TMP/log")
[ "${replies:-0}" -ge 2 ] || die "${replies:-0} replies: no generated input ran after the seed"
rows=$(grep -c '^mutator' "$OUT/stats/totals.tsv") || die "totals.tsv has no mutator rows"
tried=$(awk -F'\t' '$1 == "mutator" { n += $3 } END { print n + 0 }' "$OUT/stats/totals.tsv")
[ "$tried" -eq 0 ] || die "$tried mutations tried under pure generation"
kept=$(ls "$OUT/corpus" | wc -l)
[ "$kept" -le 1 ] || die "the corpus kept $kept inputs: pure generation keeps nothing but the seed"
echo "pure generation under the manager: $replies replies, 0 mutations, corpus $kept"
