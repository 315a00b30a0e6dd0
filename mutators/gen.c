#include "gen.h"
#include "avoid.h"
#include <limits.h>
#include <string.h>
#include "../graph/autocast.h"
#include "../graph/codec.h"
#include "../graph/compile_config.h"
#include "../graph/fail.h"
#include "../graph/op.h"
#include "break.h"
#include "config_draw.h"
#include "gen_choose.h"
#include "grad.h"
#include "rarity.h"

static unsigned campaign_target = TARGET_ANY, campaign_backward;
static unsigned campaign_size = 8, campaign_components = 1;

void gen_set_campaign(unsigned target, int backward)
{
	campaign_target = target < TARGET_COUNT ? target : TARGET_ANY;
	campaign_backward = backward != 0;
}

void gen_set_campaign_shape(unsigned size, unsigned components)
{
	campaign_size = size;
	campaign_components = components;
}

void gen_default_opts(struct gen_opts *o)
{
	o->target = campaign_target;
	o->size = campaign_size;
	o->components = campaign_components;
	o->family = -1;
	o->dyn_pct = 40;
	o->break_pct = 0;
	o->constraint = C_NONE;
	o->grad_pct = campaign_backward ? GEN_BACKWARD_GRAD_PCT : 0;
	o->config_pct = config_draw_campaign_pct();
	o->autocast = -1;
}

/* An op's catalogue weight times its rarity, and the rarity of the pair it
 * would make reading the newest value (made by op prev; -1: an input), which
 * it reads most often (rarity.h: both 1 with feedback off). */
static unsigned pick_weight(unsigned i, const struct op_def *op, int prev)
{
	return op->weight * rarity_of_op(i) * rarity_of_pair(prev, i);
}

/* The autocast mode g is drawn for: o's, else its own configuration's (-1: none). */
static int autocast_of(const struct graph *g, const struct gen_opts *o)
{
	return o->autocast >= 0 ? o->autocast : autocast_row(&g->config);
}

/* Whether o lets op be generated into g: its family, no in-place writes where
 * the graph is to have gradients, nothing its autocast mode makes invalid. */
static int op_allowed(const struct graph *g, const struct op_def *op, const struct gen_opts *o, int autocast)
{
	return (o->family < 0 || (int)op->family == o->family) && !(op->inplace && o->grad_pct) &&
	       !autocast_op_refused(op, g->target, autocast, NULL, 0);
}

static int pick_op(const struct graph *g, struct rng *r, const struct gen_opts *o, unsigned first)
{
	int prev = g->nvalues > first ? rarity_producer(g, g->nvalues - 1u) : -1;
	unsigned total = 0, n = op_count();
	int autocast = autocast_of(g, o);
	for (unsigned i = 0; i < n; i++) {
		const struct op_def *op = op_get(i);
		if (op_allowed(g, op, o, autocast))
			total += pick_weight(i, op, prev);
	}
	if (!total)
		return -1;
	uint64_t pick = rng_below(r, total);
	for (unsigned i = 0; i < n; i++) {
		const struct op_def *op = op_get(i);
		if (!op_allowed(g, op, o, autocast))
			continue;
		unsigned w = pick_weight(i, op, prev);
		if (pick < w)
			return (int)i;
		pick -= w;
	}
	return -1;
}

int gen_append_op(struct graph *g, struct rng *r, const struct gen_opts *o, unsigned first, unsigned attempts)
{
	for (unsigned t = 0; t < attempts; t++) {
		uint16_t nv = g->nvalues, nn = g->nnodes;
		int opid = pick_op(g, r, o, first);
		if (opid < 0)
			return -1;
		int p = gen_pick_primary(g, r, (unsigned)opid, first);
		if (p >= 0) {
			struct op_choice ch;
			memset(&ch, 0, sizeof ch);
			ch.nin = 1;
			ch.in[0] = (uint16_t)p;
			int k = gen_choose_node(g, r, (unsigned)opid, first, &ch);
			if (k >= 0 && !autocast_node_refused(g, (unsigned)k, autocast_of(g, o), NULL, 0))
				return k;
		}
		g->nvalues = nv; /* roll back leaves made for the failed attempt */
		g->nnodes = nn;
	}
	return -1;
}

unsigned gen_components(const struct gen_opts *o)
{
	return o->components < 1 ? 1 : o->components > GEN_MAX_COMPONENTS ? GEN_MAX_COMPONENTS : o->components;
}

unsigned gen_component_size(const struct gen_opts *o)
{
	unsigned parts = gen_components(o);
	return o->size < 1 ? 1 : o->size * parts > G_MAX_NODES ? G_MAX_NODES / parts : o->size;
}

/* Whether node k reads a value of nodes first..k-1: one's output, or a value
 * one of them reads. */
static int joins(const struct graph *g, unsigned first, unsigned k)
{
	for (unsigned i = 0; i < g->n[k].nin; i++) {
		unsigned v = g->n[k].in[i];
		if (g->v[v].node >= (int)first)
			return 1;
		for (unsigned j = first; j < k; j++)
			for (unsigned t = 0; t < g->n[j].nin; t++)
				if (g->n[j].in[t] == v)
					return 1;
	}
	return 0;
}

