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

unsigned schedule_floor(unsigned which) { return (unsigned)(mutator_weight(which) * SCALE * FLOOR_RATE); }

static unsigned weight_of(const struct mut_schedule *s, unsigned i)
{
	double rate = (s->yields[i] + PRIOR_YIELD) / (s->runs[i] + 1.0);
	rate = rate < FLOOR_RATE ? FLOOR_RATE : rate > CEIL_RATE ? CEIL_RATE : rate;
	return (unsigned)(mutator_weight(i) * SCALE * rate);
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

void schedule_note(struct mut_schedule *s, unsigned which, int fresh, int finding)
{
	if (which >= mutator_count())
		return;
	s->runs[which] = s->runs[which] * DECAY + 1.0;
	s->yields[which] = s->yields[which] * DECAY + (finding ? FINDING_YIELD : fresh ? 1.0 : 0.0);
	s->weight[which] = weight_of(s, which);
}
