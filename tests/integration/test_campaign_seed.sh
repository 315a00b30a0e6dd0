# A campaign's seed (`pt2fuzz fuzz --seed N`, fuzz/manager.c's draws):
# campaigns given one seed draw the same inputs, campaigns given two draw
# different ones, and a campaign given none draws its seed from the
# system's entropy and says it, so that runners started together (a Slurm
# array, a resumed run) do not all run the same graphs. The inputs a
# campaign ran are read from a backend that records each graph it compiles
# (pure generation, one job: the order is the draws').
# Runs alone: campaigns of 20 s, two at once.
source "$(dirname "$0")/lib.sh"
mkdir "$TMP/seeds"
"$PT2FUZZ" gen --seed 5 --count 1 --size 3 --target cpu --configs 0 --out "$TMP/seeds" >/dev/null
cat >"$TMP/recorded.py" <<'PY'
import hashlib
import os

from torch._dynamo import register_backend


@register_backend
def recorded(gm, example_inputs):
    """Eager, after appending a hash of the graph's code to $PT2FUZZ_TEST_RECORD."""
    with open(os.environ["PT2FUZZ_TEST_RECORD"], "a") as f:
        f.write(hashlib.sha1(gm.code.encode()).hexdigest() + "\n")
    return gm.forward
PY
campaign() { # name, options...
  local name=$1; shift
  PT2FUZZ_TEST_RECORD=$TMP/$name.compiled "$PT2FUZZ" fuzz --no-coverage --no-configs --time 20 --jobs 1 --size 3 \
    --components 1 --out "$TMP/$name" --seeds "$TMP/seeds" --device cpu --no-triage --plugin "$TMP/recorded.py" \
    --backend recorded "$@" >"$TMP/$name.log" 2>&1 || { cat "$TMP/$name.log"; die "campaign $name failed"; }
  touch "$TMP/$name.compiled"
}
campaign a --seed 7 & campaign b --seed 7 & wait
campaign c --seed 8 & campaign d & wait
for name in a b c d; do
  echo "$name: $(wc -l <"$TMP/$name.compiled") graphs compiled, $(grep -m1 '^  seed' "$TMP/$name.log")"
done
# The same first n graphs of two records, n their shorter length.
same_start() { # record, record
  local a b n
  a=$(wc -l <"$1") b=$(wc -l <"$2")
  n=$((a < b ? a : b))
  [ "$n" -ge 3 ] || die "$1 and $2: only $n graphs compiled in both (the seed and two generated wanted)"
  cmp -s <(head -n "$n" "$1") <(head -n "$n" "$2")
}
same_start "$TMP/a.compiled" "$TMP/b.compiled" || die "campaigns given one seed compiled different graphs"
! same_start "$TMP/a.compiled" "$TMP/c.compiled" || die "campaigns given seeds 7 and 8 compiled the same graphs"
! same_start "$TMP/a.compiled" "$TMP/d.compiled" || die "a campaign given no seed compiled seed 7's graphs"
grep -q '^  seed            7$' "$TMP/a.log" || die "campaign a's summary does not say its seed 7"
drawn=$(sed -n 's/^  seed  *\([0-9]*\)$/\1/p' "$TMP/d.log")
[ -n "$drawn" ] && [ "$drawn" != 7 ] && [ "$drawn" != 8 ] || die "campaign d's summary says seed '${drawn}'"
grep -q "seed $drawn (\`--seed $drawn\` makes the same draws)" "$TMP/d.log" || die "campaign d does not say its seed at its start"
echo "one seed: the same graphs; seeds 7 and 8 and an entropy seed ($drawn): different ones"
