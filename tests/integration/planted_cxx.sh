#!/bin/sh
# A C++ compiler that builds a broken AOTInductor runner (CXX for the
# worker), as a runner broken on some node would be: named *crash*, the
# runner crashes in every run; named *wrong*, it doubles every output.
# test_aoti checks that the worker's start-up check stops on both.
case $0 in
*crash*) plant='s/s->outputs = s->loader->run(inputs);/raise(SIGSEGV);/' ;;
*wrong*) plant='s/\.copy_(flat);/.copy_(flat.mul(2));/' ;;
*) echo "planted_cxx.sh: name a copy *crash* or *wrong*" >&2; exit 2 ;;
esac
for a; do
  case $a in *aoti_runner*.cpp)
    # a plant that no longer matches the runner's source would test nothing
    sed -i "$plant" "$a"
    case $0 in *crash*) grep -q 'raise(SIGSEGV);' "$a" ;; *) grep -q 'mul(2)' "$a" ;; esac ||
      { echo "planted_cxx.sh: the plant does not match $a" >&2; exit 3; } ;;
  esac
done
exec g++ "$@"
