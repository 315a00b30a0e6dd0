/* Requires-grad marks (backward mode): which float leaves' gradients are
 * computed and compared. Generation draws them; the `grad` mutator toggles one. */
#ifndef PT2FUZZ_GRAD_H
#define PT2FUZZ_GRAD_H
#include "../graph/graph.h"
#include "../graph/rng.h"

/* Marks each float leaf of g with chance pct (%), and at least one when g has
 * any (up to G_MAX_GRADS). */
/* Drops the marks of leaves that a mutation has routed into an op without a
 * derivative (graph_set_grad's rule), so that every mutant stays valid. */
void grad_mend(struct graph *g);
void grad_mark_leaves(struct graph *g, struct rng *r, unsigned pct);

#endif
