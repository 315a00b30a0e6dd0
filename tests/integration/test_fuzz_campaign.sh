# A 2.5-minute campaign on CPU Inductor with a planted-bug backend (wrong
# results for graphs of 7 ops or more), from seeds of at most 6 ops: the
# mutators must reach the planted bug, the campaign must keep going after
# it, grow its coverage, and keep only valid graphs in its corpus. The
# libFuzzer target itself (build/pt2fuzz_fuzzer, OSS-Fuzz's): a finding
# aborts it under plain libFuzzer, and libFuzzer's -merge=1 and
# -minimize_crash=1 work on our inputs.
# Runs alone: a 150 s campaign must fuzz past its first finding.
source "$(dirname "$0")/lib.sh"
OUT=$TMP/out
PLANT=(--plugin "$ROOT/tests/integration/planted_backends.py" --backend planted_numeric_if_large)
mkdir "$TMP/seeds"
for s in doc001_s1_conv1d_mean_linear fam_conv_transpose fam_pool_max_avg_adaptive fam_norm_batch_layer_group \
         fam_shape_views fam_sort_topk_kth fam_activation_softmax; do
  cp "$B/seeds/$s.bin" "$TMP/seeds/"
done
# One component: the mutators must grow the graphs to the bug, and a campaign's several
# components (8 of 8 ops) would put every mutant past it, leaving no input to grow the corpus.
"$PT2FUZZ" fuzz --time 150 --jobs 1 --components 1 --out "$OUT" --seeds "$TMP/seeds" --device cpu --stats-every 10 \
  "${PLANT[@]}" 2>&1 |
  tee "$TMP/log"

# The planted bug was found and recorded as a finding with its repro.
f=$(ls "$OUT"/findings/numeric-*/meta.json | head -1)
[ -n "$f" ] || die "no numeric finding"
grep -q '"backend": "planted_numeric_if_large"' "$f" || die "finding from another backend"
[ -s "$(dirname "$f")/repro.py" ] || die "finding without repro"
ls "$OUT"/crashes/crash-* >/dev/null || die "no crash input kept"

# Counted by bug (pipeline/bucket.h): the summary's findings are the folders; its bugs are buckets
# in exactly one class each (new only once reduced, awaiting triage, known upstream, reported by
# pt2fuzz), at least one and at most one per finding (a mutant may well hold a known bug's ops).
nf=$(ls -d "$OUT"/findings/*-*/ | wc -l)
total=$(sed -n "s|^  findings        \([0-9]*\) in $OUT/findings (triaged [0-9]*)\$|\1|p" "$TMP/log")
counts=$(sed -n "s|^  bugs            \([0-9]*\) new (reduced), \([0-9]*\) awaiting triage, \([0-9]*\) known upstream, \([0-9]*\) reported by pt2fuzz\$|\1 \2 \3 \4|p" "$TMP/log")
read -r new awaiting known reported <<<"$counts"
buckets=$((new + awaiting + known + reported))
[ "$total" = "$nf" ] && [ "$buckets" -ge 1 ] && [ "$buckets" -le "$nf" ] || die "summary counts '$total: $counts' for $nf findings"
# A new bug is a reduced one: no more new bugs than findings with reduced/.
nreduced=$(find "$OUT/findings" -mindepth 2 -maxdepth 2 -name reduced -type d | wc -l)
[ "$new" -le "$nreduced" ] || die "$new new bugs from $nreduced reduced findings"

# Where the seconds went (docs/campaigns.md, "profile"): eager runs and the compile's stages, timed by
# the worker with torch's own timers, are in the summary's profile line; its table's shares add up to
# the wall time, and the rest (the manager's and the target processes' own) is not negative.
line=$(grep '^  profile ' "$TMP/log") || die "no profile line in the summary"
secs() { sed -n "s/.* $1 \([0-9.]*\) s (.*/\1/p" <<<"$line"; }
compile=$(for k in dynamo aot_autograd lowering codegen kernels; do secs $k; done | awk '{ s += $1 } END { print s + 0 }')
echo "profile: eager $(secs eager) s, compile $compile s, rest $(secs rest) s"
awk -v e="$(secs eager)" -v c="$compile" 'BEGIN { exit !(e > 0 && c > 0) }' || die "no eager or compile time: $line"
awk -F'\t' '$4 != "" { s += $4; if ($3 < 0) bad = 1 } $1 == "rest" { rest = 1 }
  END { exit !(rest && !bad && s > 99.9 && s < 100.1) }' "$OUT/stats/profile.tsv" ||
  die "profile.tsv's shares do not add up to the wall time: $(cat "$OUT/stats/profile.tsv")"
