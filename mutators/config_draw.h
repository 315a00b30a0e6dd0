/* The compile configurations a campaign gives its graphs (graph/compile_config.h):
 * drawn at generation, changed by the `config` mutator. A setting is drawn
 * only where it applies: the graph's device (a GPU graph's Triton settings,
 * a CPU graph's C++ ones; a graph for any device only settings of both), a
 * torch that has it (the worker's, once its hello has named it), not one an
 * AOTInductor package does not take under --backend aoti, not the
 * partitioner's outside backward mode, never beside one it does not
 * combine with, no autocast mode for a graph that holds what autocast
 * makes invalid in eager (graph/autocast.h), and none that makes a known
 * bug's trigger, alone or with the graph's ops (mutators/avoid.h's
 * avoid_config). */
#ifndef PT2FUZZ_CONFIG_DRAW_H
#define PT2FUZZ_CONFIG_DRAW_H
#include <stdint.h>
#include "../graph/graph.h"
#include "../graph/rng.h"

#define CONFIG_DRAW_PCT 85 /* a campaign's share of generated graphs with a configuration other than the default */
/* A drawn configuration's chance of backend aoti outside backward mode and --backend aoti:
 * torch.export and AOTInductor hold code no torch.compile reaches. */
#define CONFIG_DRAW_AOTI_PCT 5
/* Settings a drawn configuration takes: each one a code path more for the
 * same compile, as far as they combine. */
#define CONFIG_DRAW_SETTINGS_MIN 2
#define CONFIG_DRAW_SETTINGS_MAX 5

/* From now on: pct% of generated graphs get a configuration (gen_default_opts'
 * config_pct; 0, --no-configs, turns them off, and the config mutator with
 * them), under backend aoti or not, in backward mode or not (the
 * partitioner's settings only then), for the torch torch() names ("" while
 * unknown: every setting; NULL: the same). */
void config_draw_set_campaign(unsigned pct, int aoti, int backward, const char *(*torch)(void));
unsigned config_draw_campaign_pct(void);

/* Whether setting id may be drawn for a graph of target (enum graph_target):
 * the partitioner's (EFFECT_BACKWARD) in a backward campaign only, though a
 * configuration that holds mode.backward draws them too. */
int config_draw_allowed(unsigned id, unsigned target);

/* Drops the settings of c that may not be drawn for target
 * (config_draw_allowed): an input made for another torch (a shared corpus,
 * the manager's draws, which know no torch) runs without what this one
 * lacks. A configuration that no longer checks loses all its settings.
 * How many were dropped. */
unsigned config_drop_disallowed(struct graph_config *c, unsigned target);

/* The weights settings are drawn by from now on, one per catalogue row (a
 * campaign's learned yields: schedule.h's setting_schedule); NULL: the
 * catalogue's (setting_weight). */
void config_draw_use_weights(const unsigned *weight);

/* From now on: counts[id] (setting_count() of them, the caller's) counts
 * the draws of setting id, and among the settings of one kind (one
 * catalogue weight: code paths, knobs) those drawn least so far weigh
 * CONFIG_DRAW_DEAL_SCALE times the others, the kind's share unchanged: a
 * campaign's configurations are dealt across the catalogue, as from a deck,
 * where draws by weight alone bring some code paths again and again while
 * others wait. NULL: off, and a draw depends on its rng alone. */
void config_draw_use_counts(uint32_t *counts);
#define CONFIG_DRAW_DEAL_SCALE 16u

/* A configuration for a graph of target: a mode in a third of draws,
 * backend aoti in CONFIG_DRAW_AOTI_PCT%, dynamic, fullgraph or another backend now and then, and CONFIG_DRAW_SETTINGS_MIN to _MAX settings at
 * values other than their defaults, drawn by weight (code paths far more
 * than knobs); always one that graph_config_check accepts. */
void config_draw(struct graph_config *c, struct rng *r, unsigned target);

/* With chance pct%, a configuration drawn for target into g (checked for
 * g's own target; left default when that refuses it). No draw from r when
 * pct is 0. Whether g got one. */
int config_draw_graph(struct graph *g, struct rng *r, unsigned pct, unsigned target);

/* Changes one thing of c: a setting's value, a setting more, one fewer, the
 * mode, dynamic, fullgraph or backend; -1 when what was drawn could not
 * change (c is then as it was). The result is checked. */
int config_mutate(struct graph_config *c, struct rng *r, unsigned target);

#endif
