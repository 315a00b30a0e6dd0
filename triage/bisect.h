/* Layer bisection of a finding (triage/bisect.c): which layer of torch.compile
 * first shows it, and for Inductor findings whether fallback_random,
 * max-autotune and the dynamic marks matter. */
#ifndef PT2FUZZ_BISECT_H
#define PT2FUZZ_BISECT_H
#include "../pipeline/pool.h"

#define BISECT_LAYERS 4

struct bisect_result {
	enum verdict_kind verdict[BISECT_LAYERS]; /* per backend, eager .. inductor */
	const char *layer;   /* dynamo, aot_autograd, decompositions (partitioner for the backward pass),
			      * inductor, not-reproduced */
	const char *pass;    /* the pass that diverged: forward, backward */
	const char *fallback_random, *max_autotune, *dynamic; /* "matters", "no effect", "n/a" */
};

/* Bisects g, which shows `key` (a reduction key) under c, in the forward pass
 * or (backward_pass) a gradient. 0, or -1 when the pool broke. */
int bisect_graph(struct pool *p, const struct graph *g, const struct check_cfg *c, uint64_t key, int backward_pass,
		 struct bisect_result *br);

/* Writes br as bisect.json (docs/triage.md). */
int bisect_write(const char *path, const struct bisect_result *br);

#endif
