# scripts/setup, run from a copy of scripts/ (a checkout without build/):
#  (a) it makes build/ itself;
#  (b) the runtime this checkout uses is found again and reused: the same
#      runtime.env, in seconds;
#  (c) a half-made venv is detected and removed (PyPI made unreachable, so the
#      forced venv set-up then stops with a clear error);
#  (d) a second set-up waits for the lock of the first and leaves its work;
#  (e) PT2FUZZ_RUNTIME=debian gives the Debian root filesystem's torch (built
#      under /var/cache/pt2fuzz/trixie if missing: minutes, ~2 GB, once), and
#      pt2fuzz runs a seed through it, and `pt2fuzz repro` a program.
# Beside another test: the one timed set-up takes seconds against its 60; the lock is held
# until the second set-up says it waits, not for a guessed time.
source "$(dirname "$0")/lib.sh"
CO=$TMP/checkout
mkdir -p "$CO/scripts"
cp "$ROOT/scripts/setup" "$ROOT/scripts/torch-version" "$ROOT/scripts/chroot-python" "$CO/scripts/"
field() { sed -n "s/^$1=//p" "$2"; }

# (a)
bash "$CO/scripts/setup" packages
[ -d "$CO/build" ] || die "setup packages did not make build/"

# (b)
kind=$(field PT2FUZZ_RUNTIME "$B/runtime.env")
env=()
case $kind in
  venv) env=(PT2FUZZ_RUNTIME=venv PT2FUZZ_TORCH_VERSION="$(field PT2FUZZ_TORCH "$B/runtime.env" | cut -d+ -f1)") ;;
  debian) env=(PT2FUZZ_RUNTIME=debian) ;;
  env) env=(PT2FUZZ_PYTHON="$PY") ;;
  host) ;;
  *) die "build/runtime.env names no PT2FUZZ_RUNTIME (rerun scripts/setup)" ;;
esac
t0=$SECONDS
env "${env[@]}" bash "$CO/scripts/setup"
echo "second set-up: $((SECONDS - t0)) s"
[ $((SECONDS - t0)) -lt 60 ] || die "a set-up with its runtime in place took $((SECONDS - t0)) s, not seconds"
for k in PT2FUZZ_TORCH PT2FUZZ_RUNTIME PT2FUZZ_ROOTFS; do
  [ "$(field $k "$CO/build/runtime.env")" = "$(field $k "$B/runtime.env")" ] || die "$k differs from build/runtime.env's"
done
[ "$kind" = debian ] || [ "$(field PT2FUZZ_PYTHON "$CO/build/runtime.env")" = "$PY" ] || die "another python"

# (c) and (d): a cache of our own, PyPI out of reach
export XDG_CACHE_HOME=$TMP/cache PIP_INDEX_URL=http://127.0.0.1:9/simple
version=$(cat "$ROOT/scripts/torch-version")
half=$(bash "$CO/scripts/setup" venv-path)
case $half in "$XDG_CACHE_HOME"/pt2fuzz/venv-torch-"$version"-py3.*) ;; *) die "venv-path gave $half" ;; esac
mkdir -p "$half/bin"
printf '#!/bin/sh\nexit 1\n' >"$half/bin/python3" && chmod +x "$half/bin/python3"
# The first set-up: it holds the lock until the second says it waits (30 s at most: a second
# that does not wait fails below), then leaves its work.
flock "$XDG_CACHE_HOME/pt2fuzz/setup.lock" sh -c "touch $TMP/held
  for i in \$(seq 300); do grep -qs 'waiting for another set-up' $TMP/half.err && break; sleep 0.1; done
  touch $TMP/first-done" &
for _ in $(seq 300); do [ -e "$TMP/held" ] && break; sleep 0.1; done
[ -e "$TMP/held" ] || die "the first set-up did not take the lock"
PT2FUZZ_RUNTIME=venv bash "$CO/scripts/setup" 2>"$TMP/half.err" && die "a venv set-up without PyPI succeeded"
wait
cat "$TMP/half.err"
grep -q "waiting for another set-up" "$TMP/half.err" || die "no wait for the lock"
[ -e "$TMP/first-done" ] || die "the first set-up's work is gone"
grep -q "$half is half-made" "$TMP/half.err" || die "the half-made venv was not detected"
[ ! -e "$half" ] || die "the half-made venv is still there"
grep -q "PyPI (http://127.0.0.1:9/simple) cannot be reached" "$TMP/half.err" || die "no clear error without PyPI"

# (e)
unset XDG_CACHE_HOME PIP_INDEX_URL
PT2FUZZ_RUNTIME=debian bash "$CO/scripts/setup"
[ "$(field PT2FUZZ_RUNTIME "$CO/build/runtime.env")" = debian ] || die "PT2FUZZ_RUNTIME=debian not chosen"
[ "$(field PT2FUZZ_PYTHON "$CO/build/runtime.env")" = "$CO/scripts/chroot-python" ] || die "not the chroot's python"
case $(field PT2FUZZ_TORCH "$CO/build/runtime.env") in 2.6.*) ;; *) die "the root filesystem's torch is not 2.6" ;; esac
PT2FUZZ_PYTHON="$CO/scripts/chroot-python" "$PT2FUZZ" run --device cpu --findings "$TMP/f" "$B/seeds/doc001_s2_mm_add.bin" |
  tee "$TMP/debian.out"
grep -q "doc001_s2_mm_add.bin: pass" "$TMP/debian.out" || die "a seed did not pass in the Debian runtime"
# pt2fuzz repro feeds a program to the chroot's Python, which cannot see this checkout's files.
"$PT2FUZZ" emit "$B/seeds/doc001_s2_mm_add.bin" --backend eager >"$TMP/pass.py"
printf 'import os\nprint("sees the checkout:", os.path.exists("%s"))\n' "$ROOT/README.md" | cat - "$TMP/pass.py" >"$TMP/chroot.py"
PT2FUZZ_PYTHON="$CO/scripts/chroot-python" "$PT2FUZZ" repro "$TMP/chroot.py" >"$TMP/repro.out" || die "repro in the Debian runtime: $(tail -3 "$TMP/repro.out")"
grep -qx 'sees the checkout: False' "$TMP/repro.out" && [ "$(tail -1 "$TMP/repro.out")" = PASS ] || die "$(cat "$TMP/repro.out")"
