# A reduce killed from outside midway keeps what it had reached: each smaller
# graph that still shows the finding is written as the reduction takes it,
# so reduced/ holds a graph smaller than the original that shows the
# finding again. planted_numeric_if_cumsum_killing_reduce kills the reduce
# once reduced/graph.bin exists; a reduce that wrote only at its end would
# never be killed and would finish.
source "$(dirname "$0")/lib.sh"
"$PT2FUZZ" parse "$ROOT/tests/integration/cumsum_chain.txt" --out "$TMP/g.bin"
PLANT=(--plugin "$ROOT/tests/integration/planted_backends.py" --device cpu)
export PT2FUZZ_TEST_REDUCED=$TMP/reduced
rc=0
bash -c 'export PT2FUZZ_TEST_KILL_PID=$$; exec "$@"' _ "$PT2FUZZ" reduce "${PLANT[@]}" \
  --backend planted_numeric_if_cumsum_killing_reduce --jobs 1 --out "$TMP/reduced" "$TMP/g.bin" \
  >"$TMP/reduce.log" 2>&1 || rc=$?
cat "$TMP/reduce.log"
[ "$rc" = 137 ] || die "the reduce was not killed midway (exit $rc): it wrote no step before its end"
[ -s "$TMP/reduced/graph.bin" ] && [ -s "$TMP/reduced/repro.py" ] && [ -s "$TMP/reduced/reduce.json" ] ||
  die "the killed reduce left no reduced/ of its own"
ops=$("$PT2FUZZ" show "$TMP/reduced/graph.bin" | sed -n 's/^# pt2fuzz graph: \([0-9]*\) ops$/\1/p')
echo "reduced/ holds $ops ops of 5"
[ -n "$ops" ] && [ "$ops" -lt 5 ] || die "reduced/ does not hold a smaller graph"
grep -q '"ops_after": '"$ops" "$TMP/reduced/reduce.json" || die "reduce.json does not describe the graph beside it"
"$PT2FUZZ" run "${PLANT[@]}" --backend planted_numeric_if_cumsum --findings "$TMP/f" "$TMP/reduced/graph.bin" |
  tee "$TMP/run.out"
grep -q 'graph.bin: numeric' "$TMP/run.out" || die "the graph the killed reduce left no longer shows the finding"
echo "killed reduce: ok"
