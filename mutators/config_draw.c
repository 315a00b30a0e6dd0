#include "config_draw.h"
#include <string.h>
#include "../config/compile.h"
#include "../config/settings.h"
#include "../graph/autocast.h"
#include "../graph/compile_config.h"
#include "avoid.h"

static unsigned campaign_pct;
static int campaign_aoti, campaign_backward;
static const char *(*campaign_torch)(void);
static const unsigned *drawn_weights;
static uint32_t *drawn_counts;

void config_draw_use_weights(const unsigned *weight) { drawn_weights = weight; }
void config_draw_use_counts(uint32_t *counts) { drawn_counts = counts; }

static unsigned base_weight(unsigned id) { return drawn_weights ? drawn_weights[id] : setting_weight(setting_get(id)); }

/* The weights of the settings open to a draw (0 for the others): the base
 * weights, and with draw counts kept, dealt within each kind of setting
 * (the settings of one catalogue weight: code paths, knobs): a kind keeps
 * its total, and those of the kind drawn least so far weigh
 * CONFIG_DRAW_DEAL_SCALE times the others. */
#define DEAL_RESOLUTION 4096u /* dealt weights in these parts of a base weight: a kind's total divides finely */

static void draw_weights(const uint8_t *open, uint64_t *weight)
{
	for (unsigned id = 0; id < setting_count(); id++)
		weight[id] = open[id] ? base_weight(id) : 0;
	if (!drawn_counts)
		return;
	uint8_t done[SETTING_ROWS_MAX] = {0};
	for (unsigned first = 0; first < setting_count(); first++) {
		if (!weight[first] || done[first])
			continue;
		unsigned kind = setting_weight(setting_get(first));
		uint32_t least = UINT32_MAX;
		uint64_t total = 0, dealt = 0;
		for (unsigned id = first; id < setting_count(); id++)
			if (weight[id] && setting_weight(setting_get(id)) == kind && drawn_counts[id] < least)
				least = drawn_counts[id];
		for (unsigned id = first; id < setting_count(); id++)
			if (weight[id] && setting_weight(setting_get(id)) == kind) {
				total += weight[id];
				dealt += drawn_counts[id] == least ? weight[id] : 0;
			}
		uint64_t scaled = CONFIG_DRAW_DEAL_SCALE * dealt + (total - dealt);
		for (unsigned id = first; id < setting_count(); id++)
			if (weight[id] && setting_weight(setting_get(id)) == kind) {
				uint64_t w = weight[id] * (drawn_counts[id] == least ? CONFIG_DRAW_DEAL_SCALE : 1);
				weight[id] = w * total * DEAL_RESOLUTION / scaled; /* the kind's total, kept */
				done[id] = 1;
			}
	}
}

void config_draw_set_campaign(unsigned pct, int aoti, int backward, const char *(*torch)(void))
{
	campaign_pct = pct > 100 ? 100 : pct;
	campaign_aoti = aoti != 0;
	campaign_backward = backward != 0;
	campaign_torch = torch;
}

unsigned config_draw_campaign_pct(void) { return campaign_pct; }

/* Whether setting id may be drawn for target where the graph runs backward or not: the
 * partitioner's settings only where it does, mode.backward only where the campaign does not. */
static int allowed(unsigned id, unsigned target, int backward)
{
	const struct setting *s = setting_get(id);
	unsigned need = target == TARGET_CPU ? ON_CPU : target == TARGET_GPU ? ON_CUDA : ON_ANY;
	if (!s || (s->devices & need) != need || (campaign_aoti && (s->effects & EFFECT_NOT_AOTI)) ||
	    (!backward && (s->effects & EFFECT_BACKWARD)) || (campaign_backward && !strcmp(s->name, GRAPH_CONFIG_BACKWARD)))
		return 0;
	const char *torch = campaign_torch ? campaign_torch() : NULL;
	return setting_in_torch(s, torch ? torch : "");
}

int config_draw_allowed(unsigned id, unsigned target) { return allowed(id, target, campaign_backward); }

/* The same, for configuration c: its mode.backward opens the partitioner's settings. */
static int allowed_in(const struct graph_config *c, unsigned id, unsigned target)
{
	return allowed(id, target, campaign_backward || graph_config_backward(c));
}

unsigned config_drop_disallowed(struct graph_config *c, unsigned target)
{
	unsigned dropped = 0;
	for (unsigned k = c->nsettings; k-- > 0;)
		if (!allowed_in(c, c->set[k].id, target)) {
			graph_config_drop(c, k);
			dropped++;
		}
	if (dropped && graph_config_check(c, (enum graph_target)target, NULL, 0))
		for (; c->nsettings; dropped++)
			graph_config_drop(c, c->nsettings - 1);
	return dropped;
}

/* A value of setting id other than its default (values[0]). */
static unsigned other_value(struct rng *r, unsigned id)
{
	unsigned n = setting_value_count(setting_get(id));
	return 1 + (unsigned)rng_below(r, n - 1);
}

/* Adds a setting not in c, allowed and combining with c's, at a value other
 * than its default, drawn by weight among those left: -1 when none could be
 * found. */
