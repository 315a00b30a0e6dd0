/* Joins and splits: cat/stack shapes and dtype promotion, and that a split
 * gives the same number of pieces at every binding. */
#include "test.h"
#include "testkit.h"
#include <string.h>

static char why[300];

TEST(combine_cat_sums_join_dim)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int a = tk_input(&g, DT_FLOAT32, 2, (int[]){-1, 4});
	int b = tk_input(&g, DT_INT64, 2, (int[]){2, 4});
	int k = tk_node(&g, "cat", 2, (int[]){a, b}, 1, (int64_t[]){0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT32); /* promoted */
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 5);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 7);
	/* joining dim 1 needs equal dim 0: s0 vs 2 */
	CHECK(tk_node(&g, "cat", 2, (int[]){a, b}, 1, (int64_t[]){1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "cat", 2, (int[]){a, b}, 1, (int64_t[]){2}, why, sizeof why) < 0);
	int c = tk_input(&g, DT_FLOAT32, 2, (int[]){-1, 1});
	k = tk_node(&g, "cat3", 3, (int[]){a, c, a}, 1, (int64_t[]){-1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 9);
	int s = tk_input(&g, DT_FLOAT32, 0, NULL);
	CHECK(tk_node(&g, "cat", 2, (int[]){s, s}, 1, (int64_t[]){0}, why, sizeof why) < 0);
}

TEST(combine_cat_keeps_int_bounds)
{
	struct graph g;
	tk_static(&g);
	int a = tk_input(&g, DT_INT64, 1, (int[]){3});
	int b = tk_input(&g, DT_BOOL, 1, (int[]){2});
	int k = tk_node(&g, "cat", 2, (int[]){a, b}, 1, (int64_t[]){0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->lo, 0);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 5);
}

TEST(combine_stack_and_hv_stack)
{
	struct graph g;
	tk_static(&g);
	int a = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 3});
	int b = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 4});
	int k = tk_node(&g, "stack", 2, (int[]){a, a}, 1, (int64_t[]){-1}, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 2);
	CHECK(tk_node(&g, "stack", 2, (int[]){a, b}, 1, (int64_t[]){0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "stack", 2, (int[]){a, a}, 1, (int64_t[]){3}, why, sizeof why) < 0);
	k = tk_node(&g, "stack4", 4, (int[]){a, a, a, a}, 1, (int64_t[]){1}, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 4);
	k = tk_node(&g, "hstack", 2, (int[]){a, b}, 0, NULL, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 7);
	CHECK(tk_node(&g, "vstack", 2, (int[]){a, b}, 0, NULL, why, sizeof why) < 0);
	int v = tk_input(&g, DT_FLOAT32, 1, (int[]){5});
	k = tk_node(&g, "vstack", 2, (int[]){v, v}, 0, NULL, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 2);
	k = tk_node(&g, "hstack", 2, (int[]){v, v}, 0, NULL, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 10);
}

TEST(combine_chunk_counts_like_torch)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){5, 3});
	/* 5 in 4 chunks: ceil(5/4) = 2 each, so 3 pieces (2, 2, 1) */
	int k = tk_node(&g, "chunk", 1, &x, 2, (int64_t[]){4, 0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(g.n[k].nout, 3);
	CHECK_EQ(tk_out(&g, k, 2)->dim[0][0], 1);
	CHECK(tk_node(&g, "chunk", 1, &x, 2, (int64_t[]){0, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "chunk", 1, &x, 2, (int64_t[]){2, 2}, why, sizeof why) < 0);
	k = tk_node(&g, "chunk", 1, &x, 2, (int64_t[]){1, -1}, why, sizeof why);
	CHECK_EQ(g.n[k].nout, 1);
	/* split size 1 of 5 would be 5 pieces: too many */
	CHECK(tk_node(&g, "split", 1, &x, 2, (int64_t[]){1, 0}, why, sizeof why) < 0);
	k = tk_node(&g, "split", 1, &x, 2, (int64_t[]){2, 0}, why, sizeof why);
	CHECK_EQ(g.n[k].nout, 3);
}

TEST(combine_chunk_same_count_at_every_binding)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){4, 5});
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){-1});
	/* 4 in 4 chunks is 4 pieces, 5 in 4 chunks is 3 */
	CHECK(tk_node(&g, "chunk", 1, &x, 2, (int64_t[]){4, 0}, why, sizeof why) < 0);
	CHECK(strstr(why, "binding 1") != NULL);
	int k = tk_node(&g, "chunk", 1, &x, 2, (int64_t[]){2, 0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 1)->dim[0][0], 2);
	CHECK_EQ(tk_out(&g, k, 1)->dim[1][0], 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 3);
	/* tensor_split: always the asked count, larger pieces first */
	k = tk_node(&g, "tensor_split", 1, &x, 2, (int64_t[]){3, 0}, why, sizeof why);
	CHECK_EQ(g.n[k].nout, 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 2);
	CHECK_EQ(tk_out(&g, k, 1)->dim[1][0], 2);
	CHECK_EQ(tk_out(&g, k, 2)->dim[1][0], 1);
	CHECK(tk_node(&g, "tensor_split", 1, &x, 2, (int64_t[]){5, 0}, why, sizeof why) < 0);
	/* static sizes cannot sum to a dynamic dim */
	CHECK(tk_node(&g, "split_with_sizes", 1, &x, 4, (int64_t[]){0, 2, 2, 2}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "unbind", 1, &x, 1, (int64_t[]){0}, why, sizeof why) < 0);
}

