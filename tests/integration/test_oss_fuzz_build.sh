# scripts/oss-fuzz/build.sh builds the way OSS-Fuzz's base-builder does
# (sanitizer CFLAGS with fuzzer-no-link, $LIB_FUZZING_ENGINE at link time)
# and leaves what OSS-Fuzz expects in $OUT; the target, configured only by
# PT2FUZZ_OPTIONS and its .options file, runs a seed and fuzzes a little
# under ASan.
source "$(dirname "$0")/lib.sh"
O=$TMP/out
OUT=$O WORK=$TMP/work CC=clang CXX=clang++ LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
  CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link" \
  bash "$ROOT/scripts/oss-fuzz/build.sh"
for f in pt2fuzz_fuzzer pt2fuzz_fuzzer.options pt2fuzz_fuzzer.dict pt2fuzz_fuzzer_seed_corpus.zip; do
  [ -s "$O/$f" ] || die "no $f in \$OUT"
done
nm "$O/pt2fuzz_fuzzer" | grep __asan_init >/dev/null || die "the target is not built with ASan"
mkdir "$TMP/seeds" "$TMP/corpus"
(cd "$TMP/seeds" && unzip -q "$O/pt2fuzz_fuzzer_seed_corpus.zip")
[ "$(ls "$TMP/seeds" | wc -l)" = "$(ls "$ROOT"/seeds/*.txt | wc -l)" ] || die "the seed corpus lacks seeds"

# libFuzzer's flags from the .options file, as ClusterFuzz passes them.
flags=$(sed -n 's/^\([a-z_]*\) = \(.*\)$/-\1=\2/p' "$O/pt2fuzz_fuzzer.options" | sed "s|-dict=|-dict=$O/|")
export PT2FUZZ_PYTHON=$PY PT2FUZZ_OPTIONS="--device cpu --findings $TMP/findings"
(cd "$TMP" && "$O/pt2fuzz_fuzzer" $flags -runs=0 "$TMP/seeds/doc001_s2_mm_add.bin") >"$TMP/seed.log" 2>&1 ||
  { cat "$TMP/seed.log"; die "the target did not run a seed"; }
grep -q "Dictionary: [1-9]" "$TMP/seed.log" && grep -q "Executed .*doc001_s2_mm_add.bin" "$TMP/seed.log" ||
  { cat "$TMP/seed.log"; die "the seed did not run"; }
# as in campaigns: entropic scheduling costs up to a second a run (bench/entropic/run.sh)
! grep -q "entropic power schedule" "$TMP/seed.log" || die "the .options file leaves entropic scheduling on"
cp "$TMP/seeds/doc001_s2_mm_add.bin" "$TMP/seeds/fam_activation_softmax.bin" "$TMP/corpus/"
# Six fuzzing runs under ASan. A mutant may hold a real bug (near-invalid
# graphs often do: Inductor's IndexError/RuntimeError mismatch): the target
# then records it and aborts, as designed, and libFuzzer saves the input.
# Either way no sanitizer may report anything.
rc=0
(cd "$TMP" && "$O/pt2fuzz_fuzzer" $flags -runs=6 "$TMP/corpus") >"$TMP/fuzz.log" 2>&1 || rc=$?
# (A finding's abort makes libFuzzer print its own note naming AddressSanitizer:
# a report is a sanitizer's ERROR or SUMMARY line, or UBSan's runtime error.)
! grep -E -q "(ERROR|SUMMARY): [A-Za-z]*Sanitizer|runtime error:" "$TMP/fuzz.log" ||
  { tail -40 "$TMP/fuzz.log"; die "a sanitizer reported while fuzzing"; }
if [ "$rc" != 0 ]; then
  f=$(sed -n 's/^pt2fuzz: \(new\|known\) finding \([^ :]*\).*/\2/p' "$TMP/fuzz.log" | head -1)
  [ -n "$f" ] && [ -s "$f/meta.json" ] && [ -s "$f/repro.py" ] && ls "$TMP"/crash-* >/dev/null 2>&1 ||
    { tail -30 "$TMP/fuzz.log"; die "fuzzing under ASan failed without a recorded finding"; }
  echo "fuzzing stopped at a finding, as designed: $f"
else
  grep -q "^Done 6 runs" "$TMP/fuzz.log" || { tail -30 "$TMP/fuzz.log"; die "fewer than 6 runs"; }
fi
