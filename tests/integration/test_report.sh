# `pt2fuzz report` on a real finding (a planted compile error in a seed): the
# issue text has every section PyTorch's torch.compile template asks for, the
# repro, the exception, collect_env and a TORCH_TRACE log; then bisect.json is
# consumed, with its strings escaped (a truncated one is an error); a folder
# without meta.json is an error.
source "$(dirname "$0")/lib.sh"
PLUGIN=(--plugin "$ROOT/tests/integration/planted_backends.py" --device cpu)
seed=$(ls "$B"/seeds/*.bin | head -1)
"$PT2FUZZ" run "${PLUGIN[@]}" --backend planted_raise --findings "$TMP/f" "$seed"
f=$(ls -d "$TMP"/f/behaviour-* | head -1)
[ -d "$f" ] || die "no behaviour finding"

# 1. Not reduced, not bisected.
"$PT2FUZZ" report "$f" "${PLUGIN[@]}"
r=$f/report.md
head -1 "$r" | grep -q '^\[planted_raise\] torch.compile raises BackendCompilerFailed (RuntimeError) in ' ||
  die "title: $(head -1 "$r")"
for s in '### 🐛 Describe the bug' '**Reproducer**' '**Observed**' '**Expected:**' '**Ablation**' \
  "PyTorch's rules for fuzzer reports" 'fp64_ref' 'fallback_random = True' '### Error logs' 'tlparse' \
  '<details>' '### Versions' 'Not bisected' '(not reduced)'; do
  grep -qF -- "$s" "$r" || die "report.md lacks '$s'"
done
# The inline repro is the finding's program, whole.
sed -n '/^```python$/,/^```$/p' "$r" | sed '1d;$d' >"$TMP/inline.py"
cmp "$TMP/inline.py" "$f/repro.py" || die "the inline repro is not repro.py"
grep -q 'RuntimeError: planted compiler error: cannot lower node 42' "$r" || die "no exception text"
grep -q '^PyTorch version: ' "$r" || die "no collect_env output"
trace=$(ls "$f"/trace/*.log)
[ -s "$trace" ] || die "empty trace/"
grep -q '"dynamo_start"' "$trace" || die "the trace does not show the compile"

# 2. With bisect.json, written elsewhere: the blamed layer names the component,
# and bisect's strings cannot break the table.
printf '%s\n' '{"layer": "inductor", "backends": {"eager": "pass", "aot_eager": "pass",' \
  '"aot_eager_decomp_partition": "pass", "inductor": "behaviour|```<b>"},' \
  '"fallback_random": "no effect", "max_autotune": "n/a", "dynamic": "matters"}' >"$f/bisect.json"
"$PT2FUZZ" report "$f" "${PLUGIN[@]}" --out "$TMP/r2.md"
head -1 "$TMP/r2.md" | grep -q '^\[inductor\] ' || die "bisect's layer is not the component"
grep -qF '| backend=inductor | behaviour\|\`\`\`\<b\> |' "$TMP/r2.md" || die "bisect's verdict not escaped"
grep -qF '| dynamic=False instead of the dynamic marks | matters |' "$TMP/r2.md" || die "no dynamic row"

# 2b. A bisect.json cut short is an error that names it, not a report that says "not bisected".
head -c 40 "$f/bisect.json" >"$TMP/cut.json" && mv "$TMP/cut.json" "$f/bisect.json"
if "$PT2FUZZ" report "$f" "${PLUGIN[@]}" --out "$TMP/r3.md" 2>"$TMP/err"; then die "report with a truncated bisect.json succeeded"; fi
grep -q "bisect.json: not valid JSON" "$TMP/err" || die "unclear error: $(cat "$TMP/err")"
[ ! -e "$TMP/r3.md" ] || die "a report was written from a truncated bisect.json"

# 3. A folder that is not a finding.
mkdir "$TMP/empty"
if "$PT2FUZZ" report "$TMP/empty" 2>"$TMP/err"; then die "report on an empty folder succeeded"; fi
grep -q 'meta.json' "$TMP/err" || die "unclear error: $(cat "$TMP/err")"
echo "report ok"