TEST(combine_split_sizes_and_unbind)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_INT32, 3, (int[]){2, 6, 3});
	int k = tk_node(&g, "split_with_sizes", 1, &x, 5, (int64_t[]){1, 3, 1, 2, 3}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(g.n[k].nout, 3);
	CHECK_EQ(tk_out(&g, k, 2)->dim[0][1], 3);
	CHECK_EQ(tk_out(&g, k, 2)->hi, 5);
	CHECK(tk_node(&g, "split_with_sizes", 1, &x, 4, (int64_t[]){1, 2, 1, 2}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "split_with_sizes", 1, &x, 4, (int64_t[]){1, 2, 0, 6}, why, sizeof why) < 0);
	k = tk_node(&g, "unbind", 1, &x, 1, (int64_t[]){-1}, why, sizeof why);
	CHECK_EQ(g.n[k].nout, 3);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK(tk_node(&g, "unbind", 1, &x, 1, (int64_t[]){1}, why, sizeof why) < 0); /* 6 > 4 outputs */
}

TEST(combine_hstack_promotes_lifted_scalars)
{
	struct graph g;
	tk_static(&g);
	/* hstack lifts the 0-D int64 to 1-D first: plain promotion gives int64,
	 * where torch.result_type would let the dimensioned int32 win. */
	int a = tk_input(&g, DT_INT32, 1, (int[]){3});
	int s = tk_input(&g, DT_INT64, 0, NULL);
	int k = tk_node(&g, "hstack", 2, (int[]){a, s}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT64);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 4);
	k = tk_node(&g, "vstack", 2, (int[]){s, s}, 0, NULL, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 1);
}

TEST(combine_column_stack_dstack_lift_like_numpy)
{
	struct graph g;
	tk_static(&g);
	int v = tk_input(&g, DT_FLOAT32, 1, (int[]){3});
	int m = tk_input(&g, DT_INT64, 2, (int[]){3, 2});
	int k = tk_node(&g, "column_stack", 2, (int[]){v, m}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 3); /* [3, 1] + [3, 2] */
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 3);
	CHECK(tk_node(&g, "hstack", 2, (int[]){v, m}, 0, NULL, why, sizeof why) < 0);
	int t = tk_input(&g, DT_FLOAT32, 3, (int[]){1, 3, 2});
	k = tk_node(&g, "dstack", 2, (int[]){v, t}, 0, NULL, why, sizeof why); /* [1, 3, 1] + [1, 3, 2] */
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 3);
	CHECK(tk_node(&g, "dstack", 2, (int[]){m, t}, 0, NULL, why, sizeof why) < 0); /* [3, 2, 1] */
}

