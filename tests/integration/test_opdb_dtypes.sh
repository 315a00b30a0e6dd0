# `pt2fuzz opdb --dtypes` checks every mapped row's input-0 dtypes, on each
# device it runs on, against its entries' OpInfos on the installed torch: a
# dtype a row generates that no OpInfo supports there is wrong unless a
# reviewed allowance (cli/opdb_dtype_allowances.c) says eager accepts it. No
# wrong claim may stand; the lost reach (unclaimed dtypes) is counted. The
# check itself must be able to fail: cli/opdb.py, fed a planted row that claims
# what its op lacks, flags it.
source "$(dirname "$0")/lib.sh"
set +e
"$PT2FUZZ" opdb --dtypes >"$TMP/dtypes.tsv" 2>"$TMP/err.txt"
rc=$?
set -e
summary=$(tail -1 "$TMP/dtypes.tsv")
echo "$summary"
N='\([0-9]*\)'
read -r wrong allowed unclaimed unchecked < <(echo "$summary" | sed -n "s/^dtype claims against op_db of torch [^:]*: \
$N claims-unsupported wrong, $N allowed with a reason, $N unclaimed, $N rows unchecked\$/\1 \2 \3 \4/p")
[ -n "${unchecked:-}" ] || { cat "$TMP/err.txt"; die "no summary line: $summary"; }
count() { awk -F'\t' -v k="$1" -v v="$2" '$4 == k && index($6, v) == 1' "$TMP/dtypes.tsv" | wc -l; }
if [ "$wrong" != 0 ]; then
  awk -F'\t' '$6 == "wrong"' "$TMP/dtypes.tsv"
  die "$wrong dtype claims no OpInfo supports: narrow the rows' .dtypes, or allow them with a reason once eager accepts them"
fi
[ "$rc" = 0 ] || { cat "$TMP/err.txt"; die "opdb --dtypes exited $rc"; }
[ "$(count claims-unsupported wrong)" = "$wrong" ] || die "the wrong lines do not add up to $wrong"
[ "$(count claims-unsupported allowed:)" = "$allowed" ] || die "the allowed lines do not add up to $allowed"
[ "$(count unclaimed -)" = "$unclaimed" ] || die "the unclaimed lines do not add up to $unclaimed"
[ "$(count unchecked the)" = "$unchecked" ] || die "the unchecked lines do not add up to $unchecked"
echo "unclaimed (OpInfo supports, no row generates): $unclaimed row-device lines"
# Known answers: embedding's input 0 is its indices (allowed); abs is checked.
awk -F'\t' '$1 == "embedding" && $3 == "cpu" && $5 == "int32,int64" && $6 ~ /^allowed: /' "$TMP/dtypes.tsv" |
  grep -q . || die "embedding's indices are not an allowance"
grep -q $'^abs\tabs\t.*\tunchecked\t' "$TMP/dtypes.tsv" && die "abs takes input 0 itself, yet is unchecked"
grep -q $'^arange\tarange\t-\tunchecked\t' "$TMP/dtypes.tsv" || die "a factory's input 0 is checked"

# Planted rows, fed straight to cli/opdb.py (one catalogue row per line: name,
# spelling, module, input-0 dtypes on CPU, on CUDA): a conv2d that claims
# int32 (no device has it), an angle that claims it on CPU only (both have
# it), a gammainc that claims float16 on CUDA only (CPU alone has it), a
# factory whose input 0 only lends the device.
printf '%s\t%s\t%s\t%s\t%s\n' \
  planted_conv 'F.conv2d(@0, @1)' '' float32,int32 float32,int32 \
  planted_angle 'torch.angle(@0)' '' float32,int32 - \
  planted_gammainc 'torch.special.gammainc(@0, @1)' '' float32 float32,float16 \
  planted_zeros 'torch.zeros(#1, dtype=#0, device=@0.device)' '' bool bool >"$TMP/rows.tsv"
"$PY" "$ROOT/cli/opdb.py" <"$TMP/rows.tsv" 2>/dev/null | grep '^#dtype' >"$TMP/planted.tsv" || true
for want in $'planted_conv\tnn.functional.conv2d\tcpu\tclaims-unsupported\tint32' \
  $'planted_conv\tnn.functional.conv2d\tcuda\tclaims-unsupported\tint32' \
  $'planted_gammainc\tigamma\tcuda\tclaims-unsupported\tfloat16' \
  $'planted_gammainc\tigamma\tcpu\tunclaimed\tfloat16' \
  $'planted_zeros\tzeros\t-\tunchecked\t-'; do
  grep -qx $'#dtype\t'"$want" "$TMP/planted.tsv" || die "the planted claim is not flagged: $want ($(cat "$TMP/planted.tsv"))"
done
grep -q $'^#dtype\tplanted_angle\t[^\t]*\t[^\t]*\tclaims-unsupported' "$TMP/planted.tsv" &&
  die "a supported claim is flagged: $(cat "$TMP/planted.tsv")"
grep -q $'^#dtype\tplanted_angle\t[^\t]*\tcuda' "$TMP/planted.tsv" && die "a CPU-only row is judged on CUDA"
# The same planted rows after the catalogue's, through the command: it
# exits 1 on the wrong claim and prints it as such.
printf '#!/bin/sh\n{ cat; cat %q; } | exec %q "$@"\n' "$TMP/rows.tsv" "$PY" >"$TMP/python"
chmod +x "$TMP/python"
PT2FUZZ_PYTHON=$TMP/python "$PT2FUZZ" opdb --dtypes >"$TMP/planted_cmd.tsv" 2>/dev/null &&
  die "opdb --dtypes passed a planted wrong claim"
grep -qx $'planted_conv\tnn.functional.conv2d\tcpu\tclaims-unsupported\tint32\twrong' "$TMP/planted_cmd.tsv" ||
  die "the command does not print the planted claim as wrong: $(grep planted "$TMP/planted_cmd.tsv")"
tail -1 "$TMP/planted_cmd.tsv" | grep -q ": 3 claims-unsupported wrong," || die "not 3 wrong: $(tail -1 "$TMP/planted_cmd.tsv")"
"$PT2FUZZ" opdb --dtypes --list all 2>"$TMP/err.txt" && die "--dtypes with --list accepted"
grep -q "does not go with --dtypes" "$TMP/err.txt" || die "no usage for --dtypes --list"
echo "ok: pt2fuzz opdb --dtypes"
