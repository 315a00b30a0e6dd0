# `pt2fuzz fuzz --device cuda:auto` places each slot's
# target on a GPU by free memory (fuzz/placement.h). On the CPU, a fake
# nvidia-smi (PT2FUZZ_NVIDIA_SMI) lists three GPUs: GPU 0 at 95% of its
# memory, GPUs 1 and 2 nearly empty and within one worker's memory of each
# other. Slot 0 goes to GPU 1 (the most free, the lower index of a tie),
# slot 1 to GPU 2 (as free, fewer slots), none to GPU 0; the targets that run
# carry those --device values (their workers then fail: no CUDA here), and
# the campaign's end says each GPU's slots and memory. With every GPU full no
# slot starts; a failing query is a clear error. On GPU nodes:
# bench/placement-gpu checks the same with nvidia-smi and real workers.
# Runs alone: campaigns of 8 and 15 s (the first seconds place both slots).
source "$(dirname "$0")/lib.sh"
OUT=$TMP/out
mkdir "$TMP/seeds"
"$PT2FUZZ" gen --seed 5 --count 1 --size 3 --target cpu --configs 0 --out "$TMP/seeds" >/dev/null
cat >"$TMP/smi" <<'S'
#!/bin/sh
case "$*" in *--query-gpu=index,memory.used,memory.total*) ;; *) exit 2 ;; esac
printf '0, 76000, 80000\n1, 10000, 80000\n2, 10100, 80000\n'
S
chmod +x "$TMP/smi"
ARGS=(--jobs 2 --device cuda:auto --seeds "$TMP/seeds" --no-triage --stats-every 5)
PT2FUZZ_NVIDIA_SMI=$TMP/smi "$PT2FUZZ" fuzz --time 15 --out "$OUT" "${ARGS[@]}" >"$TMP/run.log" 2>&1 &
runner=$!
# The targets' own command lines, while they run: their last --device.
devices=""
for _ in $(seq 1 100); do
  for pid in $(pgrep -f -- "--stats $OUT/stats" || true); do
    dev=$(tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | awk 'prev == "--device" { d = $0 } { prev = $0 } END { print d }')
    case " $devices " in *" $dev "*) ;; *) devices="$devices $dev" ;; esac
  done
  [ "$(echo $devices | wc -w)" -ge 2 ] && break
  sleep 0.2
done
wait $runner || true
cat "$TMP/run.log"
[ "$(echo $devices | tr ' ' '\n' | sort | xargs)" = "cuda:1 cuda:2" ] || die "the targets ran on '$devices', not cuda:1 and cuda:2"
grep -q "^pt2fuzz fuzz: slot 0 on cuda:1 (10000 of 80000 MiB used" "$OUT/fuzzer.log" || die "slot 0 was not placed on GPU 1"
grep -q "^pt2fuzz fuzz: slot 1 on cuda:2 (10100 of 80000 MiB used" "$OUT/fuzzer.log" || die "slot 1 was not placed on GPU 2"
! grep -q "on cuda:0" "$OUT/fuzzer.log" || die "a slot went to the GPU at 95%"
# A slot's count "now" depends on whether its failing target is between restarts
# at the end; "most" is what placement did.
grep -q "GPUs: cuda:0 0 slots (most 0), 76000/80000 MiB (peak 76000); cuda:1 [01] slots (most 1), 10000/80000 MiB.*cuda:2 [01] slots (most 1)" "$TMP/run.log" ||
  die "the campaign's end does not say each GPU's slots and memory"

# Every GPU past 90%: no slot starts, each waits and says why.
cat >"$TMP/full" <<'S'
#!/bin/sh
printf '0, 74000, 80000\n1, 79000, 80000\n'
S
chmod +x "$TMP/full"
PT2FUZZ_NVIDIA_SMI=$TMP/full "$PT2FUZZ" fuzz --time 8 --out "$TMP/full-out" "${ARGS[@]}" >"$TMP/full.log" 2>&1 || true
grep -q "slot 0 waits: no GPU has room for a worker of 2048 MiB under 90% of its memory" "$TMP/full-out/fuzzer.log" ||
  die "a slot did not wait for room"
! grep -q "slot [01] on cuda" "$TMP/full-out/fuzzer.log" || die "a slot started on a full GPU"
grep -q "0 target processes started" "$TMP/full.log" || die "target processes started without room"

# A query that fails stops the campaign with the command's name.
! PT2FUZZ_NVIDIA_SMI=/bin/false "$PT2FUZZ" fuzz --time 8 --out "$TMP/bad" "${ARGS[@]}" >"$TMP/bad.log" 2>&1 ||
  die "a campaign ran without its GPUs' memory"
grep -q "/bin/false: the GPU memory query failed" "$TMP/bad.log" || { cat "$TMP/bad.log"; die "no clear error for a failing query"; }
echo "placement: targets on$devices"
