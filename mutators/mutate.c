#include "mutate.h"
#include <string.h>
#include "../graph/codec.h"
#include "avoid.h"
#include "break.h"
#include "grad.h"
#include "mutkit.h"

#define BYTES_ATTEMPTS 16 /* mutators tried per libFuzzer call */
#define REGEN_TRIES 4
#define CONFIG_STACK_PCT 50 /* a dataflow edit's chance of a configuration change beside it */

enum mut_id { M_INSERT, M_GROW, M_DELETE, M_REWIRE, M_ATTR, M_SWAP, M_DIMS, M_DYNAMIC, M_DTYPE, M_SPLICE, M_REGENERATE,
	      M_BREAK, M_GRAD, M_LEAF, M_CONFIG, M_COUNT };

/* Weights: regenerate about one time in four — it throws away what the
 * corpus entry had found, but a fresh graph with the rare ops favored
 * (rarity.h) is the quickest way to new lowerings, and in
 * 10-minute campaigns (CHANGELOG.md, 2026-11-23) lowering more distinct ops is where
 * pure generation kept its lead; the edits of the dataflow share the rest.
 * break has weight 0: the share of near-invalid inputs is its own option
 * (break_pct), not a weight. grad toggles a requires-grad mark: light, since
 * only backward mode reads them. config changes the compile configuration
 * alone: as light as leaf, which likewise keeps the dataflow. */
static const struct mutator {
	const char *name;
	unsigned weight;
	mutator_fn fn;
} table[M_COUNT] = {
	[M_INSERT] = {"insert", 18, mut_insert},    [M_GROW] = {"grow", 14, mut_grow},
	[M_DELETE] = {"delete", 12, mut_delete},
	[M_REWIRE] = {"rewire", 10, mut_rewire},    [M_ATTR] = {"attr", 12, mut_attr},
	[M_SWAP] = {"swap", 10, mut_swap},          [M_DIMS] = {"dims", 8, mut_dims},
	[M_DYNAMIC] = {"dynamic", 8, mut_dynamic},  [M_DTYPE] = {"dtype", 8, mut_dtype},
	[M_SPLICE] = {"splice", 10, mut_splice},    [M_REGENERATE] = {"regenerate", 40, mut_regenerate},
	[M_BREAK] = {"break", 0, mut_break},        [M_GRAD] = {"grad", 3, mut_grad},
	[M_LEAF] = {"leaf", 6, mut_leaf},           [M_CONFIG] = {"config", 6, mut_config},
};
_Static_assert(M_COUNT <= MUT_MAX, "raise MUT_MAX");

unsigned mutator_count(void) { return M_COUNT; }

const char *mutator_name(unsigned i) { return i < M_COUNT ? table[i].name : NULL; }

unsigned mutator_weight(unsigned i) { return i < M_COUNT ? table[i].weight : 0; }

int mutator_find(const char *name)
{
	for (unsigned i = 0; i < M_COUNT; i++)
		if (!strcmp(table[i].name, name))
			return (int)i;
	return -1;
}

static _Thread_local struct mut_ctx ctx;
static _Thread_local uint8_t enc_in[CODEC_MAX_SIZE], enc_out[CODEC_MAX_SIZE];
static _Thread_local const unsigned *drawn_weights; /* NULL: the table's */

void mutate_use_weights(const unsigned *weights) { drawn_weights = weights; }

/* What pick draws mutator i by: splice only with a partner. */
static unsigned draw_weight(unsigned i, int have_other)
{
	if (i == M_SPLICE && !have_other)
		return 0;
	return drawn_weights ? drawn_weights[i] : table[i].weight;
}

int mutate_with(unsigned which, struct graph *g, const struct graph *other, struct rng *r, size_t max_size)
{
	if (which >= M_COUNT || (which != M_REGENERATE && !g->nnodes))
		return -1;
	ctx.g = g;
	ctx.other = other;
	ctx.r = r;
	ctx.max_size = max_size < CODEC_MAX_SIZE ? max_size : CODEC_MAX_SIZE;
	recipe_from_graph(&ctx.rc, g);
	if (table[which].fn(&ctx))
		return -1;
	grad_mend(&ctx.out);
	if (graph_check_returns(&ctx.out, NULL, 0) || avoid_graph(&ctx.out)) /* a known bug's trigger: no mutant */
		return -1;
	size_t n = codec_encode(&ctx.out, enc_out, ctx.max_size);
	if (!n)
		return -1;
	if (which != M_REGENERATE && codec_encode(g, enc_in, sizeof enc_in) == n && !memcmp(enc_in, enc_out, n))
		return -1;
	*g = ctx.out;
	return 0;
}

static int attempt(unsigned which, struct graph *g, const struct graph *other, struct rng *r, size_t max_size,
		   struct mutate_stats *st)
{
	if (st)
		st->tried[which]++;
	if (mutate_with(which, g, other, r, max_size))
		return -1;
	if (st)
		st->valid[which]++;
	return (int)which;
}

static unsigned pick(struct rng *r, int have_other)
{
	unsigned total = 0;
	for (unsigned i = 0; i < M_COUNT; i++)
		total += draw_weight(i, have_other);
	uint64_t x = rng_below(r, total);
	for (unsigned i = 0; i < M_COUNT; i++) {
		unsigned w = draw_weight(i, have_other);
		if (x < w)
			return i;
		x -= w;
	}
	return M_INSERT;
}

