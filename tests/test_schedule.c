/* Yield scheduling (mutators/schedule.h) and seed energy
 * (fuzz/seed_energy.h): weights follow yield with a floor, the same outcomes
 * give the same weights, and a finder's energy is spent on half the calls. */
#include <string.h>
#include "../fuzz/seed_energy.h"
#include "../graph/compile_config.h"
#include "../mutators/schedule.h"
#include "test.h"

TEST(schedule_starts_at_the_table_weights_share)
{
	static struct mut_schedule s;
	schedule_init(&s);
	int insert = mutator_find("insert"), grow = mutator_find("grow");
	/* the same multiple of each table weight */
	CHECK_EQ(s.weight[insert] * mutator_weight((unsigned)grow), s.weight[grow] * mutator_weight((unsigned)insert));
	CHECK_EQ(s.weight[mutator_find("break")], 0);
}

TEST(schedule_a_yielding_mutator_gains_and_a_barren_one_keeps_its_floor)
{
	static struct mut_schedule s;
	schedule_init(&s);
	unsigned yielding = (unsigned)mutator_find("dims"), barren = (unsigned)mutator_find("swap");
	unsigned before = s.weight[yielding], untouched = s.weight[mutator_find("attr")];
	for (unsigned k = 0; k < 200; k++) {
		schedule_note(&s, yielding, 1, 0);
		schedule_note(&s, barren, 0, 0);
	}
	CHECK(s.weight[yielding] > before);
	CHECK_EQ(s.weight[barren], schedule_floor(barren));
	CHECK(schedule_floor(barren) > 0);
	CHECK_EQ(s.weight[mutator_find("attr")], untouched);
	/* a barren mutator that yields again recovers */
	for (unsigned k = 0; k < 50; k++)
		schedule_note(&s, barren, 1, 0);
	CHECK(s.weight[barren] > schedule_floor(barren) * 4);
	/* a finding outweighs new features */
	static struct mut_schedule f, n;
	schedule_init(&f);
	schedule_init(&n);
	schedule_note(&f, yielding, 0, 1);
	schedule_note(&n, yielding, 1, 0);
	CHECK(f.weight[yielding] > n.weight[yielding]);
}

TEST(schedule_scores_a_run_by_how_much_new_code_it_reached)
{
	/* Every run of both reaches new code, as nearly every early input does;
	 * one mutator's reach ten times the other's: it gains, the other falls
	 * below its prior. */
	static struct mut_schedule s;
	schedule_init(&s);
	unsigned wide = (unsigned)mutator_find("regenerate"), narrow = (unsigned)mutator_find("attr");
	unsigned wide_prior = s.weight[wide], narrow_prior = s.weight[narrow];
	for (unsigned k = 0; k < 100; k++) {
		schedule_note(&s, wide, 300, 0);
		schedule_note(&s, narrow, 30, 0);
	}
	CHECK(s.weight[wide] > wide_prior);
	CHECK(s.weight[narrow] < narrow_prior);
	CHECK(s.weight[narrow] > schedule_floor(narrow)); /* it still yields */
	/* settings alike: a setting whose graphs reach more new code is drawn more */
	static struct setting_schedule t;
	setting_schedule_init(&t);
	unsigned a = (unsigned)setting_find("inductor.max_fusion_size"), b = (unsigned)setting_find("inductor.freezing");
	struct graph_config ca = {0}, cb = {0};
	CHECK(graph_config_put(&ca, a, 1) == 0 && graph_config_put(&cb, b, 1) == 0);
	unsigned a_prior = t.weight[a], b_prior = t.weight[b];
	for (unsigned k = 0; k < 100; k++) {
		setting_schedule_note(&t, &ca, 500, 0);
		setting_schedule_note(&t, &cb, 20, 0);
	}
	CHECK(t.weight[a] > a_prior && t.weight[b] < b_prior);
}

TEST(schedule_is_deterministic_and_drives_the_draw)
{
	static struct mut_schedule a, b;
	schedule_init(&a);
	schedule_init(&b);
	for (unsigned k = 0; k < 500; k++) {
		unsigned m = (k * 7) % mutator_count();
		int fresh = (k * 13) % 5 < 2, found = k % 97 == 0;
		schedule_note(&a, m, fresh, found);
		schedule_note(&b, m, fresh, found);
	}
	CHECK(!memcmp(&a, &b, sizeof a));
	/* weights handed to the mutators decide the draw: only regenerate left */
	static unsigned only[MUT_MAX];
	only[mutator_find("regenerate")] = 1;
	static struct graph g;
	struct rng r;
	rng_seed(&r, 5);
	mutate_use_weights(only);
	int w = mutate_graph(&g, NULL, &r, 4, NULL);
	mutate_use_weights(NULL);
	CHECK_EQ(w, mutator_find("regenerate"));
}

TEST(seed_energy_spends_a_finders_energy_on_every_other_call)
{
	static struct seed_energy e;
	uint8_t finder[3] = {1, 2, 3}, data[16] = {9};
	CHECK_EQ(energy_choose(&e, data, 1, sizeof data, 0), 1); /* nothing earned yet */
	energy_reward(&e, finder, sizeof finder);
	unsigned taken = 0;
	for (unsigned seed = 0; seed < 4 * ENERGY_PER_FIND; seed++) {
		data[0] = 9;
		size_t n = energy_choose(&e, data, 1, sizeof data, seed);
		if (n == sizeof finder && !memcmp(data, finder, n))
			taken++;
		else
			CHECK(n == 1 && data[0] == 9);
	}
	CHECK_EQ(taken, ENERGY_PER_FIND); /* earned, spent, then libFuzzer's pick again */
	/* a finder too large for the buffer is left alone */
	energy_reward(&e, finder, sizeof finder);
	CHECK_EQ(energy_choose(&e, data, 1, 2, 0), 1);
}
