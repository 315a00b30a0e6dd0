/* Structure-aware reduction: the smallest graph that still shows a finding.
 * Delta debugging over graph edits (drop what an output does not depend on,
 * delete ops with their users rewired, unmark dynamic dims, shrink dims,
 * simplify attributes, dtypes to float32, narrow integer inputs), every
 * candidate rebuilt through the checked constructors and checked through a
 * worker pool, verdicts cached by graph hash, until a fixpoint or a time
 * limit. What is kept is the finding's reduction key (pool_key): its
 * verdict, mismatch class and normalized error, not its op set. */
#ifndef PT2FUZZ_REDUCE_H
#define PT2FUZZ_REDUCE_H
#include "../pipeline/cli.h"
#include "../pipeline/findings.h"
#include "../pipeline/pool.h"

struct reduce_stats {
	unsigned ops_before, ops_after, checks, cache_hits;
	unsigned refused;     /* candidates that kept the key but let eager drift from fp64 (conditioning_kept) */
	unsigned not_run;     /* checks that did not run: cut at the deadline, or no worker (pool_result's detail) */
	double seconds;
	int reproduced;       /* the input showed the key at all */
	struct pool_result last; /* the reduced graph's verdict */
};

/* Called with each smaller graph that still shows the finding as the
 * reduction takes it, st as of then: a caller that writes it keeps what a
 * reduction killed midway had reached. */
typedef void reduce_taken_fn(const struct graph *cur, const struct reduce_stats *st, void *arg);

/* Reduces g (which shows `key` under c) into out. `output` is the index of
 * the output a numeric finding is about (-1: unknown). taken (NULL: none)
 * sees each step. 0, or -1 when the pool broke; st->reproduced == 0 when g
 * does not show the key. */
int reduce_graph(struct pool *p, const struct graph *g, const struct check_cfg *c, uint64_t key, int output,
		 double time_limit, struct graph *out, struct reduce_stats *st, reduce_taken_fn *taken, void *arg);

/* The value the attribute pass tries for attribute a of node k, its
 * which-th (0, 1 or half of it) candidate: an integer attribute toward 0.
 * -1 when there is none: a list's count, a value no smaller, or a real
 * number, which stays (1e-06 is not a small 0, nor -0.0 a small 0.0, and
 * their bits have no order). */
int reduce_attr_candidate(const struct graph *g, unsigned k, unsigned a, unsigned which, int64_t *v);

/* Writes dir/graph.bin, dir/repro.py (emitted under c) and dir/reduce.json. */
int reduce_write(const char *dir, const struct graph *g, const struct check_cfg *c, const struct reduce_stats *st);

/* Where reduce_write_taken writes. */
struct reduce_out {
	const char *dir;
	const struct check_cfg *c;
	unsigned ops_before; /* the finding's own op count, for a reduction that goes on from an
			      * earlier reduced graph (0: the count it started from) */
};

/* A reduce_taken_fn: reduce_write of each step into arg's (a struct
 * reduce_out) folder, which then always holds the smallest graph yet. */
void reduce_write_taken(const struct graph *cur, const struct reduce_stats *st, void *arg);

/* c takes the finding's backend, mode and dynamic setting unless the command
 * line names them, and wants the finding's verdict at its output (struct
 * check_want). */
void reduce_cfg_from_meta(struct check_cfg *c, const struct finding_meta *m, const struct cli *cl);

#endif