# The target's own rows are there, and its stats writing was timed (a target's
# checkpoint shows at its next one: a target that ran an input and ended has two).
for k in replay mutate findings stats merge libfuzzer; do
  grep -q "^$k	" "$OUT/stats/profile.tsv" || die "no $k row in profile.tsv"
done
awk -F'\t' '$1 == "stats" { exit !($3 > 0) }' "$OUT/stats/profile.tsv" || die "no time writing stats: $line"

# It kept going: more inputs ran after the first finding (stats/plot_data:
# execs is column 3, features 6, findings 9).
execs_then=$(awk -F', ' '!/^#/ && $9 > 0 { print $3; exit }' "$OUT/stats/plot_data")
read -r execs_end ft_last < <(awk -F', ' '!/^#/ { e = $3; f = $6 } END { print e, f }' "$OUT/stats/plot_data")
[ -n "$execs_then" ] || die "no row of plot_data counts a finding"
echo "execs: $execs_then at the first finding, $execs_end at the end"
[ "$execs_end" -gt "$execs_then" ] || die "no fuzzing after the first finding"

# Coverage features grew over the run.
ft_first=$(awk -F', ' '!/^#/ && $6 > 0 { print $6; exit }' "$OUT/stats/plot_data")
echo "features: ${ft_first:-0} at the first row that has any, $ft_last at the last"
[ "$ft_last" -gt "${ft_first:-0}" ] || die "coverage did not grow (${ft_first:-0} -> $ft_last)"

# Every corpus file decodes to a valid graph.
n=0
for c in "$OUT"/corpus/*; do "$PT2FUZZ" check "$c" >/dev/null || die "corpus file $c invalid"; n=$((n + 1)); done
echo "corpus: $n valid graphs"
[ "$n" -gt 0 ] || die "empty corpus"

# The compiler's exact line sets were recorded.
lines=$(wc -l <"$OUT/stats/lines.txt")
echo "compiler lines: $lines"
[ "$lines" -gt 1000 ] || die "too few compiler lines recorded"
grep -q "^mutator	[a-z]*	[1-9]" "$OUT/stats/totals.tsv" || die "no mutator statistics"
! ls "$OUT"/stats/lines-* 2>/dev/null || die "line dumps were not folded"

# The campaign is over: what follows is not timed, so the crash's minimization (the longest:
# rounds of 8 runs while it shrinks) runs beside the two other libFuzzer runs, one core each.
crash=$(ls "$OUT"/crashes/crash-* | head -1)
"$B/pt2fuzz_fuzzer" -minimize_crash=1 -runs=8 -exact_artifact_path="$TMP/min" "$crash" -ignore_remaining_args=1 \
  --device cpu --findings "$TMP/f3" "${PLANT[@]}" >"$TMP/min.log" 2>&1 &
minimize=$!
ON_EXIT="kill $minimize 2>/dev/null || true"

# A finding aborts the target under plain libFuzzer (no --keep-going), which keeps the input
# (libFuzzer writes artifacts when it fuzzes a corpus folder, not when it runs single files).
mkdir "$TMP/plain-corpus"
cp "$crash" "$TMP/plain-corpus/"
rc=0
"$B/pt2fuzz_fuzzer" -runs=1 -artifact_prefix="$TMP/plain-" "$TMP/plain-corpus" -ignore_remaining_args=1 --device cpu \
  --findings "$TMP/f1" "${PLANT[@]}" >"$TMP/plain.log" 2>&1 || rc=$?
[ "$rc" != 0 ] && grep -q 'deadly signal' "$TMP/plain.log" || { tail -20 "$TMP/plain.log"; die "the finding did not abort the target (exit $rc)"; }
ls "$TMP"/plain-crash-* >/dev/null 2>&1 || die "libFuzzer kept no crash input of the abort"

# libFuzzer's corpus minimization and crash minimization run on our inputs.
mkdir "$TMP/merged"
"$B/pt2fuzz_fuzzer" -merge=1 -artifact_prefix="$TMP/" "$TMP/merged" "$OUT/corpus" -ignore_remaining_args=1 --device cpu \
  --findings "$TMP/f2" >"$TMP/merge.log" 2>&1 || { tail "$TMP/merge.log"; die "-merge=1 failed"; }
[ "$(ls "$TMP/merged" | wc -l)" -gt 0 ] || die "-merge=1 kept nothing"
wait $minimize || true # its log, not its exit status, says that it ran (as before)
ON_EXIT=
grep -q 'CRASH_MIN' "$TMP/min.log" || { tail -20 "$TMP/min.log"; die "-minimize_crash=1 did not run"; }
[ -s "$TMP/min" ] && "$PT2FUZZ" check "$TMP/min" || echo "(no smaller crash found in 8 runs)"
