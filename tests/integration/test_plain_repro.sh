# Plain repros (docs/triage.md): a real torch 2.15 CPU bug (multi_margin_loss
# on an unbatched input returns shape [1] where eager returns ()) found by
# `pt2fuzz run`, then `pt2fuzz report`: the report's reproducer is a plain
# program of at most 30 lines with no harness in it, and FINDING/plain.py
# prints MISMATCH when run alone, as `repro --plain` shows too; a passing
# graph's plain program (one that writes an input, a parameter and a buffer
# in place) prints PASS, as does one whose float64 run makes floats from
# integers; a finding of NaN where eager gives an infinity (grid_sample of
# infinities, torch 2.15) prints MISMATCH NaN/Inf, which same() alone would
# pass; and a finding of a planted backend, which plain
# torch.compile does not have, keeps the harness program as its reproducer,
# the report saying why the plain one is not.
source "$(dirname "$0")/lib.sh"
last_line() { grep -v '^$' "$1" | tail -1; }

# 1. The real bug: a finding, its report, its plain repro.
"$PT2FUZZ" run --device cpu --findings "$TMP/f" "$B/seeds/bug_multi_margin_loss_unbatched_none.bin" | tee "$TMP/run"
f=$(ls -d "$TMP"/f/numeric-* | head -1)
[ -d "$f" ] || die "no numeric finding for multi_margin_loss"
"$PT2FUZZ" report "$f" --device cpu 2>&1 | tee "$TMP/report.log"
grep -q 'plain repro: reproduces alone' "$TMP/report.log" || die "the plain repro does not reproduce the bug alone"
r=$f/report.md
# The reproducer is the first python block: plain.py, whole; the harness program follows, folded.
awk '/^```python$/ { n++; on = n == 1; next } /^```$/ { on = 0 } on' "$r" >"$TMP/inline.py"
cmp "$TMP/inline.py" "$f/plain.py" || die "the report's reproducer is not plain.py"
lines=$(wc -l <"$f/plain.py")
[ "$lines" -le 30 ] || die "plain.py has $lines lines"
grep -qE 'make_inputs|lay_out|import os|MUTATED|pt2fuzz_' "$f/plain.py" && die "plain.py uses the harness"
head -1 "$f/plain.py" | grep -q "^# pt2fuzz $(basename "$f") (numeric): multi_margin_loss" || die "plain.py's first line: $(head -1 "$f/plain.py")"
grep -qF '**Reproducer** (plain PyTorch, ' "$r" || die "the report does not present the plain repro"
grep -qF "<details><summary>The fuzzer's program (repro.py)</summary>" "$r" || die "no harness program beside it"
grep -qF '# pt2fuzz program: 1 ops' "$r" || die "the harness program is not in the report"
grep -qF '(not reduced)' "$r" || die "the report does not say the graph is not reduced"
# plain.py alone, in the venv's Python, by path.
"$PY" "$f/plain.py" >"$TMP/plain.out" 2>"$TMP/plain.err" || die "plain.py failed: $(tail -3 "$TMP/plain.err")"
last_line "$TMP/plain.out" | grep -q '^MISMATCH output 0: eager torch.float32 \[\], compiled torch.float32 \[1\]$' ||
  die "plain.py's last line: $(last_line "$TMP/plain.out")"
# repro --plain runs the same file.
"$PT2FUZZ" repro --plain "$f" --timeout 300 >"$TMP/repro.out" 2>"$TMP/repro.err"
grep -q "plain.py in " "$TMP/repro.err" || die "repro --plain did not run plain.py: $(head -1 "$TMP/repro.err")"
[ "$(last_line "$TMP/repro.out")" = "$(last_line "$TMP/plain.out")" ] || die "repro --plain: $(last_line "$TMP/repro.out")"

