# Complex dtypes are judged part by part: the complex seeds pass under
# Inductor, and a backend that conjugates one op's complex result, or swaps
# its real and imaginary parts, makes the seed a numeric finding naming that
# op (a complex kernel, a complex FFT).
source "$(dirname "$0")/lib.sh"
run=("$PT2FUZZ" run --device cpu --plugin "$ROOT/tests/integration/planted_backends.py")
for seed in fam_complex_numbers fam_fft_of_complex; do
  "${run[@]}" --findings "$TMP/$seed.right" "$ROOT/seeds/$seed.txt" | tee "$TMP/$seed.right.out"
  grep -q "$seed.txt: pass$" "$TMP/$seed.right.out" || die "$seed does not pass under Inductor"
done
# seed, backend, the traced call it breaks, the row the finding names
ROWS=(
  "fam_complex_numbers planted_conj_op exp exp"
  "fam_complex_numbers planted_swap_parts_op complex complex_make"
  "fam_fft_of_complex planted_conj_op fft_fft fft_fft_complex"
  "fam_fft_of_complex planted_swap_parts_op fft_ifftn fft_ifftn_complex"
)
for row in "${ROWS[@]}"; do
  read -r seed backend call op <<<"$row"
  out="$TMP/$seed.$backend"
  PT2FUZZ_PLANTED_OP=$call "${run[@]}" --backend "$backend" --findings "$out" "$ROOT/seeds/$seed.txt" | tee "$out.txt"
  grep -q "$seed.txt: numeric" "$out.txt" || die "$backend on $call is not a numeric finding"
  grep -q "\"$op\"" "$out"/numeric-*/meta.json || die "the finding of $backend on $call does not name $op"
done
echo "ok: conjugated and part-swapped complex kernels are findings; the right compiles pass"
