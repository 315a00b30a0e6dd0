/* The weakly-connected components of a graph's nodes (union-find over
 * values): what a graph of several independent subgraphs is made of. */
#include "graph.h"

static unsigned find(uint16_t *up, unsigned v)
{
	while (up[v] != v)
		v = up[v] = up[up[v]];
	return v;
}

/* up[]: every value joined with the values its node reads and writes. */
static void join_values(const struct graph *g, uint16_t *up)
{
	for (unsigned i = 0; i < g->nvalues; i++)
		up[i] = (uint16_t)i;
	for (unsigned k = 0; k < g->nnodes; k++) {
		const struct node *nd = &g->n[k];
		for (unsigned i = 0; i < nd->nin; i++)
			up[find(up, nd->in[i])] = (uint16_t)find(up, nd->out0);
		for (unsigned i = 1; i < nd->nout; i++)
			up[find(up, nd->out0 + i)] = (uint16_t)find(up, nd->out0);
	}
}

unsigned graph_node_components(const struct graph *g)
{
	uint16_t up[G_MAX_VALUES];
	join_values(g, up);
	uint8_t root[G_MAX_VALUES] = {0};
	unsigned n = 0;
	for (unsigned k = 0; k < g->nnodes; k++) {
		unsigned r = find(up, g->n[k].out0);
		n += !root[r];
		root[r] = 1;
	}
	return n;
}

unsigned graph_component_nodes(const struct graph *g, unsigned value, uint8_t *member)
{
	uint16_t up[G_MAX_VALUES];
	join_values(g, up);
	unsigned r = value < g->nvalues ? find(up, value) : G_MAX_VALUES, n = 0;
	for (unsigned k = 0; k < g->nnodes; k++) {
		member[k] = find(up, g->n[k].out0) == r;
		n += member[k];
	}
	return n;
}

unsigned graph_node_component_ids(const struct graph *g, uint8_t *comp)
{
	uint16_t up[G_MAX_VALUES], id[G_MAX_VALUES];
	join_values(g, up);
	unsigned n = 0;
	for (unsigned i = 0; i < g->nvalues; i++)
		id[i] = UINT16_MAX;
	for (unsigned k = 0; k < g->nnodes; k++) {
		unsigned r = find(up, g->n[k].out0);
		if (id[r] == UINT16_MAX)
			id[r] = (uint16_t)n++;
		comp[k] = (uint8_t)id[r];
	}
	return n;
}
