#include "compile_config.h"
#include <stddef.h>
#include <string.h>
#include "../config/compile.h"
#include "../config/settings.h"
#include "fail.h"

int graph_config_check(const struct graph_config *c, enum graph_target target, char *why, size_t n)
{
	if (c->mode >= CM_COUNT || c->dynamic >= CD_COUNT || c->backend >= CB_COUNT || c->fullgraph > 1)
		return fail(why, n, "configuration: mode, dynamic, backend or fullgraph out of range");
	if (c->mode != CM_DEFAULT && c->backend != CB_INDUCTOR)
		return fail(why, n, "configuration: mode %s applies to the inductor backend only",
			    compile_mode_name(c->mode));
	/* a package runs the shapes it was exported for, unchecked: the dims that vary between
	 * bindings must be exported dynamic, as the graph's marks make them (--backend aoti's way) */
	if (c->backend == CB_AOTI && c->dynamic != CD_MARKS)
		return fail(why, n, "configuration: backend aoti takes the graph's own dynamic dims (dynamic=marks)");
	if (c->nsettings > G_MAX_SETTINGS)
		return fail(why, n, "configuration: more than %d settings", G_MAX_SETTINGS);
	for (unsigned k = 0; k < c->nsettings; k++) {
		const struct setting *s = setting_get(c->set[k].id);
		if (!s)
			return fail(why, n, "configuration: setting %u not in the catalogue", c->set[k].id);
		if (k && c->set[k].id <= c->set[k - 1].id)
			return fail(why, n, "configuration: %s out of the catalogue's order or twice", s->name);
		if (c->set[k].value >= setting_value_count(s))
			return fail(why, n, "configuration: %s has no value %u", s->name, c->set[k].value);
		if (c->backend == CB_AOTI && (s->effects & EFFECT_NOT_AOTI))
			return fail(why, n, "configuration: %s does not apply to an AOTInductor package", s->name);
		if ((target == TARGET_CPU && !(s->devices & ON_CPU)) || (target == TARGET_GPU && !(s->devices & ON_CUDA)))
			return fail(why, n, "configuration: %s does not apply to a %s graph", s->name,
				    target == TARGET_CPU ? "cpu" : "gpu");
		for (unsigned j = 0; j < k; j++) {
			const struct setting_clash *x = settings_clash(c->set[j].id, c->set[k].id);
			if (x)
				return fail(why, n, "configuration: %s and %s do not combine (%s)", x->a, x->b, x->why);
		}
	}
	return 0;
}

int graph_set_config(struct graph *g, const struct graph_config *c, char *why, size_t n)
{
	if (graph_config_check(c, (enum graph_target)g->target, why, n))
		return -1;
	g->config = *c;
	memset(g->config.set + c->nsettings, 0, sizeof(struct graph_setting) * (G_MAX_SETTINGS - c->nsettings));
	return 0;
}

int graph_config_is_default(const struct graph_config *c)
{
	return !c->mode && !c->dynamic && !c->backend && !c->fullgraph && !c->nsettings;
}

int graph_config_equal(const struct graph_config *a, const struct graph_config *b)
{
	if (a->mode != b->mode || a->dynamic != b->dynamic || a->backend != b->backend ||
	    a->fullgraph != b->fullgraph || a->nsettings != b->nsettings)
		return 0;
	for (unsigned k = 0; k < a->nsettings; k++)
		if (a->set[k].id != b->set[k].id || a->set[k].value != b->set[k].value)
			return 0;
	return 1;
}

int graph_config_put(struct graph_config *c, unsigned id, unsigned value)
{
	unsigned k = 0;
	while (k < c->nsettings && c->set[k].id < id)
		k++;
	if (k < c->nsettings && c->set[k].id == id) {
		c->set[k].value = (uint8_t)value;
		return 0;
	}
	if (c->nsettings == G_MAX_SETTINGS)
		return -1;
	memmove(&c->set[k + 1], &c->set[k], sizeof c->set[0] * (c->nsettings - k));
	c->set[k] = (struct graph_setting){(uint16_t)id, (uint8_t)value};
	c->nsettings++;
	return 0;
}

void graph_config_drop(struct graph_config *c, unsigned k)
{
	if (k >= c->nsettings)
		return;
	memmove(&c->set[k], &c->set[k + 1], sizeof c->set[0] * (c->nsettings - k - 1));
	c->nsettings--;
	memset(&c->set[c->nsettings], 0, sizeof c->set[0]);
}

int graph_config_on(const struct graph_config *c, const char *name)
{
	int id = setting_find(name);
	for (unsigned k = 0; id >= 0 && k < c->nsettings; k++)
		if (c->set[k].id == id)
			return !strcmp(setting_get((unsigned)id)->values[c->set[k].value], "True");
	return 0;
}

int graph_config_autocast(const struct graph_config *c)
{
	return graph_config_on(c, "mode.autocast_bfloat16") || graph_config_on(c, "mode.autocast_float16");
}

int graph_config_backward(const struct graph_config *c) { return graph_config_on(c, GRAPH_CONFIG_BACKWARD); }

