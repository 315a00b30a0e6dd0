#include "rarity.h"
#include "../graph/op.h"

static const uint32_t *ops, *pairs;

void rarity_use(const uint32_t *op_runs, const uint32_t *pair_runs)
{
	ops = op_runs;
	pairs = pair_runs;
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

unsigned rarity_of_op(unsigned op) { return ops ? rarity(ops[op]) : 1; }

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
		for (unsigned i = 0; i < g->n[k].nin; i++)
			pair_runs[rarity_pair_slot(rarity_producer(g, g->n[k].in[i]), g->n[k].op)]++;
	}
}
