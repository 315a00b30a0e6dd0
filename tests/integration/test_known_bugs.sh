# The known-bug suite (tests/known_bugs/NNNNNN_name.txt, one upstream PyTorch
# issue each, docs/known-bugs.md): `pt2fuzz run` with Inductor on CPU gives
# every graph the verdict its file expects on this torch (lib.sh:
# seed_expect), and marks each finding known with the file's own issue
# (pipeline/known_bugs.txt), so that a campaign does not count it as new.
source "$(dirname "$0")/lib.sh"
SUITE=$ROOT/tests/known_bugs
names=$(for txt in "$SUITE"/*.txt; do basename "$txt" .txt; done)
mkdir "$TMP/graphs"
for s in $names; do
  "$PT2FUZZ" parse "$SUITE/$s.txt" --out "$TMP/graphs/$s.bin" >/dev/null
done
"$PT2FUZZ" run --jobs 2 --device cpu --findings "$TMP/findings" "$TMP/graphs" | tee "$TMP/out"
judge_verdicts "$SUITE" "$TMP/out" $names || die "known-bug verdicts differ from what the files expect on torch $TORCH_MINOR"
found=0
for s in $names; do
  case $(seed_expect "$SUITE/$s.txt") in pass | unchecked) continue ;; esac
  found=$((found + 1))
  issue=pytorch#${s%%_*}
  grep "/$s.bin: " "$TMP/out" | grep -qF "[known: $issue]" ||
    die "$s: its finding is not marked [known: $issue] (pipeline/known_bugs.txt)"
done
echo "$found findings marked with their own issue (torch $TORCH_MINOR)"
