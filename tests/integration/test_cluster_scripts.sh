# The cluster scripts, on one machine: scripts/slurm/pt2fuzz-array.sbatch
# runs twice at once outside Slurm, as array tasks 0 and 1 sharing a
# directory the way nodes share a filesystem (CPU Inductor, one job each, a
# planted bug: wrong results of graphs with a cumsum). Both exit 0; each has
# its own OUT with stats; both published their corpus into the shared one
# and imported the other's; the planted bug both hit is one finding in the shared findings
# directory, and no signature has two folders. The Kubernetes manifest is
# valid YAML of the same shape and runs the same script.
# Runs alone: runners timed against their --time.
source "$(dirname "$0")/lib.sh"
SCRIPT=$ROOT/scripts/slurm/pt2fuzz-array.sbatch
MANIFEST=$ROOT/deploy/k8s/pt2fuzz-job.yaml
S=$TMP/shared

# The manifest: the Slurm script as array task JOB_COMPLETION_INDEX.
grep -q 'scripts/slurm/pt2fuzz-array.sbatch' "$MANIFEST" || die "the manifest does not run the Slurm script"
grep -q 'SLURM_ARRAY_TASK_ID="*\$JOB_COMPLETION_INDEX' "$MANIFEST" || die "the manifest does not pass its index as the task id"
if python3 -c 'import yaml' 2>/dev/null; then
  python3 - "$MANIFEST" <<'PYEOF' || die "the manifest is not the Indexed Job expected"
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
job = next(d for d in docs if d["kind"] == "Job")
pvc = next(d for d in docs if d["kind"] == "PersistentVolumeClaim")
spec = job["spec"]
assert spec["completionMode"] == "Indexed" and spec["completions"] == spec["parallelism"] >= 1, spec
pod = spec["template"]["spec"]
c = pod["containers"][0]
assert int(c["resources"]["limits"]["nvidia.com/gpu"]) >= 1
assert any("pt2fuzz-array.sbatch" in a for a in c["command"] + c.get("args", []))
assert "ReadWriteMany" in pvc["spec"]["accessModes"]
vols = {v["name"] for v in pod["volumes"] if v.get("persistentVolumeClaim", {}).get("claimName") == pvc["metadata"]["name"]}
env = {e["name"]: e.get("value") for e in c.get("env", [])}
assert any(m["name"] in vols and m["mountPath"] == env["PT2FUZZ_SHARED"] for m in c["volumeMounts"]), "shared dir not on the claim"
print("manifest: Indexed Job of %d pods, %s GPUs each, shared claim %s at %s" % (
    spec["completions"], c["resources"]["limits"]["nvidia.com/gpu"], pvc["metadata"]["name"], env["PT2FUZZ_SHARED"]))
PYEOF
else
  echo "(no python3 with yaml on this machine: the manifest's YAML is not checked)"
fi

# Two array tasks at once, outside Slurm.
mkdir "$TMP/seeds"
for s in fam_cumulative_scan doc001_s2_mm_add; do cp "$B/seeds/$s.bin" "$TMP/seeds/"; done
unset SLURM_JOB_ID SLURM_JOB_END_TIME SLURM_ARRAY_JOB_ID JOB_COMPLETION_INDEX
export PT2FUZZ_SHARED=$S PT2FUZZ_BIN=$PT2FUZZ FUZZ_TIME=120 SYNC_EVERY=10
# One component per input: a round must fit several inputs, and a mutant of the default 8
# components is 8 graphs to compile (a busy machine once left task 0 with 3 inputs in 120 s).
export PT2FUZZ_ARGS="--jobs 1 --device cpu --components 1 --seeds $TMP/seeds --stats-every 5 --no-triage
  --plugin $ROOT/tests/integration/planted_backends.py --backend planted_numeric_if_cumsum"
t0=$SECONDS
pids=()
for t in 0 1; do
  SLURM_ARRAY_TASK_ID=$t bash "$SCRIPT" >"$TMP/task$t.log" 2>&1 &
  pids+=($!)
done
for t in 0 1; do
  wait "${pids[$t]}" || { tail -40 "$TMP/task$t.log"; die "array task $t failed"; }
done
echo "both tasks done in $((SECONDS - t0)) s"
tail -4 "$TMP/task0.log"

