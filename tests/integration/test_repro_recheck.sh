# `pt2fuzz repro` and `pt2fuzz recheck` on a real finding (a planted compile
# error in a seed). repro runs the finding's program through stdin, shows its
# output and exits with its status (reduced/repro.py first; clear errors for
# a folder without one, a Python that cannot start, a program that hangs).
# recheck reruns every finding under its own settings and writes the answer
# into meta.json: still failing, changed (another kind), fixed (after the
# backend is edited, as if torch were fixed); a graph that does not decode
# is an error line and the others are still rechecked.
# Beside another test: the program that --timeout 2 stops prints its line at once, then
# sleeps 600 s.
source "$(dirname "$0")/lib.sh"
PLANTED=$ROOT/tests/integration/planted_backends.py
PLUGIN=(--plugin "$PLANTED" --device cpu)
seed=$B/seeds/doc001_s2_mm_add.bin
"$PT2FUZZ" run "${PLUGIN[@]}" --backend planted_raise --findings "$TMP/f" "$seed"
f=$(ls -d "$TMP"/f/behaviour-* | head -1)
[ -d "$f" ] || die "no behaviour finding"

runs() { # expected status, output file, command...
  local want=$1 out=$2; shift 2
  set +e; "$@" >"$out" 2>&1; local rc=$?; set -e
  [ $rc = "$want" ] || { cat "$out"; die "$* exited $rc, not $want"; }
}

# 1. The finding's program fails as the finding says, its output streamed.
runs 1 "$TMP/repro.out" "$PT2FUZZ" repro "$f" --plugin "$PLANTED"
grep -q "^MISMATCH behaviour binding 0: BackendCompilerFailed: backend='planted_raise'" "$TMP/repro.out" || die "no mismatch line"
grep -qF "pt2fuzz repro: $f/repro.py in " "$TMP/repro.out" || die "which program ran is not said"
# A passing program exits 0.
"$PT2FUZZ" emit "$seed" --backend eager >"$TMP/pass.py"
runs 0 "$TMP/pass.out" "$PT2FUZZ" repro "$TMP/pass.py"
[ "$(tail -1 "$TMP/pass.out")" = PASS ] || die "no PASS: $(tail -3 "$TMP/pass.out")"
# reduced/repro.py comes first; --original and --reduced choose.
mkdir "$f/reduced" && cp "$TMP/pass.py" "$f/reduced/repro.py"
runs 0 "$TMP/red.out" "$PT2FUZZ" repro "$f"
grep -qF "$f/reduced/repro.py in " "$TMP/red.out" || die "the reduced program did not run"
runs 1 "$TMP/orig.out" "$PT2FUZZ" repro "$f" --original --plugin "$PLANTED"
grep -q '^MISMATCH behaviour' "$TMP/orig.out" || die "--original did not run repro.py"
rm -r "$f/reduced"
runs 1 "$TMP/err.out" "$PT2FUZZ" repro "$f" --reduced
grep -q 'has no reduced/repro.py (run `pt2fuzz reduce` first)' "$TMP/err.out" || die "unclear: $(cat "$TMP/err.out")"
mkdir "$TMP/empty"
runs 1 "$TMP/err.out" "$PT2FUZZ" repro "$TMP/empty"
grep -q 'empty has no repro.py' "$TMP/err.out" || die "unclear: $(cat "$TMP/err.out")"
runs 127 "$TMP/err.out" env PT2FUZZ_PYTHON=/nonexistent/python3 "$PT2FUZZ" repro "$TMP/pass.py"
grep -qF 'the Python `/nonexistent/python3` could not be started' "$TMP/err.out" || die "unclear: $(cat "$TMP/err.out")"
printf 'import time\nprint("started", flush=True)\ntime.sleep(600)\n' >"$TMP/hang.py"
runs 124 "$TMP/hang.out" "$PT2FUZZ" repro "$TMP/hang.py" --timeout 2
grep -q '^started$' "$TMP/hang.out" && grep -q 'stopped after 2 s' "$TMP/hang.out" || die "$(cat "$TMP/hang.out")"

# 2. recheck: the finding as found, one found with another backend (now
# another kind), one whose graph.bin is corrupt, one whose reduced graph is.
mkdir "$TMP/r"
cp -r "$f" "$TMP/r/a-planted"
cp -r "$f" "$TMP/r/b-other-kind"
sed -i 's/"backend": "planted_raise"/"backend": "planted_numeric"/' "$TMP/r/b-other-kind/meta.json"
cp -r "$f" "$TMP/r/c-corrupt"
printf 'not a graph' >"$TMP/r/c-corrupt/graph.bin"
cp -r "$f" "$TMP/r/d-corrupt-reduced"
mkdir "$TMP/r/d-corrupt-reduced/reduced" && printf 'PT2F\1garbage' >"$TMP/r/d-corrupt-reduced/reduced/graph.bin"
runs 1 "$TMP/rc1.out" "$PT2FUZZ" recheck "$TMP/r" "${PLUGIN[@]}" --jobs 2
cat "$TMP/rc1.out"
grep -q '^a-planted: still failing (behaviour: .*planted compiler error' "$TMP/rc1.out" || die "a: not still failing"
grep -q '^b-other-kind: changed (numeric: .*; was behaviour)$' "$TMP/rc1.out" || die "b: not changed"
grep -q '^c-corrupt: error: .*c-corrupt/graph.bin' "$TMP/rc1.out" || die "c: no clear error"
grep -q '^d-corrupt-reduced: error: .*reduced/graph.bin' "$TMP/rc1.out" || die "d: the reduced graph was not the one rerun"
grep -qx 'recheck: 4 findings: 0 fixed, 1 still failing, 1 changed, 2 errors' "$TMP/rc1.out" || die "summary"
recheck_field() { # finding, key
  "$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["recheck"][sys.argv[2]])' "$TMP/r/$1/meta.json" "$2"
}
torch=$(sed -n 's/^PT2FUZZ_TORCH=//p' "$B/runtime.env")
[ "$(recheck_field a-planted result)" = "still failing" ] || die "a: meta.json says $(recheck_field a-planted result)"
[ "$(recheck_field a-planted torch)" = "$torch" ] || die "a: torch $(recheck_field a-planted torch), not $torch"
[ "$(recheck_field b-other-kind result)" = changed ] || die "b: meta.json"
grep -q '"signature": ' "$TMP/r/a-planted/meta.json" || die "meta.json lost its other keys"
grep -q '"recheck"' "$TMP/r/c-corrupt/meta.json" && die "an unreadable finding has a recheck result"

# 3. As if torch were fixed: the finding's backend is now one that compiles it.
rm -r "$TMP/r/c-corrupt" "$TMP/r/d-corrupt-reduced"
sed -i 's/"backend": "planted_raise"/"backend": "inductor"/' "$TMP/r/a-planted/meta.json"
runs 0 "$TMP/rc2.out" "$PT2FUZZ" recheck "$TMP/r" "${PLUGIN[@]}"
cat "$TMP/rc2.out"
grep -q '^a-planted: fixed (pass' "$TMP/rc2.out" || die "a: not fixed"
grep -qx 'recheck: 2 findings: 1 fixed, 0 still failing, 1 changed' "$TMP/rc2.out" || die "summary"
[ "$(recheck_field a-planted result)" = fixed ] || die "a: meta.json says $(recheck_field a-planted result)"
echo "repro and recheck ok"
