# Backward mode end to end on CPU: (a) generated backward-mode graphs and the
# backward seeds pass with gradients actually compared; (b) a planted bug in
# Inductor's backward graph (planted_backward.py) gives a numeric finding that
# says backward, and bisection names inductor.
source "$(dirname "$0")/lib.sh"
RUN=(--mode backward --device cpu --jobs 2)

# (a) Generated graphs (requires-grad marks drawn at 50%) and the bwd_ seeds.
"$PT2FUZZ" gen --seed 11 --count 6 --size 5 --grad 50 --out "$TMP/gen" 2>/dev/null
cp "$ROOT"/build/seeds/bwd_*.bin "$TMP/gen/"
"$PT2FUZZ" run "${RUN[@]}" --findings "$TMP/f-pass" "$TMP/gen" | tee "$TMP/run.out"
# A verdict marked [known: ...] is torch's filed bug, found as it should be.
bad=$(grep -v '^run:\|^findings:' "$TMP/run.out" | grep -v ': pass' | grep -v ': not-compiled' | grep -v '\[known: ' || true)
[ -z "$bad" ] || die "backward-mode graphs did not pass: $bad"
judged=$(sed -n 's/.*(\([0-9]*\) gradients compared)$/\1/p' "$TMP/run.out" | awk '{s += $1} END {print s + 0}')
echo "gradients compared: $judged"
[ "$judged" -gt 0 ] || die "no gradient was compared"
for s in "$ROOT"/build/seeds/bwd_*.bin; do
  grep -q "$(basename "$s"): pass (.* gradients compared)" "$TMP/run.out" || die "seed $(basename "$s") compared no gradient"
done

# (b) The planted backward bug: a numeric finding on a gradient, bisected to inductor.
PLANT=(--plugin "$ROOT/tests/integration/planted_backward.py" --device cpu --jobs 2)
"$PT2FUZZ" run --mode backward "${PLANT[@]}" --findings "$TMP/f-bug" "$ROOT/build/seeds/bwd_linear_layer_norm.bin"
f=$(ls -d "$TMP"/f-bug/*-* | head -1)
case "$f" in */numeric-*) ;; *) die "expected a numeric finding, got '$f'" ;; esac
grep -q '"pass": "backward"' "$f/meta.json" || die "the finding does not say backward"
grep -q '"detail": "backward gradient' "$f/meta.json" || die "the detail does not name a gradient"
"$PT2FUZZ" bisect "$f" "${PLANT[@]}" | tee "$TMP/bisect.out"
grep -q '^pass: backward$' "$TMP/bisect.out" || die "bisection does not say backward"
grep -q '^layer: inductor$' "$TMP/bisect.out" || die "bisection did not name inductor"
grep -q '"pass": "backward"' "$f/bisect.json" || die "bisect.json does not say backward"
# Forward mode does not compare gradients: the same plant is invisible there.
"$PT2FUZZ" run "${PLANT[@]}" --findings "$TMP/f-fwd" "$ROOT/build/seeds/bwd_linear_layer_norm.bin" >"$TMP/fwd.out"
grep -q ": pass$" "$TMP/fwd.out" ||
  die "forward mode saw the backward-only plant"
# (c) mode.backward in the graph's own configuration: a run without --mode backward compares its
# gradients, finds the plant, says so in meta.json, and writes no plain program for it.
"$PT2FUZZ" show "$ROOT/build/seeds/bwd_linear_layer_norm.bin" |
  sed 's/^seed .*$/&\nconfig mode.backward=True/' >"$TMP/cfg.txt"
"$PT2FUZZ" parse "$TMP/cfg.txt" --out "$TMP/cfg.bin"
"$PT2FUZZ" run "${PLANT[@]}" --findings "$TMP/f-cfg" "$TMP/cfg.bin" >"$TMP/cfg.out" || true
f=$(ls -d "$TMP"/f-cfg/numeric-* 2>/dev/null | head -1)
[ -n "$f" ] || die "a graph configured mode.backward found nothing: $(cat "$TMP/cfg.out")"
grep -q '"pass": "backward"' "$f/meta.json" || die "the configured graph's finding does not say backward"
grep -q '"passes": "forward+backward"' "$f/meta.json" || die "meta.json's passes do not say backward"
grep -q '"config": "mode.backward=True"' "$f/meta.json" || die "meta.json does not keep the configuration"
grep -q '^GRADS = (0, "p3")$' <("$PT2FUZZ" emit "$TMP/cfg.bin") || die "emit does not run the configured graph backward"
grep -q '^GRADS = ()$' <("$PT2FUZZ" emit --backend aoti "$TMP/cfg.bin") ||
  die "emit --backend aoti runs the configured graph backward, where the harness runs an AOTInductor package forward only"
# Its reduction's repro.py compares the gradients the reduction judged.
"$PT2FUZZ" reduce "$f" --plugin "$ROOT/tests/integration/planted_backward.py" --jobs 2 --time 240 >"$TMP/red.out" 2>&1 ||
  die "reduce failed: $(cat "$TMP/red.out")"
grep -q '^GRADS = ([^)]' "$f/reduced/repro.py" || die "the reduced repro.py compares no gradient: $(grep GRADS "$f/reduced/repro.py")"
rc=0
"$PT2FUZZ" repro --plain "$f" --plugin "$ROOT/tests/integration/planted_backward.py" >"$TMP/plain.out" 2>&1 || rc=$?
[ $rc != 0 ] && grep -q "backward mode: a plain program compares forward() only" "$TMP/plain.out" ||
  die "repro --plain of a backward finding: exit $rc, $(cat "$TMP/plain.out")"
echo "test_backward: ok"
