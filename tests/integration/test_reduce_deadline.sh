# `pt2fuzz reduce --time` bounds the reduction, the checks in flight
# included: a check still running at the deadline is cut there and counts as
# not run, where it used to run on to its --timeout. Every candidate of this
# 5-op graph takes 300 s to compile (planted_numeric_slow_when_small) under a
# --timeout of 600 s: the reduce given 40 s ends well before a candidate
# could have finished, keeps the graph it had (the original: no candidate
# came back), says why, and leaves no worker behind.
source "$(dirname "$0")/lib.sh"
"$PT2FUZZ" parse "$ROOT/tests/integration/cumsum_chain.txt" --out "$TMP/g.bin"
export PT2FUZZ_TEST_SLOW=300 PT2FUZZ_TEST_RUN=$TMP # the run's processes carry its token
start=$(date +%s)
"$PT2FUZZ" reduce --plugin "$ROOT/tests/integration/planted_backends.py" --device cpu \
  --backend planted_numeric_slow_when_small --jobs 1 --time 40 --timeout 600 --out "$TMP/reduced" "$TMP/g.bin" \
  >"$TMP/reduce.log" 2>&1 || die "reduce failed: $(tail -5 "$TMP/reduce.log")"
took=$(($(date +%s) - start))
cat "$TMP/reduce.log"
echo "reduce --time 40 took $took s"
# a bound, not a timing: a candidate left to run would have taken 300 s
[ "$took" -lt 200 ] || die "reduce --time 40 ran $took s: the check in flight ran on past the deadline"
[ -s "$TMP/reduced/graph.bin" ] || die "the reduce kept no graph"
ops=$("$PT2FUZZ" show "$TMP/reduced/graph.bin" | sed -n 's/^# pt2fuzz graph: \([0-9]*\) ops$/\1/p')
[ "$ops" = 5 ] || die "reduced/ holds $ops ops: a candidate cut at the deadline was taken"
for env in /proc/[0-9]*/environ; do
  [ "$env" = "/proc/$$/environ" ] && continue
  if { tr '\0' '\n' <"$env"; } 2>/dev/null | grep -qx "PT2FUZZ_TEST_RUN=$TMP"; then die "a worker outlived the reduce: $env"; fi
done
echo "reduce deadline: ok"
