#include "features.h"
#include <string.h>
#include <xxhash.h>
#include "../graph/op.h"

enum feature_kind { F_OP, F_EDGE, F_DTYPE, F_DYNAMIC, F_BINDINGS };

static void bump(uint8_t *map, enum feature_kind k, uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t key[4] = {k, a, b, c};
	uint32_t i = FEATURES_GRAPH_AT + XXH32(key, sizeof key, 0x70743266u) % FEATURES_GRAPH;
	if (map[i] < 255)
		map[i]++;
}

/* What produced value v: its op's hash, or a leaf marker by kind. */
static uint32_t producer(const struct graph *g, unsigned v)
{
	const struct value *x = &g->v[v];
	return x->kind == VK_NODE ? op_hash(g->n[x->node].op) : 0xF0000000u + x->kind;
}

void features_graph(const struct graph *g, uint8_t *map)
{
	bump(map, F_BINDINGS, g->nbind, g->nsym, 0);
	for (unsigned k = 0; k < g->nnodes; k++) {
		const struct node *nd = &g->n[k];
		uint32_t op = op_hash(nd->op);
		bump(map, F_OP, op, 0, 0);
		for (unsigned i = 0; i < nd->nin; i++) {
			const struct value *in = &g->v[nd->in[i]];
			bump(map, F_EDGE, producer(g, nd->in[i]), op, i);
			bump(map, F_DTYPE, op, i, in->dtype);
			if (in->dyn)
				bump(map, F_DYNAMIC, op, i, (uint32_t)__builtin_popcount(in->dyn));
		}
	}
}

void features_count(const uint8_t *map, unsigned counts[FR_COUNT])
{
	static const unsigned bounds[FR_COUNT + 1] = {0, FEATURES_COMPILER, FEATURES_COMPILER + FEATURES_KERNELS,
						      FEATURES_GRAPH_AT, FEATURES_MAP};
	for (unsigned r = 0; r < FR_COUNT; r++) {
		counts[r] = 0;
		for (unsigned i = bounds[r]; i < bounds[r + 1]; i++)
			counts[r] += map[i] != 0;
	}
}
