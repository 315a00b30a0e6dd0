# Compile settings reach the compiler typed, for the request only: a pinned
# `--inductor NAME=VALUE` is set as a value of the setting's type (False, not
# the string 'False', which Python reads as true), a value the catalogue's type
# cannot take stops the command line, and one outside the catalogue is typed
# by its default in the worker. A graph's own configuration (its settings,
# mode, dynamic, fullgraph) reaches the compiler through its program, pins
# over it. A backend that writes down the settings in force
# (planted_config.py) sees them. Inductor's debug dump goes to a folder of the
# request's own and goes with it. backend=aoti runs a graph through AOTInductor.
source "$(dirname "$0")/lib.sh"
cd "$TMP"
export PT2FUZZ_CONFIG_RECORD=$TMP/record.txt
SEED=$B/seeds/fam_shape_views.bin
plugin=(--plugin "$ROOT/tests/integration/planted_config.py" --backend record_config --findings f)
recorded() { # setting: its last recorded value
  grep "^$1=" "$PT2FUZZ_CONFIG_RECORD" | tail -1 | cut -d= -f2-
}
"$PT2FUZZ" run "${plugin[@]}" --inductor fallback_random=false --inductor max_fusion_size=3 \
  --inductor dynamo.specialize_int=1 "$SEED" >out.txt 2>&1 || { cat out.txt; die "run failed"; }
grep -q ": pass" out.txt || die "not a pass: $(cat out.txt)"
[ "$(recorded inductor.fallback_random)" = False ] || die "fallback_random=false set as $(recorded inductor.fallback_random)"
[ "$(recorded inductor.max_fusion_size)" = 3 ] || die "max_fusion_size=3 set as $(recorded inductor.max_fusion_size)"
[ "$(recorded dynamo.specialize_int)" = True ] || die "dynamo.specialize_int=1 set as $(recorded dynamo.specialize_int)"
# The worker sets fallback_random itself; a pin outside the catalogue is typed by its default.
"$PT2FUZZ" run "${plugin[@]}" --inductor fallback_random=0 --inductor debug_index_asserts=true "$SEED" >out.txt 2>&1 ||
  { cat out.txt; die "run with a setting outside the catalogue failed"; }
[ "$(recorded inductor.fallback_random)" = False ] || die "fallback_random=0 set as $(recorded inductor.fallback_random)"
# Nothing outlives its request: without pins the worker's own defaults are back.
"$PT2FUZZ" run "${plugin[@]}" "$SEED" >out.txt 2>&1 || { cat out.txt; die "plain run failed"; }
[ "$(recorded inductor.fallback_random)" = True ] || die "the worker's fallback_random is $(recorded inductor.fallback_random)"
[ "$(recorded inductor.max_fusion_size)" = 64 ] || die "max_fusion_size stayed $(recorded inductor.max_fusion_size)"
# A value its type cannot take: the catalogue's stops the command line, another the request.
rc=0
"$PT2FUZZ" run "${plugin[@]}" --inductor max_fusion_size=big "$SEED" >out.txt 2>&1 || rc=$?
[ $rc = 2 ] || die "max_fusion_size=big exited $rc"
grep -q "inductor.max_fusion_size is an int, not 'big'" out.txt || die "no reason given: $(cat out.txt)"
"$PT2FUZZ" run "${plugin[@]}" --inductor generate_intermediate_hooks=perhaps "$SEED" >out.txt 2>&1 || true
grep -q "setting generate_intermediate_hooks is a bool (True, False, true, false, 1 or 0), not 'perhaps'" out.txt ||
  die "no reason given for a value outside the catalogue: $(cat out.txt)"
# A graph's own configuration: its settings reach the compiler, pinned ones go over them.
cat >g.txt <<'TXT'
bindings 1
seed 5
config inductor.max_fusion_size=4 dynamo.specialize_int=True functorch.cse=False
x0 = input float32 [4, 8]
v1 = relu(x0)
v2 = sum(v1; dim=1, keepdim=False)
output v2
TXT
"$PT2FUZZ" parse g.txt --out g.bin
"$PT2FUZZ" show g.bin >shown.txt
grep -q '^config inductor.max_fusion_size=4 dynamo.specialize_int=True functorch.cse=False$' shown.txt ||
  die "show does not print the configuration: $(cat shown.txt)"
