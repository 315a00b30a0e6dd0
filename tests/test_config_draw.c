/* The configurations a campaign draws: valid for the graph, only settings
 * that apply to its device, its torch and its backend, none by default
 * outside a campaign, the config mutator's changes, and settings drawn by
 * their weight: the catalogue's, or their learned yields. */
#include <string.h>
#include "../config/compile.h"
#include "../config/settings.h"
#include "../graph/compile_config.h"
#include "../graph/validate.h"
#include "../mutators/config_draw.h"
#include "../mutators/gen.h"
#include "../mutators/mutate.h"
#include "../mutators/schedule.h"
#include "test.h"

static char why[300];
static const char *torch_2_6(void) { return "2.6.0"; }

/* Generates n graphs for target with configurations at pct; counts those
 * configured, and checks every one. */
static unsigned generate(unsigned target, unsigned pct, int aoti, const char *(*torch)(void), unsigned n)
{
	static struct graph g;
	struct gen_opts o;
	unsigned configured = 0;
	config_draw_set_campaign(pct, aoti, 0, torch);
	gen_default_opts(&o);
	o.size = 3;
	o.target = target;
	for (unsigned i = 0; i < n; i++) {
		if (!CHECK(gen_graph(&g, 100 + i, &o, why, sizeof why) == 0))
			continue;
		if (!CHECK(graph_validate(&g, why, sizeof why) == 0))
			fprintf(stderr, "  graph %u: %s\n", i, why);
		configured += !graph_config_is_default(&g.config);
		for (unsigned k = 0; k < g.config.nsettings; k++) {
			const struct setting *s = setting_get(g.config.set[k].id);
			CHECK(g.config.set[k].value != 0); /* drawn at a value other than the default */
			CHECK(target != TARGET_CPU || (s->devices & ON_CPU));
			CHECK(target != TARGET_GPU || (s->devices & ON_CUDA));
			CHECK(target != TARGET_ANY || s->devices == ON_ANY);
			CHECK(!aoti || !(s->effects & EFFECT_NOT_AOTI));
			CHECK(!(s->effects & EFFECT_BACKWARD) || graph_config_backward(&g.config)); /* a forward campaign */
			if (torch)
				CHECK(setting_in_torch(s, torch()));
		}
		CHECK(!aoti || g.config.backend == CB_INDUCTOR);
	}
	config_draw_set_campaign(0, 0, 0, NULL);
	return configured;
}

TEST(config_draw_off_outside_a_campaign)
{
	struct gen_opts o;
	gen_default_opts(&o);
	CHECK_EQ(o.config_pct, 0);
	CHECK_EQ(generate(TARGET_CPU, 0, 0, NULL, 50), 0);
}

TEST(config_draw_gives_valid_configurations_that_apply)
{
	unsigned n = 300;
	unsigned cpu = generate(TARGET_CPU, CONFIG_DRAW_PCT, 0, NULL, n);
	CHECK(cpu > n * CONFIG_DRAW_PCT / 200 && cpu < n * CONFIG_DRAW_PCT * 2 / 100); /* about pct% */
	CHECK(generate(TARGET_GPU, 100, 0, NULL, n) > n * 9 / 10);
	CHECK(generate(TARGET_ANY, 100, 0, NULL, n) > n * 9 / 10);
	CHECK(generate(TARGET_CPU, 100, 1, NULL, n) > n * 9 / 10);     /* aoti: none that AOTInductor does not take */
	CHECK(generate(TARGET_CPU, 100, 0, torch_2_6, n) > n * 9 / 10); /* none newer than the worker's torch */
}

TEST(config_draw_allowed_by_device_torch_and_backend)
{
	unsigned cudagraphs = (unsigned)setting_find("inductor.triton.cudagraphs");
	unsigned tail_vec = (unsigned)setting_find("inductor.cpp.enable_loop_tail_vec");
	unsigned partition = (unsigned)setting_find("inductor.graph_partition");
	config_draw_set_campaign(CONFIG_DRAW_PCT, 0, 0, NULL);
	CHECK(config_draw_allowed(cudagraphs, TARGET_GPU) && !config_draw_allowed(cudagraphs, TARGET_CPU));
	CHECK(config_draw_allowed(tail_vec, TARGET_CPU) && !config_draw_allowed(tail_vec, TARGET_ANY));
	CHECK(config_draw_allowed(partition, TARGET_CPU));
	unsigned budget = (unsigned)setting_find("functorch.activation_memory_budget");
	CHECK(!config_draw_allowed(budget, TARGET_CPU)); /* the partitioner's: backward mode only */
	config_draw_set_campaign(CONFIG_DRAW_PCT, 0, 1, NULL);
	CHECK(config_draw_allowed(budget, TARGET_CPU));
	config_draw_set_campaign(CONFIG_DRAW_PCT, 1, 0, torch_2_6);
	CHECK(!config_draw_allowed(cudagraphs, TARGET_GPU)); /* AOTInductor: no CUDA graphs */
	CHECK(!config_draw_allowed(partition, TARGET_CPU));  /* since 2.11 */
	config_draw_set_campaign(0, 0, 0, NULL);
}

