# Known bugs stop costing compute (mutators/avoid.h): with a known-bug line
# whose trigger is any random op on this torch (--known), the libFuzzer
# target's mutants never hold one, though its seed does and the generator
# draws them otherwise; with --hunt-known they come back. A numeric line of
# random ops alone is a draw bug, which the oracle absorbs
# (pipeline/draws.h): random ops are not avoided for it.
source "$(dirname "$0")/lib.sh"
echo "pytorch#1 | behaviour | * | family:random | $TORCH_MINOR | every random op, a planted trigger" >"$TMP/known.txt"
echo "pytorch#2 | numeric | * | family:random | $TORCH_MINOR | draws differ, a planted draw bug" >"$TMP/draws.txt"
random_ops() { # graph file: how many of its nodes are random ops
  local ops
  ops=$("$PT2FUZZ" ops | awk '$2 == "random" { print $1 }' | paste -sd'|')
  "$PT2FUZZ" show "$1" | grep -cE "^[a-z0-9_, ]+ = ($ops)\(" || true
}
# --no-configs: what is avoided here is ops; a drawn configuration would only add its own
# failures (the seed under fake_tensor_propagate_real_tensors, multinomial raising)
run() { # corpus folder, extra options: 12 mutants of the random-op seed
  mkdir -p "$TMP/$1"
  "$B/pt2fuzz_fuzzer" -runs=12 -seed=7 -artifact_prefix="$TMP/" "$TMP/$1" "$TMP/seed" -ignore_remaining_args=1 \
    --device cpu --components 2 --size 4 --keep-going --no-configs --findings "$TMP/findings" "${@:2}" \
    >"$TMP/$1.log" 2>&1 || { tail "$TMP/$1.log"; die "the target failed"; }
  local f n=0
  for f in "$TMP/$1"/*; do n=$((n + $(random_ops "$f"))); done
  echo "$n"
}
mkdir "$TMP/seed"
cp "$B/seeds/fam_random_seeded.bin" "$TMP/seed/"
[ "$(random_ops "$TMP/seed/fam_random_seeded.bin")" -gt 0 ] || die "the seed holds no random op"
avoided=$(run avoided --known "$TMP/known.txt")
kept=$(ls "$TMP/avoided" | wc -l)
echo "avoided: $kept new corpus inputs, $avoided random ops in them"
[ "$kept" -gt 0 ] || die "no mutant entered the corpus: nothing was checked"
[ "$avoided" = 0 ] || die "mutants hold $avoided random ops though a known bug's trigger is any random op"
hunted=$(run hunted --known "$TMP/known.txt" --hunt-known)
echo "hunted: $(ls "$TMP/hunted" | wc -l) new corpus inputs, $hunted random ops in them"
[ "$hunted" -gt 0 ] || die "with --hunt-known no mutant holds a random op"
drawn=$(run drawn --known "$TMP/draws.txt")
echo "draw bug: $(ls "$TMP/drawn" | wc -l) new corpus inputs, $drawn random ops in them"
[ "$drawn" -gt 0 ] || die "random ops are avoided for a draw bug, which the oracle absorbs"

# A known bug of a near-invalid graph (pytorch#197062: adaptive_max_pool2d
# breaking unsupported_dtype, missing-error on the pinned torch) is held by
# its broken node: the job that finds it writes the pair to the findings'
# .known-breaks.tsv, which every job reads (fuzz/known_breaks.h).
bug=$ROOT/tests/known_bugs/197062_adaptive_max_pool2d_int64.txt
[ "$(seed_expect "$bug")" = missing-error ] || die "$bug expects no missing-error on torch $TORCH_MINOR"
mkdir "$TMP/nseed" "$TMP/ncorpus"
"$PT2FUZZ" parse "$bug" --out "$TMP/nseed/amp.bin"
"$B/pt2fuzz_fuzzer" -runs=1 -seed=7 -artifact_prefix="$TMP/" "$TMP/ncorpus" "$TMP/nseed" -ignore_remaining_args=1 \
  --device cpu --keep-going --findings "$TMP/nf" >"$TMP/nf.log" 2>&1 || true # its one input is a finding: nothing to fuzz
grep -q 'known finding .*\[known: pytorch#197062\]' "$TMP/nf.log" || die "the seed's finding is not the known #197062"
grep -qP "^$TORCH_MINOR\tadaptive_max_pool2d\tunsupported_dtype\tpytorch#197062$" "$TMP/nf/.known-breaks.tsv" ||
  die "the broken node of the known finding was not learned"

# A seed that holds a trigger (one of the shipped bug seeds: a bug pt2fuzz
# reported, on this torch) has that component dropped before it runs, like a
# mutant's (a seed of triggers alone runs fresh components instead): its bug
# is not found, and the stats count the drop; --hunt-known runs it as it is.
seed=$(finding_seed)
[ -n "$seed" ] || die "no shipped seed is a finding on torch $TORCH_MINOR"
for how in avoided hunted; do
  mkdir -p "$TMP/bseed-$how" "$TMP/bstats-$how"
  cp "$B/seeds/$seed.bin" "$TMP/bseed-$how/"
  extra=()
  [ $how = hunted ] && extra=(--hunt-known)
  "$B/pt2fuzz_fuzzer" -runs=0 -artifact_prefix="$TMP/" "$TMP/bseed-$how" -ignore_remaining_args=1 --device cpu \
    --keep-going --findings "$TMP/bf-$how" --stats "$TMP/bstats-$how" "${extra[@]}" >"$TMP/bseed-$how.log" 2>&1 ||
    { tail "$TMP/bseed-$how.log"; die "the target failed on the bug seed ($how)"; }
done
dropped=$(awk -F'\t' '$1 == "avoided" { print $2 }' "$TMP"/bstats-avoided/fuzzer-*.tsv)
echo "bug seed $seed: $dropped components dropped"
[ "${dropped:-0}" -ge 1 ] || die "the bug seed's trigger component was not dropped"
! grep -q "known finding .*\[known: " "$TMP/bseed-avoided.log" || die "the bug seed's known bug was found though its trigger is avoided"
grep -q "pt2fuzz: known finding .*\[known: docs/findings/" "$TMP/bseed-hunted.log" ||
  die "with --hunt-known the bug seed's reported bug was not found"
