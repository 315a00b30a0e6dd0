/* Constraint breakers: near-invalid graphs for error-consistency checks.
 * Each breaker takes a valid choice of one of its ops (from the op's own
 * chooser) and breaks exactly one named constraint (graph/broken.h), e.g.
 * mm's inner dims off by one or an index leaf whose values lie past the dim;
 * the op then goes last, as the graph's broken node. Eager must raise there. */
#ifndef PT2FUZZ_BREAK_H
#define PT2FUZZ_BREAK_H
#include "../graph/broken.h"
#include "../graph/rng.h"

#define BREAK_ATTEMPTS 40 /* op and operand draws per break_graph call */

/* Appends to the valid graph g a node that breaks `constraint` (C_NONE: a
 * breaker picked at random); leaves no node reads are dropped and the sinks
 * become the outputs; never an op and constraint that hold a known bug
 * (mutators/avoid.h). Returns the node index, or -1 (g may have changed but
 * is still valid). */
int break_graph(struct graph *g, struct rng *r, unsigned constraint, unsigned attempts);

/* g without its broken node and the leaves only that node read: a valid
 * graph (outputs are the sinks). 0 (also when g was valid), or -1. */
int break_mend(struct graph *g);

/* The names of the ops the breaker of `constraint` applies to (NULL-terminated;
 * NULL for C_NONE and out of range). */
const char *const *breaker_ops(unsigned constraint);

#endif
