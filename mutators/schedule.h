/* Mutator weights that follow each mutator's recent yield (the habit of
 * AFL++'s MOpt): a mutator whose results keep reaching features the process
 * had not seen, or findings, is drawn more; one that stops yielding falls
 * back to a floor, never to zero, so it is still tried and can recover.
 * Plain arithmetic on what the fuzz target reports: deterministic for the
 * same sequence of outcomes. */
#ifndef PT2FUZZ_SCHEDULE_H
#define PT2FUZZ_SCHEDULE_H
#include "mutate.h"

struct mut_schedule {
	double runs[MUT_MAX], yields[MUT_MAX]; /* decayed per outcome of that mutator */
	unsigned weight[MUT_MAX];              /* what mutate_use_weights draws by */
};

/* Every mutator at its table weight's share (the prior: half its runs yield). */
void schedule_init(struct mut_schedule *s);

/* Mutator `which` made an input whose run reached new features (fresh) or a
 * finding; its weight moves toward its recent yield. */
void schedule_note(struct mut_schedule *s, unsigned which, int fresh, int finding);

/* The weights again from runs and yields, after they were set from outside
 * (a campaign's learned state, fuzz/learned.h). */
void schedule_refresh(struct mut_schedule *s);

/* The weight a mutator never yielding settles at: its table weight's floor. */
unsigned schedule_floor(unsigned which);

#endif
