# bench/record, the one recorder of bench figures (no torch: TORCH is given):
# a first row writes the header, a second appends under it, a row whose
# fields differ from the file's header fails naming both and leaves the file
# byte for byte as it was, a tab or a line break in a value fails, and
# without COMMIT the commit is git's short HEAD, "+dirty" when tracked files
# outside bench/results changed.
source "$(dirname "$0")/lib.sh"
export TORCH=9.9.9+test COMMIT=abc1234 BENCH_MACHINE="test box, 3 cores" BENCH_RESULTS=$TMP/results
R=$ROOT/bench/record
tsv=$BENCH_RESULTS/demo.tsv
tab=$(printf '\t')

out=$("$R" demo seconds=60 rate=1.25 note="two words")
[ "$out" = "$tsv" ] || die "printed '$out', not the file's path $tsv"
printf 'commit\tmachine\ttorch\tseconds\trate\tnote\nabc1234\ttest box, 3 cores\t9.9.9+test\t60\t1.25\ttwo words\n' >"$TMP/want"
cmp "$TMP/want" "$tsv" || die "first row: $(cat "$tsv")"

COMMIT=def5678 "$R" demo seconds=120 rate=0.5 note= >/dev/null
printf 'def5678\ttest box, 3 cores\t9.9.9+test\t120\t0.5\t\n' >>"$TMP/want"
cmp "$TMP/want" "$tsv" || die "second row: $(cat "$tsv")"

# Other fields, or the same fields in another order: an error naming both headers.
for fields in "rate=1 seconds=2 note=x" "seconds=1 rate=2" "seconds=1 rate=2 note=x extra=3"; do
  # shellcheck disable=SC2086 # the fields are words
  if "$R" demo $fields >"$TMP/out" 2>"$TMP/err"; then die "'$fields' appended under another header"; fi
  grep -q "has the header" "$TMP/err" || die "'$fields': no message naming the file's header: $(cat "$TMP/err")"
  grep -qF "  commit${tab}machine${tab}torch${tab}seconds${tab}rate${tab}note" "$TMP/err" || die "'$fields': the file's header is not named"
  want=$(echo "$fields" | sed 's/=[^ ]*//g; s/ /\t/g')
  grep -qF "  commit${tab}machine${tab}torch${tab}${want}" "$TMP/err" || die "'$fields': the row's header is not named"
  cmp "$TMP/want" "$tsv" || die "'$fields' changed the file"
done

# A tab or a line break in a value (or in the machine's name): an error, nothing appended.
for bad in "$(printf 'a\tb')" "$(printf 'a\nb')"; do
  if "$R" demo seconds=1 rate="$bad" note=x 2>"$TMP/err"; then die "a value with $(printf %q "$bad") was appended"; fi
  grep -q "rate: .* holds a tab or a line break" "$TMP/err" || die "no message for $(printf %q "$bad"): $(cat "$TMP/err")"
done
if BENCH_MACHINE="$(printf 'a\tb')" "$R" demo seconds=1 rate=2 note=x 2>/dev/null; then die "a machine with a tab was appended"; fi
for bad in "seconds" "=1" "seconds=1 seconds=2" "commit=x"; do
  # shellcheck disable=SC2086
  if "$R" demo $bad 2>/dev/null; then die "'$bad' was recorded"; fi
done
cmp "$TMP/want" "$tsv" || die "a rejected row changed the file"

# The default commit: git's, in a repository of its own with the recorder in it.
G=$TMP/repo
mkdir -p "$G/bench/results"
cp "$R" "$G/bench/record"
echo one >"$G/code.c"
git -C "$G" init -q
git -C "$G" add .
git -C "$G" -c user.name=t -c user.email=t@t commit -qm first
head=$(git -C "$G" rev-parse --short HEAD)
commit_of() { tail -1 "$1" | cut -f1; }
( unset COMMIT; "$G/bench/record" git seconds=1 >/dev/null )
[ "$(commit_of "$BENCH_RESULTS/git.tsv")" = "$head" ] || die "commit $(commit_of "$BENCH_RESULTS/git.tsv"), git's HEAD $head"
# Results under bench/results, tracked or not, are no change to the code.
printf 'commit\tmachine\ttorch\tseconds\n' >"$G/bench/results/old.tsv"
git -C "$G" add bench/results/old.tsv
git -C "$G" -c user.name=t -c user.email=t@t commit -qm results
head=$(git -C "$G" rev-parse --short HEAD)
echo "x${tab}y${tab}z${tab}1" >>"$G/bench/results/old.tsv"
( unset COMMIT; "$G/bench/record" git seconds=2 >/dev/null )
[ "$(commit_of "$BENCH_RESULTS/git.tsv")" = "$head" ] || die "a changed result marked the commit: $(commit_of "$BENCH_RESULTS/git.tsv")"
echo two >"$G/code.c"
( unset COMMIT; "$G/bench/record" git seconds=3 >/dev/null )
[ "$(commit_of "$BENCH_RESULTS/git.tsv")" = "$head+dirty" ] || die "a changed file not marked: $(commit_of "$BENCH_RESULTS/git.tsv")"
# Without BENCH_RESULTS the row goes to the checkout's bench/results.
( unset BENCH_RESULTS; "$G/bench/record" own seconds=4 >"$TMP/out" )
[ "$(cat "$TMP/out")" = "$G/bench/results/own.tsv" ] && [ "$(wc -l <"$G/bench/results/own.tsv")" = 2 ] ||
  die "no row in the checkout's own bench/results: $(cat "$TMP/out")"
echo "bench/record: header, append, mismatch, bad values and git's commit all hold"
