/* The compile settings' catalogue: rows, values by type, clashes, versions. */
#include <stdio.h>
#include <string.h>
#include "../config/settings.h"
#include "../graph/compile_config.h"
#include "test.h"

TEST(config_catalogue_rows_are_well_formed)
{
	CHECK(setting_count() >= 40);
	for (unsigned i = 0; i < setting_count(); i++) {
		const struct setting *s = setting_get(i);
		CHECK_EQ(setting_find(s->name), (int)i);          /* names unique */
		CHECK_EQ(setting_by_hash(setting_hash(i)), (int)i); /* no two names share a hash */
		const char *dot = strchr(s->name, '.');
		if (!CHECK(dot && (!strncmp(s->name, "inductor.", 9) || !strncmp(s->name, "dynamo.", 7) ||
				   !strncmp(s->name, "functorch.", 10) || !strncmp(s->name, "mode.", 5))))
			fprintf(stderr, "  %s: not inductor., dynamo., functorch. or mode.\n", s->name);
		CHECK(s->devices && !(s->devices & ~(unsigned)ON_ANY));
		/* values: at least a default and one other, each read back by its own type as itself */
		unsigned n = setting_value_count(s);
		CHECK(n >= 2);
		for (unsigned v = 0; v < n; v++) {
			char out[SETTING_PYTHON_MAX], why[256], py[SETTING_PYTHON_MAX + 1];
			int got = setting_parse_value(s, s->values[v], out, sizeof out, why, sizeof why);
			if (!CHECK_EQ(got, (int)v))
				fprintf(stderr, "  %s: value %s reads as %d (%s)\n", s->name, s->values[v], got, why);
			setting_value_python(s, v, py, sizeof py);
			CHECK(!strcmp(out, py));
			/* whole in every buffer it goes through: its Python form, its config: word */
			if (!CHECK(strlen(py) < SETTING_PYTHON_MAX - 1 &&
				   strlen("config:") + strlen(s->name) + 1 + strlen(s->values[v]) < GRAPH_CONFIG_WORD_LEN))
				fprintf(stderr, "  %s=%s: too long\n", s->name, s->values[v]);
			for (unsigned w = 0; w < v; w++)
				CHECK(strcmp(s->values[w], s->values[v])); /* no value twice */
		}
		if (s->since)
			CHECK(torch_minor_number(s->since) >= 2004);
	}
}

TEST(config_clashes_name_two_rows)
{
	CHECK(setting_clash_count() > 0);
	for (unsigned i = 0; i < setting_clash_count(); i++) {
		const struct setting_clash *k = setting_clash_get(i);
		int a = setting_find(k->a), b = setting_find(k->b);
		if (!CHECK(a >= 0 && b >= 0 && a != b))
			fprintf(stderr, "  clash %s %s: not two rows\n", k->a, k->b);
		if (a >= 0 && b >= 0) {
			CHECK(settings_clash((unsigned)a, (unsigned)b) == k);
			CHECK(settings_clash((unsigned)b, (unsigned)a) == k);
		}
		CHECK(k->why && *k->why);
	}
	int x = setting_find("inductor.max_fusion_size"), y = setting_find("dynamo.specialize_int");
	CHECK(x >= 0 && y >= 0 && !settings_clash((unsigned)x, (unsigned)y));
}

