# Fault injection (bench/faults/run.sh): a worker killed mid-request, a fork
# job and a merge killed, a worker stopped, the whole campaign killed and
# resumed over truncated and corrupt corpus and finding files, a full disk.
# Every fault must have been injected, the campaign must survive it, and no
# finding or corpus file may be lost.
source "$(dirname "$0")/lib.sh"
B=$B bash "$ROOT/bench/faults/run.sh" "$TMP/w" | tee "$TMP/table"
rows=$(tail -n +2 "$TMP/table")
[ "$(wc -l <<<"$rows")" = 8 ] || die "expected 8 faults in the table"
while IFS= read -r line; do
  read -r -a f <<<"${line:34}"
  [ "${f[0]}" = yes ] || die "not injected: $line"
  [ "${f[1]}" = yes ] || die "not survived: $line"
  [ "${f[2]}" = 0 ] && [ "${f[3]}" = 0 ] || die "lost files: $line"
done <<<"$rows"