TEST(combine_block_diag_cartesian_prod_combinations)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){4, 5});
	int s = tk_input(&g, DT_FLOAT32, 0, NULL);
	int m = tk_input(&g, DT_BFLOAT16, 2, (int[]){2, -1});
	int k = tk_node(&g, "block_diag", 2, (int[]){m, s}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_BFLOAT16); /* a 0-D input promotes as a scalar */
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 6);
	int v = tk_input(&g, DT_FLOAT32, 1, (int[]){-1});
	int w = tk_input(&g, DT_FLOAT32, 1, (int[]){3});
	k = tk_node(&g, "cartesian_prod", 2, (int[]){v, w}, 0, NULL, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 15);
	int i = tk_input(&g, DT_INT64, 1, (int[]){3});
	CHECK(tk_node(&g, "cartesian_prod", 2, (int[]){v, i}, 0, NULL, why, sizeof why) < 0); /* dtypes differ */
	k = tk_node(&g, "combinations", 1, &v, 2, (int64_t[]){2, 0}, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 6);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 10);
	k = tk_node(&g, "combinations", 1, &w, 2, (int64_t[]){3, 1}, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 10);
	int two = tk_input(&g, DT_FLOAT32, 1, (int[]){2});
	CHECK(tk_node(&g, "combinations", 1, &two, 2, (int64_t[]){3, 0}, why, sizeof why) < 0); /* empty */
	CHECK(tk_node(&g, "combinations", 1, &w, 2, (int64_t[]){0, 0}, why, sizeof why) < 0);
}

TEST(combine_numpy_splits_need_divisible_dims)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){2, 4});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){6, -1, 4});
	int k = tk_node(&g, "hsplit", 1, &x, 1, (int64_t[]){2}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(g.n[k].nout, 2);
	CHECK_EQ(tk_out(&g, k, 1)->dim[1][1], 2);
	CHECK(tk_node(&g, "hsplit", 1, &x, 1, (int64_t[]){4}, why, sizeof why) < 0); /* s0 = 2 */
	CHECK(tk_node(&g, "vsplit", 1, &x, 1, (int64_t[]){3}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "vsplit", 1, &x, 1, (int64_t[]){4}, why, sizeof why) < 0);
	k = tk_node(&g, "dsplit", 1, &x, 1, (int64_t[]){4}, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 3)->dim[0][2], 1);
	int v = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	CHECK(tk_node(&g, "hsplit", 1, &v, 1, (int64_t[]){2}, why, sizeof why) >= 0); /* dim 0 of a 1-D */
	CHECK(tk_node(&g, "vsplit", 1, &v, 1, (int64_t[]){2}, why, sizeof why) < 0);
	k = tk_node(&g, "unbind_copy", 1, &x, 1, (int64_t[]){2}, why, sizeof why);
	CHECK_EQ(g.n[k].nout, 4);
	CHECK(tk_out(&g, k, 0)->contig);
	k = tk_node(&g, "unsafe_chunk", 1, &x, 2, (int64_t[]){4, 0}, why, sizeof why);
	CHECK_EQ(g.n[k].nout, 3);
	CHECK(tk_node(&g, "split_with_sizes_copy", 1, &x, 4, (int64_t[]){0, 2, 2, 4}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "split_with_sizes_copy", 1, &x, 4, (int64_t[]){0, 2, 2, 3}, why, sizeof why) < 0);
}

TEST(combine_broadcast_tensors_and_meshgrid_view_each_input)
{
	struct graph g;
	tk_static(&g);
	int a = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 1});
	int b = tk_input(&g, DT_INT64, 1, (int[]){3});
	int k = tk_node(&g, "broadcast_tensors", 2, (int[]){a, b}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 1)->dtype, DT_INT64);
	CHECK_EQ(tk_out(&g, k, 1)->dim[0][0], 2);
	CHECK_EQ(tk_out(&g, k, 0)->root, a);
	CHECK_EQ(tk_out(&g, k, 1)->root, b);
	CHECK(tk_out(&g, k, 0)->overlap && tk_out(&g, k, 1)->overlap);
	int d = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 1});
	CHECK(tk_node(&g, "broadcast_tensors", 2, (int[]){a, d}, 0, NULL, why, sizeof why) < 0);
	int c = tk_input(&g, DT_INT64, 1, (int[]){2});
	int s = tk_input(&g, DT_INT64, 0, NULL);
	k = tk_node(&g, "meshgrid", 2, (int[]){c, b}, 1, (int64_t[]){1}, why, sizeof why); /* 'xy' */
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 3);
	CHECK_EQ(tk_out(&g, k, 1)->dim[0][1], 2);
	CHECK_EQ(tk_out(&g, k, 1)->root, b);
	k = tk_node(&g, "meshgrid3", 3, (int[]){c, s, b}, 1, (int64_t[]){0}, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 2)->dim[0][1], 1);
	CHECK(tk_node(&g, "meshgrid", 2, (int[]){a, b}, 1, (int64_t[]){0}, why, sizeof why) < 0); /* 2-D */
	CHECK(tk_node(&g, "meshgrid", 2, (int[]){c, a}, 1, (int64_t[]){0}, why, sizeof why) < 0);
}
