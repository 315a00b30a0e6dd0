#include "mutkit.h"
#include <string.h>
#include "../graph/dtype.h"
#include "gen_choose.h"

#define SMALL_INT 8 /* fresh integer leaves stay within [-8, 8] where they may */

/* Drops symbols no leaf dim uses, renumbering the rest; with none left the
 * graph has one binding (a graph without dynamic dims runs once). */
static void compact_symbols(struct recipe *rc)
{
	int map[G_MAX_SYM];
	unsigned used = 0;
	for (unsigned s = 0; s < rc->nsym; s++) {
		int any = 0;
		for (unsigned i = 0; i < rc->n && !any; i++)
			for (unsigned d = 0; !rc->e[i].is_node && d < rc->e[i].leaf.rank; d++)
				any |= rc->e[i].leaf.ld[d].sym == (int)s;
		map[s] = any ? (int)used : -1;
		if (any) {
			for (unsigned b = 0; b < G_MAX_BIND; b++)
				rc->sym[b][used] = rc->sym[b][s];
			used++;
		}
	}
	if (used == rc->nsym)
		return;
	for (unsigned i = 0; i < rc->n; i++)
		for (unsigned d = 0; !rc->e[i].is_node && d < rc->e[i].leaf.rank; d++)
			if (rc->e[i].leaf.ld[d].sym >= 0)
				rc->e[i].leaf.ld[d].sym = (int8_t)map[rc->e[i].leaf.ld[d].sym];
	rc->nsym = (uint8_t)used;
	if (!used)
		rc->nbind = 1;
}

void mut_tidy(struct recipe *rc)
{
	recipe_prune_leaves(rc);
	compact_symbols(rc);
}

int mut_finish(struct mut_ctx *m)
{
	mut_tidy(&m->rc);
	return recipe_build(&m->rc, &m->out, NULL, NULL, 0);
}

unsigned mut_node_entry(const struct mut_ctx *m, unsigned k)
{
	return recipe_ref_of(&m->rc, m->g->n[k].out0).entry;
}

static int is_leaf_filled(const struct value *v, enum fill f) { return v->kind != VK_NODE && v->fill == f; }

int mut_can_replace(const struct graph *g, const struct value *c, const struct value *v)
{
	if (c->dtype != v->dtype || !value_same_shape(g, c, v) || c->datadep)
		return 0;
	if (!dtype_is_inexact(v->dtype) && (c->lo < v->lo || c->hi > v->hi))
		return 0;
	/* Distinct indices and positive variances are known only of leaves
	 * made that way: keep what the chooser asked for. */
	if (is_leaf_filled(v, FILL_PERM) || is_leaf_filled(v, FILL_POSITIVE))
		return is_leaf_filled(c, (enum fill)v->fill) && c->hi <= v->hi;
	return 1;
}

int mut_find_replacement(const struct graph *g, struct rng *r, unsigned v, unsigned before, int skip)
{
	unsigned cand[G_MAX_VALUES], nc = 0;
	for (unsigned i = 0; i < before && i < g->nvalues; i++)
		if (i != v && !(skip >= 0 && g->v[i].node == skip) && mut_can_replace(g, &g->v[i], &g->v[v]))
			cand[nc++] = i;
	return nc ? (int)cand[rng_below(r, nc)] : -1;
}

void mut_leaf_fill(struct recipe_leaf *l, int64_t lo, int64_t hi)
{
	if (dtype_is_inexact(l->dtype)) {
		if (l->fill == FILL_CONST && lo == hi) {
			l->lo = l->hi = lo;
			return;
		}
		if (l->fill != FILL_POSITIVE && l->fill != FILL_SPECIAL)
			l->fill = FILL_NORMAL;
		l->lo = l->hi = 0;
		return;
	}
	if (l->fill == FILL_PERM && l->dtype != DT_BOOL && lo == 0 && hi >= 0 && hi <= G_INT_BOUND) {
		l->lo = 0;
		l->hi = hi;
		return;
	}
	l->fill = FILL_RANGE;
	int64_t bound = l->dtype == DT_BOOL ? 1 : SMALL_INT;
	int64_t floor = -SMALL_INT > dtype_info(l->dtype)->min ? -SMALL_INT : dtype_info(l->dtype)->min;
	/* The small range where it meets [lo, hi], else [lo, hi] within the
	 * leaf bounds, else the small range. */
	int64_t a = lo > floor ? lo : floor, b = hi < bound ? hi : bound;
	if (a > b && l->dtype != DT_BOOL) { /* [lo, hi] within what the dtype holds */
		int64_t tlo = dtype_info(l->dtype)->min, thi = dtype_info(l->dtype)->max;
		a = lo > -G_INT_BOUND ? lo : -G_INT_BOUND;
		b = hi < G_INT_BOUND ? hi : G_INT_BOUND;
		a = a > tlo ? a : tlo;
		b = b < thi ? b : thi;
	}
	if (a > b) {
		a = floor;
		b = bound;
	}
	l->lo = a;
	l->hi = b;
}

int mut_leaf_like(const struct graph *g, const struct value *v, struct recipe_entry *e)
{
	memset(e, 0, sizeof *e);
	struct recipe_leaf *l = &e->leaf;
	l->kind = VK_INPUT;
	l->dtype = v->dtype;
	l->rank = v->rank;
	for (unsigned d = 0; d < v->rank; d++) {
		int32_t sizes[G_MAX_BIND];
		for (unsigned b = 0; b < g->nbind; b++)
			sizes[b] = v->dim[b][d];
		if (gen_leaf_dim_for(g, sizes, &l->ld[d]))
			return -1;
	}
	l->fill = v->kind != VK_NODE ? v->fill : FILL_NORMAL;
	mut_leaf_fill(l, v->lo, v->hi);
	return 0;
}
