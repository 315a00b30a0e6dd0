/* How rare an op, or an op pair, is in this campaign: the fuzz target counts
 * the ops it runs and the (producer, consumer) pairs they form, and with
 * feedback on the generator favors the rare ones, so new inputs reach the
 * compiler paths of ops and pairs (fusions, layouts) not yet tried. The
 * counts belong to the caller; with none given, generation draws by the
 * catalogue and by recency alone, as pure generation does. */
#ifndef PT2FUZZ_RARITY_H
#define PT2FUZZ_RARITY_H
#include <stdint.h>
#include "../graph/graph.h"

#define RARITY_SCALE 64u /* a never-run op or pair weighs this many times a common one */

/* From now on: op_runs[i] is how often op i ran; pair_runs[rarity_pair_slot(p, c)]
 * how often op c ran reading a value of op p (p = -1: a graph input);
 * op_repeats[i] how many of op i's runs were in inputs that repeated a bug
 * already found (or known upstream): a bug, once found, is mostly found
 * again by graphs with the op that triggers it, so the generator draws such
 * ops less and spends its compiles where other bugs may be. Any may be NULL
 * (off; op_repeats counts only with op_runs). */
void rarity_use(const uint32_t *op_runs, const uint32_t *pair_runs, const uint32_t *op_repeats);

/* The pairs' slot count, (op_count() + 1) x op_count(), and one's slot. */
unsigned rarity_pair_count(void);
unsigned rarity_pair_slot(int producer, unsigned consumer);

/* Weight factors, RARITY_SCALE for never run down to 1 for RARITY_SCALE - 1
 * runs or more; 1 when that count is off. With op_repeats on, an op's is
 * that times a constant, less by the share of its runs that were repeats. */
unsigned rarity_of_op(unsigned op);
unsigned rarity_of_pair(int producer, unsigned consumer);
int rarity_pairs_on(void);

/* The op that makes value v of g, or -1 for a leaf: a pair's producer. */
int rarity_producer(const struct graph *g, unsigned v);

/* Adds g's ops to op_runs and its (producer, consumer) pairs, one per node
 * input, to pair_runs (NULL: ops only): what a run of g counts. */
void rarity_count(const struct graph *g, uint32_t *op_runs, uint32_t *pair_runs);

#endif
