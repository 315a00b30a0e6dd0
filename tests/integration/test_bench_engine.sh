# bench/engine's figures from the two campaigns' own files: with stand-in
# pt2fuzz binaries (no torch) that write a campaign's totals, profile and
# summary, the bench prints each engine's verdicts per second and share
# outside inputs and records their ratios; where a side judged nothing, it
# says which and why (the end of that side's log), exits 1 and records no row.
source "$(dirname "$0")/lib.sh"
export TORCH=9.9.9+test COMMIT=abc1234 BENCH_MACHINE="test box" BENCH_RESULTS=$TMP/results PT2FUZZ_PYTHON=/bin/false
# A stand-in for `pt2fuzz fuzz ... --out DIR`: VERDICTS_<engine> verdicts in 100 s,
# OUTSIDE_<engine> percent of them outside inputs (the rest row).
stand_in() { # dir, engine
  mkdir -p "$1/build"
  cat >"$1/build/pt2fuzz" <<SH
#!/bin/sh
[ "\$2" = --help ] && exit 0
while [ \$# -gt 0 ]; do [ "\$1" = --out ] && out=\$2; shift; done
n=\${VERDICTS_$2:-0} rest=\${OUTSIDE_$2:-0}
[ "\$n" = 0 ] && { echo "stand-in $2: no torch runtime here"; exit 1; }
mkdir -p "\$out/stats"
printf 'execs\\t%s\\nverdict\\tpass\\t%s\\n' "\$n" "\$n" >"\$out/stats/totals.tsv"
printf 'rest\\tbetween inputs\\t1.0\\t%s\\nkernels\\tcompile\\t9.0\\t50.0\\n' "\$rest" >"\$out/stats/profile.tsv"
echo "  time            100 s"
SH
  chmod +x "$1/build/pt2fuzz"
}
stand_in "$TMP/fork" fork
stand_in "$TMP/manager" manager
run_bench() { B=$TMP/manager/build "$ROOT/bench/engine" --fork-tree "$TMP/fork" --time 100 >"$TMP/out" 2>"$TMP/err"; }

VERDICTS_fork=20 OUTSIDE_fork=25 VERDICTS_manager=30 OUTSIDE_manager=5 run_bench ||
  die "two campaigns with verdicts: bench failed: $(cat "$TMP/err")"
grep -q "manager / fork: verdicts per second 1.50, share outside inputs 0.20" "$TMP/out" ||
  die "ratios not 1.50 and 0.20: $(cat "$TMP/out")"
row=$(tail -1 "$BENCH_RESULTS/engine.tsv")
case $row in *"	20	30	0.2000	0.3000	1.500	25.0	5.0	0.200") ;; *) die "recorded row: $row" ;; esac

rm -rf "$BENCH_RESULTS"
if VERDICTS_fork=20 run_bench; then die "a manager side that judged nothing passed"; fi
grep -q "the manager campaign judged no input" "$TMP/err" || die "the idle side not named: $(cat "$TMP/err")"
grep -q "stand-in manager: no torch runtime here" "$TMP/err" || die "the idle side's log not shown: $(cat "$TMP/err")"
[ ! -e "$BENCH_RESULTS/engine.tsv" ] || die "a row recorded for an idle side: $(cat "$BENCH_RESULTS/engine.tsv")"
echo "bench/engine: ratios from the campaigns' files recorded; an idle side named, nothing recorded"
