# Shared by the end-to-end tests: paths, the torch runtime, and checks.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
B=${B:-$ROOT/build}
PT2FUZZ=$B/pt2fuzz
PY=$(sed -n 's/^PT2FUZZ_PYTHON=//p' "$B/runtime.env")
TMP=$(mktemp -d /tmp/pt2fuzz-test.XXXXXX)
# A bench a test runs records its figures here, not in the checkout (bench/record).
export BENCH_RESULTS=$TMP/bench-results
# Kept when a test fails, for the log's readers (always with PT2FUZZ_KEEP_TMP=1).
# ON_EXIT: a test's own clean-up (a mount to undo), run first.
trap 'rc=$?; eval "${ON_EXIT:-}"; if [ $rc = 0 ] && [ -z "${PT2FUZZ_KEEP_TMP:-}" ]; then rm -rf "$TMP"; else echo "(exit $rc; files kept in $TMP)" >&2; fi' EXIT
trap 'echo "FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR

die() { echo "FAILED: $*" >&2; exit 1; }

# Workers' temporary folders under a TMPDIR of the test's own, so that the
# test sees what its workers left; Inductor's cache stays where it was.
own_tmpdir() {
  export TORCHINDUCTOR_CACHE_DIR=${TORCHINDUCTOR_CACHE_DIR:-${TMPDIR:-/tmp}/torchinductor_$(id -un)}
  export TMPDIR=$TMP/tmp
  mkdir -p "$TMPDIR"
}

# Which torch the runtime has, as MAJOR.MINOR (2.15.0+cu132 -> 2.15).
TORCH_MINOR=$(sed -n 's/^PT2FUZZ_TORCH=//p' "$B/runtime.env" | cut -d. -f1,2)

# The verdict a graph's text file (a seed, seeds/NAME.txt, or a known bug,
# tests/known_bugs/NAME.txt) expects on this torch. A graph that reproduces an
# upstream bug names the versions it was checked on, one line each ("# expect
# on torch 2.6: numeric"); on a version it does not name it expects nothing:
# "unchecked". Else "# expect: KIND" holds on every version; else pass.
seed_expect() { # text file
  local per all
  per=$(sed -n 's/^# expect on torch \([0-9.]*\): \([a-z-]*\).*/\1 \2/p' "$1")
  if [ -n "$per" ]; then
    all=$(echo "$per" | awk -v v="$TORCH_MINOR" '$1 == v { print $2 }')
    echo "${all:-unchecked}"
    return
  fi
  all=$(sed -n 's/^# expect: \([a-z-]*\).*/\1/p' "$1")
  echo "${all:-pass}"
}

# A shipped seed (its name) that is a finding on this torch, or nothing.
finding_seed() {
  local txt
  for txt in "$ROOT"/seeds/bug_*.txt; do
    case $(seed_expect "$txt") in pass | unchecked) ;; *) basename "$txt" .txt; return ;; esac
  done
}

# Judges the verdicts of `pt2fuzz run` (its output in $2) on the graphs named
# after it, whose text files are DIR/NAME.txt (the shipped seeds, the
# known-bug suite): a graph's verdict must be the one it expects on this torch.
# On a torch a graph does not name, a pass reads "fixed in this torch" and
# anything else "not checked on this torch"; neither fails. Prints every
# mismatch and returns 1 if any.
judge_verdicts() { # text dir, run output, graph names...
  local dir=$1 out=$2 bad=0 s want got versions
  shift 2
  for s in "$@"; do
    want=$(seed_expect "$dir/$s.txt")
    got=$(grep "/$s.bin: " "$out" | sed 's/^[^:]*: \([a-z-]*\).*/\1/')
    if [ "$want" = unchecked ]; then
      versions=$(sed -n 's/^# expect on torch \([0-9.]*\): \([a-z-]*\).*/\2 on \1/p' "$dir/$s.txt" | paste -sd, -)
      if [ "$got" = pass ]; then
        echo "$s: fixed in this torch ($TORCH_MINOR: pass; $versions)"
      else
        echo "$s: not checked on this torch ($TORCH_MINOR: '$got'; $versions)"
      fi
    elif [ "$got" != "$want" ]; then
      echo "$s: got '$got', expected '$want' on torch $TORCH_MINOR"; bad=1
    fi
  done
  return "$bad"
}