/* An input drawn where the torch is unknown (the manager's draws, another
 * runner's corpus), run by a target on torch 2.6: the settings 2.6 lacks go,
 * the others stay; a configuration of none it lacks is left as it is. */
TEST(config_drop_disallowed_keeps_what_the_torch_has)
{
	unsigned partition = (unsigned)setting_find("inductor.graph_partition"); /* since 2.11 */
	unsigned freezing = (unsigned)setting_find("inductor.freezing");
	struct graph_config c;
	memset(&c, 0, sizeof c);
	CHECK(graph_config_put(&c, partition, 1) == 0 && graph_config_put(&c, freezing, 1) == 0);
	CHECK_EQ(c.nsettings, 2);
	struct graph_config before = c;
	config_draw_set_campaign(CONFIG_DRAW_PCT, 0, 0, NULL); /* torch unknown: every setting */
	CHECK_EQ(config_drop_disallowed(&c, TARGET_CPU), 0);
	CHECK(graph_config_equal(&c, &before));
	config_draw_set_campaign(CONFIG_DRAW_PCT, 0, 0, torch_2_6);
	CHECK_EQ(config_drop_disallowed(&c, TARGET_CPU), 1);
	CHECK_EQ(c.nsettings, 1);
	CHECK_EQ(c.set[0].id, freezing);
	CHECK(graph_config_check(&c, TARGET_CPU, why, sizeof why) == 0);
	config_draw_set_campaign(0, 0, 0, NULL);
}

TEST(config_mutator_changes_only_the_configuration)
{
	static struct graph g, h;
	struct gen_opts o;
	struct rng r;
	gen_default_opts(&o);
	o.size = 4;
	o.target = TARGET_CPU;
	CHECK(gen_graph(&g, 5, &o, why, sizeof why) == 0);
	CHECK(graph_config_is_default(&g.config));
	int config = mutator_find("config");
	CHECK(config >= 0);
	rng_seed(&r, 1);
	h = g;
	CHECK(mutate_with((unsigned)config, &h, NULL, &r, 1 << 15) < 0); /* off outside a campaign */
	config_draw_set_campaign(CONFIG_DRAW_PCT, 0, 0, NULL);
	unsigned changed = 0;
	for (unsigned t = 0; t < 50; t++) {
		h = g;
		if (mutate_with((unsigned)config, &h, NULL, &r, 1 << 15))
			continue;
		changed++;
		CHECK(!graph_config_equal(&h.config, &g.config));
		CHECK(graph_validate(&h, why, sizeof why) == 0);
		CHECK(h.nnodes == g.nnodes && h.nvalues == g.nvalues);
		struct graph_config same = h.config;
		h.config = g.config;
		CHECK(!memcmp(&h, &g, sizeof h)); /* nothing else moved */
		h.config = same;
	}
	CHECK(changed > 40);
	config_draw_set_campaign(0, 0, 0, NULL);
}

/* How many of n configurations drawn for a CPU graph hold setting id. */
static unsigned holding(unsigned id, unsigned n)
{
	struct graph_config c;
	struct rng r;
	unsigned held = 0;
	rng_seed(&r, 7);
	for (unsigned i = 0; i < n; i++) {
		config_draw(&c, &r, TARGET_CPU);
		for (unsigned k = 0; k < c.nsettings; k++)
			held += c.set[k].id == id;
		CHECK(graph_config_check(&c, TARGET_CPU, NULL, 0) == 0);
	}
	return held;
}

TEST(config_draw_favours_code_paths_over_knobs)
{
	unsigned freezing = (unsigned)setting_find("inductor.freezing");
	unsigned knob = (unsigned)setting_find("inductor.max_fusion_size");
	CHECK(setting_weight(setting_get(freezing)) > setting_weight(setting_get(knob)));
	config_draw_set_campaign(100, 0, 0, NULL);
	CHECK(holding(freezing, 2000) > 3 * holding(knob, 2000));
	config_draw_set_campaign(0, 0, 0, NULL);
}

