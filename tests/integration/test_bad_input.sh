# Inputs that cannot work fail at once with their real reason: `pt2fuzz
# fuzz --out` on a read-only filesystem (a new OUT, and an existing one)
# names the path and EROFS; a target option out of range (`--components 24`)
# stops `pt2fuzz fuzz` before any job starts, where each job would exit at
# once for the whole --time; `pt2fuzz run` of a .py Python cannot compile
# exits non-zero and says why (it is no `invalid` verdict); a finding whose
# meta.json is cut short stops reduce and bisect with the file's name, and is
# left as it was.
# Beside another test: every campaign here is refused at once (timeout 60 only bounds a
# failure), no --time is reached.
source "$(dirname "$0")/lib.sh"
RO=$TMP/ro
mkdir -p "$RO"
mount -t tmpfs -o size=1m tmpfs "$RO" || die "cannot mount a tmpfs (the test needs root)"
ON_EXIT='umount "$RO" 2>/dev/null || true'
mkdir "$RO/old" "$RO/old/corpus"
mount -o remount,ro "$RO"
for out in "$RO/new" "$RO/old"; do
  rc=0
  timeout 60 "$PT2FUZZ" fuzz --out "$out" --time 10 --device cpu >"$TMP/ro.log" 2>&1 || rc=$?
  cat "$TMP/ro.log"
  [ "$rc" = 2 ] || die "fuzz --out $out exited $rc, expected 2"
  grep -qF "pt2fuzz fuzz: cannot write into $out: Read-only file system" "$TMP/ro.log" || die "no EROFS message naming $out"
done
umount "$RO"

for bad in "--components 24" "--size 0" "--near-invalid 101" "--seed -1"; do
  rc=0
  # shellcheck disable=SC2086 # an option and its value
  timeout 60 "$PT2FUZZ" fuzz $bad --out "$TMP/bad-opt" --time 30 --device cpu >"$TMP/opt.log" 2>&1 || rc=$?
  cat "$TMP/opt.log"
  [ "$rc" = 2 ] || die "fuzz $bad exited $rc, expected 2"
  grep -qF "pt2fuzz fuzz: ${bad% *}" "$TMP/opt.log" || die "fuzz $bad: no message naming the option"
  [ ! -e "$TMP/bad-opt" ] || die "fuzz $bad made its OUT before refusing"
done

printf 'import torch\nclass Model(torch.nn.Module:\n    pass\n' >"$TMP/broken.py"
rc=0
"$PT2FUZZ" run "$TMP/broken.py" --device cpu --findings "$TMP/findings" >"$TMP/run.log" 2>&1 || rc=$?
cat "$TMP/run.log"
[ "$rc" = 1 ] || die "run of a .py with a syntax error exited $rc, expected 1"
grep -q "broken.py: error: not a program Python can compile: SyntaxError" "$TMP/run.log" || die "no clear message"
[ ! -e "$TMP/findings" ] || [ -z "$(ls "$TMP/findings")" ] || die "a syntax error was recorded as a finding"

f=$TMP/cut/numeric-0000000000000001
mkdir -p "$f"
cp "$(ls "$B"/seeds/*.bin | head -1)" "$f/graph.bin"
printf '{\n  "signature": "numeric-0000000000000001",\n  "verdict": "numer' >"$f/meta.json"
cp "$f/meta.json" "$TMP/meta.before"
for cmd in reduce bisect; do
  rc=0
  "$PT2FUZZ" $cmd "$f" --device cpu >"$TMP/$cmd.log" 2>&1 || rc=$?
  cat "$TMP/$cmd.log"
  [ "$rc" = 1 ] || die "$cmd of a truncated meta.json exited $rc, expected 1"
  grep -qF "$f/meta.json: not valid JSON (line 3: " "$TMP/$cmd.log" || die "$cmd: no message naming meta.json's fault"
  cmp -s "$f/meta.json" "$TMP/meta.before" || die "$cmd changed the truncated meta.json"
done
