# Shared by the end-to-end tests: paths, the torch runtime, and checks.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
B=${B:-$ROOT/build}
PT2FUZZ=$B/pt2fuzz
PY=$(sed -n 's/^PT2FUZZ_PYTHON=//p' "$B/runtime.env")
TMP=$(mktemp -d /tmp/pt2fuzz-test.XXXXXX)
# Kept when a test fails, for the log's readers (always with PT2FUZZ_KEEP_TMP=1).
# ON_EXIT: a test's own clean-up (a mount to undo), run first.
trap 'rc=$?; eval "${ON_EXIT:-}"; if [ $rc = 0 ] && [ -z "${PT2FUZZ_KEEP_TMP:-}" ]; then rm -rf "$TMP"; else echo "(exit $rc; files kept in $TMP)" >&2; fi' EXIT
trap 'echo "FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR

die() { echo "FAILED: $*" >&2; exit 1; }
