# Every seed's emitted program runs alone in the torch runtime (eager,
# torch.compile with Inductor's C++ backend, fp64) to its PASS / MISMATCH line,
# and judges NaN and Inf as the oracle does.
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
# A NaN where eager and float64 give an infinity is a mismatch, as the oracle judges it (same()
# alone takes NaN for inf): grid_sample of infinities on torch 2.15.
grep -q "^MISMATCH numeric binding 0 output 0: NaN/Inf at [1-9][0-9]* positions where eager and float64 agree$" \
  "$TMP/bug_grid_sample_infinity.py.out" || die "the grid_sample seed's program: $(tail -1 "$TMP/bug_grid_sample_infinity.py.out")"
