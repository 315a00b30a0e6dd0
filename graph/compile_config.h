/* A graph's compile configuration (struct graph_config): checked like
 * everything else a graph holds, so a decoded or mutated configuration is
 * one that can run. */
#ifndef PT2FUZZ_COMPILE_CONFIG_H
#define PT2FUZZ_COMPILE_CONFIG_H
#include <stdio.h>
#include "graph.h"

/* 0, or -1 with a reason: names in range, fullgraph 0 or 1, a mode only with
 * the inductor backend, settings of the catalogue in its order (so one per
 * row), values of their rows, none that clash, none for the other device of
 * a graph made for one (target). */
int graph_config_check(const struct graph_config *c, enum graph_target target, char *why, size_t n);

/* Checks c for g, then sets it. */
int graph_set_config(struct graph *g, const struct graph_config *c, char *why, size_t n);

int graph_config_is_default(const struct graph_config *c);
int graph_config_equal(const struct graph_config *a, const struct graph_config *b);

/* Adds (or changes) setting id's value in c, keeping the catalogue's order;
 * -1 when c is full. The result is not checked. */
int graph_config_put(struct graph_config *c, unsigned id, unsigned value);
/* Removes setting k of c. */
void graph_config_drop(struct graph_config *c, unsigned k);

/* The text form's words after `config`: `mode=M dynamic=D backend=B
 * fullgraph=True` where not the default, then `SETTING=VALUE` each
 * (inductor.max_fusion_size=8, functorch.activation_memory_budget_solver=greedy). */
void graph_config_write(FILE *f, const struct graph_config *c);
/* The same into buf (n > 0 bytes, cut to fit), "" for the default; buf. */
const char *graph_config_text(const struct graph_config *c, char *buf, size_t n);
/* Those words as a known bug's OPS names them (pipeline/known_bugs.h):
 * GRAPH_CONFIG_WORD then KEY=VALUE, one in each buf[k] (words[k] pointing
 * there), at most cap; how many. */
#define GRAPH_CONFIG_WORD "config:"
#define GRAPH_CONFIG_WORDS_MAX (4 + G_MAX_SETTINGS)
#define GRAPH_CONFIG_WORD_LEN 96
unsigned graph_config_words(const struct graph_config *c, char (*buf)[GRAPH_CONFIG_WORD_LEN], const char **words,
			    unsigned cap);
/* The word of the backend called name (the command line's --backend, a
 * finding's meta.json) as graph_config_words writes it for a configuration
 * with that backend: config:backend=NAME in buf, "" when it does not fit. */
#define GRAPH_BACKEND_KEY "backend="
const char *graph_backend_word(const char *name, char buf[GRAPH_CONFIG_WORD_LEN]);
/* The same words of a configuration's text (a finding's meta.json keeps
 * the text, not the graph): one split for generation and for findings. */
unsigned config_text_words(const char *text, char (*buf)[GRAPH_CONFIG_WORD_LEN], const char **words, unsigned cap);
/* Reads one such KEY=VALUE into c (a setting added in the catalogue's order);
 * -1 with a reason. The result is checked by graph_set_config. */
int graph_config_read(struct graph_config *c, const char *key, const char *value, char *why, size_t n);

/* Whether c sets the bool setting name (of the catalogue) to True. */
int graph_config_on(const struct graph_config *c, const char *name);
/* Whether c runs forward() under autocast (mode.autocast_*): its values round as float16/bfloat16 ones. */
int graph_config_autocast(const struct graph_config *c);
/* Whether c holds mode.backward: the graph runs in backward mode, whatever the campaign's. */
int graph_config_backward(const struct graph_config *c);

/* How many times the executor's per-request time limit c's compiles get: 1 and one more for its
 * mode, its backend and each setting off its default that make compiles slow (EFFECT_SLOW_COMPILE), at most
 * CONFIG_TIME_FACTOR_MAX. A slow compile is not a hang. */
#define CONFIG_TIME_FACTOR_MAX 4
unsigned graph_config_time_factor(const struct graph_config *c);

/* Whether c changes numerics legitimately, or random draws (a setting's effects). */
unsigned graph_config_effects(const struct graph_config *c);

#endif
