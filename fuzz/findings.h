/* The findings directory: one folder per signature,
 *   findings/<kind>-<signature>/ repro.py graph.bin meta.json worker.log
 * A second hit of a signature raises meta.json's count (under a lock, so
 * several workers and fork-mode jobs can share the directory). */
#ifndef PT2FUZZ_FINDINGS_H
#define PT2FUZZ_FINDINGS_H
#include "check.h"

struct finding_ctx {
	const char *dir;            /* the findings directory */
	const struct check_cfg *cfg;
	const struct executor *x;   /* for the worker's log and versions */
	const char *device;
	const char *source;         /* where the input came from (a file, "libFuzzer") */
};

/* Records r (a finding) for graph g (NULL for a program without graph).
 * Returns 1 for a new signature, 0 for a repeat, -1 with a reason. The
 * folder's name goes to path. */
int findings_record(const struct finding_ctx *fc, const struct graph *g, const struct check_result *r, char *path,
		    size_t pathlen, char *why, size_t n);

/* The folder name of a signature: "<kind>-<16 hex digits>". */
void findings_name(const struct verdict *v, uint64_t sig, char *out, size_t n);

#endif
