#include "rarity.h"
#include "../graph/op.h"

static const uint32_t *ops, *pairs, *repeats;

void rarity_use(const uint32_t *op_runs, const uint32_t *pair_runs, const uint32_t *op_repeats)
{
	ops = op_runs;
	pairs = pair_runs;
	repeats = op_repeats;
}

unsigned rarity_pair_count(void) { return (op_count() + 1) * op_count(); }

unsigned rarity_pair_slot(int producer, unsigned consumer)
{
	return (producer < 0 ? op_count() : (unsigned)producer) * op_count() + consumer;
}

static unsigned rarity(uint32_t runs)
{
	unsigned w = RARITY_SCALE / (1u + (runs < RARITY_SCALE ? runs : RARITY_SCALE));
	return w ? w : 1;
}

/* rarity x REPEAT_ONE / (1 + REPEAT_WEIGHT x the op's share of runs that
 * were repeats), the share smoothed by REPEAT_PRIOR runs: an op that ran
 * only in findings already had weighs about 1/REPEAT_WEIGHT of one that never
 * did, one at the campaign's usual finding rate somewhat less than that. */
enum { REPEAT_ONE = 16, REPEAT_WEIGHT = 8, REPEAT_PRIOR = 4 };

unsigned rarity_of_op(unsigned op)
{
	if (!ops)
		return 1;
	if (!repeats)
		return rarity(ops[op]);
	uint64_t runs = ops[op] + (uint64_t)REPEAT_PRIOR, rep = repeats[op] < ops[op] ? repeats[op] : ops[op];
	uint64_t w = rarity(ops[op]) * REPEAT_ONE * runs / (runs + REPEAT_WEIGHT * rep);
	return w ? (unsigned)w : 1;
}

unsigned rarity_of_pair(int producer, unsigned consumer)
{
	return pairs ? rarity(pairs[rarity_pair_slot(producer, consumer)]) : 1;
}

int rarity_pairs_on(void) { return pairs != NULL; }

int rarity_producer(const struct graph *g, unsigned v) { return g->v[v].node < 0 ? -1 : g->n[g->v[v].node].op; }

void rarity_count(const struct graph *g, uint32_t *op_runs, uint32_t *pair_runs)
{
	for (unsigned k = 0; k < g->nnodes; k++) {
		op_runs[g->n[k].op]++;
		for (unsigned i = 0; pair_runs && i < g->n[k].nin; i++)
			pair_runs[rarity_pair_slot(rarity_producer(g, g->n[k].in[i]), g->n[k].op)]++;
	}
}
