#include "avoid.h"
#include <string.h>
#include "../graph/compile_config.h"
#include "edits.h"

static avoid_hits_fn avoid_hits;
static avoid_break_fn avoid_break_hits;

void avoid_use(avoid_hits_fn hits) { avoid_hits = hits; }

void avoid_break_use(avoid_break_fn hits) { avoid_break_hits = hits; }

int avoid_break(const char *op, unsigned constraint) { return avoid_break_hits && avoid_break_hits(op, constraint); }

/* The words of g's component member: each node's (graph_op_word), then
 * its structure words; how many. */
static unsigned component_words(const struct graph *g, const uint8_t *member, const char **ops)
{
	static _Thread_local char tok[G_MAX_NODES][64];
	unsigned n = 0;
	for (unsigned k = 0; k < g->nnodes; k++)
		if (member[k]) {
			ops[n] = graph_op_word(g, k, tok[n], sizeof tok[n]);
			n++;
		}
	if (n)
		n += graph_structure_words(g, member, ops + n, GRAPH_STRUCTURE_WORDS);
	return n;
}

int avoid_component(const struct graph *g, const uint8_t *member)
{
	const char *ops[G_MAX_NODES + GRAPH_STRUCTURE_WORDS];
	if (!avoid_hits)
		return 0;
	unsigned n = component_words(g, member, ops);
	return n && avoid_hits(ops, n);
}

int avoid_config(const struct graph *g, const struct graph_config *c)
{
	static _Thread_local char buf[GRAPH_CONFIG_WORDS_MAX][GRAPH_CONFIG_WORD_LEN];
	const char *config[GRAPH_CONFIG_WORDS_MAX], *words[G_MAX_NODES + GRAPH_STRUCTURE_WORDS + GRAPH_CONFIG_WORDS_MAX];
	uint8_t comp[G_MAX_NODES], member[G_MAX_NODES];
	if (!avoid_hits)
		return 0;
	unsigned nconfig = graph_config_words(c, buf, config, GRAPH_CONFIG_WORDS_MAX);
	if (!nconfig)
		return 0;
	if (avoid_hits(config, nconfig)) /* the configuration alone */
		return 1;
	unsigned ncomp = g ? graph_node_component_ids(g, comp) : 0;
	for (unsigned i = 0; i < ncomp; i++) {
		for (unsigned k = 0; k < g->nnodes; k++)
			member[k] = comp[k] == i;
		unsigned n = component_words(g, member, words);
		if (!n || avoid_hits(words, n)) /* held already: not the configuration's doing */
			continue;
		memcpy(words + n, config, nconfig * sizeof *config);
		if (avoid_hits(words, n + nconfig))
			return 1;
	}
	return 0;
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

unsigned avoid_drop(struct graph *g)
{
	static _Thread_local struct graph kept;
	uint8_t comp[G_MAX_NODES], member[G_MAX_NODES], del[G_MAX_NODES] = {0};
	unsigned dropped = 0, n = graph_node_component_ids(g, comp);
	if (!avoid_hits || g->broken)
		return 0;
	for (unsigned c = 0; c < n; c++) {
		for (unsigned k = 0; k < g->nnodes; k++)
			member[k] = comp[k] == c;
		if (!avoid_component(g, member))
			continue;
		for (unsigned k = 0; k < g->nnodes; k++)
			del[k] |= member[k];
		dropped++;
	}
	if (dropped == n) { /* nothing left: no values, the bindings and target kept (what graph_init leaves) */
		g->nvalues = g->nnodes = 0;
		return dropped;
	}
	if (!dropped || edit_delete_nodes(g, del, &kept))
		return 0;
	*g = kept;
	return dropped;
}
