#!/bin/sh
# A C++ compiler that builds a broken AOTInductor runner (CXX for the
# worker), as a runner broken on some node would be: named *crash*, the
# runner crashes in every run; named *wrong*, it doubles every output.
# test_aoti checks that the worker's start-up check stops on both.
case $0 in
*crash*) plant='s/s->outputs = s->loader->run(inputs);/raise(SIGSEGV);/' ;;
*wrong*) plant='s/\.copy_(t);/.copy_(t.mul(2));/' ;;
*) echo "planted_cxx.sh: name a copy *crash* or *wrong*" >&2; exit 2 ;;
esac
for a; do
  case $a in *.cpp) sed -i "$plant" "$a" ;; esac
done
exec g++ "$@"
