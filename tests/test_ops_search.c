/* The search family's counting rules: histc's and histogram's bins and
 * ranges, histogramdd's coordinates, and the CPU-only histograms kept out
 * of graphs for any device. */
#include "test.h"
#include "testkit.h"

static char why[300];

TEST(search_histogram_counts_and_edges)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, 4});
	CHECK(tk_node(&g, "histogram", 1, &x, 4, (int64_t[]){5, -1000, 1000, 1}, why, sizeof why) < 0); /* any device */
	CHECK(graph_init(&g, 1, 0, 1, why, sizeof why) == 0);
	CHECK(graph_set_target(&g, TARGET_CPU, why, sizeof why) == 0);
	x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, 4});
	int k = tk_node(&g, "histogram", 1, &x, 4, (int64_t[]){5, -1000, 1000, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(g.n[k].nout, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 5);
	CHECK_EQ(tk_out(&g, k, 1)->dim[0][0], 6);
	CHECK(tk_node(&g, "histogram", 1, &x, 4, (int64_t[]){5, 1000, 1000, 0}, why, sizeof why) < 0); /* empty range */
	CHECK(tk_node(&g, "histogram", 1, &x, 4, (int64_t[]){0, -1000, 1000, 0}, why, sizeof why) < 0); /* no bins */
	k = tk_node(&g, "histc", 1, &x, 3, (int64_t[]){7, -500, 500}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 7);
}

TEST(search_histogramdd_bins_every_coordinate)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){5, 9});
	CHECK(graph_set_target(&g, TARGET_CPU, why, sizeof why) == 0); /* before any value */
	int pts = tk_input(&g, DT_FLOAT64, 2, (int[]){-1, 3});
	int k = tk_node(&g, "histogramdd", 1, &pts, 3, (int64_t[]){4, -2000, 2000}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][2], 4);
	int wide = tk_input(&g, DT_FLOAT64, 2, (int[]){6, 4});
	CHECK(tk_node(&g, "histogramdd", 1, &wide, 3, (int64_t[]){4, -2000, 2000}, why, sizeof why) < 0); /* 4 coordinates */
	int dyn = tk_input(&g, DT_FLOAT64, 2, (int[]){3, -1});
	CHECK(tk_node(&g, "histogramdd", 1, &dyn, 3, (int64_t[]){2, -2000, 2000}, why, sizeof why) < 0); /* dynamic D */
}
