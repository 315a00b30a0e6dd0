#!/usr/bin/env bash
# The CUDA faults (a GPU node): a device-side assert in eager mode poisons the
# worker's CUDA context, and every later request in that process fails. The
# valid graphs that run after one must get the verdicts they get alone, and
# a campaign with such inputs must go on and lose nothing. Prints one row per
# fault, like bench/faults/run.sh, and exits 1 if one was not injected or
# not survived. Also says whether compute-sanitizer is there for the memory
# reruns (docs/oracle.md, *Blame confirmation*), and where it is, that a
# crash's replays run under it and that a kernel's write past an output is
# found by them (a planted one).
#   bench/faults/cuda.sh [WORKDIR]     (about 6 minutes on an H100)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-$ROOT/build}
PT2FUZZ=$B/pt2fuzz
W=${1:-$(mktemp -d /tmp/pt2fuzz-cuda-faults.XXXXXX)}
mkdir -p "$W"
BAD=0
row() { printf '%-44s %-9s %-9s %s\n' "$@"; [ "$2" = yes ] && [ "$3" = yes ] || BAD=1; }
verdicts() { sed -n 's#^.*/\(valid-[^:]*\.bin\): \([a-z-]*\).*#\1 \2#p' "$1" | sort; }

# 1. pt2fuzz run, one worker: each index_range graph (an index past its dim:
# on CUDA, eager's kernel trips a device-side assert) is followed by valid ones.
"$PT2FUZZ" gen --seed 21 --count 12 --size 6 --out "$W/valid" >/dev/null 2>&1
"$PT2FUZZ" gen --seed 22 --count 4 --size 6 --break index_range --out "$W/assert" >/dev/null 2>&1
mkdir -p "$W/mixed"
i=0
for v in "$W"/valid/*.bin; do
  cp "$v" "$W/mixed/$(printf %02d $i)-valid-$(basename "$v")"
  a=$(ls "$W"/assert/*.bin | sed -n "$((i / 3 + 1))p")
  [ $((i % 3)) = 0 ] && [ -n "$a" ] && cp "$a" "$W/mixed/$(printf %02d $i)-assert-$(basename "$a")"
  i=$((i + 1))
done
for v in "$W"/valid/*.bin; do ln -sf "$v" "$W/valid/valid-$(basename "$v")"; done
"$PT2FUZZ" run --device cuda --jobs 1 --findings "$W/alone-findings" "$W"/valid/valid-*.bin >"$W/alone.log" 2>&1
"$PT2FUZZ" run --device cuda --jobs 1 --findings "$W/mixed-findings" "$W"/mixed/*.bin >"$W/mixed.log" 2>&1
asserts=$(grep -c 'device-side assert' "$W/mixed.log")
sed 's#^.*/[0-9]*-\(valid-[^:]*\)#x/\1#' "$W/mixed.log" >"$W/mixed.norm"
same=$([ -n "$(verdicts "$W/alone.log")" ] && [ "$(verdicts "$W/alone.log")" = "$(verdicts "$W/mixed.norm")" ] && echo yes || echo no)
row "device-side assert before valid graphs (run)" "$([ "$asserts" -gt 0 ] && echo yes || echo no)" "$same" \
  "$asserts assert lines; valid verdicts alone vs after asserts: $(verdicts "$W/alone.log" | awk '{print $2}' | sort | uniq -c | tr -s ' \n' ' ')"
[ "$same" = yes ] || diff <(verdicts "$W/alone.log") <(verdicts "$W/mixed.norm")

# 2. A campaign whose seeds include the assert graphs: it must reach its
# summary, and every corpus file and finding must still decode.
mkdir -p "$W/seeds"
cp "$W"/mixed/*.bin "$W/seeds/"
"$PT2FUZZ" fuzz --time 150 --jobs 2 --device cuda --out "$W/camp" --seeds "$W/seeds" --no-triage >"$W/camp.log" 2>&1
summary=$(grep -c "pt2fuzz campaign summary" "$W/camp.log")
lost=0
for f in "$W"/camp/corpus/* "$W"/camp/findings/*/graph.bin; do
  [ -e "$f" ] || continue
  "$PT2FUZZ" check "$f" >/dev/null 2>&1 || lost=$((lost + 1))
done
camp_asserts=$(grep -rl 'device-side assert' "$W/camp" 2>/dev/null | wc -l)
row "device-side asserts in a campaign" "$([ "$camp_asserts" -gt 0 ] && echo yes || echo no)" \
  "$([ "$summary" = 1 ] && [ $lost = 0 ] && echo yes || echo no)" "$camp_asserts files name an assert; $lost files lost"

# 3. A crash in a worker that ran programs before (the planted backend aborts
# the worker's third compile): blame confirmation replays it in fresh
# workers, under compute-sanitizer where installed; the replays must start
# and run to their verdicts (it is reproduced by none: unconfirmed).
if command -v compute-sanitizer >/dev/null; then
  echo "compute-sanitizer: $(command -v compute-sanitizer) (memory reruns use it)"
  mkdir -p "$W/third"
  for s in 1:fam_unary_math_chain 2:fam_cumulative_scan 3:fam_reduce_dims 4:fam_activation_softmax; do
    cp "$B/seeds/${s#*:}.bin" "$W/third/${s%%:*}.bin"
  done
  "$PT2FUZZ" run --plugin "$ROOT/tests/integration/planted_memory.py" --backend planted_abort_third --device cuda \
    --jobs 1 --timeout 300 --findings "$W/third-findings" "$W/third" >"$W/third.log" 2>&1
  line=$(grep '/3.bin: ' "$W/third.log")
  replayed=$(echo "$line" | grep -q 'replayed under compute-sanitizer; unconfirmed: not reproduced alone' && echo yes || echo no)
  row "a crash replayed under compute-sanitizer" "$(echo "$line" | grep -q crashed && echo yes || echo no)" "$replayed" \
    "$(echo "$line" | sed 's/.*(\(.*\))$/\1/' | cut -c1-160)"
  # 4. A kernel that writes past an output (the planted backend, graphs with
  # cumsum) and a crash in the next program: blame confirmation replays the
  # history under compute-sanitizer, which reports the write; the culprit's
  # finding is memory corrupted in compiled mode, with the report as heap_report.
  mkdir -p "$W/oob"
  cp "$B/seeds/fam_cumulative_scan.bin" "$W/oob/1.bin"
  cp "$B/seeds/fam_unary_math_chain.bin" "$W/oob/2.bin"
  "$PT2FUZZ" run --plugin "$ROOT/tests/integration/planted_memory.py" --backend planted_cuda_oob --device cuda \
    --jobs 1 --timeout 300 --findings "$W/oob-findings" "$W/oob" >"$W/oob.log" 2>&1
  report=$(grep -h '"heap_report"' "$W"/oob-findings/*/meta.json 2>/dev/null | grep -m1 'Invalid __global__ write')
  row "a CUDA write past an output, found by its replay" "$(grep -q 'crashed' "$W/oob.log" && echo yes || echo no)" \
    "$([ -n "$report" ] && echo yes || echo no)" "$(echo "${report:-no heap_report names the write}" | tr -s ' ' | cut -c1-160)"
else
  echo "compute-sanitizer: absent (memory reruns say 'compute-sanitizer: absent, skipped')"
fi
echo "logs in $W"
exit $BAD
