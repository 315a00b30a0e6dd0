/* The dtype claims of catalogue rows that their OpInfos do not list yet eager
 * torch accepts, each with its reason: reviewed, so that `pt2fuzz opdb
 * --dtypes` fails only on claims that are wrong. */
#ifndef PT2FUZZ_OPDB_DTYPE_ALLOWANCES_H
#define PT2FUZZ_OPDB_DTYPE_ALLOWANCES_H
#include <stdint.h>

struct opdb_dtype_allowance {
	const char *row;    /* a catalogue row's name */
	const char *device; /* "cpu", "cuda", or NULL: every device the row runs on */
	uint16_t dtypes;    /* DTM mask of input 0's dtypes allowed */
	const char *reason;
};

extern const struct opdb_dtype_allowance opdb_dtype_allowances[];
extern const unsigned opdb_dtype_allowance_count;

/* The allowance of row on device, or NULL. */
const struct opdb_dtype_allowance *opdb_dtype_allowed(const char *row, const char *device);

#endif
