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
run() { # corpus folder, extra options: 12 mutants of the random-op seed
  mkdir -p "$TMP/$1"
  "$B/pt2fuzz_fuzzer" -runs=12 -seed=7 -artifact_prefix="$TMP/" "$TMP/$1" "$TMP/seed" -ignore_remaining_args=1 \
    --device cpu --components 2 --size 4 --keep-going --findings "$TMP/findings" "${@:2}" \
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
