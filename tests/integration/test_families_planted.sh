# Each family added to the catalogue is judged: its seed passes under
# Inductor (test_seeds_pass.sh runs every shipped seed to the verdict it
# expects), and planted_wrong_op, which breaks one op's kernel (the call
# Dynamo traced, named by $PT2FUZZ_PLANTED_OP) and nothing else, makes the
# same graph a numeric finding that names the catalogue row.
# One row per family: seed, the traced call to break, the row the finding names.
source "$(dirname "$0")/lib.sh"
FAMILIES=(
  "fam_attention_sdpa scaled_dot_product_attention sdpa_mask"
  "fam_special_polynomials special_legendre_polynomial_p legendre_polynomial_p"
  "fam_signal_windows gaussian gaussian_window"
  "fam_linalg_spd linalg_eigvalsh linalg_eigvalsh"
  "fam_fft_transforms fft_fft2 fft_fft2"
  "fam_complex_numbers exp exp"
  "fam_fft_of_complex fft_fft fft_fft_complex"
  "fam_shape_more select_scatter select_scatter"
  "fam_linalg_decomp ormqr ormqr"
  "fam_misc_nn_more pdist pdist"
)
run=("$PT2FUZZ" run --device cpu --plugin "$ROOT/tests/integration/planted_backends.py")
for row in "${FAMILIES[@]}"; do
  read -r seed call op <<<"$row"
  seed_expect "$ROOT/seeds/$seed.txt" | grep -qx pass || die "$seed is not expected to pass under Inductor"
  PT2FUZZ_PLANTED_OP=$call "${run[@]}" --backend planted_wrong_op --findings "$TMP/$seed.wrong" \
    "$ROOT/seeds/$seed.txt" | tee "$TMP/$seed.wrong.out"
  grep -q "$seed.txt: numeric" "$TMP/$seed.wrong.out" || die "a wrong $call is not a numeric finding"
  grep -q "\"$op\"" "$TMP/$seed.wrong"/numeric-*/meta.json || die "the finding of a wrong $call does not name $op"
done
echo "ok: ${#FAMILIES[@]} families tell a right compile from a planted wrong one"
