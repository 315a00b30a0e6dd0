# Every constraint breaker really breaks what it says: 200 random
# near-invalid graphs per constraint, and eager torch raises at the broken
# node at every binding of every one of them (bench/validity --break).
source "$(dirname "$0")/lib.sh"
for c in operand_dtype inner_dim broadcast index_range reshape_numel reflect_pad unsupported_dtype attr_domain value_domain overlap_write inplace_result; do
  "$B/bench/validity" --break "$c" --seed 1 --count 200 --size 8 --min-rate 1.0 2>/dev/null | tee "$TMP/$c.out" |
    grep -E '^(break|raised|broken ops|failing)'
  grep -q "^break $c: 200 of 200 graphs raise" "$TMP/$c.out" || die "$c: not every graph raised at its broken node"
done
