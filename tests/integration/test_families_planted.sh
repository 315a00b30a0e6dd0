# Each family added to the catalogue is judged: its seed passes under
# Inductor, and a planted backend that breaks that family's kernel (and
# nothing else) makes the same graph a numeric finding that names the op.
# One row per family: seed, planted backend, the op the finding must name.
source "$(dirname "$0")/lib.sh"
FAMILIES=(
  "fam_attention_sdpa planted_sdpa_scale sdpa"
)
for row in "${FAMILIES[@]}"; do
  read -r seed plant op <<<"$row"
  run=("$PT2FUZZ" run --device cpu --plugin "$ROOT/tests/integration/planted_backends.py")
  "${run[@]}" --findings "$TMP/$seed.right" "$ROOT/seeds/$seed.txt" | tee "$TMP/$seed.right.out"
  grep -q "^.*$seed.txt: pass$" "$TMP/$seed.right.out" || die "$seed does not pass under Inductor"
  "${run[@]}" --backend "$plant" --findings "$TMP/$seed.wrong" "$ROOT/seeds/$seed.txt" | tee "$TMP/$seed.wrong.out"
  grep -q "$seed.txt: numeric" "$TMP/$seed.wrong.out" || die "$plant's wrong $op is not a numeric finding"
  grep -q "\"$op\"" "$TMP/$seed.wrong"/numeric-*/meta.json || die "the finding under $plant does not name $op"
done
echo "ok: ${#FAMILIES[@]} families tell a right compile from a planted wrong one"