/* Values are in creation order, so the values made since the component
 * began are its own. A graph of one component is grown as it always was. */
void gen_component(struct graph *g, struct rng *r, const struct gen_opts *o, unsigned size, int connected)
{
	unsigned first = g->nvalues, nodes = g->nnodes;
	unsigned start = 1 + (unsigned)rng_below(r, 2);
	for (unsigned i = 0; i < start; i++)
		gen_random_input(g, r, (DTM_EVERY | DTM_COMPLEX) & ~autocast_dtypes_refused(autocast_of(g, o)), 0,
				 G_MAX_RANK, 1);
	for (unsigned tries = 0; g->nnodes - nodes < size && tries < size * 4; tries++) {
		uint16_t nv = g->nvalues, nn = g->nnodes;
		int k = gen_append_op(g, r, o, first, 40);
		if (connected && k > (int)nodes && !joins(g, nodes, (unsigned)k)) {
			g->nvalues = nv;
			g->nnodes = nn;
		}
	}
}

int gen_returned_component(struct graph *g, struct rng *r, const struct gen_opts *o, unsigned size, int connected,
			   unsigned most)
{
	uint16_t first = g->nvalues, nodes = g->nnodes;
	uint8_t member[G_MAX_NODES];
	for (unsigned tries = 0; tries < GEN_AVOID_TRIES; tries++) {
		gen_component(g, r, o, size, connected);
		for (unsigned i = first; i < g->nvalues; i++)
			if (g->v[i].kind == VK_NODE && !graph_users(g, i))
				graph_set_output(g, i, 1, NULL, 0);
		if (graph_nreturns(g) > most) {
			g->nvalues = first;
			g->nnodes = nodes;
			return -1;
		}
		for (unsigned k = 0; k < g->nnodes; k++)
			member[k] = k >= nodes;
		if (!avoid_component(g, member))
			return 0;
		g->nvalues = first; /* a known bug's trigger: drawn again */
		g->nnodes = nodes;
	}
	return 0; /* none without a trigger: the component is left out */
}

int gen_graph(struct graph *g, uint64_t seed, const struct gen_opts *o, char *why, size_t n)
{
	struct rng r;
	rng_seed(&r, seed);
	unsigned nsym = 0, nbind = 1;
	if (rng_chance(&r, o->dyn_pct)) {
		nsym = rng_chance(&r, 30) ? 2 : 1;
		nbind = rng_chance(&r, 50) ? 2 : 3;
	}
	if (graph_init(g, nbind, nsym, (uint32_t)rng_next(&r), why, n) || graph_set_target(g, o->target, why, n))
		return -1;
	for (unsigned s = 0; s < nsym; s++) {
		int32_t vals[G_MAX_BIND];
		for (unsigned b = 0; b < nbind; b++) {
			int dup;
			do {
				vals[b] = (int32_t)rng_range(&r, G_MIN_SYMVAL + 1, 16);
				dup = 0;
				for (unsigned c = 0; c < b; c++)
					dup |= vals[c] == vals[b];
			} while (dup);
		}
		graph_set_sym(g, s, vals, NULL, 0);
	}
	unsigned parts = gen_components(o);
	unsigned size = gen_component_size(o);
	/* Components stop where forward() would return more than a reply carries
	 * (leaving room for the outputs a near-invalid last node may add). */
	unsigned most = G_MAX_RETURNS - (o->break_pct ? G_MAX_OUT : 0);
	for (unsigned c = 0; c < parts; c++)
		if (gen_returned_component(g, &r, o, size, parts > 1, c ? most : UINT_MAX))
			break;
	if (!g->nnodes)
		return fail(why, n, "no op could be placed");
	/* No draw at all when near-invalid graphs are off: generation stays as it was. */
	if (o->break_pct && rng_chance(&r, o->break_pct) && break_graph(g, &r, o->constraint, BREAK_ATTEMPTS) < 0)
		return fail(why, n, "no node could be made to break %s",
			    o->constraint ? constraint_name(o->constraint) : "a constraint");
	graph_mark_sinks(g);
	/* A lone component may still have too many sinks: the last ones are left unreturned
	 * (not a near-invalid node's, which must be returned). */
	for (unsigned i = g->nvalues; i-- > 0 && graph_nreturns(g) > G_MAX_RETURNS;)
		if (!g->broken || g->v[i].node != (int)g->nnodes - 1)
			g->v[i].out = 0;
	if (o->grad_pct) /* no draw when off, as above */
		grad_mark_leaves(g, &r, o->grad_pct);
	config_draw_graph(g, &r, o->config_pct, g->target); /* likewise; drawn valid for the graph's target */
	return 0;
}

size_t gen_fresh_bytes(uint8_t *out, size_t cap, uint64_t seed, unsigned near_invalid, int backward)
{
	static struct graph g;
	struct gen_opts o;
	gen_default_opts(&o);
	o.break_pct = near_invalid;
	o.grad_pct = backward ? GEN_BACKWARD_GRAD_PCT : 0;
	for (unsigned t = 0; t < 8; t++)
		if (!gen_graph(&g, seed * 8 + t, &o, NULL, 0)) {
			size_t n = codec_encode(&g, out, cap);
			if (n)
				return n;
		}
	return 0;
}
