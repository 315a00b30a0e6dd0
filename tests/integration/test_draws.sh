# Draws that differ between modes (pipeline/draws.h): a planted backend draws
# one number before the graph's own draws, as a reordering of them does.
#  1. No draw bug known on this torch: the dropout's component is a numeric
#     finding (the plant shows; the built-in list marks it with its draw
#     bug of another torch), the relu's beside it passes.
#  2. A draw bug known on this torch (--known): the dropout's component is
#     judged by layout alone and passes; nothing is found.
#  3. --hunt-known: values after a draw are compared again, and the finding
#     is the known draw bug.
source "$(dirname "$0")/lib.sh"
PLUGINS=(--plugin "$ROOT/tests/integration/planted_backends.py" --device cpu --backend planted_shifted_draws)
printf '%s\n' 'x0 = input float32 [6, 5]' 'v1 = dropout(x0; p=0.5)' 'v2 = exp(v1)' 'x3 = input float32 [7]' \
  'v4 = relu(x3)' 'output v2, v4' >"$TMP/g.txt"
"$PT2FUZZ" parse "$TMP/g.txt" --out "$TMP/g.bin"
echo "pytorch#1 | numeric | * | family:random | $TORCH_MINOR | draws shifted, a planted draw bug" >"$TMP/known.txt"

"$PT2FUZZ" run "${PLUGINS[@]}" --findings "$TMP/f1" "$TMP/g.bin" | tee "$TMP/run1.out"
grep -q '^findings: [0-9]* new, [0-9]* known, ' "$TMP/run1.out" || die "no findings line"
[ "$(ls -d "$TMP"/f1/numeric-* | wc -l)" = 1 ] || die "the shifted draws are not one numeric finding"
grep -q '"dropout"' "$TMP"/f1/numeric-*/meta.json || die "the finding is not the dropout's"
grep -q '"relu"' "$TMP"/f1/numeric-*/meta.json && die "the finding's op set names the other component's relu"

"$PT2FUZZ" run "${PLUGINS[@]}" --known "$TMP/known.txt" --findings "$TMP/f2" "$TMP/g.bin" | tee "$TMP/run2.out"
grep -q ': pass' "$TMP/run2.out" || die "with the draw bug known the graph does not pass"
[ ! -e "$TMP/f2" ] || [ -z "$(ls "$TMP/f2")" ] || die "with the draw bug known something was recorded"

"$PT2FUZZ" run "${PLUGINS[@]}" --known "$TMP/known.txt" --hunt-known --findings "$TMP/f3" "$TMP/g.bin" | tee "$TMP/run3.out"
grep -q '\[known: pytorch#' "$TMP/run3.out" || die "--hunt-known does not find the known draw bug"
grep -q '^findings: 0 new, 1 known' "$TMP/run3.out" || die "the hunted finding is not counted known"
