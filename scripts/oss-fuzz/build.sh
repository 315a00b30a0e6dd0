#!/bin/bash -eu
# OSS-Fuzz-style build of pt2fuzz's libFuzzer target. Reads what OSS-Fuzz's
# base-builder sets — $CC, $CXX, $CFLAGS, $LIB_FUZZING_ENGINE, $OUT, $WORK —
# and writes into $OUT:
#   pt2fuzz_fuzzer                      the target (options from PT2FUZZ_OPTIONS: no extra args)
#   pt2fuzz_fuzzer.options              libFuzzer's flags for it
#   pt2fuzz_fuzzer.dict                 the binary format's tokens
#   pt2fuzz_fuzzer_seed_corpus.zip      the shipped seeds, in the corpus format
#   build/runtime.env                   the Python the worker runs in (PT2FUZZ_PYTHON, default python3)
# Our C code gets the sanitizers but not coverage instrumentation: its edges
# would be noise, libFuzzer's features are torch's compiler lines (docs/fuzzing.md).
# Run locally: OUT=/tmp/out CFLAGS=-fsanitize=address,fuzzer-no-link \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer scripts/oss-fuzz/build.sh
SRC_DIR=$(cd "$(dirname "$0")/../.." && pwd)
CC=${CC:-clang} CXX=${CXX:-clang++} CFLAGS=${CFLAGS:-} LIB_FUZZING_ENGINE=${LIB_FUZZING_ENGINE:--fsanitize=fuzzer}
: "${OUT:?set OUT to the output directory}"
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$OUT/build" "$WORK/obj" "$WORK/seeds"

target_cflags=$(printf ' %s ' "$CFLAGS" | sed -E -e 's/ -fsanitize=fuzzer-no-link / /g' -e 's/(=|,)fuzzer-no-link,/\1/g' \
  -e 's/,fuzzer-no-link / /g' -e 's/ -fsanitize-coverage=[^ ]* / /g')
flags=(-std=c11 -D_GNU_SOURCE -DXXH_INLINE_ALL "-DPT2FUZZ_ROOT=\"$OUT\"" -Wall -Wextra -Wno-missing-field-initializers)
cd "$SRC_DIR"
objs=()
for src in $(make -s --no-print-directory sources); do
  obj="$WORK/obj/${src//\//_}.o"
  $CC "${flags[@]}" $target_cflags -c "$src" -o "$obj"
  objs+=("$obj")
done
$CC "${flags[@]}" $target_cflags -c fuzz/pt2fuzz_fuzzer.c -o "$WORK/obj/pt2fuzz_fuzzer.o"
# jansson (the JSON files) from its static archive, as the Makefile links it: the target needs no shared library.
libs=(-l:libjansson.a -lm)
$CXX $target_cflags "$WORK/obj/pt2fuzz_fuzzer.o" "${objs[@]}" $LIB_FUZZING_ENGINE "${libs[@]}" -o "$OUT/pt2fuzz_fuzzer"

# The seeds, text to corpus format, with the command-line tool built from the same objects.
$CC "${flags[@]}" $target_cflags cli/main.c "${objs[@]}" "${libs[@]}" -o "$WORK/pt2fuzz"
for s in seeds/*.txt; do
  ASAN_OPTIONS=detect_leaks=0 "$WORK/pt2fuzz" parse "$s" --out "$WORK/seeds/$(basename "$s" .txt).bin"
done
rm -f "$OUT/pt2fuzz_fuzzer_seed_corpus.zip"
(cd "$WORK/seeds" && zip -q -j "$OUT/pt2fuzz_fuzzer_seed_corpus.zip" ./*.bin)

cat >"$OUT/pt2fuzz_fuzzer.options" <<'OPTIONS'
[libfuzzer]
max_len = 32768
timeout = 900
rss_limit_mb = 16384
entropic = 0
dict = pt2fuzz_fuzzer.dict
OPTIONS
# The format's magic and record tags (docs/formats.md). The structure-aware
# mutators ignore dictionaries; engines that mutate bytes use them.
cat >"$OUT/pt2fuzz_fuzzer.dict" <<'DICT'
magic_v1="P2F\x01"
magic_v2="P2F\x02"
tag_input="\x00"
tag_param="\x01"
tag_node="\x02"
one_binding="\x01\x00"
two_bindings="\x02\x01"
three_bindings="\x03\x01"
DICT
printf 'PT2FUZZ_PYTHON=%q\n' "${PT2FUZZ_PYTHON:-python3}" >"$OUT/build/runtime.env"
echo "built $OUT/pt2fuzz_fuzzer ($(ls "$WORK/seeds" | wc -l) seeds)"
