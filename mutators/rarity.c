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
