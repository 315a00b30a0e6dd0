# bench/validity: 1000 generated graphs from a fixed seed run in eager torch
# at every binding, with every value's dtype and shape as the shape rules
# inferred; at least 99% must be valid.
source "$(dirname "$0")/lib.sh"
"$B/bench/validity" --seed 1 --count 1000 --size 10 --min-rate 0.99 2>/dev/null | tee "$TMP/out"
grep -q '^validity: .* valid in eager mode' "$TMP/out" || die "no summary"
