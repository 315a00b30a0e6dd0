/* The config mutator: one change to the graph's compile configuration (a
 * setting's value, a setting more or fewer, the mode, dynamic, fullgraph or
 * backend: config_draw.h), the graph itself unchanged. Off with the
 * campaign's configurations (--no-configs). */
#include "config_draw.h"
#include "../graph/autocast.h"
#include "avoid.h"
#include "mutkit.h"

int mut_config(struct mut_ctx *m)
{
	if (!config_draw_campaign_pct())
		return -1;
	m->out = *m->g;
	if (config_mutate(&m->out.config, m->r, m->g->target) ||
	    (avoid_config(m->g, &m->out.config) && !avoid_config(m->g, &m->g->config)))
		return -1; /* nothing changed, or into a known bug's trigger with the graph's ops */
	/* not an autocast mode for a graph that holds what it makes invalid */
	return autocast_graph_refused(&m->out, &m->out.config, NULL, 0);
}
