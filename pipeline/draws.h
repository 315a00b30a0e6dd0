/* Random ops whose draws differ between modes. Every mode draws the same
 * numbers (graph/ops/random.c) unless the torch has a known draw bug
 * (pipeline/known_bugs.h: Inductor reorders the draws, or decomposes a
 * random op into other draws). There a value computed from a draw differs
 * for no fault of the code that computes it, so the outputs of a component
 * that holds such a random op are judged by their kind, dtype, shape and
 * strides alone, and the graph's other components as ever: the draw bug
 * hides nothing beside it and is never found again. */
#ifndef PT2FUZZ_DRAWS_H
#define PT2FUZZ_DRAWS_H
#include "../graph/emit.h"
#include "../graph/graph.h"

/* Sets cmp[k] (emit_compared's, n entries) to ORACLE_COMPARE_LAYOUT for each
 * compared output, written leaf or gradient of g whose component holds a
 * random op of a draw bug of the known list on torch ("2.11.0+cu130").
 * How many it set. */
unsigned draws_layout_only(const struct graph *g, const struct emit_opts *eo, const char *torch, uint8_t *cmp,
			   unsigned n);

#endif
