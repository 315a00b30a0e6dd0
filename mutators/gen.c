#include "gen.h"
#include <string.h>
#include "../graph/fail.h"
#include "../graph/op.h"
#include "break.h"
#include "gen_choose.h"
#include "grad.h"

static unsigned campaign_target = TARGET_ANY, campaign_backward;

void gen_set_campaign(unsigned target, int backward)
{
	campaign_target = target < TARGET_COUNT ? target : TARGET_ANY;
	campaign_backward = backward != 0;
}

void gen_default_opts(struct gen_opts *o)
{
	o->target = campaign_target;
	o->size = 8;
	o->family = -1;
	o->dyn_pct = 40;
	o->break_pct = 0;
	o->constraint = C_NONE;
	o->grad_pct = campaign_backward ? GEN_BACKWARD_GRAD_PCT : 0;
}

static const uint32_t *op_runs; /* gen_favor_rare_ops; NULL: by catalogue weight alone */

void gen_favor_rare_ops(const uint32_t *runs) { op_runs = runs; }

/* An op's catalogue weight, divided by how often the campaign has run it:
 * an op never run weighs RARE_SCALE times its weight, one run 63 times or
 * more weighs what the catalogue says (or 1). */
#define RARE_SCALE 64u
static unsigned pick_weight(unsigned i, const struct op_def *op)
{
	if (!op_runs || !op->weight)
		return op->weight;
	unsigned w = op->weight * RARE_SCALE / (1u + (op_runs[i] < RARE_SCALE ? op_runs[i] : RARE_SCALE));
	return w > op->weight ? w : op->weight;
}

/* Whether o lets op be generated: its family, and no in-place writes where
 * the graph is to have gradients. */
static int op_allowed(const struct op_def *op, const struct gen_opts *o)
{
	return (o->family < 0 || (int)op->family == o->family) && !(op->inplace && o->grad_pct);
}

static int pick_op(struct rng *r, const struct gen_opts *o)
{
	unsigned total = 0, n = op_count();
	for (unsigned i = 0; i < n; i++) {
		const struct op_def *op = op_get(i);
		if (op_allowed(op, o))
			total += pick_weight(i, op);
	}
	if (!total)
		return -1;
	uint64_t pick = rng_below(r, total);
	for (unsigned i = 0; i < n; i++) {
		const struct op_def *op = op_get(i);
		if (!op_allowed(op, o))
			continue;
		unsigned w = pick_weight(i, op);
		if (pick < w)
			return (int)i;
		pick -= w;
	}
	return -1;
}

int gen_append_op(struct graph *g, struct rng *r, const struct gen_opts *o, unsigned attempts)
{
	for (unsigned t = 0; t < attempts; t++) {
		uint16_t nv = g->nvalues, nn = g->nnodes;
		int opid = pick_op(r, o);
		if (opid < 0)
			return -1;
		int p = gen_pick_primary(g, r, (unsigned)opid);
		if (p >= 0) {
			struct op_choice ch;
			memset(&ch, 0, sizeof ch);
			ch.nin = 1;
			ch.in[0] = (uint16_t)p;
			int k = gen_choose_node(g, r, (unsigned)opid, &ch);
			if (k >= 0)
				return k;
		}
		g->nvalues = nv; /* roll back leaves made for the failed attempt */
		g->nnodes = nn;
	}
	return -1;
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
	unsigned size = o->size < 1 ? 1 : o->size > G_MAX_NODES ? G_MAX_NODES : o->size;
	unsigned start = 1 + (unsigned)rng_below(&r, 2);
	for (unsigned i = 0; i < start; i++)
		gen_random_input(g, &r, DTM_EVERY, 0, G_MAX_RANK, 1);
	for (unsigned tries = 0; g->nnodes < size && tries < size * 4; tries++)
		gen_append_op(g, &r, o, 40);
	if (!g->nnodes)
		return fail(why, n, "no op could be placed");
	/* No draw at all when near-invalid graphs are off: generation stays as it was. */
	if (o->break_pct && rng_chance(&r, o->break_pct) && break_graph(g, &r, o->constraint, BREAK_ATTEMPTS) < 0)
		return fail(why, n, "no node could be made to break %s",
			    o->constraint ? constraint_name(o->constraint) : "a constraint");
	graph_mark_sinks(g);
	if (o->grad_pct) /* no draw when off, as above */
		grad_mark_leaves(g, &r, o->grad_pct);
	return 0;
}
