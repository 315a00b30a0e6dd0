# A seed or corpus input without a compile configuration gets one drawn on its
# run when the campaign's configurations are on (fuzz/pt2fuzz_fuzzer.c), so the
# seeds' first pass reaches configured code too; with --no-configs none does.
# The drawn configurations run (no error of ours: every run is a verdict).
source "$(dirname "$0")/lib.sh"
mkdir "$TMP/corpus" "$TMP/on" "$TMP/off"
for s in doc001_s2_mm_add fam_reduce_dims fam_shape_views fam_activation_softmax; do cp "$B/seeds/$s.bin" "$TMP/corpus/"; done
opts=(-runs=0 "$TMP/corpus" -artifact_prefix="$TMP/" -ignore_remaining_args=1 --device cpu --findings "$TMP/findings")
count() { # key, stats dir
  awk -v k="$1" '$1 == k {n += $2} END {print n + 0}' "$2"/fuzzer-*.tsv
}
"$B/pt2fuzz_fuzzer" "${opts[@]}" --stats "$TMP/on" >"$TMP/on.log" 2>&1 || { tail "$TMP/on.log"; die "the run with configurations failed"; }
"$B/pt2fuzz_fuzzer" "${opts[@]}" --stats "$TMP/off" --no-configs >"$TMP/off.log" 2>&1 ||
  { tail "$TMP/off.log"; die "the run with --no-configs failed"; }
on=$(count configured "$TMP/on") off=$(count configured "$TMP/off")
echo "seeds run with a configuration: $on of $(count execs "$TMP/on"); with --no-configs: $off of $(count execs "$TMP/off")"
[ "$(count execs "$TMP/on")" = 4 ] && [ "$(count execs "$TMP/off")" = 4 ] || die "not every seed ran"
[ "$on" -ge 1 ] || die "no seed was given a configuration"
[ "$off" = 0 ] || die "--no-configs ran $off seeds with a configuration"
echo "ok: seeds get configurations on their run, and none with --no-configs"