unsigned graph_config_effects(const struct graph_config *c)
{
	unsigned e = 0;
	for (unsigned k = 0; k < c->nsettings; k++) {
		const struct setting *s = setting_get(c->set[k].id);
		/* at the value that has it: emulate_precision_casts off is the
		 * catalogue's default, but not what the worker runs float16 graphs with */
		if (s && s->effect_at && !strcmp(s->values[c->set[k].value], s->effect_at))
			e |= s->effects & (EFFECT_NUMERICS | EFFECT_RANDOM);
	}
	return e;
}

unsigned graph_config_time_factor(const struct graph_config *c)
{
	unsigned f = 1 + !!(compile_mode_effects(c->mode) & EFFECT_SLOW_COMPILE) +
		     !!(compile_backend_effects(c->backend) & EFFECT_SLOW_COMPILE);
	for (unsigned k = 0; k < c->nsettings; k++) {
		const struct setting *s = setting_get(c->set[k].id);
		f += s && c->set[k].value && (s->effects & EFFECT_SLOW_COMPILE);
	}
	return f < CONFIG_TIME_FACTOR_MAX ? f : CONFIG_TIME_FACTOR_MAX;
}

void graph_config_write(FILE *f, const struct graph_config *c)
{
	const char *sep = "";
	if (c->mode)
		fprintf(f, "%smode=%s", sep, compile_mode_name(c->mode)), sep = " ";
	if (c->dynamic)
		fprintf(f, "%sdynamic=%s", sep, compile_dynamic_name(c->dynamic)), sep = " ";
	if (c->backend)
		fprintf(f, "%s" GRAPH_BACKEND_KEY "%s", sep, compile_backend_name(c->backend)), sep = " ";
	if (c->fullgraph)
		fprintf(f, "%sfullgraph=True", sep), sep = " ";
	for (unsigned k = 0; k < c->nsettings; k++) {
		const struct setting *s = setting_get(c->set[k].id);
		fprintf(f, "%s%s=%s", sep, s->name, s->values[c->set[k].value]);
		sep = " ";
	}
}

const char *graph_config_text(const struct graph_config *c, char *buf, size_t n)
{
	FILE *f = fmemopen(buf, n, "w");
	buf[0] = 0;
	if (f) {
		graph_config_write(f, c);
		fclose(f);
	}
	buf[n - 1] = 0;
	return buf;
}

unsigned graph_config_words(const struct graph_config *c, char (*buf)[GRAPH_CONFIG_WORD_LEN], const char **words,
			    unsigned cap)
{
	char text[GRAPH_CONFIG_WORDS_MAX * GRAPH_CONFIG_WORD_LEN];
	return config_text_words(graph_config_text(c, text, sizeof text), buf, words, cap);
}

const char *graph_backend_word(const char *name, char buf[GRAPH_CONFIG_WORD_LEN])
{
	if (snprintf(buf, GRAPH_CONFIG_WORD_LEN, GRAPH_CONFIG_WORD GRAPH_BACKEND_KEY "%s", name) >= GRAPH_CONFIG_WORD_LEN)
		buf[0] = 0;
	return buf;
}

unsigned config_text_words(const char *text, char (*buf)[GRAPH_CONFIG_WORD_LEN], const char **words, unsigned cap)
{
	unsigned n = 0;
	for (const char *s = text; *s && n < cap;) {
		size_t l = strcspn(s, " ");
		if (l && snprintf(buf[n], GRAPH_CONFIG_WORD_LEN, "%s%.*s", GRAPH_CONFIG_WORD, (int)l, s) < GRAPH_CONFIG_WORD_LEN)
			words[n] = buf[n], n++;
		s += l + (s[l] == ' ');
	}
	return n;
}

int graph_config_read(struct graph_config *c, const char *key, const char *value, char *why, size_t n)
{
	static const struct {
		const char *key;
		int (*find)(const char *);
		size_t at;
	} named[] = {{"mode", compile_mode_find, offsetof(struct graph_config, mode)},
		     {"dynamic", compile_dynamic_find, offsetof(struct graph_config, dynamic)},
		     {"backend", compile_backend_find, offsetof(struct graph_config, backend)}};
	for (unsigned i = 0; i < sizeof named / sizeof named[0]; i++)
		if (!strcmp(key, named[i].key)) {
			int v = named[i].find(value);
			if (v < 0)
				return fail(why, n, "no %s '%s'", key, value);
			((uint8_t *)c)[named[i].at] = (uint8_t)v;
			return 0;
		}
	if (!strcmp(key, "fullgraph")) {
		if (strcmp(value, "True") && strcmp(value, "False"))
			return fail(why, n, "fullgraph is True or False, not '%s'", value);
		c->fullgraph = !strcmp(value, "True");
		return 0;
	}
	int id = setting_find(key);
	if (id < 0)
		return fail(why, n, "'%s' is no setting of the catalogue (pt2fuzz configs)", key);
	char canon[SETTING_PYTHON_MAX];
	int v = setting_parse_value(setting_get((unsigned)id), value, canon, sizeof canon, why, n);
	if (v == SETTING_MAX_VALUES)
		return fail(why, n, "%s: %s is not among the values a graph may take", key, value);
	if (v < 0)
		return -1;
	if (graph_config_put(c, (unsigned)id, (unsigned)v))
		return fail(why, n, "more than %d settings", G_MAX_SETTINGS);
	return 0;
}