"$PT2FUZZ" run "${plugin[@]}" g.bin >out.txt 2>&1 || { cat out.txt; die "run of a configured graph failed"; }
grep -q ": pass" out.txt || die "not a pass: $(cat out.txt)"
[ "$(recorded inductor.max_fusion_size)" = 4 ] || die "the graph's max_fusion_size=4 set as $(recorded inductor.max_fusion_size)"
[ "$(recorded dynamo.specialize_int)" = True ] || die "the graph's specialize_int set as $(recorded dynamo.specialize_int)"
[ "$(recorded functorch.cse)" = False ] || die "the graph's functorch.cse set as $(recorded functorch.cse)"
"$PT2FUZZ" run "${plugin[@]}" --inductor max_fusion_size=8 g.bin >out.txt 2>&1 || { cat out.txt; die "pinned run failed"; }
[ "$(recorded inductor.max_fusion_size)" = 8 ] || die "the pin max_fusion_size=8 lost to the graph's: $(recorded inductor.max_fusion_size)"
[ "$(recorded functorch.cse)" = False ] || die "a pin of another setting dropped the graph's functorch.cse"
# The emitted program is the repro: alone, it compiles with Inductor under the graph's settings and passes.
"$PT2FUZZ" emit g.bin >prog.py
grep -q '^CONFIG = {"inductor.max_fusion_size": 4, "dynamo.specialize_int": True, "functorch.cse": False}$' prog.py ||
  die "the program does not name its settings: $(grep CONFIG prog.py)"
$PY prog.py >prog.out 2>&1 || { cat prog.out; die "the emitted program failed"; }
[ "$(tail -1 prog.out)" = PASS ] || die "the emitted program: $(tail -1 prog.out)"
# mode, dynamic and fullgraph reach torch.compile through the program too
sed 's/^config /config mode=max-autotune-no-cudagraphs dynamic=true fullgraph=True /' g.txt >m.txt
"$PT2FUZZ" parse m.txt --out m.bin
"$PT2FUZZ" emit m.bin >m.py
grep -q '^COMPILE_DYNAMIC = "true"$' m.py && grep -q '^FULLGRAPH = True$' m.py || die "no COMPILE_DYNAMIC or FULLGRAPH in the program"
"$PT2FUZZ" run --findings f m.bin >out.txt 2>&1 || { cat out.txt; die "run of a graph with a mode failed"; }
grep -q ": pass" out.txt || die "a graph with mode, dynamic and fullgraph: $(cat out.txt)"
# Inductor's debug dump (inductor.trace.enabled) goes to a folder of the request's own, removed
# at its end: nothing of it stays in the working directory or the temporary one.
sed 's/^config .*/config inductor.trace.enabled=True/' g.txt >t.txt
"$PT2FUZZ" parse t.txt --out t.bin
"$PT2FUZZ" run --plugin "$ROOT/tests/integration/planted_config.py" --backend record_debug_dump \
  --findings f t.bin >out.txt 2>&1 || { cat out.txt; die "run with the debug dump failed"; }
grep -q ": pass" out.txt || die "a graph with inductor.trace.enabled: $(cat out.txt)"
[ "$(recorded debug_files)" -gt 0 ] || die "Inductor's debug dump wrote no file under $(recorded debug_root)"
case $(recorded debug_root) in "${TMPDIR:-/tmp}"/pt2fuzz-scratch-*/pt2fuzz-debug-*) ;; *) die "the dump went to $(recorded debug_root)" ;; esac
[ ! -e "$(recorded debug_root)" ] || die "the request's dump folder outlived it"
[ ! -e torch_compile_debug ] || die "a dump folder in the working directory"
# backend=aoti: the graph runs through torch.export and an AOTInductor package, and passes.
sed 's/^config .*/config backend=aoti inductor.max_fusion_size=4/' g.txt >a.txt
"$PT2FUZZ" parse a.txt --out a.bin
"$PT2FUZZ" emit a.bin >a.py
grep -q '"PT2FUZZ_BACKEND", "aoti"' a.py || die "the program does not name backend aoti"
"$PT2FUZZ" run --plugin "$ROOT/tests/integration/planted_config.py" --findings f a.bin >out.txt 2>&1 ||
  { cat out.txt; die "run with backend aoti failed"; }
grep -q ": pass" out.txt || die "a graph with backend=aoti: $(cat out.txt)"
[ "$(recorded aoti_package)" = built ] || die "no AOTInductor package was built: not run through AOTI"
echo "ok: pinned settings reach the compiler typed, for their request only; a graph's own configuration too"
