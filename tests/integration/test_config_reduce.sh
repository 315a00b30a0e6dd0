# The reducer drops what a finding does not need of a graph's compile
# configuration and keeps what it does: a bug planted under one setting
# (planted_config.py: planted_fusion_size, wrong with inductor.max_fusion_size
# 4) reduces to a graph of that setting alone, and its plain repro sets
# exactly it. The same bug with the setting pinned on the command line
# (--inductor) instead: the finding records the pin, and its repro.py, its
# reduction and its plain repro run under it without being told again.
source "$(dirname "$0")/lib.sh"
cd "$TMP"
PLUGIN=(--plugin "$ROOT/tests/integration/planted_config.py" --backend planted_fusion_size --device cpu)
cat >g.txt <<'TXT'
bindings 1
seed 9
config inductor.max_fusion_size=4 dynamo.specialize_int=True functorch.cse=False
x0 = input float32 [3, 5]
v1 = relu(x0)
output v1
TXT
"$PT2FUZZ" parse g.txt --out g.bin
"$PT2FUZZ" run "${PLUGIN[@]}" --findings f g.bin | tee run.out
f=$(ls -d f/numeric-* 2>/dev/null | head -1)
[ -n "$f" ] || die "no numeric finding under the planted setting: $(cat run.out)"
grep -q '"config": "inductor.max_fusion_size=4 dynamo.specialize_int=True functorch.cse=False"' "$f/meta.json" ||
  die "meta.json does not record the graph's configuration: $(grep '"config"' "$f/meta.json")"
# the same graph without the setting passes: the bug is the setting's
sed 's/inductor.max_fusion_size=4 //' g.txt >without.txt
"$PT2FUZZ" parse without.txt --out without.bin
"$PT2FUZZ" run "${PLUGIN[@]}" --findings f2 without.bin >without.out
grep -q ': pass' without.out || die "the planted bug shows without its setting: $(cat without.out)"
"$PT2FUZZ" reduce "$f" "${PLUGIN[@]}" --time 300 | tee reduce.out
"$PT2FUZZ" show "$f/reduced/graph.bin" | tee reduced.txt
grep -q '^config inductor.max_fusion_size=4$' reduced.txt || die "the reduced configuration is not the setting alone"
"$PT2FUZZ" emit --plain "$f/reduced/graph.bin" --backend planted_fusion_size >plain.py
grep -q '^torch._inductor.config.max_fusion_size = 4$' plain.py || die "the plain repro does not set the setting"
grep -q 'specialize_int\|_functorch.config' plain.py && die "the plain repro sets settings the finding does not need"
# pinned on the command line, not in the graph
"$PT2FUZZ" run "${PLUGIN[@]}" --inductor max_fusion_size=4 --findings pf without.bin >pinned.out
p=$(ls -d pf/numeric-* 2>/dev/null | head -1)
[ -n "$p" ] || die "no finding with the setting pinned: $(cat pinned.out)"
tr -d ' \n' <"$p/meta.json" | grep -q '"pinned":\["max_fusion_size=4"\]' || die "meta.json does not record the pin"
grep -q '^CONFIG = {.*"inductor.max_fusion_size": 4' "$p/repro.py" || die "repro.py does not set the pin: $(grep '^CONFIG' "$p/repro.py")"
"$PT2FUZZ" reduce "$p" "${PLUGIN[@]}" --time 300 >pinned-reduce.out 2>&1 || die "the pinned finding does not reduce: $(cat pinned-reduce.out)"
grep -q '"inductor.max_fusion_size": 4' "$p/reduced/repro.py" || die "the reduced repro.py drops the pin"
"$PT2FUZZ" emit --plain "$p" --backend planted_fusion_size >pinned-plain.py
grep -q '^torch._inductor.config.max_fusion_size = 4$' pinned-plain.py || die "the plain repro of the pinned finding does not set it"
echo "ok: the reducer keeps exactly the settings a finding needs, pinned or the graph's"
