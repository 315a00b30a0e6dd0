# A worker's temporary folders outlive no worker for long: each worker makes
# them in $TMPDIR/pt2fuzz-scratch-*, locked while it lives; the executor
# removes its worker's when it stops it (it always kills it, also on a hang),
# and before it starts a worker it sweeps those whose worker is gone. A
# folder whose lock a live process holds, and one not yet locked that was
# made moments ago (a worker starting), stay, as does a file of that name; an
# unlocked folder older than the grace period goes. A worker's temporary
# files, and its children's, are in its folder. (The sweep's cases one
# by one: tests/test_scratch.c; a campaign's end: test_manager_engine.sh.)
source "$(dirname "$0")/lib.sh"
cd "$TMP"
own_tmpdir
SEED=$B/seeds/fam_shape_views.bin
scratch() { (cd "$TMPDIR" && ls -d pt2fuzz-scratch-* 2>/dev/null) | sort | tr '\n' ' '; }
for name in dead live young old; do
  mkdir "$TMPDIR/pt2fuzz-scratch-$name"
  echo dump >"$TMPDIR/pt2fuzz-scratch-$name/kernel.cpp"
done
touch "$TMPDIR/pt2fuzz-scratch-dead/.lock" "$TMPDIR/pt2fuzz-scratch-live/.lock"
rm "$TMPDIR/pt2fuzz-scratch-young/kernel.cpp" # made moments ago, its lock not yet taken
touch -d '1 hour ago' "$TMPDIR/pt2fuzz-scratch-old"
echo note >"$TMPDIR/pt2fuzz-scratch-note.log" # a file of that name, no folder: not the sweep's
touch -d '1 hour ago' "$TMPDIR/pt2fuzz-scratch-note.log"
# a live worker: one process that holds the lock (util-linux flock would leave its sleep running)
"$PY" -c 'import fcntl, sys, time; f = open(sys.argv[1]); fcntl.flock(f, fcntl.LOCK_EX); time.sleep(600)' \
  "$TMPDIR/pt2fuzz-scratch-live/.lock" </dev/null >/dev/null 2>&1 &
holder=$!
ON_EXIT="kill $holder 2>/dev/null || true"
sleep 0.5
"$PT2FUZZ" run --device cpu --findings f "$SEED" >run.out 2>&1 || { cat run.out; die "run failed"; }
grep -q ": pass" run.out || die "not a pass: $(cat run.out)"
[ "$(scratch)" = "pt2fuzz-scratch-live pt2fuzz-scratch-note.log pt2fuzz-scratch-young " ] ||
  die "after a run the scratch folders are: $(scratch) (wanted only the live and the young one)"
# A worker killed on a hang leaves nothing: the temporary files of its compile, its own and
# its children's, were in its folder, which goes with it.
printf 'bindings 1\nseed 3\nx0 = input float32 [4, 8]\nv1 = relu(x0)\noutput v1\n' >hang.txt
"$PT2FUZZ" parse hang.txt --out hang.bin
"$PT2FUZZ" run --device cpu --timeout 5 --findings f2 --plugin "$ROOT/tests/integration/planted_backends.py" \
  --backend planted_temporaries_then_hang hang.bin >hang.out 2>&1 || true
grep -q ": hang" hang.out || die "the hanging compile is no hang: $(cat hang.out)"
stray=$(cd "$TMPDIR" && ls -A | grep -v '^pt2fuzz-scratch-\|^torchinductor_' | xargs || true)
[ -z "$stray" ] || die "a killed worker left temporary files in TMPDIR: $stray"
"$PT2FUZZ" run --device cpu --findings f3 "$SEED" >run2.out 2>&1 || { cat run2.out; die "run after the hang failed"; }
[ "$(scratch)" = "pt2fuzz-scratch-live pt2fuzz-scratch-note.log pt2fuzz-scratch-young " ] ||
  die "after a hang and a run the scratch folders are: $(scratch)"
[ -e "$TMPDIR/pt2fuzz-scratch-live/kernel.cpp" ] || die "the live worker's folder lost its file"
# A worker whose executor is killed (kill -9: the run's process that started it) exits by itself
# once its answer finds no reader.
# A compile subprocess of its group would go on writing into its folder while it removed it:
# it ends its group first, so neither the writer nor the folder outlives it.
group_alive() { # pgrp: the live processes of that group
  "$PY" -c 'import os, sys
for p in filter(str.isdigit, os.listdir("/proc")):
    try: f = open(f"/proc/{p}/stat", "rb").read().rsplit(b")", 1)[1].split()
    except OSError: continue
    if int(f[2]) == int(sys.argv[1]) and f[0] != b"Z": print(p)' "$1"
}
PT2FUZZ_MARK=$TMP/busy.pid PT2FUZZ_COMPILE_SECS=2 "$PT2FUZZ" run --device cpu --findings f4 \
  --plugin "$ROOT/tests/integration/planted_backends.py" --backend planted_busy_child hang.bin >busy.out 2>&1 &
runner=$!
for _ in $(seq 1200); do [ -s "$TMP/busy.pid" ] && break; sleep 0.1; done
[ -s "$TMP/busy.pid" ] || die "the compile never started: $(cat busy.out)"
worker=$(cat "$TMP/busy.pid")
kill -9 "$(sed 's/.*) //' "/proc/$worker/stat" | cut -d" " -f2)" # its parent (the fields after the name: state, ppid)
wait "$runner" 2>/dev/null || true
for _ in $(seq 600); do [ -z "$(group_alive "$worker")" ] && break; sleep 0.1; done
[ -z "$(group_alive "$worker")" ] || die "60 s after its executor died, the worker's group still runs: $(group_alive "$worker" | xargs)"
[ "$(scratch)" = "pt2fuzz-scratch-live pt2fuzz-scratch-note.log pt2fuzz-scratch-young " ] ||
  die "a worker that ended by itself left its folder: $(scratch)"
echo "worker scratch: a dead worker's folder and an old unlocked one removed; a live and a young one kept; an orphaned worker ends its group and removes its own"
