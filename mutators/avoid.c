#include "avoid.h"
#include "../graph/op.h"

static avoid_hits_fn avoid_hits;
static avoid_break_fn avoid_break_hits;

void avoid_use(avoid_hits_fn hits) { avoid_hits = hits; }

void avoid_break_use(avoid_break_fn hits) { avoid_break_hits = hits; }

int avoid_break(const char *op, unsigned constraint) { return avoid_break_hits && avoid_break_hits(op, constraint); }

int avoid_component(const struct graph *g, const uint8_t *member)
{
	const char *names[G_MAX_NODES];
	unsigned n = 0;
	if (!avoid_hits)
		return 0;
	for (unsigned k = 0; k < g->nnodes; k++)
		if (member[k])
			names[n++] = op_get(g->n[k].op)->name;
	return n && avoid_hits(names, n);
}

int avoid_graph(const struct graph *g)
{
	uint8_t comp[G_MAX_NODES], member[G_MAX_NODES];
	if (!avoid_hits)
		return 0;
	unsigned n = graph_node_component_ids(g, comp);
	for (unsigned c = 0; c < n; c++) {
		for (unsigned k = 0; k < g->nnodes; k++)
			member[k] = comp[k] == c;
		if (avoid_component(g, member))
			return 1;
	}
	return 0;
}
