/* Mutator weights that follow each mutator's recent yield (the habit of
 * AFL++'s MOpt): a mutator whose results keep reaching more new code than
 * the average run (counters the campaign had not hit), or findings, is drawn
 * more; one that stops yielding falls
 * back to a floor, never to zero, so it is still tried and can recover.
 * Plain arithmetic on what the fuzz target reports: deterministic for the
 * same sequence of outcomes. */
#ifndef PT2FUZZ_SCHEDULE_H
#define PT2FUZZ_SCHEDULE_H
#include "../config/settings.h"
#include "../graph/graph.h"
#include "mutate.h"

struct mut_schedule {
	double runs[MUT_MAX], yields[MUT_MAX]; /* decayed per outcome of that mutator */
	unsigned weight[MUT_MAX];              /* what mutate_use_weights draws by */
	double mean_new_code;                  /* decayed, over every outcome: what a yield is measured by */
};

/* Every mutator at its table weight's share (the prior: half its runs yield). */
void schedule_init(struct mut_schedule *s);

/* Mutator `which` made an input whose run first hit new_code counters of
 * code (features_novelty; 0: none), or a finding; its weight moves toward its
 * recent yield, each run's new code against the mean run's. */
void schedule_note(struct mut_schedule *s, unsigned which, unsigned new_code, int finding);

/* The weights again from runs and yields, after they were set from outside
 * (a campaign's learned state, fuzz/learned.h). */
void schedule_refresh(struct mut_schedule *s);

/* The weight a mutator never yielding settles at: its table weight's floor. */
unsigned schedule_floor(unsigned which);

/* The same for the settings a drawn configuration adds (config_draw.h):
 * each run of a graph whose configuration holds a setting is an outcome of
 * that setting, so settings whose graphs keep reaching new code are drawn
 * more, from the catalogue's weight (setting_weight) as the prior. */
struct setting_schedule {
	double runs[SETTING_ROWS_MAX], yields[SETTING_ROWS_MAX];
	unsigned weight[SETTING_ROWS_MAX]; /* what config_draw_use_weights draws by */
	double mean_new_code;
};

void setting_schedule_init(struct setting_schedule *s);
/* A graph of configuration c ran: an outcome for each of its settings. */
void setting_schedule_note(struct setting_schedule *s, const struct graph_config *c, unsigned new_code, int finding);
void setting_schedule_refresh(struct setting_schedule *s);
/* The weight a setting never yielding settles at. */
unsigned setting_schedule_floor(unsigned id);

#endif
