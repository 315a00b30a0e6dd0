# Memory corruption end to end, in ONE worker (--jobs 1) over a directory of
# graphs where one (the cumsum graph, 2.bin) is compiled by a planted backend
# that writes past an output's allocation (planted_memory.py):
# - with glibc's checking malloc (the default) the write aborts the culprit's
#   own request: memory/crashed against 2.bin, and the next graph passes;
# - with a corruption that only a later free notices, and malloc checking
#   off, the next graph crashes; blame confirmation replays it alone (it
#   passes) and after 2.bin in fresh workers, and files memory/later
#   against 2.bin, the next graph keeping its real verdict, pass; the
#   libFuzzer target does the same;
# - a crash no program causes stays, marked unconfirmed;
# - the memory finding reduces keeping its class.
# Beside another test: nothing is timed but the reduction (--time 300; it takes under a minute,
# and a reduction cut short keeps the class and the cumsum all the same).
source "$(dirname "$0")/lib.sh"
PLANT=(--plugin "$ROOT/tests/integration/planted_memory.py" --device cpu --jobs 1)
mkdir -p "$TMP/g"
for s in 1:fam_unary_math_chain 2:fam_cumulative_scan 3:fam_reduce_dims 4:fam_activation_softmax; do
	cp "$B/seeds/${s#*:}.bin" "$TMP/g/${s%%:*}.bin"
done

# Caught where it happens.
"$PT2FUZZ" run "${PLANT[@]}" --backend planted_memory --findings "$TMP/f-now" "$TMP/g" | tee "$TMP/now.out"
grep -q "^$TMP/g/2.bin: memory/crashed: memory corrupted in compiled mode" "$TMP/now.out" || die "2.bin not memory/crashed"
for k in 1 3 4; do grep -q "^$TMP/g/$k.bin: pass" "$TMP/now.out" || die "$k.bin did not pass"; done
grep -q 'pass 3 memory 1$' "$TMP/now.out" || die "totals"
f=$(ls -d "$TMP"/f-now/memory-*)
[ "$(echo "$f" | wc -l)" = 1 ] || die "one memory finding expected: $f"
cmp "$f/graph.bin" "$TMP/g/2.bin" || die "the finding is not the cumsum graph"
grep -q '"malloc_check": "on"' "$f/meta.json" || die "malloc checking was not on in the worker"
grep -q '"heap_report": "[^"]' "$f/meta.json" || die "no heap report in meta.json" # which glibc check fires first varies
grep -q '"confirmation": "confirmed"' "$f/meta.json" || die "the crash was not confirmed alone"

# Noticed later, malloc checking off: the replay finds the culprit.
"$PT2FUZZ" run "${PLANT[@]}" --malloc-check off --backend planted_memory_late --findings "$TMP/f-late" "$TMP/g" |
	tee "$TMP/late.out"
grep -q "^$TMP/g/2.bin: memory/later: the next program in its worker failed" "$TMP/late.out" || die "2.bin not blamed"
grep -q "^$TMP/g/3.bin: pass (not reproduced alone in a fresh worker; the program run 1 before it is the cause)" \
	"$TMP/late.out" || die "3.bin did not get its real verdict"
grep -q 'pass 3 memory 1$' "$TMP/late.out" || die "totals: the culprit counts as memory, the innocent as pass"
f=$(ls -d "$TMP"/f-late/*)
[ "$(echo "$f" | wc -l)" = 1 ] || die "one finding expected: $f"
case "$f" in */memory-*) ;; *) die "the finding is not memory: $f" ;; esac
cmp "$f/graph.bin" "$TMP/g/2.bin" || die "the finding is not the cumsum graph"
grep -q '"malloc_check": "off"' "$f/meta.json" || die "malloc checking was on"
grep -q '"confirmation": "culprit"' "$f/meta.json" || die "meta.json does not say it was found by replay"

# The libFuzzer target goes through the same check: the same finding, under
# the culprit's graph, and no crash for the innocent input (--no-configs: the
# inputs run as their bytes say, with no configuration drawn on their run).
late=$(basename "$f")
"$B/pt2fuzz_fuzzer" -artifact_prefix="$TMP/" "$TMP"/g/1.bin "$TMP"/g/2.bin "$TMP"/g/3.bin "$TMP"/g/4.bin -ignore_remaining_args=1 \
	"${PLANT[@]}" --malloc-check off --backend planted_memory_late --no-configs --findings "$TMP/f-libfuzzer" 2>"$TMP/libfuzzer.log" ||
	die "the libFuzzer target stopped on an input (log: $TMP/libfuzzer.log)"
[ "$(ls "$TMP/f-libfuzzer")" = "$late" ] || die "libFuzzer's findings: $(ls "$TMP/f-libfuzzer"), want $late"
cmp "$TMP/f-libfuzzer/$late/graph.bin" "$TMP/g/2.bin" || die "libFuzzer's finding is not the cumsum graph"

# A crash no program causes (the worker's third compile aborts): not
# reproduced alone nor after either earlier program, so it stays, unconfirmed.
"$PT2FUZZ" run "${PLANT[@]}" --backend planted_abort_third --findings "$TMP/f-third" "$TMP/g" | tee "$TMP/third.out"
grep -q "^$TMP/g/3.bin: behaviour/crashed: .*(unconfirmed: not reproduced alone in a fresh worker, nor after any of the 2 programs" \
	"$TMP/third.out" || die "the crash of 3.bin is not marked unconfirmed"
grep -q '"confirmation": "unconfirmed"' "$TMP"/f-third/behaviour-*/meta.json || die "meta.json does not say unconfirmed"

# Reduction keeps the class.
f=$(ls -d "$TMP"/f-now/memory-*)
"$PT2FUZZ" reduce "$f" "${PLANT[@]}" --backend planted_memory --time 300 | tee "$TMP/reduce.out"
grep -q '"verdict": "memory"' "$f/reduced/reduce.json" || die "the reduced finding is not memory"
"$PT2FUZZ" show "$f/reduced/graph.bin" | grep -q cumsum || die "the reduced graph lost its cumsum"
echo "test_memory: ok"
