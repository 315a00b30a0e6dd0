/* The libFuzzer target's own options (pt2fuzz_fuzzer.c), besides the run
 * options: the target parses them, the node runner checks them before it
 * starts any job (a bad value would make every job exit at once) and
 * passes them on. */
#ifndef PT2FUZZ_TARGET_OPTIONS_H
#define PT2FUZZ_TARGET_OPTIONS_H
#include <getopt.h>

struct cli;

extern const struct option target_options[];

/* The target's numbers, defaults filled in. */
struct target_numbers {
	long long size;         /* ops per component of a generated graph */
	long long components;   /* independent components per generated graph */
	long long near_invalid; /* percent of inputs made near-invalid */
};

/* Reads them from c; on a bad value prints why and returns -1. */
int target_numbers_parse(const struct cli *c, struct target_numbers *t);

#endif