TEST(config_draw_follows_the_settings_yields)
{
	/* One knob's graphs keep reaching new code, every other setting's none:
	 * the learned weights draw that knob far more than the catalogue's do. */
	static struct setting_schedule s;
	unsigned knob = (unsigned)setting_find("inductor.max_fusion_size");
	struct graph_config yielding = {0}, barren = {0};
	CHECK(graph_config_put(&yielding, knob, 1) == 0);
	setting_schedule_init(&s);
	unsigned prior = s.weight[knob];
	for (unsigned id = 0; id < setting_count(); id++)
		if (id != knob) {
			barren.nsettings = 0;
			CHECK(graph_config_put(&barren, id, 1) == 0);
			for (unsigned k = 0; k < 60; k++)
				setting_schedule_note(&s, &barren, 0, 0);
			CHECK_EQ(s.weight[id], setting_schedule_floor(id));
		}
	for (unsigned k = 0; k < 60; k++)
		setting_schedule_note(&s, &yielding, 1, 0);
	CHECK(s.weight[knob] > prior);
	config_draw_set_campaign(100, 0, 0, NULL);
	/* 4000 draws each: with 1000 the knob's few draws by the catalogue move by a quarter with any change to it */
	unsigned by_catalogue = holding(knob, 4000);
	config_draw_use_weights(s.weight);
	unsigned by_yield = holding(knob, 4000);
	config_draw_use_weights(NULL);
	CHECK(by_yield > 4 * by_catalogue);
	CHECK(by_yield < 4000); /* the others keep their floor: still drawn */
	config_draw_set_campaign(0, 0, 0, NULL);
}

/* Outside --backend aoti and backward mode, about CONFIG_DRAW_AOTI_PCT% of
 * drawn configurations compile through AOTInductor, and none of them holds a
 * setting a package does not take; in backward mode none (a package runs
 * forward only), by draw or by the mutator. */
TEST(config_draw_picks_aoti_per_graph_outside_backward_mode)
{
	struct graph_config c;
	struct rng r;
	unsigned aoti = 0, n = 2000;
	rng_seed(&r, 7);
	config_draw_set_campaign(100, 0, 0, NULL);
	for (unsigned i = 0; i < n; i++) {
		config_draw(&c, &r, TARGET_CPU);
		CHECK(graph_config_check(&c, TARGET_CPU, why, sizeof why) == 0);
		if (c.backend != CB_AOTI)
			continue;
		aoti++;
		CHECK_EQ(c.mode, CM_DEFAULT);
		CHECK_EQ(c.dynamic, CD_MARKS);
		for (unsigned k = 0; k < c.nsettings; k++)
			CHECK(!(setting_get(c.set[k].id)->effects & EFFECT_NOT_AOTI));
	}
	CHECK(aoti > n * CONFIG_DRAW_AOTI_PCT / 200 && aoti < n * CONFIG_DRAW_AOTI_PCT * 2 / 100);
	config_draw_set_campaign(100, 0, 1, NULL);
	for (unsigned i = 0; i < n; i++) {
		config_draw(&c, &r, TARGET_CPU);
		CHECK(c.backend != CB_AOTI);
		if (!config_mutate(&c, &r, TARGET_CPU))
			CHECK(c.backend != CB_AOTI);
	}
	config_draw_set_campaign(0, 0, 0, NULL);
}

/* In n configurations for the CPU drawn from one rng, with draw counts kept
 * (counts) or not (NULL): the distinct settings that pick a code path
 * (weight SETTING_CODE_PATH or more) they hold, and in *share the percent
 * of their settings that are code paths. */
static unsigned code_paths_held(unsigned n, uint32_t *counts, unsigned *share)
{
	uint8_t held[SETTING_ROWS_MAX] = {0};
	struct graph_config c;
	struct rng r;
	unsigned distinct = 0, paths = 0, settings = 0;
	rng_seed(&r, 11);
	config_draw_use_counts(counts);
	for (unsigned i = 0; i < n; i++) {
		config_draw(&c, &r, TARGET_CPU);
		for (unsigned k = 0; k < c.nsettings; k++, settings++)
			if (setting_weight(setting_get(c.set[k].id)) >= SETTING_CODE_PATH) {
				paths++;
				distinct += !held[c.set[k].id]++;
			}
	}
	config_draw_use_counts(NULL);
	*share = settings ? 100 * paths / settings : 0;
	return distinct;
}

