#include "schedule.h"

/* An outcome weighs 1 and then 0.95 per later outcome of the same mutator:
 * the last 20 or so runs count, so the weights follow a campaign's phases
 * (early, everything is new; later, few mutators still reach anything). */
#define DECAY 0.95
#define PRIOR_YIELD 0.5 /* a mutator not yet run is assumed to yield half the time */
#define FINDING_YIELD 4.0 /* a finding counts as four new-feature runs */
#define SCALE 16.0 /* weight = table weight x SCALE x yield rate, within the bounds below */
#define FLOOR_RATE 0.125 /* never below an eighth of the prior's weight: none starves */
#define CEIL_RATE 4.0
#define MEAN_DECAY 0.98 /* the mean new code a run reaches follows the last 50 or so runs */
#define CREDIT_CAP 4.0   /* a run's yield is at most four average runs' */

unsigned schedule_floor(unsigned which) { return (unsigned)(mutator_weight(which) * SCALE * FLOOR_RATE); }

/* A prior weight moved by a decayed yield rate. */
static unsigned yield_weight(unsigned prior, double runs, double yields)
{
	double rate = (yields + PRIOR_YIELD) / (runs + 1.0);
	rate = rate < FLOOR_RATE ? FLOOR_RATE : rate > CEIL_RATE ? CEIL_RATE : rate;
	return (unsigned)(prior * SCALE * rate);
}

/* A run's yield: the new code it reached (counters first hit) against the
 * decayed mean of the runs noted so far, up to CREDIT_CAP. On a target that
 * takes seconds nearly every early input reaches some new code, a fresh
 * graph and an edit that re-runs its parent's lowerings alike: whether a run
 * did tells them apart little, how much it did does. */
static double credit(double *mean, unsigned new_code)
{
	*mean = *mean > 0 ? *mean * MEAN_DECAY + new_code * (1.0 - MEAN_DECAY) : new_code;
	if (!new_code)
		return 0.0;
	double c = new_code / *mean;
	return c < CREDIT_CAP ? c : CREDIT_CAP;
}

/* An outcome into a decayed count of runs and yields. */
static void decay_note(double *runs, double *yields, double yield, int finding)
{
	*runs = *runs * DECAY + 1.0;
	*yields = *yields * DECAY + (finding ? FINDING_YIELD : yield);
}

static unsigned weight_of(const struct mut_schedule *s, unsigned i)
{
	return yield_weight(mutator_weight(i), s->runs[i], s->yields[i]);
}

void schedule_refresh(struct mut_schedule *s)
{
	for (unsigned i = 0; i < mutator_count(); i++)
		s->weight[i] = weight_of(s, i);
}

void schedule_init(struct mut_schedule *s)
{
	*s = (struct mut_schedule){0};
	schedule_refresh(s);
}

void schedule_note(struct mut_schedule *s, unsigned which, unsigned new_code, int finding)
{
	if (which >= mutator_count())
		return;
	decay_note(&s->runs[which], &s->yields[which], credit(&s->mean_new_code, new_code), finding);
	s->weight[which] = weight_of(s, which);
}

unsigned setting_schedule_floor(unsigned id)
{
	return (unsigned)(setting_weight(setting_get(id)) * SCALE * FLOOR_RATE);
}

static unsigned setting_weight_of(const struct setting_schedule *s, unsigned id)
{
	return yield_weight(setting_weight(setting_get(id)), s->runs[id], s->yields[id]);
}

void setting_schedule_refresh(struct setting_schedule *s)
{
	for (unsigned i = 0; i < setting_count(); i++)
		s->weight[i] = setting_weight_of(s, i);
}

void setting_schedule_init(struct setting_schedule *s)
{
	*s = (struct setting_schedule){0};
	setting_schedule_refresh(s);
}

void setting_schedule_note(struct setting_schedule *s, const struct graph_config *c, unsigned new_code, int finding)
{
	double yield = credit(&s->mean_new_code, new_code);
	for (unsigned k = 0; k < c->nsettings; k++) {
		unsigned id = c->set[k].id;
		if (id >= setting_count())
			continue;
		decay_note(&s->runs[id], &s->yields[id], yield, finding);
		s->weight[id] = setting_weight_of(s, id);
	}
}
