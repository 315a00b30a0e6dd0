# Near-invalid graphs end to end. Planted backends (planted_backends.py) that
# swallow a run-time error are caught as missing-error and one that raises
# another exception type as error-mismatch; the finding reduces keeping its
# class and its broken node, and its report names eager's missing error. A
# near-invalid graph round-trips through the text form, and its standalone
# program judges itself. Data-dependent ops compile with Dynamo's capture
# flags on.
source "$(dirname "$0")/lib.sh"
PLANT=(--plugin "$ROOT/tests/integration/planted_backends.py" --device cpu --jobs 2)

# Out-of-range indices raise only when the graph runs: the backend sees them.
"$PT2FUZZ" gen --seed 5 --count 4 --size 4 --break index_range --out "$TMP/g" 2>/dev/null
"$PT2FUZZ" gen --seed 6 --count 2 --size 4 --out "$TMP/g" 2>/dev/null # valid graphs pass through both
"$PT2FUZZ" run "${PLANT[@]}" --backend planted_swallow --findings "$TMP/f-swallow" "$TMP/g" | tee "$TMP/swallow.out"
grep -q 'pass 2 missing-error 4$' "$TMP/swallow.out" || die "swallowed errors not caught"
"$PT2FUZZ" run "${PLANT[@]}" --backend planted_error_type --findings "$TMP/f-type" "$TMP/g" | tee "$TMP/type.out"
grep -q 'pass 2 error-mismatch 4$' "$TMP/type.out" || die "another error type not caught"

# Reduction keeps the class (verdict, normalized error, constraint) and the broken node.
f=$(ls -d "$TMP"/f-swallow/missing-error-* | head -1)
"$PT2FUZZ" reduce "$f" "${PLANT[@]}" --time 300 | tee "$TMP/reduce.out"
grep -q '"verdict": "missing-error"' "$f/reduced/reduce.json" || die "reduced finding is not missing-error"
"$PT2FUZZ" show "$f/reduced/graph.bin" | tee "$TMP/reduced.txt"
grep -q ' breaks index_range ' "$TMP/reduced.txt" || die "the reduced graph lost its broken node"
ops=$("$PT2FUZZ" check "$f/reduced/graph.bin" | sed -n 's/^valid: \([0-9]*\) ops.*/\1/p')
[ -n "$ops" ] && [ "$ops" -le 2 ] || die "reduced to '$ops' ops, want <= 2"

# The report says which eager error compiled mode does not raise.
"$PT2FUZZ" report "$f" "${PLANT[@]}" >/dev/null
head -1 "$f/report.md" | grep -q "does not raise eager's" || die "report title"
grep -q 'EXPECT_ERROR = "index_range"' "$f/report.md" || die "report does not name the constraint"
grep -q '^\*\*Expected:\*\* compiled mode raises what eager mode raises' "$f/report.md" || die "report: expected"

# Text form round trip of a near-invalid graph.
g1=$(ls "$TMP"/g/g5_*.bin | head -1)
"$PT2FUZZ" show "$g1" >"$TMP/g1.txt"
"$PT2FUZZ" parse "$TMP/g1.txt" --out "$TMP/g1.bin"
cmp "$g1" "$TMP/g1.bin" || die "text round trip changed the graph"

# The standalone program: eager raises, Inductor raises the same type or not.
"$PT2FUZZ" gen --seed 8 --count 1 --size 3 --break inner_dim --out "$TMP/p" 2>/dev/null
"$PT2FUZZ" emit "$TMP"/p/*.bin >"$TMP/p.py"
PT2FUZZ_DEVICE=cpu $PY - <"$TMP/p.py" >"$TMP/p.out" 2>&1 || true
tail -1 "$TMP/p.out" | grep -Eq '^(PASS|MISMATCH (missing-error|error-mismatch))' || die "program: $(tail -1 "$TMP/p.out")"

# Data-dependent ops: captured and compiled (not-compiled or a finding would show).
"$PT2FUZZ" gen --seed 9 --count 6 --size 3 --family datadep --out "$TMP/dd" 2>/dev/null
"$PT2FUZZ" run --device cpu --jobs 2 --findings "$TMP/f-dd" "$TMP/dd" | tee "$TMP/dd.out"
grep -q '^run: 6 inputs .*: pass 6$' "$TMP/dd.out" || die "data-dependent graphs did not all pass"
