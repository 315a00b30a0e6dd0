# --backend aoti on CPU: torch.export, an AOTInductor package, and the C++
# runner (harness/aoti_runner.cpp, built by the worker against its torch).
#  (a) the runner builds, also by two workers at once; a share of the seeds (AOTInductor compiles take
#      seconds: the aoti seeds, one with an expanded-view output, a dynamic
#      pad, a pooling whose dynamic dim export specializes (a package per
#      binding), and the known PyTorch bug, which AOTI shows too where Inductor
#      has it) get the verdicts they expect on this torch, and a few generated
#      graphs pass, through the runner;
#  (b) a post-grad pass planted while AOTInductor compiles gives `numeric`;
#  (c) torch.export raising where eager runs gives `export`, not a compiler bug;
#  (d) a runner broken on this machine (it crashes, or its values are wrong on
#      a known-good model) stops the worker's start-up: an error, no findings.
# Beside another test: each run takes under 2 minutes alone (a graph's AOTInductor compile
# about 10 s), far inside its limits (timeout 600; --timeout 120 a graph, 400 generated).
source "$(dirname "$0")/lib.sh"
run() { timeout 600 "$PT2FUZZ" run --backend aoti --device cpu "$@"; }

# (a) seeds, then generated graphs
SEEDS="aoti_dynamic_linear_norm aoti_dynamic_cat_softmax aoti_expand_output aoti_empty_input doc000_pad_dynamic_relu fam_pool_max_avg_adaptive
       doc001_s3_reflectionpad3d_pairwise"
run --findings "$TMP/f-seeds" $(for s in $SEEDS; do echo "$B/seeds/$s.bin"; done) | tee "$TMP/seeds"
judge_verdicts "$ROOT/seeds" "$TMP/seeds" $SEEDS || die "seed verdicts under --backend aoti differ from what the seeds expect"
"$PT2FUZZ" gen --seed 11 --count 6 --size 5 --dynamic 50 --out "$TMP/gen" >/dev/null
# Two workers starting at once on an empty runner cache both build the runner:
# each must load a whole one (no start-up error).
mkdir -p "$TMP/runner-cache"
TMPDIR=$TMP/runner-cache run --jobs 2 --timeout 400 --findings "$TMP/f-gen" "$TMP/gen" 2>&1 | tee "$TMP/gen.out"
grep -q "did not start" "$TMP/gen.out" && die "workers building the AOTI runner at once: a worker did not start"
n=$(grep -c ": pass$" "$TMP/gen.out" || true)
# export is torch.export's limit, not a finding (c): gaussian_nll_loss's check of its variance is data-dependent
grep -v ": pass$" "$TMP/gen.out" | grep -E ": (behaviour|numeric|stride|hang|missing-error)" && die "generated graphs: findings under aoti"
[ "$n" -ge 5 ] || die "generated graphs: only $n of 6 pass"
# A pass under aoti means the C++ runner ran: the compiled-graph count the oracle
# needs (else not-compiled) is the number of packages the runner loaded.
PT2FUZZ_PLANT=perturb run --plugin "$ROOT/tests/integration/planted_aoti.py" --findings "$TMP/f-perturb" \
  "$B/seeds/aoti_dynamic_linear_norm.bin" | tee "$TMP/perturb"
# (b) the planted pass is caught
grep -q "aoti_dynamic_linear_norm.bin: numeric" "$TMP/perturb" || die "planted AOTI pass not caught"
grep -q '"aoti_runner": "/' "$TMP"/f-perturb/numeric-*/meta.json || die "meta.json does not name the AOTI runner"
# The runner is built as torch builds its packages: Inductor's compiler and C++
# standard, torch's C++ ABI.
want=$($PY -c 'import torch; from torch._inductor.cpp_builder import get_cpp_compiler as cxx, _get_cpp_std_cflag as std
print(f"{cxx()} -{std()[0]} -D_GLIBCXX_USE_CXX11_ABI={int(torch._C._GLIBCXX_USE_CXX11_ABI)}")' 2>/dev/null | tail -1)
got=$(sed -n 's/.*"aoti_cxx": "\(.*\)".*/\1/p' "$TMP"/f-perturb/numeric-*/meta.json | head -1)
[ -n "$want" ] && [ "$got" = "$want" ] || die "the runner was built with '$got', torch builds packages with '$want'"
# (c) export failures are their own class
PT2FUZZ_PLANT=export-raise run --plugin "$ROOT/tests/integration/planted_aoti.py" --findings "$TMP/f-export" \
  "$B/seeds/doc001_s2_mm_add.bin" | tee "$TMP/export"
grep -q "doc001_s2_mm_add.bin: export/raised: torch.export raised pt2fuzz.ExportFailed" "$TMP/export" || die "export failure not classed export"
ls -d "$TMP"/f-export/export-* >/dev/null || die "no export finding saved"
# (d) broken runners, built by a planted C++ compiler (inside the root
# filesystem when torch runs in one)
root=$(sed -n 's/^PT2FUZZ_ROOTFS=//p' "$B/runtime.env")
whole_log() { sed -n 's/.*; whole log: \([^:]*\): .*/\1/p' "$1" | head -1; } # the file a start-up error names
for how in crash wrong; do
  cxx=$TMP/planted-cxx-$how.sh
  [ -z "$root" ] || cxx=$root/tmp/pt2fuzz-planted-cxx-$how.sh
  cp "$ROOT/tests/integration/planted_cxx.sh" "$cxx"
  CXX=${cxx#"$root"} run --findings "$TMP/f-$how" "$B/seeds/doc001_s2_mm_add.bin" >"$TMP/$how" 2>&1 &&
    { cat "$TMP/$how"; die "a runner that plants '$how' did not stop pt2fuzz run"; }
  cat "$TMP/$how"
  grep -q "did not start.*its last word: pt2fuzz worker: checking the AOTInductor runner" "$TMP/$how" ||
    die "a runner that plants '$how': no start-up error naming the runner check"
  [ -z "$(ls "$TMP/f-$how" 2>/dev/null)" ] || die "a runner that plants '$how' gave findings"
done
grep -q "killed by signal 11" "$TMP/crash" || die "the crashing runner's start-up error does not say it crashed"
log=$(whole_log "$TMP/crash")
[ -s "$log" ] || die "the crashing runner's start-up error names no whole log"
grep -q "native stack at the crash" "$log" && grep -q "in check_aoti_runner" "$log" ||
  die "the whole start-up log lacks the runner's native stack or the Python stack"
rm -f "$log" "$(whole_log "$TMP/wrong")"
grep -q "gives other values than eager" "$TMP/wrong" || die "the wrong runner's start-up error does not say so"
echo "test_aoti: ok ($n of 6 generated graphs pass)"