# Each task: its own OUT with stats and its targets' log, synced with the
# shared corpus every SYNC_EVERY seconds (the manager's exchange: its inputs
# published, the other's imported).
imported=()
for t in 0 1; do
  O=$S/runs/task-$t
  grep -q "pt2fuzz fuzz .*--out $O .*--sync $S/corpus .*--findings $S/findings" "$TMP/task$t.log" || die "task $t ran another command"
  grep -q "pt2fuzz campaign summary" "$TMP/task$t.log" || die "task $t printed no summary"
  [ -s "$O/stats/plot_data" ] && [ "$(grep -vc '^#' "$O/stats/plot_data")" -ge 1 ] || die "task $t: no stats/plot_data rows"
  [ -s "$O/stats/totals.tsv" ] && [ -s "$O/fuzzer.log" ] || die "task $t: no totals.tsv or fuzzer.log"
  line=$(grep "sync $S/corpus: " "$TMP/task$t.log") || die "task $t did not sync"
  imported[$t]=$(sed -n 's/.*published, \([0-9]*\) inputs and [0-9]* findings imported.*/\1/p' <<<"$line")
  echo "task $t: $line; $(ls "$O/corpus" | wc -l) inputs in its corpus"
  [ -z "$(ls "$O/findings" 2>/dev/null)" ] || die "task $t wrote findings into its own OUT"
done
# How much each imports depends on when the other publishes (its worker's
# start: 15 s on an idle 2-core machine, 60 s on a busy one, hence 120 s):
# at least one task must have run what the other published.
[ "${imported[0]:-0}" -ge 1 ] || [ "${imported[1]:-0}" -ge 1 ] || die "neither task imported the other's inputs"

# The shared corpus holds what both published: after its last round, each
# task's corpus is in it (names are content hashes), and nothing half-copied.
n=$(ls "$S/corpus" | wc -l)
echo "shared corpus: $n inputs"
[ "$n" -gt 0 ] || die "the shared corpus is empty"
for t in 0 1; do
  [ -n "$(ls "$S/runs/task-$t/corpus")" ] || die "task $t kept no input: nothing of it to publish"
  missing=$(comm -23 <(ls "$S/runs/task-$t/corpus" | sort) <(ls "$S/corpus" | sort))
  [ -z "$missing" ] || die "task $t's inputs missing from the shared corpus: $missing"
done
! ls -A "$S/corpus" | grep -q '^\.tmp' || die "temporary files left in the shared corpus"
[ ! -e "$S/corpus.merge" ] || die "a merge of the shared corpus was left half-done"

# The shared findings: one folder per signature, each whole, and the planted
# bug that both tasks hit is one folder with both hits counted.
ls "$S/findings"
shopt -s nullglob
sigs=()
for f in "$S"/findings/*/; do
  f=${f%/}
  name=$(basename "$f")
  [[ $name =~ ^[a-z-]+-[0-9a-f]{16}$ ]] || die "unexpected entry in the shared findings: $name"
  [ -s "$f/meta.json" ] && [ -s "$f/repro.py" ] && [ -s "$f/graph.bin" ] || die "incomplete finding $name"
  grep -q "\"signature\": \"$name\"" "$f/meta.json" || die "$name/meta.json names another signature"
  ! ls -A "$f" | grep -q '\.tmp\.' || die "temporary files left in $name"
  python3 -m json.tool "$f/meta.json" >/dev/null 2>&1 || ! command -v python3 >/dev/null || die "$name/meta.json is not valid JSON"
  sigs+=("${name##*-}")
done
[ "${#sigs[@]}" -ge 1 ] || die "no finding in the shared findings directory"
dups=$(printf '%s\n' "${sigs[@]}" | sort | uniq -d)
[ -z "$dups" ] || die "a signature has several folders: $dups"
best=0
for f in "$S"/findings/numeric-*/; do
  c=$(sed -n 's/.*"count": \([0-9]*\).*/\1/p' "$f/meta.json")
  if [ "${c:-0}" -gt "$best" ]; then best=$c; fi
done
echo "the planted bug's finding: count $best"
[ "$best" -ge 2 ] || die "no numeric finding counted by both tasks (best count $best)"