# 2. A passing graph that writes an input, a parameter and a buffer: PASS, each written leaf compared.
"$PT2FUZZ" emit --plain "$B/seeds/inplace_views_state.bin" >"$TMP/pass.py"
grep -q '"x0 written in place": x0' "$TMP/pass.py" || die "the written input is not compared"
"$PY" "$TMP/pass.py" >"$TMP/pass.out" 2>"$TMP/pass.err" || die "the passing plain program failed: $(tail -3 "$TMP/pass.err")"
[ "$(last_line "$TMP/pass.out")" = PASS ] || die "the passing graph's plain program: $(last_line "$TMP/pass.out")"
grep -q '^compared: .*x0 written in place' "$TMP/pass.out" || die "the written input was not compared: $(cat "$TMP/pass.out")"

# 2b. Floats the model makes from integers (log1p of an int32: the default
# dtype) are float64 in the float64 run: there they would meet a float64
# operand in lerp, which takes one dtype, and the reference would raise.
printf 'bindings 1\nseed 3\nx0 = input int32 [4, 3] range 0 8\nx1 = input float32 [4, 3]\nv2 = special_log1p(x0)\nv3 = ldexp(v2, x1)\nv4 = lerp(v2, v3, v3)\noutput v4\n' >"$TMP/made.txt"
"$PT2FUZZ" emit --plain "$TMP/made.txt" >"$TMP/made.py"
"$PY" "$TMP/made.py" >"$TMP/made.out" 2>"$TMP/made.err" || die "the float64 run of floats made from integers failed: $(tail -1 "$TMP/made.err")"
[ "$(last_line "$TMP/made.out")" = PASS ] || die "floats made from integers: $(last_line "$TMP/made.out")"

# 3. A planted bug plain torch.compile cannot show: the harness program stays the reproducer.
PLUGIN=(--plugin "$ROOT/tests/integration/planted_backends.py" --device cpu)
"$PT2FUZZ" run "${PLUGIN[@]}" --backend planted_numeric --findings "$TMP/p" "$B/seeds/doc001_s2_mm_add.bin"
p=$(ls -d "$TMP"/p/numeric-* | head -1)
[ -d "$p" ] || die "no finding for the planted backend"
"$PT2FUZZ" report "$p" "${PLUGIN[@]}" 2>&1 | tee "$TMP/report2.log"
grep -q 'plain repro: does not reproduce alone' "$TMP/report2.log" || die "the planted finding's plain repro reproduced"
grep -qF 'does not reproduce this alone, so the program above is the reproducer' "$p/report.md" ||
  die "the report does not say that the plain repro does not reproduce alone"
grep -q 'InvalidBackend' "$p/report.md" || die "the report does not say why"
awk '/^```python$/ { n++; on = n == 1; next } /^```$/ { on = 0 } on' "$p/report.md" >"$TMP/inline2.py"
cmp "$TMP/inline2.py" "$p/repro.py" || die "the planted finding's reproducer is not repro.py"
[ -f "$p/plain.py" ] || die "no plain.py beside it"
# 4. A nonfinite finding: eager inf, compiled NaN, which same(equal_nan=True) takes as equal.
"$PT2FUZZ" run --device cpu --findings "$TMP/f4" "$B/seeds/bug_grid_sample_infinity.bin" >"$TMP/run4" 2>&1 || true
n=$(ls -d "$TMP"/f4/numeric-* 2>/dev/null | head -1)
[ -n "$n" ] && grep -q '"mismatch": *"nonfinite"' "$n/meta.json" || die "no nonfinite finding for grid_sample: $(cat "$TMP/run4")"
"$PT2FUZZ" emit --plain "$n" >"$TMP/nonfinite.py" || die "emit --plain of the nonfinite finding failed"
"$PY" "$TMP/nonfinite.py" >"$TMP/nonfinite.out" 2>"$TMP/nonfinite.err" || die "its plain.py failed: $(tail -3 "$TMP/nonfinite.err")"
last_line "$TMP/nonfinite.out" | grep -q '^MISMATCH NaN/Inf output 0: at [1-9][0-9]* positions where eager and float64 agree$' ||
  die "the nonfinite finding's plain repro does not show it: $(last_line "$TMP/nonfinite.out")"
echo "plain repros ok"
