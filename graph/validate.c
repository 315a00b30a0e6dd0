/* Validation by reconstruction: a graph is valid iff the checked
 * constructors (graph.c, and broken.c for a near-invalid graph's last node)
 * rebuild it value for value. */
#include "validate.h"
#include <string.h>
#include "broken.h"
#include "compile_config.h"
#include "fail.h"

int graph_validate(const struct graph *g, char *why, size_t n)
{
	static _Thread_local struct graph h;
	char sub[200];
	if (graph_init(&h, g->nbind, g->nsym, g->seed, why, n) || graph_set_target(&h, g->target, why, n) ||
	    graph_set_config(&h, &g->config, why, n))
		return -1;
	for (unsigned s = 0; s < g->nsym; s++) {
		int32_t vals[G_MAX_BIND];
		for (unsigned b = 0; b < g->nbind; b++)
			vals[b] = g->sym[b][s];
		if (graph_set_sym(&h, s, vals, why, n))
			return -1;
	}
	if (g->nvalues > G_MAX_VALUES || g->nnodes > G_MAX_NODES)
		return fail(why, n, "too many values or nodes");
	unsigned next_node = 0;
	for (unsigned i = 0; i < g->nvalues;) {
		const struct value *v = &g->v[i];
		if (v->kind != VK_NODE) {
			if (graph_add_leaf(&h, (enum value_kind)v->kind, (enum dtype)v->dtype, v->rank, v->ld,
					   (enum fill)v->fill, v->lo, v->hi, sub, sizeof sub) < 0 ||
			    (v->layout && graph_set_layout(&h, i, v->layout, sub, sizeof sub)))
				return fail(why, n, "value %u: %s", i, sub);
			i++;
			continue;
		}
		if (next_node >= g->nnodes || g->n[next_node].out0 != i)
			return fail(why, n, "value %u is not the output of node %u", i, next_node);
		const struct node *nd = &g->n[next_node];
		struct op_choice ch;
		memset(&ch, 0, sizeof ch);
		ch.nin = nd->nin;
		ch.nattr = nd->nattr;
		if (ch.nin > G_MAX_IN || ch.nattr > G_MAX_ATTR)
			return fail(why, n, "node %u: too many inputs or attributes", next_node);
		memcpy(ch.in, nd->in, sizeof ch.in);
		memcpy(ch.attr, nd->attr, sizeof ch.attr);
		int last = next_node + 1 == g->nnodes;
		if ((g->broken && last ? graph_add_broken_node(&h, nd->op, &ch, g->broken, sub, sizeof sub)
				       : graph_add_node(&h, nd->op, &ch, sub, sizeof sub)) < 0)
			return fail(why, n, "node %u: %s", next_node, sub);
		if (h.n[next_node].nout != nd->nout)
			return fail(why, n, "node %u: %u outputs recorded, %u inferred", next_node, nd->nout,
				    h.n[next_node].nout);
		for (unsigned k = 0; k < nd->nout; k++) {
			const struct value *a = &g->v[i + k], *b = &h.v[i + k];
			if (a->dtype != b->dtype || !value_same_shape(g, a, b))
				return fail(why, n, "value %u: recorded type differs from the inferred one", i + k);
		}
		i += nd->nout;
		next_node++;
	}
	if (next_node != g->nnodes)
		return fail(why, n, "node %u produces no value", next_node);
	if (h.broken != g->broken)
		return fail(why, n, "the graph is marked near-invalid but has no node");
	unsigned nout = 0;
	for (unsigned i = 0; i < g->nvalues; i++) {
		if (!g->v[i].out)
			continue;
		if (graph_set_output(&h, i, 1, why, n))
			return -1;
		nout++;
	}
	if (!nout)
		return fail(why, n, "the graph has no output");
	if (graph_check_broken_output(&h, why, n) || graph_check_returns(&h, why, n))
		return -1;
	for (unsigned i = 0; i < g->nvalues; i++)
		if (g->v[i].grad && graph_set_grad(&h, i, 1, why, n))
			return -1;
	return 0;
}
