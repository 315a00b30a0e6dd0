/* The libFuzzer target's own options (pt2fuzz_fuzzer.c), besides the run
 * options: the target parses them, the node runner passes them on. */
#ifndef PT2FUZZ_TARGET_OPTIONS_H
#define PT2FUZZ_TARGET_OPTIONS_H
#include <getopt.h>

extern const struct option target_options[];

#endif
