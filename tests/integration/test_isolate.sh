# Each component judged on its own (pipeline/isolate.h, oracles/oracle.h
# oracle_judge_each): a known bug in one component of a graph hides nothing
# in the others.
#  1. Planted bugs in two components, one of them known (--known): both are
#     findings, the known one counted known and the other new, and the new
#     one reduces to its own component.
#  2. A compile error planted in one component: it is pinned on that
#     component alone (its finding's graph is that component), and the
#     others, compiled again without it, show their own planted bug.
source "$(dirname "$0")/lib.sh"
PLUGINS=(--plugin "$ROOT/tests/integration/planted_backends.py" --device cpu)

"$PT2FUZZ" gen --seed 41 --count 1 --family activation --components 2 --size 3 --dynamic 0 --out "$TMP/gen" 2>/dev/null
"$PT2FUZZ" show "$TMP"/gen/*.bin | sed 's/  #.*//' >"$TMP/base.txt"
plant() { # name, extra components (text lines), their outputs
  sed "s/^output \(.*\)/$2\noutput \1, $3/" "$TMP/base.txt" >"$TMP/$1.txt"
  "$PT2FUZZ" parse "$TMP/$1.txt" --out "$TMP/$1.bin"
  "$PT2FUZZ" check "$TMP/$1.bin"
}

# 1. cumsum and cumprod both wrong; cumprod's bug is known.
plant two 'cs = input float32 [5, 4]\nc1 = cumsum(cs; dim=0)\ncp = input float32 [3, 6]\nc2 = cumprod(cp; dim=1)' 'c1, c2'
echo 'pytorch#1 | numeric | * | cumprod | * | a planted known bug: cumprod outputs 1 too large' >"$TMP/known.txt"
"$PT2FUZZ" run "${PLUGINS[@]}" --backend planted_cumsum_cumprod_outputs --known "$TMP/known.txt" \
  --findings "$TMP/f1" "$TMP/two.bin" | tee "$TMP/run1.out"
[ "$(ls -d "$TMP"/f1/numeric-* | wc -l)" = 2 ] || die "want two numeric findings, one per planted bug"
grep -q '\[known: pytorch#1\]' "$TMP/run1.out" || die "the cumprod finding is not counted known"
grep -q '\[new finding ' "$TMP/run1.out" || die "the cumsum finding is not new"
grep -q '^findings: 1 new, 1 known' "$TMP/run1.out" || die "the totals do not count one new and one known finding"
new=$(grep -l '"cumsum"' "$TMP"/f1/numeric-*/meta.json | xargs dirname)
grep -q '"cumprod"' "$new/meta.json" && die "the cumsum finding's op set names the other component's cumprod"
"$PT2FUZZ" reduce "$new" "${PLUGINS[@]}" --backend planted_cumsum_cumprod_outputs --time 300 | tee "$TMP/reduce.out"
"$PT2FUZZ" show "$new/reduced/graph.bin" | tee "$TMP/reduced.txt"
[ "$(grep -c ' = [a-z_]*(' "$TMP/reduced.txt")" = 1 ] || die "the new finding did not reduce to its one op"
grep -q '= cumsum(' "$TMP/reduced.txt" || die "the reduced graph lost the cumsum"

# 2. cummax stops the whole compile; cumsum is wrong beside it.
plant stop 'cm = input float32 [4, 4]\nc1, c3 = cummax(cm; dim=0)\ncs = input float32 [5, 4]\nc2 = cumsum(cs; dim=0)' 'c1, c2'
"$PT2FUZZ" run "${PLUGINS[@]}" --backend planted_raise_if_cummax_else_cumsum_outputs --findings "$TMP/f2" \
  "$TMP/stop.bin" | tee "$TMP/run2.out"
b=$(ls -d "$TMP"/f2/behaviour-*)
[ "$(echo "$b" | wc -l)" = 1 ] || die "want one behaviour finding"
grep -q 'planted: cummax does not lower' "$b/meta.json" || die "the behaviour finding is not the planted error"
"$PT2FUZZ" show "$b/graph.bin" >"$TMP/culprit.txt"
grep -q '= cummax(' "$TMP/culprit.txt" || die "the behaviour finding's graph lost the cummax"
[ "$(grep -c ' = [a-z_]*(' "$TMP/culprit.txt")" = 1 ] || die "the behaviour finding's graph is not the cummax component alone"
n=$(ls -d "$TMP"/f2/numeric-* | wc -l)
[ "$n" = 1 ] || die "want the cumsum component's numeric finding beside it, got $n"
grep -q '"cumsum"' "$TMP"/f2/numeric-*/meta.json || die "the numeric finding is not the cumsum's"
grep -q 'stop.bin (the rest 2 of 2): numeric' "$TMP/run2.out" || die "the rest is not shown as judged again"
echo "ok"
