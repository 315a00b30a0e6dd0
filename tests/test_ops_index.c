/* Indexing rules: index values bounded at every binding, distinct indices
 * where writes would race, and the shapes of gathers, scatters and puts. */
#include "test.h"
#include "testkit.h"
#include <string.h>

static char why[300];

/* A static int64 index leaf with values in [0, hi], distinct when perm. */
static int idx_leaf(struct graph *g, unsigned rank, const int *dims, int perm, int64_t hi)
{
	struct leaf_dim ld[G_MAX_RANK];
	memset(ld, 0, sizeof ld);
	for (unsigned d = 0; d < rank; d++) {
		ld[d].sym = -1;
		ld[d].add = (int16_t)dims[d];
	}
	return graph_add_leaf(g, VK_INPUT, DT_INT64, rank, ld, perm ? FILL_PERM : FILL_RANGE, 0, hi, why, sizeof why);
}

TEST(index_gather_bounds_at_every_binding)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){4, 3});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){2, -1});
	int ok = idx_leaf(&g, 2, (int[]){2, 5}, 0, 2), bad = idx_leaf(&g, 2, (int[]){2, 5}, 0, 3);
	int k = tk_node(&g, "gather", 2, (int[]){x, ok}, 1, (int64_t[]){1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 5);
	/* value 3 is out of range at s0 = 3 */
	CHECK(tk_node(&g, "gather", 2, (int[]){x, bad}, 1, (int64_t[]){1}, why, sizeof why) < 0);
	/* along dim 0 the index's dim 1 (5) exceeds x's (4, 3) */
	int small = idx_leaf(&g, 2, (int[]){3, 5}, 0, 1);
	CHECK(tk_node(&g, "gather", 2, (int[]){x, small}, 1, (int64_t[]){0}, why, sizeof why) < 0);
	/* a float index */
	CHECK(tk_node(&g, "gather", 2, (int[]){x, x}, 1, (int64_t[]){1}, why, sizeof why) < 0);
}

TEST(index_scatter_needs_distinct_indices)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int src = tk_input(&g, DT_FLOAT32, 2, (int[]){1, 3});
	int perm = idx_leaf(&g, 2, (int[]){1, 3}, 1, 3), range = idx_leaf(&g, 2, (int[]){1, 3}, 0, 3);
	int k = tk_node(&g, "scatter", 3, (int[]){x, perm, src}, 1, (int64_t[]){1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 4);
	CHECK(tk_node(&g, "scatter", 3, (int[]){x, range, src}, 1, (int64_t[]){1}, why, sizeof why) < 0);
	/* accumulating scatters take any in-range index */
	CHECK(tk_node(&g, "scatter_add", 3, (int[]){x, range, src}, 1, (int64_t[]){1}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "scatter_reduce", 3, (int[]){x, range, src}, 3, (int64_t[]){1, 3, 0}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "scatter_reduce", 3, (int[]){x, range, src}, 3, (int64_t[]){1, 5, 0}, why, sizeof why) < 0);
	/* value 3 is out of range for dim 0 (size 3) */
	CHECK(tk_node(&g, "scatter_add", 3, (int[]){x, range, src}, 1, (int64_t[]){0}, why, sizeof why) < 0);
	/* the index may not exceed the source */
	int wide = idx_leaf(&g, 2, (int[]){1, 4}, 0, 2);
	CHECK(tk_node(&g, "scatter_add", 3, (int[]){x, wide, src}, 1, (int64_t[]){1}, why, sizeof why) < 0);
	/* scatter of a value: duplicates are fine; integer inputs need integral values */
	CHECK(tk_node(&g, "scatter_value", 2, (int[]){x, range}, 2, (int64_t[]){1, 1500}, why, sizeof why) >= 0);
	int xi = tk_input(&g, DT_INT32, 2, (int[]){3, 4});
	CHECK(tk_node(&g, "scatter_value", 2, (int[]){xi, range}, 2, (int64_t[]){1, 1500}, why, sizeof why) < 0);
	k = tk_node(&g, "scatter_value", 2, (int[]){xi, range}, 2, (int64_t[]){1, -7000}, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->lo, -7);
}

TEST(index_select_add_copy_fill)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 5, 3});
	int i = idx_leaf(&g, 1, (int[]){4}, 0, 4), p = idx_leaf(&g, 1, (int[]){2}, 1, 4);
	int k = tk_node(&g, "index_select", 2, (int[]){x, i}, 1, (int64_t[]){1}, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 4);
	CHECK(tk_node(&g, "index_select", 2, (int[]){x, i}, 1, (int64_t[]){0}, why, sizeof why) < 0);
	int src4 = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 4, 3}), src2 = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 2, 3});
	CHECK(tk_node(&g, "index_add", 3, (int[]){x, i, src4}, 2, (int64_t[]){1, 2}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "index_add", 3, (int[]){x, i, src2}, 2, (int64_t[]){1, 2}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "index_add", 3, (int[]){x, i, src4}, 2, (int64_t[]){1, 9}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "index_copy", 3, (int[]){x, p, src2}, 1, (int64_t[]){1}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "index_copy", 3, (int[]){x, i, src4}, 1, (int64_t[]){1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "index_fill", 2, (int[]){x, i}, 2, (int64_t[]){-1, 500}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "index_fill", 2, (int[]){x, i}, 2, (int64_t[]){1, 500}, why, sizeof why) >= 0);
}

