# `pt2fuzz run` over the shipped seeds with Inductor on CPU: every seed gets
# the verdict its text file expects ("# expect: KIND"; default pass). One seed
# is an open PyTorch bug (#151198) that must be found, not passed.
source "$(dirname "$0")/lib.sh"
"$PT2FUZZ" run --jobs 2 --device cpu --findings "$TMP/findings" "$B"/seeds | tee "$TMP/out"
bad=0
for txt in "$ROOT"/seeds/*.txt; do
  name=$(basename "$txt" .txt)
  want=$(sed -n 's/^# expect: \([a-z-]*\).*/\1/p' "$txt")
  got=$(grep "/$name.bin: " "$TMP/out" | sed 's/^[^:]*: \([a-z-]*\).*/\1/')
  if [ "$got" != "${want:-pass}" ]; then
    echo "$name: got '$got', expected '${want:-pass}'"; bad=1
  fi
done
[ "$bad" = 0 ] || die "seed verdicts differ from what the seeds expect"
# The known bug's finding is complete: repro, graph, metadata, log.
f=$(ls -d "$TMP"/findings/numeric-* | head -1)
for part in repro.py graph.bin meta.json; do [ -s "$f/$part" ] || die "$f/$part missing"; done
[ -e "$f/worker.log" ] || die "$f/worker.log missing"
grep -q '"ops": \["chunk", "pairwise_distance", "reflection_pad3d", "view"\]' "$f/meta.json" || die "meta.json ops"
