/* The graph region's near-miss features (pipeline/features.h): what keeps
 * in the corpus a graph that brings an output nearer to a values finding. */
#include "test.h"
#include "testkit.h"
#include "../pipeline/features.h"
#include <stdlib.h>
#include <string.h>

static uint8_t map_a[FEATURES_MAP], map_b[FEATURES_MAP];

/* Index of the one counter set in map, or -1 (none or several). */
static long only_counter(const uint8_t *map)
{
	long at = -1;
	for (long i = 0; i < FEATURES_MAP; i++)
		if (map[i]) {
			if (at >= 0)
				return -1;
			at = i;
		}
	return at;
}

TEST(features_near_miss_is_one_feature_per_output_op_and_octave)
{
	static struct graph g;
	char why[300];
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 1, (const int[]){8});
	CHECK(tk_node(&g, "exp", 1, &x, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "tanh", 1, &x, 0, NULL, why, sizeof why) >= 0);
	graph_mark_sinks(&g); /* outputs 0 (exp) and 1 (tanh) */
	memset(map_a, 0, sizeof map_a);
	features_near_miss(&g, 0, 0.3, map_a);
	long exp_quarter = only_counter(map_a);
	CHECK(exp_quarter >= FEATURES_NEAR_AT); /* its own slots: a first one is new code */
	/* the same octave again: the same feature; another octave or another
	 * output's op: another */
	memset(map_b, 0, sizeof map_b);
	features_near_miss(&g, 0, 0.4, map_b);
	CHECK_EQ(only_counter(map_b), exp_quarter);
	memset(map_b, 0, sizeof map_b);
	features_near_miss(&g, 0, 0.6, map_b);
	CHECK(only_counter(map_b) >= 0 && only_counter(map_b) != exp_quarter);
	memset(map_b, 0, sizeof map_b);
	features_near_miss(&g, 1, 0.3, map_b);
	CHECK(only_counter(map_b) >= 0 && only_counter(map_b) != exp_quarter);
	/* the lowest octave and an excused pass's (1 and above, one octave) are
	 * features of their own */
	long lowest, excused;
	memset(map_b, 0, sizeof map_b);
	features_near_miss(&g, 0, 1.0 / 200, map_b);
	lowest = only_counter(map_b);
	memset(map_b, 0, sizeof map_b);
	features_near_miss(&g, 0, 1.5, map_b);
	excused = only_counter(map_b);
	memset(map_b, 0, sizeof map_b);
	features_near_miss(&g, 0, 40.0, map_b);
	CHECK(lowest >= 0 && excused >= 0 && lowest != excused && lowest != exp_quarter);
	CHECK_EQ(only_counter(map_b), excused);
	/* nothing below 1/256, nor without an output */
	memset(map_b, 0, sizeof map_b);
	features_near_miss(&g, 0, 1.0 / 512, map_b);
	features_near_miss(&g, -1, 0.5, map_b);
	CHECK_EQ(only_counter(map_b), -1);
	for (long i = 0; i < FEATURES_MAP; i++)
		CHECK(!map_b[i]);
}

TEST(graph_features_stay_out_of_the_near_miss_slots)
{
	static struct graph g;
	char why[300];
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 1, (const int[]){8});
	for (const char *const *op = (const char *const[]){"exp", "tanh", "sin", "relu", NULL}; *op; op++)
		CHECK(tk_node(&g, *op, 1, &x, 0, NULL, why, sizeof why) >= 0);
	graph_mark_sinks(&g);
	memset(map_a, 0, sizeof map_a);
	features_graph(&g, map_a);
	unsigned set = 0;
	for (long i = 0; i < FEATURES_MAP; i++)
		if (map_a[i]) {
			CHECK(i >= FEATURES_GRAPH_AT && i < FEATURES_NEAR_AT); /* a first one is not new code */
			set++;
		}
	CHECK(set >= 9); /* the bindings, four ops, their edges and dtypes: some may share a slot */
}