TEST(index_take_and_advanced_indexing)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 4});
	int x = tk_input(&g, DT_INT64, 2, (int[]){-1, 2}); /* numel 6 and 8 */
	int i5 = idx_leaf(&g, 2, (int[]){2, 3}, 0, 5), i6 = idx_leaf(&g, 1, (int[]){3}, 0, 6);
	int k = tk_node(&g, "take", 2, (int[]){x, i5}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 5); /* x's values */
	CHECK(tk_node(&g, "take", 2, (int[]){x, i6}, 0, NULL, why, sizeof why) < 0);
	int i1 = idx_leaf(&g, 2, (int[]){2, 3}, 0, 1);
	k = tk_node(&g, "index_tensor1", 2, (int[]){x, i1}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 4);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][2], 3);
	k = tk_node(&g, "index_tensor", 2, (int[]){x, i1}, 0, NULL, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 2);
	CHECK(tk_node(&g, "index_tensor", 2, (int[]){x, i5}, 0, NULL, why, sizeof why) < 0);
}

TEST(index_take_along_dim_broadcasts)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 1});
	int i = idx_leaf(&g, 2, (int[]){1, 4}, 0, 2);
	int k = tk_node(&g, "take_along_dim", 2, (int[]){x, i}, 1, (int64_t[]){0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 1);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 4);
	CHECK(tk_node(&g, "take_along_dim", 2, (int[]){x, i}, 1, (int64_t[]){1}, why, sizeof why) < 0);
}

TEST(index_masked_fill_and_scatter)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_BOOL, 2, (int[]){3, 4});
	int m = tk_input(&g, DT_BOOL, 1, (int[]){4}), big = tk_input(&g, DT_BOOL, 3, (int[]){2, 3, 4});
	CHECK(tk_node(&g, "masked_fill", 2, (int[]){x, m}, 1, (int64_t[]){1000}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "masked_fill", 2, (int[]){x, m}, 1, (int64_t[]){2000}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "masked_fill", 2, (int[]){x, big}, 1, (int64_t[]){0}, why, sizeof why) < 0);
	int f = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	CHECK(tk_node(&g, "masked_fill", 2, (int[]){f, f}, 1, (int64_t[]){0}, why, sizeof why) < 0);
	int small = tk_input(&g, DT_FLOAT32, 1, (int[]){11});
	CHECK(tk_node(&g, "masked_scatter", 3, (int[]){f, m, f}, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "masked_scatter", 3, (int[]){f, m, small}, 0, NULL, why, sizeof why) < 0);
}

