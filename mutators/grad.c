/* Requires-grad marks. Only leaves that graph_grad_refused allows take one, so
 * marking stays valid by construction; ops whose outputs carry no gradient
 * (argmax, comparisons) give a leaf none, which the program reports as zeros
 * in every mode. */
#include "grad.h"
#include "mutkit.h"

/* Leaves of g that can take a mark, or have one, in value order; returns how many. */
static unsigned markable_leaves(const struct graph *g, unsigned *ids)
{
	unsigned k = 0;
	for (unsigned i = 0; i < g->nvalues; i++)
		if (value_is_leaf(&g->v[i]) && (g->v[i].grad || !graph_grad_refused(g, i, NULL, 0)))
			ids[k++] = i;
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
		if (g->v[i].grad && graph_grad_refused(g, i, NULL, 0))
			g->v[i].grad = 0;
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
