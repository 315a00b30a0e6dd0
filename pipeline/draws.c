#include "draws.h"
#include "../config/settings.h"
#include "../graph/compile_config.h"
#include "../graph/op.h"
#include "../oracles/oracle.h"
#include "known_bugs.h"

/* Whether the component of member's nodes holds a draw bug's random ops, or
 * any random op where the graph's configuration has compiled code draw its
 * own way (fallback_random off: Inductor's Philox draws). */
static int draws_differ(const struct graph *g, const uint8_t *member, const char *torch)
{
	const char *names[G_MAX_NODES];
	unsigned n = 0, random = 0;
	for (unsigned k = 0; k < g->nnodes; k++)
		if (member[k]) {
			names[n++] = op_get(g->n[k].op)->name;
			random |= op_get(g->n[k].op)->family == FAM_RANDOM;
		}
	if (random && (graph_config_effects(&g->config) & EFFECT_RANDOM))
		return 1;
	return known_draw_bug(known_bugs(NULL, 0), torch, names, n) != NULL;
}

unsigned draws_layout_only(const struct graph *g, const struct emit_opts *eo, const char *torch, uint8_t *cmp,
			   unsigned n)
{
	uint8_t member[G_MAX_NODES];
	uint16_t ids[3 * G_MAX_VALUES];
	unsigned set = 0, returned = emit_returned_values(g, eo, ids);
	for (unsigned k = 0; k < n; k++) {
		if (cmp[k] != ORACLE_COMPARE_ALL || k >= returned || !graph_component_nodes(g, ids[k], member) ||
		    !draws_differ(g, member, torch))
			continue;
		cmp[k] = ORACLE_COMPARE_LAYOUT;
		set++;
	}
	return set;
}