/* A campaign's first configurations, dealt by draw counts, hold nearly every
 * code path the CPU allows by the time as many settings were drawn; drawn
 * by weight alone, the paths drawn first come again while others wait. Over
 * many draws, the deal leaves code paths their share against knobs. */
TEST(config_draw_deals_the_catalogue_before_repeating)
{
	static uint32_t counts[SETTING_ROWS_MAX];
	unsigned paths = 0, share, dealt_share;
	config_draw_set_campaign(100, 0, 0, NULL);
	for (unsigned id = 0; id < setting_count(); id++)
		paths += config_draw_allowed(id, TARGET_CPU) && setting_weight(setting_get(id)) >= SETTING_CODE_PATH;
	unsigned n = paths / CONFIG_DRAW_SETTINGS_MIN;
	unsigned by_weight = code_paths_held(n, NULL, &share), dealt = code_paths_held(n, counts, &dealt_share);
	fprintf(stderr, "  %u code paths, %u configurations: %u held by weight, %u dealt\n", paths, n, by_weight, dealt);
	unsigned total = 0;
	for (unsigned id = 0; id < setting_count(); id++)
		total += counts[id];
	CHECK(total >= n * CONFIG_DRAW_SETTINGS_MIN); /* every setting drawn was counted */
	CHECK(dealt * 10 >= paths * 9);
	CHECK(by_weight * 10 < paths * 8);
	memset(counts, 0, sizeof counts);
	code_paths_held(400, NULL, &share);
	code_paths_held(400, counts, &dealt_share);
	fprintf(stderr, "  code paths: %u%% of the settings by weight, %u%% dealt\n", share, dealt_share);
	CHECK(dealt_share + 5 >= share && dealt_share <= share + 5);
	config_draw_set_campaign(0, 0, 0, NULL);
}

/* In a forward campaign a configuration may hold mode.backward, and only one
 * that does holds the partitioner's settings (they do nothing without a
 * backward graph); a backward campaign, or one through AOTInductor, never
 * draws mode.backward. An input's configuration keeps a partitioner setting
 * beside mode.backward and loses it without. */
TEST(config_draw_opens_the_partitioner_beside_mode_backward)
{
	struct graph_config c;
	struct rng r;
	unsigned backward = 0, partitioner = 0, n = 3000;
	int mode_backward = setting_find(GRAPH_CONFIG_BACKWARD);
	CHECK(mode_backward >= 0);
	rng_seed(&r, 5);
	config_draw_set_campaign(100, 0, 0, NULL);
	for (unsigned i = 0; i < n; i++) {
		config_draw(&c, &r, TARGET_CPU);
		unsigned held = 0;
		for (unsigned k = 0; k < c.nsettings; k++)
			held += !!(setting_get(c.set[k].id)->effects & EFFECT_BACKWARD);
		backward += (unsigned)graph_config_backward(&c);
		partitioner += held > 0;
		CHECK(!held || graph_config_backward(&c));
		CHECK(!graph_config_backward(&c) || c.backend != CB_AOTI);
	}
	fprintf(stderr, "  %u of %u configurations backward, %u with a partitioner setting\n", backward, n, partitioner);
	CHECK(backward > n / 100 && partitioner > 0);
	unsigned budget = (unsigned)setting_find("functorch.activation_memory_budget");
	struct graph_config drawn = {0};
	CHECK(graph_config_put(&drawn, (unsigned)mode_backward, 1) == 0 && graph_config_put(&drawn, budget, 1) == 0);
	c = drawn;
	CHECK_EQ(config_drop_disallowed(&c, TARGET_CPU), 0);
	for (unsigned k = 0; k < c.nsettings; k++)
		if (c.set[k].id == (unsigned)mode_backward)
			graph_config_drop(&c, k);
	CHECK(!graph_config_backward(&c) && c.nsettings == 1);
	CHECK_EQ(config_drop_disallowed(&c, TARGET_CPU), 1);
	for (unsigned aoti = 0; aoti < 2; aoti++) {
		config_draw_set_campaign(100, (int)aoti, !aoti, NULL);
		CHECK(!config_draw_allowed((unsigned)mode_backward, TARGET_CPU));
		for (unsigned i = 0; i < 500; i++) {
			config_draw(&c, &r, TARGET_CPU);
			CHECK(!graph_config_backward(&c));
			if (!config_mutate(&c, &r, TARGET_CPU))
				CHECK(!graph_config_backward(&c));
		}
	}
	config_draw_set_campaign(0, 0, 0, NULL);
}
