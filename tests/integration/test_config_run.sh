# Compile settings reach the compiler typed, for the request only: a pinned
# `--inductor NAME=VALUE` is set as a value of the setting's type (False, not
# the string 'False', which Python reads as true), a value the catalogue's type
# cannot take stops the command line, and one outside the catalogue is typed
# by its default in the worker. A backend that writes down the settings in
# force (planted_config.py) sees them.
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
"$PT2FUZZ" run "${plugin[@]}" --inductor debug_index_asserts=perhaps "$SEED" >out.txt 2>&1 || true
grep -q "setting debug_index_asserts is a bool (True, False, true, false, 1 or 0), not 'perhaps'" out.txt ||
  die "no reason given for a value outside the catalogue: $(cat out.txt)"
echo "ok: pinned settings reach the compiler typed, for their request only"
