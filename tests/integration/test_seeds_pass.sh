# `pt2fuzz run` over the shipped seeds with Inductor on CPU: every seed gets
# the verdict its text file expects on this torch (lib.sh: seed_expect). Seeds
# that reproduce an upstream bug must be found where they are expected to
# fail, and their findings must be complete.
source "$(dirname "$0")/lib.sh"
"$PT2FUZZ" run --jobs 2 --device cpu --findings "$TMP/findings" "$B"/seeds | tee "$TMP/out"
names=$(for txt in "$ROOT"/seeds/*.txt; do basename "$txt" .txt; done)
judge_verdicts "$ROOT/seeds" "$TMP/out" $names || die "seed verdicts differ from what the seeds expect on torch $TORCH_MINOR"
# Each bug a seed expects on this torch left a complete finding: repro, graph,
# metadata naming the seed's ops, log.
known=0
for s in $names; do
  kind=$(seed_expect "$ROOT/seeds/$s.txt")
  case $kind in pass | unchecked) continue ;; esac
  known=$((known + 1))
  ops=$(sed -n 's/^[a-z0-9, ]*= \([a-z0-9_]*\)(.*/\1/p' "$ROOT/seeds/$s.txt" | grep -vx input | sort -u |
    sed 's/.*/"&"/' | paste -sd, -)
  f= # meta.json's ops, a list one name a line: compared without the layout
  for m in "$TMP"/findings/"$kind"-*/meta.json; do
    tr -d ' \n' <"$m" | grep -q "\"ops\":\[$ops\]" && { f=$(dirname "$m"); break; }
  done
  [ -n "$f" ] || die "$s: no $kind finding whose meta.json names the ops [$ops]"
  for part in repro.py graph.bin meta.json; do [ -s "$f/$part" ] || die "$f/$part missing"; done
  [ -e "$f/worker.log" ] || die "$f/worker.log missing"
done
[ "$known" -gt 0 ] || die "no seed expects a known bug on torch $TORCH_MINOR: the findings are not checked"
# The seeds of pt2fuzz's own written-up findings (seeds/bug_*) are its reported
# bugs, never new ones: a campaign from the shipped seeds counts them apart.
for txt in "$ROOT"/seeds/bug_*.txt; do
  s=$(basename "$txt" .txt)
  case $(seed_expect "$txt") in pass | unchecked) continue ;; esac
  grep -q "^$B/seeds/$s.bin: .*\[known: docs/findings/[a-z0-9-]*\.md\]" "$TMP/out" ||
    die "$s: its finding is not marked as a reported bug (docs/findings)"
done
grep -q '^findings: 0 new, ' "$TMP/out" || die "the shipped seeds made new findings: $(grep '^findings:' "$TMP/out")"
