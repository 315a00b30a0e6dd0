/* The manager engine's pure parts: what is new to the feature map
 * (features_novel, as libFuzzer counts a feature: a counter's count bucket)
 * and which input is mutated next (manager_pick: corpus, then energy). */
#include "test.h"
#include "../fuzz/manager.h"
#include <string.h>

static uint8_t map[FEATURES_MAP], seen[FEATURES_MAP];

TEST(features_novel_counts_a_counter_bucket_once)
{
	memset(seen, 0, sizeof seen);
	memset(map, 0, sizeof map);
	map[7] = 1;
	CHECK(features_novel(map, seen));
	CHECK(!features_novel(map, seen)); /* seen now */
	map[7] = 2;                         /* another bucket of the same counter */
	CHECK(features_novel(map, seen));
	map[7] = 5;
	CHECK(features_novel(map, seen)); /* 4-7 */
	map[7] = 6;
	CHECK(!features_novel(map, seen)); /* still 4-7 */
	map[FEATURES_MAP - 1] = 200;        /* the graph region counts too */
	CHECK(features_novel(map, seen));
	CHECK(features_seen_count(seen) == 4);
	memset(map, 0, sizeof map);
	CHECK(!features_novel(map, seen)); /* an empty map (a repeated finding) is never new */
}

TEST(manager_pick_draws_the_corpus_and_gives_finders_their_energy)
{
	static struct seed_energy e;
	static uint8_t buf[CODEC_MAX_SIZE];
	struct manager_corpus c = {0};
	memset(&e, 0, sizeof e);
	CHECK(manager_pick(&c, &e, 2, buf, sizeof buf) == 0); /* nothing yet: the mutator generates */
	const uint8_t a[] = {1, 2, 3}, b[] = {4, 5, 6, 7}, hot[] = {9, 9, 9, 9, 9};
	CHECK(!manager_corpus_add(&c, a, sizeof a));
	CHECK(!manager_corpus_add(&c, b, sizeof b));
	unsigned got_a = 0, got_b = 0;
	for (uint64_t d = 0; d < 64; d++) {
		size_t n = manager_pick(&c, &e, d, buf, sizeof buf);
		got_a += n == sizeof a && !memcmp(buf, a, n);
		got_b += n == sizeof b && !memcmp(buf, b, n);
	}
	CHECK(got_a + got_b == 64 && got_a > 8 && got_b > 8); /* both drawn */
	energy_reward(&e, hot, sizeof hot);
	unsigned got_hot = 0;
	for (uint64_t d = 0; d < 32; d++) {
		size_t n = manager_pick(&c, &e, d, buf, sizeof buf);
		got_hot += n == sizeof hot && !memcmp(buf, hot, n);
	}
	CHECK(got_hot == ENERGY_PER_FIND); /* every other draw, until its energy is spent */
	manager_corpus_free(&c);
	CHECK(c.n == 0);
}
