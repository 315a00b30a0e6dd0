# Real constants reach the compiled program exactly, and a compile that
# changes one is caught: the two seeds pass under Inductor, a backend that
# turns -0.0 into 0.0 makes the negative-zero seed a numeric finding (1 / -0.0
# is -inf in eager, inf compiled), and one that rounds constants below 1e-4 to
# 0 makes the epsilon seed one (x / (x * 0 + 1e-06) divides by 0). Each
# planted backend leaves the other seed passing: the seeds tell the two apart.
source "$(dirname "$0")/lib.sh"
run=("$PT2FUZZ" run --device cpu --plugin "$ROOT/tests/integration/planted_backends.py" --findings "$TMP/f")
seeds=("$ROOT/seeds/scalar_negative_zero.txt" "$ROOT/seeds/scalar_tiny_epsilon.txt")
"${run[@]}" "${seeds[@]}" | tee "$TMP/right"
[ "$(grep -c 'txt: pass$' "$TMP/right")" = 2 ] || die "the real-constant seeds do not pass under Inductor"
"${run[@]}" --backend planted_positive_zero "${seeds[@]}" | tee "$TMP/zero"
grep -q 'scalar_negative_zero.txt: numeric/nonfinite' "$TMP/zero" || die "a lost -0.0 is not caught"
grep -q 'scalar_tiny_epsilon.txt: pass$' "$TMP/zero" || die "a lost -0.0 changes the epsilon seed"
"${run[@]}" --backend planted_small_to_zero "${seeds[@]}" | tee "$TMP/tiny"
grep -q 'scalar_tiny_epsilon.txt: numeric/nonfinite' "$TMP/tiny" || die "an epsilon rounded to 0 is not caught"
grep -q 'scalar_negative_zero.txt: pass$' "$TMP/tiny" || die "rounding small constants changes the -0.0 seed"
echo "ok: a lost -0.0 and a lost 1e-06 are caught, each by its own seed"
