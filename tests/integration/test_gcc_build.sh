# `CC=gcc make` builds everything but the libFuzzer targets, -Werror clean.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
make -s CC=gcc B="$TMP/gcc" "$TMP/gcc/pt2fuzz" "$TMP/gcc/unit_tests" "$TMP/gcc/integration_tests" bench B="$TMP/gcc" -j2
"$TMP/gcc/unit_tests" core_ | tail -1 | grep -q ' 0 failed' || die "gcc-built unit tests fail"