TEST(config_values_parse_by_type)
{
	const struct setting *fr = setting_get((unsigned)setting_find("inductor.fallback_random"));
	const struct setting *mf = setting_get((unsigned)setting_find("inductor.max_fusion_size"));
	const struct setting *amb = setting_get((unsigned)setting_find("functorch.activation_memory_budget"));
	const struct setting *sol = setting_get((unsigned)setting_find("functorch.activation_memory_budget_solver"));
	char out[64], why[256];
	CHECK(fr && mf && amb && sol);
	/* a bool: the spellings of false are False, whatever string Python would see */
	CHECK_EQ(setting_parse_value(fr, "false", out, sizeof out, why, sizeof why), 0);
	CHECK(!strcmp(out, "False"));
	CHECK_EQ(setting_parse_value(fr, "0", out, sizeof out, why, sizeof why), 0);
	CHECK_EQ(setting_parse_value(fr, "True", out, sizeof out, why, sizeof why), 1);
	CHECK_EQ(setting_parse_value(fr, "yes", out, sizeof out, why, sizeof why), -1);
	CHECK(strstr(why, "inductor.fallback_random is a bool") != NULL);
	/* an int: any integer (off the row's list too), nothing else */
	CHECK_EQ(setting_parse_value(mf, "8", out, sizeof out, why, sizeof why), 3);
	CHECK_EQ(setting_parse_value(mf, "32", out, sizeof out, why, sizeof why), SETTING_MAX_VALUES);
	CHECK(!strcmp(out, "32"));
	CHECK_EQ(setting_parse_value(mf, "3.5", out, sizeof out, why, sizeof why), -1);
	CHECK_EQ(setting_parse_value(mf, "False", out, sizeof out, why, sizeof why), -1);
	/* a float: Python's spelling, always with a point */
	CHECK_EQ(setting_parse_value(amb, "0.5", out, sizeof out, why, sizeof why), 2);
	CHECK_EQ(setting_parse_value(amb, "1", out, sizeof out, why, sizeof why), 0);
	CHECK(!strcmp(out, "1.0"));
	CHECK_EQ(setting_parse_value(amb, "nan", out, sizeof out, why, sizeof why), -1);
	/* a string: one of the row's, quoted for Python */
	CHECK_EQ(setting_parse_value(sol, "greedy", out, sizeof out, why, sizeof why), 1);
	CHECK(!strcmp(out, "'greedy'"));
	CHECK_EQ(setting_parse_value(sol, "x'; import os", out, sizeof out, why, sizeof why), -1);
	CHECK(strstr(why, "one of dp, greedy") != NULL);
	/* a dict: one of the row's lists of pass names, written out as a dict of default options */
	const struct setting *pre = setting_get((unsigned)setting_find("inductor.pre_grad_fusion_options"));
	char big[SETTING_PYTHON_MAX];
	CHECK(pre && pre->type == SET_DICT && setting_is_text(pre) && !setting_is_text(mf));
	CHECK_EQ(setting_parse_value(pre, "none", big, sizeof big, why, sizeof why), 0);
	CHECK(!strcmp(big, "{}"));
	CHECK_EQ(setting_parse_value(pre, "batch_linear_lhs+batch_layernorm", big, sizeof big, why, sizeof why), 2);
	CHECK(!strcmp(big, "{'batch_linear_lhs': {}, 'batch_layernorm': {}}"));
	CHECK_EQ(setting_parse_value(pre, "batch_layernorm+batch_linear_lhs", big, sizeof big, why, sizeof why), -1);
	CHECK(strstr(why, "inductor.pre_grad_fusion_options is one of none, batch_linear") != NULL);
	CHECK(!strcmp(setting_type_name(pre->type), "dict"));
}

TEST(config_settings_newer_than_a_torch_are_not_in_it)
{
	const struct setting *gp = setting_get((unsigned)setting_find("inductor.graph_partition"));
	const struct setting *ma = setting_get((unsigned)setting_find("inductor.max_autotune"));
	CHECK(gp && gp->since && ma && !ma->since);
	CHECK(!setting_in_torch(gp, "2.6.0"));
	CHECK(setting_in_torch(gp, "2.11.0+cu130"));
	CHECK(setting_in_torch(gp, "2.15.0+cu132"));
	CHECK(setting_in_torch(gp, "")); /* no worker yet: nothing is ruled out */
	CHECK(setting_in_torch(ma, "2.4.1"));
	struct setting gone = *ma;
	gone.until = "2.15";
	CHECK(setting_in_torch(&gone, "2.11.0"));
	CHECK(!setting_in_torch(&gone, "2.15.0"));
}

TEST(config_effects_hold_at_their_value)
{
	for (unsigned i = 0; i < setting_count(); i++) {
		const struct setting *s = setting_get(i);
		int effect = (s->effects & (EFFECT_NUMERICS | EFFECT_RANDOM)) != 0;
		CHECK(effect == (s->effect_at != NULL)); /* an effect names its value, and only an effect */
		if (s->effect_at) {
			char out[64], why[256];
			CHECK(setting_parse_value(s, s->effect_at, out, sizeof out, why, sizeof why) >= 0);
		}
	}
}