TEST(index_put_accumulate_rules)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){4, 3, 2});
	int p = idx_leaf(&g, 1, (int[]){3}, 1, 3), r = idx_leaf(&g, 1, (int[]){3}, 0, 2);
	int v = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 2}), v1 = tk_input(&g, DT_FLOAT32, 1, (int[]){2});
	CHECK(tk_node(&g, "index_put", 3, (int[]){x, p, v1}, 1, (int64_t[]){0}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "index_put", 3, (int[]){x, r, v1}, 1, (int64_t[]){0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "index_put", 3, (int[]){x, r, v1}, 1, (int64_t[]){1}, why, sizeof why) >= 0);
	/* two indices: values broadcast to (3, 2) */
	CHECK(tk_node(&g, "index_put2", 4, (int[]){x, p, r, v}, 1, (int64_t[]){0}, why, sizeof why) >= 0);
	/* the second index goes into dim 1 (size 3): 3 is out of range */
	CHECK(tk_node(&g, "index_put2", 4, (int[]){x, r, p, v}, 1, (int64_t[]){1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "index_put", 3, (int[]){x, r, x}, 1, (int64_t[]){1}, why, sizeof why) < 0); /* (4, 3, 2) into (3, 3, 2) */
}

TEST(index_slice_scatter_source_has_the_slice_shape)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){6, 4});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, -1});
	int src = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 2}), wide = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 3});
	int k = tk_node(&g, "slice_scatter", 2, (int[]){x, src}, 4, (int64_t[]){1, 1, 4, 2}, why, sizeof why);
	CHECK(k >= 0); /* 1:4:2 has 2 elements at both bindings */
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 6);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 4);
	CHECK(tk_node(&g, "slice_scatter", 2, (int[]){x, src}, 4, (int64_t[]){-1, 2, 4, 1}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "slice_scatter", 2, (int[]){x, wide}, 4, (int64_t[]){1, 1, 4, 1}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "slice_scatter", 2, (int[]){x, src}, 4, (int64_t[]){1, 1, 4, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "slice_scatter", 2, (int[]){x, src}, 4, (int64_t[]){1, 3, 5, 1}, why, sizeof why) < 0);
	CHECK(strstr(why, "out of range") != NULL); /* end 5 past s0 = 4 */
	CHECK(tk_node(&g, "slice_scatter", 2, (int[]){x, src}, 4, (int64_t[]){1, 2, 2, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "slice_scatter", 2, (int[]){x, src}, 4, (int64_t[]){1, 0, 2, 0}, why, sizeof why) < 0);
	int half = tk_input(&g, DT_FLOAT16, 2, (int[]){3, 2});
	CHECK(tk_node(&g, "slice_scatter", 2, (int[]){x, half}, 4, (int64_t[]){1, 0, 2, 1}, why, sizeof why) < 0);
	/* a bounded integer result spans both operands' bounds */
	int a = idx_leaf(&g, 1, (int[]){5}, 0, 2), b = idx_leaf(&g, 1, (int[]){2}, 0, 7);
	k = tk_node(&g, "slice_scatter", 2, (int[]){a, b}, 4, (int64_t[]){0, 1, 3, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 7);
}

TEST(index_reduce_put_and_view_scatters)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_leaf(&g, DT_INT64, 2, (int[]){4, -1}, FILL_RANGE, -2, 2);
	int i = idx_leaf(&g, 1, (int[]){6}, 0, 3);
	int src = tk_leaf(&g, DT_INT64, 2, (int[]){6, -1}, FILL_RANGE, 0, 9);
	int k = tk_node(&g, "index_reduce", 3, (int[]){x, i, src}, 3, (int64_t[]){0, 2, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 9); /* amax */
	k = tk_node(&g, "index_reduce", 3, (int[]){x, i, src}, 3, (int64_t[]){0, 0, 1}, why, sizeof why);
	CHECK(tk_out(&g, k, 0)->hi > 9); /* prod: unknown */
	CHECK(tk_node(&g, "index_reduce", 3, (int[]){x, i, src}, 3, (int64_t[]){1, 2, 1}, why, sizeof why) < 0);
	/* put: flat indices below the smallest numel (12), distinct without accumulate */
	int f = tk_input(&g, DT_FLOAT32, 2, (int[]){4, -1});
	int fi = idx_leaf(&g, 1, (int[]){3}, 0, 11), pi = idx_leaf(&g, 1, (int[]){3}, 1, 11);
	int fs = tk_input(&g, DT_FLOAT32, 2, (int[]){1, 3});
	CHECK(tk_node(&g, "put", 3, (int[]){f, fi, fs}, 1, (int64_t[]){1}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "put", 3, (int[]){f, fi, fs}, 1, (int64_t[]){0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "put", 3, (int[]){f, pi, fs}, 1, (int64_t[]){0}, why, sizeof why) >= 0);
	int far = idx_leaf(&g, 1, (int[]){3}, 0, 12);
	CHECK(tk_node(&g, "put", 3, (int[]){f, far, fs}, 1, (int64_t[]){1}, why, sizeof why) < 0);
	/* select_scatter / diagonal_scatter: the view's shape and the input's dtype */
	int row = tk_input(&g, DT_FLOAT32, 1, (int[]){-1});
	k = tk_node(&g, "select_scatter", 2, (int[]){f, row}, 2, (int64_t[]){0, -4}, why, sizeof why);
	CHECK(k >= 0);
	CHECK(tk_node(&g, "select_scatter", 2, (int[]){f, row}, 2, (int64_t[]){0, 4}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "select_scatter", 2, (int[]){f, row}, 2, (int64_t[]){1, 0}, why, sizeof why) < 0);
	int d3 = tk_input(&g, DT_FLOAT32, 1, (int[]){3});
	CHECK(tk_node(&g, "diagonal_scatter", 2, (int[]){f, d3}, 3, (int64_t[]){0, 0, 1}, why, sizeof why) < 0);
	int sq = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 3});
	CHECK(tk_node(&g, "diagonal_scatter", 2, (int[]){sq, d3}, 3, (int64_t[]){0, 0, 1}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "diagonal_scatter", 2, (int[]){sq, d3}, 3, (int64_t[]){1, 0, 1}, why, sizeof why) < 0);
}

TEST(index_unravel_index_bounds_its_outputs)
{
	struct graph g;
	tk_static(&g);
	int x = idx_leaf(&g, 1, (int[]){4}, 0, 11);
	int k = tk_node(&g, "unravel_index", 1, &x, 3, (int64_t[]){2, 3, 4}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(g.n[k].nout, 2);
	CHECK_EQ(tk_out(&g, k, 1)->dtype, DT_INT64);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 2);
	CHECK_EQ(tk_out(&g, k, 1)->hi, 3);
	k = tk_node(&g, "unravel_index", 1, &x, 3, (int64_t[]){2, 3, 3}, why, sizeof why);
	CHECK(k >= 0 && tk_out(&g, k, 0)->hi > 2); /* 11 past 9 elements: unbounded */
	CHECK(tk_node(&g, "unravel_index", 1, &x, 2, (int64_t[]){1, 0}, why, sizeof why) < 0);
	int f = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	CHECK(tk_node(&g, "unravel_index", 1, &f, 2, (int64_t[]){1, 4}, why, sizeof why) < 0);
}
