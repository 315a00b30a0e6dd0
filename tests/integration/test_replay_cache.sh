# libFuzzer replays corpus inputs at each -fork job's start and in -merge:
# with --replay-cache, an input that ran once is replayed from its stored
# feature map instead of compiling again, with the same features; a damaged
# entry is ignored (the input runs) and nothing breaks.
source "$(dirname "$0")/lib.sh"
mkdir "$TMP/corpus" "$TMP/cache" "$TMP/s1" "$TMP/s2" "$TMP/s3"
cp "$B/seeds/doc001_s2_mm_add.bin" "$B/seeds/fam_reduce_dims.bin" "$TMP/corpus/"
opts=(-artifact_prefix="$TMP/" -ignore_remaining_args=1 --device cpu --findings "$TMP/findings" --replay-cache "$TMP/cache")
runs() { # stats dir: "execs replayed" of the one fuzzer process that wrote there
  awk '$1 == "execs" {e = $2} $1 == "replayed" {r = $2} END {print e + 0, r + 0}' "$1"/fuzzer-*.tsv
}
features() { grep -o 'INITED.* ft: [0-9]*' "$1" | grep -o '[0-9]*$'; }

"$B/pt2fuzz_fuzzer" -runs=0 "$TMP/corpus" "${opts[@]}" --stats "$TMP/s1" >"$TMP/first.log" 2>&1 \
  || { tail "$TMP/first.log"; die "first run failed"; }
read -r e1 r1 < <(runs "$TMP/s1")
echo "first run: $e1 executed, $r1 replayed; cache entries: $(ls "$TMP/cache" | wc -l)"
[ "$e1" = 2 ] && [ "$r1" = 0 ] || die "the first run should execute both inputs"
[ "$(ls "$TMP/cache" | wc -l)" = 2 ] || die "expected one cache entry per input"

"$B/pt2fuzz_fuzzer" -runs=0 "$TMP/corpus" "${opts[@]}" --stats "$TMP/s2" >"$TMP/second.log" 2>&1 \
  || { tail "$TMP/second.log"; die "second run failed"; }
read -r e2 r2 < <(runs "$TMP/s2")
echo "second run: $e2 executed, $r2 replayed; features $(features "$TMP/first.log") then $(features "$TMP/second.log")"
[ "$e2" = 0 ] && [ "$r2" = 2 ] || die "the second run should replay both inputs from the cache"
[ "$(features "$TMP/first.log")" = "$(features "$TMP/second.log")" ] || die "replayed features differ"

# A damaged entry: that input runs again, the other still replays.
f=$(ls "$TMP/cache"/* | head -1)
head -c 9 "$f" >"$f.cut" && mv "$f.cut" "$f"
"$B/pt2fuzz_fuzzer" -runs=0 "$TMP/corpus" "${opts[@]}" --stats "$TMP/s3" >"$TMP/third.log" 2>&1 \
  || { tail "$TMP/third.log"; die "run with a damaged entry failed"; }
read -r e3 r3 < <(runs "$TMP/s3")
echo "damaged entry: $e3 executed, $r3 replayed"
[ "$e3" = 1 ] && [ "$r3" = 1 ] || die "a damaged entry should make its input run, and only it"
