/* Structure-aware mutation: what libFuzzer's LLVMFuzzerCustomMutator and
 * LLVMFuzzerCustomCrossOver call. Every mutator edits a graph as a recipe
 * (recipe.h) and rebuilds it through the checked constructors, so its result
 * is valid by construction; a mutator that cannot apply reports failure and
 * leaves the graph unchanged. Everything is deterministic for a seed. */
#ifndef PT2FUZZ_MUTATE_H
#define PT2FUZZ_MUTATE_H
#include <stddef.h>
#include <stdint.h>
#include "../graph/graph.h"
#include "../graph/rng.h"

#define MUT_MAX 16 /* >= the number of mutators */

struct mutate_stats {
	uint64_t tried[MUT_MAX], valid[MUT_MAX];
};

unsigned mutator_count(void);
const char *mutator_name(unsigned i); /* NULL when out of range */
int mutator_find(const char *name);   /* index, or -1 */
unsigned mutator_weight(unsigned i);  /* the table's weight; 0 when out of range */

/* Weights to draw mutators by from now on in this thread, MUT_MAX of them
 * (a yield schedule's: schedule.h); NULL returns to the table's. */
void mutate_use_weights(const unsigned *weights);

/* Applies mutator `which` once. On success (0) g holds a valid graph that
 * encodes within max_size bytes and, but for regenerate, differs from the
 * input; on failure (-1) g is unchanged. other (NULL: none) is the crossover
 * partner, which splice needs. */
int mutate_with(unsigned which, struct graph *g, const struct graph *other, struct rng *r, size_t max_size);

/* Mutates g in place (other may be NULL); picks mutators by weight until one
 * succeeds or `attempts` fail. Returns the mutator used, -1 if none succeeded. */
int mutate_graph(struct graph *g, const struct graph *other, struct rng *r, unsigned attempts,
		 struct mutate_stats *st);

/* For LLVMFuzzerCustomMutator: data (size bytes, capacity max_size) decoded,
 * mutated, re-encoded in place; undecodable input is replaced by a generated
 * graph. A near-invalid input is mutated without its broken node; then, with
 * chance break_pct (%), the result is made near-invalid (the `break`
 * mutator), else it stays valid. Returns the new size (> 0, <= max_size);
 * *which = mutator used (break when it broke one). */
size_t mutate_bytes(uint8_t *data, size_t size, size_t max_size, unsigned seed, unsigned break_pct, int *which,
		    struct mutate_stats *st);

/* For LLVMFuzzerCustomCrossOver: d1 mutated with d2 as the partner that
 * splice draws from (splice at its table weight), written to out (capacity
 * max_out); near-invalid inputs, break_pct and *which (may be NULL) as for
 * mutate_bytes. */
size_t crossover_bytes(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out, size_t max_out,
		       unsigned seed, unsigned break_pct, int *which, struct mutate_stats *st);

#endif
