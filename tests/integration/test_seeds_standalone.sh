# Every seed's emitted program runs alone in the torch runtime (eager,
# torch.compile with Inductor's C++ backend, fp64) to its PASS / MISMATCH line.
source "$(dirname "$0")/lib.sh"
ls "$B"/seeds/*.bin >/dev/null || die "no seeds built"
for s in "$B"/seeds/*.bin; do
  "$PT2FUZZ" emit "$s" >"$TMP/$(basename "$s" .bin).py"
done
# Two at a time (the CI machine has two cores); each program runs through stdin.
ls "$TMP"/*.py | xargs -P2 -I{} sh -c 'PT2FUZZ_DEVICE=cpu '"$PY"' - < {} > {}.out 2>&1; echo $? > {}.rc'
bad=0
for p in "$TMP"/*.py; do
  last=$(tail -1 "$p.out")
  case "$last" in
    PASS|MISMATCH*) echo "$(basename "$p"): $last" ;;
    *) echo "$(basename "$p"): no PASS/MISMATCH line (exit $(cat "$p.rc")):"; tail -5 "$p.out"; bad=1 ;;
  esac
done
[ "$bad" = 0 ] || die "some seed programs did not run to their last line"