static int mutate_limited(struct graph *g, const struct graph *other, struct rng *r, unsigned attempts,
			  size_t max_size, struct mutate_stats *st)
{
	for (unsigned t = 0; t < attempts; t++) {
		int w = attempt(pick(r, other != NULL), g, other, r, max_size, st);
		if (w >= 0)
			return w;
	}
	return -1;
}

int mutate_graph(struct graph *g, const struct graph *other, struct rng *r, unsigned attempts,
		 struct mutate_stats *st)
{
	return mutate_limited(g, other, r, attempts, CODEC_MAX_SIZE, st);
}

/* Deletes nodes until g encodes within max_size: M_DELETE, or -1. */
static int shrink(struct graph *g, struct rng *r, size_t max_size, struct mutate_stats *st)
{
	for (unsigned t = 0; t < G_MAX_NODES; t++) {
		if (attempt(M_DELETE, g, NULL, r, CODEC_MAX_SIZE, st) < 0)
			return -1;
		if (codec_encode(g, enc_out, max_size))
			return M_DELETE;
	}
	return -1;
}

/* A generated graph within max_size in place of g: M_REGENERATE, or -1. */
static int regenerate(struct graph *g, struct rng *r, size_t max_size, struct mutate_stats *st)
{
	for (unsigned t = 0; t < REGEN_TRIES; t++)
		if (attempt(M_REGENERATE, g, NULL, r, max_size, st) >= 0)
			return M_REGENERATE;
	return -1;
}

/* A decoded input, made valid: mutators work on the valid part of a
 * near-invalid graph, whose share of the results is break_pct's alone. */
static int decode_valid(struct graph *g, const uint8_t *data, size_t size)
{
	return codec_decode(g, data, size, NULL, 0) || break_mend(g) ? -1 : 0;
}

/* With chance break_pct (in %) the result w breaks a constraint: M_BREAK. */
static int near_invalid(struct graph *g, struct rng *r, unsigned break_pct, size_t cap, struct mutate_stats *st, int w)
{
	if (w >= 0 && break_pct && rng_chance(r, break_pct) && attempt(M_BREAK, g, NULL, r, cap, st) >= 0)
		return M_BREAK;
	return w;
}

/* With chance CONFIG_STACK_PCT an edit of the dataflow w also changes the
 * configuration (the config mutator stacked on it, as AFL's havoc stacks
 * edits): a mutant otherwise compiles under its parent's configuration, and
 * the settings select whole code paths that a fresh graph's drawn
 * configuration reaches every time. w keeps the credit for the yield; the
 * settings' own schedule learns from the configuration it ran with. */
static void stack_config(struct graph *g, struct rng *r, size_t cap, int w)
{
	if (w >= 0 && w != M_CONFIG && w != M_REGENERATE && rng_chance(r, CONFIG_STACK_PCT))
		mutate_with(M_CONFIG, g, NULL, r, cap); /* no change possible: the edit alone */
}

/* What both entry points make of a valid g: a mutation with partner, else a
 * shrink (g too big for cap), else a fresh graph; then, with chance
 * break_pct, a near-invalid one. The mutator used; -1 leaves g as it was. */
static int mutate_valid(struct graph *g, const struct graph *partner, struct rng *r, size_t cap, unsigned break_pct,
			struct mutate_stats *st)
{
	int w = mutate_limited(g, partner, r, BYTES_ATTEMPTS, cap, st);
	if (w < 0)
		w = shrink(g, r, cap, st);
	if (w < 0)
		w = regenerate(g, r, cap, st);
	stack_config(g, r, cap, w);
	return near_invalid(g, r, break_pct, cap, st, w);
}

size_t mutate_bytes(uint8_t *data, size_t size, size_t max_size, unsigned seed, unsigned break_pct, int *which,
		    struct mutate_stats *st)
{
	static _Thread_local struct graph g, partner;
	struct rng r;
	rng_seed(&r, seed);
	size_t cap = max_size < CODEC_MAX_SIZE ? max_size : CODEC_MAX_SIZE;
	int w;
	if (!decode_valid(&g, data, size)) {
		partner = g; /* splicing a graph into itself repeats a part of it */
		w = mutate_valid(&g, &partner, &r, cap, break_pct, st);
	} else {
		w = near_invalid(&g, &r, break_pct, cap, st, regenerate(&g, &r, cap, st));
	}
	*which = w;
	if (w >= 0)
		return codec_encode(&g, data, cap);
	/* No valid graph fits max_size: libFuzzer still needs a non-empty input. */
	if (!size && max_size)
		data[size++] = 0;
	return size < max_size ? size : max_size;
}

size_t crossover_bytes(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out, size_t max_out,
		       unsigned seed, unsigned break_pct, int *which, struct mutate_stats *st)
{
	static _Thread_local struct graph g, h;
	struct rng r;
	rng_seed(&r, seed);
	size_t cap = max_out < CODEC_MAX_SIZE ? max_out : CODEC_MAX_SIZE;
	if (decode_valid(&g, d1, s1) && regenerate(&g, &r, cap, st) < 0)
		return 0;
	if (decode_valid(&h, d2, s2))
		h = g;
	/* libFuzzer asks for a crossover as often as for a mutation; splice is
	 * drawn at its table weight like any other mutator instead, so that the
	 * table, not libFuzzer, sets how often it runs. */
	int w = mutate_valid(&g, &h, &r, cap, break_pct, st);
	if (which)
		*which = w;
	return codec_encode(&g, out, cap); /* g is valid either way; 0 if it does not fit */
}
