#include "draws.h"
#include "../graph/op.h"
#include "../oracles/oracle.h"
#include "known_bugs.h"

/* Whether the component of member's nodes holds a draw bug's random ops. */
static int draws_differ(const struct graph *g, const uint8_t *member, const char *torch)
{
	const char *names[G_MAX_NODES];
	unsigned n = 0;
	for (unsigned k = 0; k < g->nnodes; k++)
		if (member[k])
			names[n++] = op_get(g->n[k].op)->name;
	return known_draw_bug(known_bugs(NULL, 0), torch, names, n) != NULL;
}

unsigned draws_layout_only(const struct graph *g, const struct emit_opts *eo, const char *torch, uint8_t *cmp,
			   unsigned n)
{
	uint8_t member[G_MAX_NODES];
	unsigned set = 0;
	for (unsigned k = 0; k < n; k++) {
		int v = emit_returned_value(g, eo, (int)k);
		if (cmp[k] != ORACLE_COMPARE_ALL || v < 0 || !graph_component_nodes(g, (unsigned)v, member) ||
		    !draws_differ(g, member, torch))
			continue;
		cmp[k] = ORACLE_COMPARE_LAYOUT;
		set++;
	}
	return set;
}
