#!/usr/bin/env bash
# Runs every repro beside this script, each under a timeout, and writes its output
# (NAME.out), its exit status (NAME.rc) and one summary line (summary.txt) to OUT_DIR.
# Usage: run_all.sh OUT_DIR [PYTHON (default python3)] [TIMEOUT_S (default 600)]
# Exit status of a repro: 0 = bug absent (compiled matches eager), 1 = it raised
# (the bug, or another error: read NAME.out), 124 = it ran past the timeout.
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 OUT_DIR [PYTHON] [TIMEOUT_S]" >&2
    exit 2
fi
out=$1
py=${2:-python3}
limit=${3:-600}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out" || exit 2
"$py" -c 'import sys, torch; print("python", sys.version.split()[0]); print("torch", torch.__version__);
print("device", torch.cuda.get_device_name(0) if torch.cuda.is_available() else "cpu")' >"$out/env.txt" 2>&1
cat "$out/env.txt"
: >"$out/summary.txt"
for repro in "$here"/*.py; do
    name=$(basename "$repro" .py)
    timeout "$limit" "$py" "$repro" >"$out/$name.out" 2>&1
    rc=$?
    echo "$rc" >"$out/$name.rc"
    case $rc in
        0) verdict="bug absent" ;;
        124) verdict="timed out after ${limit}s" ;;
        *) verdict="raised: $(grep -E '^[A-Za-z_.]+(Error|Exception)' "$out/$name.out" | tail -1 | cut -c1-200)" ;;
    esac
    printf '%-40s rc=%-3s %s\n' "$name" "$rc" "$verdict" | tee -a "$out/summary.txt"
done
