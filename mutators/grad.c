/* Requires-grad marks. Only float leaves take one (graph_set_grad checks), so
 * marking stays valid by construction; ops without a derivative simply give
 * a leaf no gradient, which the program reports as zeros in every mode. */
#include "grad.h"
#include "mutkit.h"

/* Leaves of g that can take a mark (float, reaching no op without a
 * derivative: graph_set_grad decides), in value order; returns how many. */
static unsigned markable_leaves(const struct graph *g, unsigned *ids)
{
	static _Thread_local struct graph probe;
	unsigned k = 0;
	for (unsigned i = 0; i < g->nvalues; i++) {
		if (!value_is_leaf(&g->v[i]))
			continue;
		probe = *g;
		if (g->v[i].grad || !graph_set_grad(&probe, i, 1, NULL, 0)) /* a marked one can be unmarked */
			ids[k++] = i;
	}
	return k;
}

void grad_mark_leaves(struct graph *g, struct rng *r, unsigned pct)
{
	unsigned ids[G_MAX_VALUES], k = markable_leaves(g, ids);
	for (unsigned i = 0; i < k; i++)
		if (rng_chance(r, pct) && graph_ngrads(g) < G_MAX_GRADS)
			graph_set_grad(g, ids[i], 1, NULL, 0); /* cannot fail: a markable leaf, room left */
	if (k && !graph_ngrads(g))
		graph_set_grad(g, ids[rng_below(r, k)], 1, NULL, 0);
}

void grad_mend(struct graph *g)
{
	for (unsigned i = 0; i < g->nvalues; i++)
		if (g->v[i].grad) {
			g->v[i].grad = 0;
			graph_set_grad(g, i, 1, NULL, 0); /* back on unless it reaches an op without a derivative now */
		}
}

/* Toggles one float leaf's mark (unmarking only where another mark stays). */
int mut_grad(struct mut_ctx *m)
{
	unsigned ids[G_MAX_VALUES], k = markable_leaves(m->g, ids);
	if (!k)
		return -1;
	unsigned id = ids[rng_below(m->r, k)];
	m->out = *m->g;
	int on = !m->g->v[id].grad;
	if (!on && graph_ngrads(m->g) == 1)
		return -1;
	return graph_set_grad(&m->out, id, on, NULL, 0);
}
