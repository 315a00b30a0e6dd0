# `pt2fuzz opdb` measures the catalogue against torch's op_db on the
# installed torch: every entry is mapped to the catalogue rows that call it,
# excluded with a reviewed reason, or left to add, and the three add up. The
# exclusions are checked against torch (none stale, none contradicted: the
# command exits 1 then), and the figure does not fall below what the
# catalogue has reached.
source "$(dirname "$0")/lib.sh"
MIN_MAPPED=577 # entries of torch 2.15's op_db the catalogue maps: raise it as families land
"$PT2FUZZ" opdb --list all >"$TMP/all.txt" 2>"$TMP/err.txt" || { cat "$TMP/err.txt"; die "opdb failed"; }
summary=$(tail -1 "$TMP/all.txt")
echo "$summary"
read -r entries mapped excluded left < <(echo "$summary" |
  sed -n 's/^op_db of torch [^:]*: \([0-9]*\) entries; \([0-9]*\) mapped ([0-9.]*%), \([0-9]*\) excluded with a reason, \([0-9]*\) left to add$/\1 \2 \3 \4/p')
[ -n "${left:-}" ] || die "no summary line: $summary"
[ $((mapped + excluded + left)) = "$entries" ] || die "$mapped + $excluded + $left is not $entries"
[ "$(grep -c $'\t' "$TMP/all.txt")" = "$entries" ] || die "--list all does not list every entry"
for kind in mapped excluded unmapped; do
  n=$(awk -F'\t' -v k=$kind '$2 == k' "$TMP/all.txt" | wc -l)
  case $kind in mapped) want=$mapped ;; excluded) want=$excluded ;; unmapped) want=$left ;; esac
  [ "$n" = "$want" ] || die "$n entries listed $kind, the summary says $want"
done
expect_row() { # op_db name, kind, a catalogue row or a reason's word
  awk -F'\t' -v n="$1" -v k="$2" -v w="$3" '$1 == n && $2 == k && index($3, w)' "$TMP/all.txt" | grep -q . ||
    die "$1 is not $2 with '$3': $(grep "^$1"$'\t' "$TMP/all.txt" || echo absent)"
}
expect_row abs mapped abs
expect_row nn.functional.conv2d mapped conv2d
expect_row nn.functional.scaled_dot_product_attention mapped sdpa
expect_row sigmoid mapped expit # torch.special.expit, an alias of sigmoid
expect_row sparse.mm excluded sparse
[ "$mapped" -ge "$MIN_MAPPED" ] || die "$mapped entries mapped, fewer than the $MIN_MAPPED reached"
"$PT2FUZZ" opdb --list unmapped | grep -q $'\tunmapped\t' || [ "$left" = 0 ] || die "--list unmapped lists nothing"
"$PT2FUZZ" opdb --list bogus 2>"$TMP/err.txt" && die "--list bogus accepted"
grep -q "mapped, excluded, unmapped or all" "$TMP/err.txt" || die "no usage for --list bogus"
# A Python without torch's test helpers: exit 1 and how to get them.
if ! python3 -c 'import torch.testing._internal.common_methods_invocations' 2>/dev/null; then
  PT2FUZZ_PYTHON=python3 "$PT2FUZZ" opdb >/dev/null 2>"$TMP/err.txt" && die "opdb ran without op_db"
  grep -q "could not read op_db" "$TMP/err.txt" || die "no reason without op_db: $(cat "$TMP/err.txt")"
fi
echo "ok: pt2fuzz opdb"
