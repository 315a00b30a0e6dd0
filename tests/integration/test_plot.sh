# `pt2fuzz plot` draws a plot_data with matplotlib in the worker's Python:
# a PNG of the promised size (its IHDR), with every series the C side chose
# (the coverage, the findings total and each kind that occurred, the rate);
# no rows, or a Python without matplotlib, is a clear error and no file.
source "$(dirname "$0")/lib.sh"
cd "$TMP"
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4 "x" $5*16777216 + $6*65536 + $7*256 + $8 }'; }

mkdir -p out/stats
{
  echo "# unix_time, elapsed_s, execs, execs_per_s, corpus, features, compiler_lines, workers, findings, behaviour, hang, numeric, stride, missing-error, error-mismatch, export"
  for i in $(seq 0 40); do # numeric and error-mismatch findings; coverage measured from the third row
    echo "$((1700000000 + i * 60)), $((i * 60)), $((i * 150)), 2.5, $i, $((i * 10)), $((i > 2 ? 5000 + i * 30 : 0)), 2, $((i / 10)), 0, 0, $((i / 20)), 0, 0, $((i / 30)), 0"
  done
} >out/stats/plot_data

"$PT2FUZZ" plot out >log.txt || { cat log.txt; die "plot failed"; }
cat log.txt
[ -s out/plot.png ] || die "no out/plot.png"
head -c 8 out/plot.png | od -An -c | grep -q 'P   N   G' || die "out/plot.png is not a PNG"
[ "$(png_size out/plot.png)" = 1200x780 ] || die "out/plot.png is $(png_size out/plot.png), not 1200x780"
# lines, features, findings + numeric + error-mismatch, execs/s
grep -q "^out/plot.png: 41 points over 40.0 minutes, 6 series in 1200x780$" log.txt || die "unexpected summary: $(cat log.txt)"

# A plot_data path and --out FILE
"$PT2FUZZ" plot out/stats/plot_data --out curve.png >/dev/null
[ "$(png_size curve.png)" = 1200x780 ] || die "curve.png is not a 1200x780 PNG"

# No rows: exit 1, a reason, no file.
mkdir -p empty/stats && head -1 out/stats/plot_data >empty/stats/plot_data
"$PT2FUZZ" plot empty 2>err.txt && die "a plot_data without rows was drawn"
grep -q "no rows of plot_data" err.txt || die "no reason for an empty plot_data: $(cat err.txt)"
[ ! -e empty/plot.png ] || die "a PNG of nothing"

# A Python without matplotlib: exit 1 and how to install it.
if python3 -c 'import matplotlib' 2>/dev/null; then
  echo "(skipped: this machine's python3 has matplotlib)"
else
  PT2FUZZ_PYTHON=python3 "$PT2FUZZ" plot out --out nompl.png 2>err.txt && die "drawn without matplotlib"
  grep -q "has no matplotlib: rerun scripts/setup" err.txt && grep -q "pip install matplotlib" err.txt ||
    die "no install hint: $(cat err.txt)"
  [ ! -e nompl.png ] || die "a PNG without matplotlib"
fi
echo "ok: pt2fuzz plot"
