# Shared by the end-to-end tests: paths, the torch runtime, and checks.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
B=${B:-$ROOT/build}
PT2FUZZ=$B/pt2fuzz
PY=$(sed -n 's/^PT2FUZZ_PYTHON=//p' "$B/runtime.env")
TMP=$(mktemp -d /tmp/pt2fuzz-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

die() { echo "FAILED: $*" >&2; exit 1; }
