/* A pool of worker processes for checking many graphs at once (the reducer's
 * candidates, triage's reruns): N child processes, each with its own
 * executor, fed jobs through pipes; graphs and results travel in shared
 * memory. A configuration (backend, mode, ...) travels with every job. */
#ifndef PT2FUZZ_POOL_H
#define PT2FUZZ_POOL_H
#include <sys/types.h>
#include "check.h"
#include "runopts.h"

#define POOL_MAX 64

struct pool_result {
	int ran;                  /* the check ran (0: the worker could not start) */
	enum verdict_kind kind;
	enum mismatch what;
	uint64_t key;             /* reduction key: the signature without ops (0 for non-findings) */
	uint64_t signature;       /* with the graph's op set */
	char detail[300];
	char torch[32];           /* the worker's torch version */
	double res_rmse, ref_rmse, tol; /* numeric values findings: struct verdict's */
};

struct pool_job; /* in shared memory */

struct pool {
	unsigned n, cap;
	pid_t pid[POOL_MAX];
	int to[POOL_MAX], from[POOL_MAX];
	struct pool_job *jobs; /* one slot per worker */
};

/* Starts n children with ro's worker options. 0, or -1 with a reason. */
int pool_start(struct pool *p, unsigned n, const struct run_opts *ro, char *why, size_t len);

/* Checks gs[i] under cs[i] for i < count, results in res (same order), up to
 * p->n at a time. 0, or -1 when a child died. */
int pool_run(struct pool *p, const struct graph *const *gs, const struct check_cfg *const *cs, unsigned count,
	     struct pool_result *res);

/* The same for an array of graphs under one configuration (count <= POOL_MAX). */
int pool_check(struct pool *p, const struct graph *gs, unsigned count, const struct check_cfg *c,
	       struct pool_result *res);

void pool_stop(struct pool *p);

/* The reduction key of a judged run: oracle_signature without ops. */
uint64_t pool_key(const struct verdict *v, const struct run_result *r);

/* r's finding that w wants (struct check_want), or r's own verdict; its
 * signature in *signature. */
const struct verdict *pool_wanted(const struct check_result *r, const struct check_want *w, uint64_t *signature);

#endif
