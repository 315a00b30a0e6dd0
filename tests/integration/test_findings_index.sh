#!/usr/bin/env bash
# docs/findings holds written-up findings only (docs/findings/README.md): one
# file per finding, its title naming its kind, a State line of one of the four
# forms, a plain Python repro; README's table lists each file once with that
# state, and every relative link of the write-ups resolves.
source "$(dirname "$0")/lib.sh"
F=$ROOT/docs/findings
index=$F/README.md
[ -s "$index" ] || die "no $index"

others=$(find "$F" -mindepth 1 ! -name '*.md' | sed "s#^$ROOT/##")
[ -z "$others" ] || die "docs/findings holds more than write-ups: $others"
nested=$(find "$F" -mindepth 2 | sed "s#^$ROOT/##")
[ -z "$nested" ] || die "docs/findings holds folders: $nested"

# The four states (docs/findings/README.md).
state_form='^State: (new \(not in PyTorch'"'"'s tracker, checked 20[0-9]{2}-[0-9]{2}-[0-9]{2}\)|reported upstream as pytorch#[0-9]+|known, pytorch#[0-9]+|fixed in torch [0-9][0-9.]*)$'
n=0
for f in "$F"/*.md; do
  name=$(basename "$f")
  [ "$name" = README.md ] && continue
  n=$((n + 1))
  kind=$(echo "$name" | grep -oE '^(behaviour|numeric|missing-error|error-mismatch|stride|memory|crash|export|alias|hang)-' | sed 's/-$//') ||
    die "$name: its name does not start with a kind"
  head -1 "$f" | grep -q "^# $kind: " || die "$name: its title is not '# $kind: ...'"
  states=$(head -6 "$f" | grep '^State: ' || true)
  [ "$(echo "$states" | grep -c .)" = 1 ] || die "$name: no State line (or more than one) near the top"
  echo "$states" | grep -qE "$state_form" || die "$name: '$states' is none of the four states"
  grep -q '^```python$' "$f" || die "$name: no plain repro (a python block)"
  rows=$(grep -cF "| [$name]($name) | $kind | " "$index" || true)
  [ "$rows" = 1 ] || die "$name: README.md's table lists it $rows times (as kind $kind)"
  grep -F "| [$name]($name) | $kind | " "$index" | grep -qF "| ${states#State: } |" ||
    die "$name: README.md's table gives another state than its '$states'"
done
[ $n -gt 0 ] || die "no write-ups in docs/findings"
grep -oE '^\| \[[^]]+\]' "$index" | sed 's/^| \[//; s/\]$//' >"$TMP/rows"
while read -r row; do
  [ -e "$F/$row" ] || die "README.md's table names $row, which does not exist"
done <"$TMP/rows"

# Relative links: [text](path) and [text](path#anchor), not URLs or anchors alone, outside code.
for f in "$F"/*.md; do
  links=$(awk '/^ *```/ { code = !code; next } !code' "$f" | sed 's/`[^`]*`//g' | grep -oE '\]\([^)#]+(#[^)]*)?\)' | sed -E 's/^\]\(//; s/(#[^)]*)?\)$//' | grep -vE '^[a-z]+:' || true)
  for link in $links; do
    [ -e "$(dirname "$f")/$link" ] || die "$(basename "$f"): its link $link does not resolve"
  done
done
echo "$n write-ups, each with its state, repro and index row"
