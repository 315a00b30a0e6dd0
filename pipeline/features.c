#include "features.h"
#include <math.h>
#include <string.h>
#include <xxhash.h>
#include "../graph/op.h"

enum feature_kind { F_OP, F_EDGE, F_DTYPE, F_DYNAMIC, F_BINDINGS, F_NEAR_MISS };

static void bump(uint8_t *map, enum feature_kind k, uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t key[4] = {k, a, b, c}, hash = XXH32(key, sizeof key, 0x70743266u);
	uint32_t i = k == F_NEAR_MISS ? FEATURES_NEAR_AT + hash % FEATURES_NEAR
				      : FEATURES_GRAPH_AT + hash % (FEATURES_GRAPH - FEATURES_NEAR);
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

/* Forward output k's value (outputs are the values marked out, in order), or -1. */
static int output_value(const struct graph *g, int k)
{
	for (unsigned i = 0; i < g->nvalues; i++)
		if (g->v[i].out && k-- == 0)
			return (int)i;
	return -1;
}

void features_near_miss(const struct graph *g, int output, double nearness, uint8_t *map)
{
	if (output < 0 || !(nearness >= 1.0 / 256))
		return;
	int octave = (int)floor(log2(nearness)); /* -8 .. -1, and 0 and up for a pass an excuse made */
	int v = output_value(g, output);
	/* a gradient or a written leaf: what made it is not one output's op */
	bump(map, F_NEAR_MISS, v >= 0 ? producer(g, (unsigned)v) : 0xE0000000u, (uint32_t)((octave > 0 ? 0 : octave) + 8), 0);
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

/* libFuzzer's counter buckets: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+. */
static unsigned bucket(uint8_t v)
{
	return v >= 128 ? 7 : v >= 32 ? 6 : v >= 16 ? 5 : v >= 8 ? 4 : v >= 4 ? 3 : (unsigned)v - 1;
}

/* Counters whose first hit is code-level novelty: all but the graph's own features. */
static int code_counter(unsigned i) { return i < FEATURES_GRAPH_AT || i >= FEATURES_NEAR_AT; }

enum novelty features_novelty(const uint8_t *map, uint8_t *seen, unsigned *new_code)
{
	enum novelty got = NOVEL_NONE;
	unsigned code = 0;
	for (unsigned i = 0; i < FEATURES_MAP; i++)
		if (map[i]) {
			uint8_t bit = (uint8_t)(1u << bucket(map[i]));
			if (!seen[i] && code_counter(i))
				code++;
			else if (!(seen[i] & bit))
				got = NOVEL_COUNT;
			seen[i] |= bit;
		}
	if (new_code)
		*new_code = code;
	return code ? NOVEL_CODE : got;
}

int features_novel(const uint8_t *map, uint8_t *seen) { return features_novelty(map, seen, NULL) != NOVEL_NONE; }

unsigned long long features_seen_count(const uint8_t *seen)
{
	unsigned long long n = 0;
	for (unsigned i = 0; i < FEATURES_MAP; i++)
		n += (unsigned)__builtin_popcount(seen[i]);
	return n;
}