static int add_setting(struct graph_config *c, struct rng *r, unsigned target)
{
	uint8_t open[SETTING_ROWS_MAX];
	for (unsigned id = 0; id < setting_count(); id++)
		open[id] = allowed_in(c, id, target);
	for (unsigned k = 0; k < c->nsettings; k++)
		open[c->set[k].id] = 0;
	for (unsigned t = 0; t < 16; t++) {
		uint64_t weight[SETTING_ROWS_MAX], total = 0;
		draw_weights(open, weight);
		for (unsigned id = 0; id < setting_count(); id++)
			total += weight[id];
		if (!total)
			return -1;
		uint64_t pick = rng_below(r, total);
		unsigned id = 0;
		while (pick >= weight[id])
			pick -= weight[id++];
		open[id] = 0;
		struct graph_config next = *c;
		if (graph_config_put(&next, id, other_value(r, id)) || next.nsettings == c->nsettings ||
		    graph_config_check(&next, (enum graph_target)target, NULL, 0) || avoid_config(NULL, &next))
			continue;
		*c = next;
		if (drawn_counts)
			drawn_counts[id]++;
		return 0;
	}
	return -1;
}

/* The compile call's own choices: each draw one of its choices at random. */
static void draw_mode(struct graph_config *c, struct rng *r) { c->mode = (uint8_t)rng_below(r, CM_COUNT); }
static void draw_dynamic(struct graph_config *c, struct rng *r) { c->dynamic = (uint8_t)rng_below(r, CD_COUNT); }
static void draw_fullgraph(struct graph_config *c, struct rng *r) { c->fullgraph = !c->fullgraph; (void)r; }
/* A backend and what it implies: a mode is Inductor's, and an AOTInductor
 * package runs the shapes it was exported for, unchecked, so it takes the
 * graph's own dynamic dims. */
static void set_backend(struct graph_config *c, enum compile_backend b)
{
	c->backend = (uint8_t)b;
	if (b != CB_INDUCTOR)
		c->mode = CM_DEFAULT;
	if (b == CB_AOTI)
		c->dynamic = CD_MARKS;
}

/* Any backend, but not AOTInductor in backward mode: its packages are inference only. */
static void draw_backend(struct graph_config *c, struct rng *r)
{
	set_backend(c, (enum compile_backend)rng_below(r, campaign_backward ? CB_AOTI : CB_COUNT));
}

void config_draw(struct graph_config *c, struct rng *r, unsigned target)
{
	memset(c, 0, sizeof *c);
	if (rng_chance(r, 33)) /* a mode other than the default: it picks whole pipelines (autotuning, CUDA graphs) */
		c->mode = (uint8_t)(1 + rng_below(r, CM_COUNT - 1));
	if (rng_chance(r, 12))
		draw_dynamic(c, r);
	if (rng_chance(r, 12))
		draw_fullgraph(c, r);
	if (!campaign_aoti && !campaign_backward && rng_chance(r, CONFIG_DRAW_AOTI_PCT))
		set_backend(c, CB_AOTI); /* torch.export and AOTInductor's own code */
	else if (!campaign_aoti && rng_chance(r, 6))
		draw_backend(c, r);
	for (unsigned k = CONFIG_DRAW_SETTINGS_MIN +
			  (unsigned)rng_below(r, CONFIG_DRAW_SETTINGS_MAX - CONFIG_DRAW_SETTINGS_MIN + 1);
	     k > 0; k--)
		add_setting(c, r, target);
}

/* Drops the settings of c that make a known bug's trigger with g's ops
 * (avoid_config); none left to drop, the default. */
static void drop_avoided(struct graph_config *c, const struct graph *g)
{
	for (unsigned k = c->nsettings; k-- > 0 && avoid_config(g, c);) {
		struct graph_config without = *c;
		graph_config_drop(&without, k);
		if (!avoid_config(g, &without))
			*c = without;
	}
	if (avoid_config(g, c))
		memset(c, 0, sizeof *c);
}

int config_draw_graph(struct graph *g, struct rng *r, unsigned pct, unsigned target)
{
	if (!pct || !rng_chance(r, pct))
		return 0;
	struct graph_config c;
	config_draw(&c, r, target);
	for (unsigned k = c.nsettings; k-- > 0;) /* an autocast mode g holds what it makes invalid in */
		if (autocast_row_of_setting(c.set[k].id) >= 0 && autocast_graph_refused(g, &c, NULL, 0))
			graph_config_drop(&c, k);
	drop_avoided(&c, g);
	return graph_set_config(g, &c, NULL, 0) == 0 && !graph_config_is_default(&g->config);
}

int config_mutate(struct graph_config *c, struct rng *r, unsigned target)
{
	struct graph_config next = *c;
	unsigned what = (unsigned)rng_below(r, 8);
	if (what >= 4 && what <= 6 && !next.nsettings)
		what = 7; /* no setting to change or drop: one more */
	switch (what) {
	case 0:
		draw_mode(&next, r);
		if (next.backend != CB_INDUCTOR)
			return -1;
		break;
	case 1:
		draw_dynamic(&next, r);
		break;
	case 2:
		draw_fullgraph(&next, r);
		break;
	case 3:
		if (campaign_aoti)
			return -1;
		draw_backend(&next, r);
		break;
	case 4:
	case 5: /* another value of one of its settings */
		{
			struct graph_setting *s = &next.set[rng_below(r, next.nsettings)];
			unsigned n = setting_value_count(setting_get(s->id));
			s->value = (uint8_t)((s->value + 1 + rng_below(r, n - 1)) % n);
		}
		break;
	case 6:
		graph_config_drop(&next, (unsigned)rng_below(r, next.nsettings));
		break;
	default:
		if (add_setting(&next, r, target))
			return -1;
	}
	if (graph_config_equal(&next, c) || graph_config_check(&next, (enum graph_target)target, NULL, 0))
		return -1;
	*c = next;
	return 0;
}
