# --keep-going (campaigns set it): a finding that repeats a recorded one is
# counted in its folder, the process goes on, and the input shows libFuzzer
# no features, so that it stays out of the corpus (clang 14's libFuzzer adds
# an input with new features whatever the target returns: the -fork
# parent's merges then compiled such inputs again while the slots waited).
source "$(dirname "$0")/lib.sh"
bug=$(finding_seed)
[ -n "$bug" ] || die "no shipped seed is a finding on torch $TORCH_MINOR"
mkdir "$TMP/corpus"
cp "$B/seeds/$bug.bin" "$TMP/corpus/"
# --hunt-known: the seed's component is a known bug's trigger, which is otherwise dropped
opts=(-artifact_prefix="$TMP/" -ignore_remaining_args=1 --device cpu --findings "$TMP/findings" --hunt-known)
features() { # libFuzzer's INITED line names no ft: when no input showed any
  local ft
  ft=$(sed -n 's/.*INITED .*ft: \([0-9]*\).*/\1/p' "$1")
  grep -q INITED "$1" && echo "${ft:-0}"
}

rc=0
"$B/pt2fuzz_fuzzer" -runs=0 "$TMP/corpus" "${opts[@]}" >"$TMP/first.log" 2>&1 || rc=$?
# The bug seeds are pt2fuzz's own reported bugs (pipeline/known_bugs.txt): a known finding, which
# aborts all the same without --keep-going.
[ $rc != 0 ] && grep -q "pt2fuzz: known finding .*\[known: docs/findings/" "$TMP/first.log" ||
  { tail "$TMP/first.log"; die "the seed's finding did not abort the first run"; }

"$B/pt2fuzz_fuzzer" -runs=0 "$TMP/corpus" "${opts[@]}" --keep-going >"$TMP/again.log" 2>&1 ||
  { tail "$TMP/again.log"; die "with --keep-going a repeated finding ended the run"; }
grep -q "pt2fuzz: repeated finding" "$TMP/again.log" || die "the second run did not see the finding repeat"
echo "features libFuzzer saw for the repeated finding: $(features "$TMP/again.log")"
[ "$(features "$TMP/again.log")" = 0 ] || die "a repeated finding showed libFuzzer features: it would enter the corpus"
count=$(grep -o '"count": [0-9]*' "$TMP"/findings/*/meta.json | grep -o '[0-9]*$')
[ "$count" = 2 ] || die "the finding counts $count hits, not 2"
