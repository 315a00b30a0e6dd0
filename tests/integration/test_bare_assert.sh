#!/bin/bash
# A bare `assert` in the compiler (an AssertionError without a message, as
# Inductor's tiling and lowering raise) is told apart by its site: the
# finding's detail and bucket name "AssertionError at FILE:FUNCTION", so two
# sites are two buckets, where before both were Dynamo's "Set
# TORCHDYNAMO_VERBOSE=1" line and one bucket; one site hit twice is one.
source "$(dirname "$0")/lib.sh"
RUN=("$PT2FUZZ" run --plugin "$ROOT/tests/integration/planted_backends.py" --device cpu)
s1=$B/seeds/fam_reduce_dims.bin
s2=$B/seeds/fam_shape_views.bin

"${RUN[@]}" --backend planted_bare_assert --findings "$TMP/f" "$s1" "$s2" | tee "$TMP/one.out"
grep -q 'behaviour.*AssertionError at .*:_tile_split' "$TMP/one.out" ||
  die "the assert's site is not in the detail"
"${RUN[@]}" --backend planted_bare_assert_elsewhere --findings "$TMP/f" "$s1" | tee "$TMP/other.out"
grep -q 'AssertionError at .*:_fuse_check' "$TMP/other.out" || die "the other site is not in the detail"

bucket_of() { sed -n 's/^ *"bucket": "\([0-9a-f]\{16\}\)",\{0,1\}$/\1/p' "$@" | sort -u; }
one=$(grep -l '_tile_split' "$TMP"/f/*/meta.json)
other=$(grep -l '_fuse_check' "$TMP"/f/*/meta.json)
[ "$(echo "$one" | wc -l)" = 2 ] || die "not two findings of the first site: $one"
[ "$(bucket_of $one | wc -l)" = 1 ] || die "one site, two buckets: $(bucket_of $one)"
[ -n "$other" ] && [ "$(bucket_of $one)" != "$(bucket_of $other)" ] || die "two sites, one bucket"
grep -h '"bucket_text"' $one | grep -q 'AssertionError at .*:_tile_split' ||
  die "bucket text: $(grep -h '"bucket_text"' $one)"
echo "bare asserts: ok"
