/* Misc rules: distances, interpolation sizes (floor of size * scale at every
 * binding), index bounds of embedding/one_hot, and the rearrangements. */
#include "test.h"
#include "testkit.h"
#include <string.h>

static char why[300];

static const struct value *node_out(struct graph *g, const char *op, unsigned nin, const int *in, unsigned nattr,
				    const int64_t *attr)
{
	int k = tk_node(g, op, nin, in, nattr, attr, why, sizeof why);
	return k >= 0 ? tk_out(g, k, 0) : NULL;
}

TEST(misc_pairwise_distance_drops_last_dim)
{
	struct graph g;
	tk_static(&g);
	int a = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 5});
	int b = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 5});
	int c = tk_input(&g, DT_FLOAT32, 1, (int[]){5});
	int d = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 3});
	int h = tk_input(&g, DT_FLOAT16, 2, (int[]){4, 5});
	int i = tk_input(&g, DT_INT64, 2, (int[]){4, 5});
	const struct value *o = node_out(&g, "pairwise_distance", 2, (int[]){a, b}, 1, (int64_t[]){2000});
	CHECK(o && o->rank == 1 && o->dim[0][0] == 4);
	o = node_out(&g, "pairwise_distance", 2, (int[]){a, c}, 1, (int64_t[]){1000});
	CHECK(o && o->rank == 1);
	o = node_out(&g, "pairwise_distance", 2, (int[]){i, i}, 1, (int64_t[]){2000});
	CHECK(o && o->dtype == DT_FLOAT32);
	o = node_out(&g, "pairwise_distance_fn", 2, (int[]){a, b}, 2, (int64_t[]){2000, 1});
	CHECK(o && o->rank == 2 && o->dim[0][1] == 1);
	CHECK(!node_out(&g, "pairwise_distance", 2, (int[]){a, d}, 1, (int64_t[]){2000}));
	CHECK(!node_out(&g, "pairwise_distance", 2, (int[]){a, h}, 1, (int64_t[]){2000}));
	CHECK(!node_out(&g, "pairwise_distance", 2, (int[]){a, b}, 1, (int64_t[]){-1000}));
	o = node_out(&g, "cosine_similarity", 2, (int[]){a, c}, 1, (int64_t[]){-1});
	CHECK(o && o->rank == 1 && o->dim[0][0] == 4);
	CHECK(!node_out(&g, "cosine_similarity", 2, (int[]){a, b}, 1, (int64_t[]){2}));
	CHECK(!node_out(&g, "cosine_similarity", 2, (int[]){i, i}, 1, (int64_t[]){0}));
}

TEST(misc_cdist_broadcasts_batch)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 4});
	int a = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, 4});
	int b = tk_input(&g, DT_FLOAT32, 2, (int[]){5, 4});
	int c = tk_input(&g, DT_FLOAT32, 2, (int[]){5, 3});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){7, -1}); /* [7, s0] */
	const struct value *o = node_out(&g, "cdist", 2, (int[]){a, b}, 1, (int64_t[]){2000});
	CHECK(o && o->rank == 3 && o->dim[0][0] == 2 && o->dim[0][1] == 3 && o->dim[0][2] == 5);
	CHECK(!node_out(&g, "cdist", 2, (int[]){a, c}, 1, (int64_t[]){2000}));
	/* feature dim s0 is 4 only at binding 1 */
	CHECK(!node_out(&g, "cdist", 2, (int[]){x, b}, 1, (int64_t[]){1000}));
	CHECK(strstr(why, "binding 0") != NULL);
	o = node_out(&g, "cdist", 2, (int[]){x, x}, 1, (int64_t[]){0});
	CHECK(o && o->dim[1][0] == 7 && o->dim[1][1] == 7);
}

/* modes: 0 nearest, 1 linear, 2 bilinear, 3 bicubic, 4 trilinear, 5 nearest-exact, 6 area */
TEST(misc_interpolate_modes_and_sizes)
{
	struct graph g;
	tk_static(&g);
	int x3 = tk_input(&g, DT_FLOAT32, 3, (int[]){1, 2, 10});
	int x4 = tk_input(&g, DT_FLOAT32, 4, (int[]){1, 2, 5, 6});
	int h4 = tk_input(&g, DT_FLOAT16, 4, (int[]){1, 2, 5, 6});
	const struct value *o = node_out(&g, "interpolate_size", 1, &x3, 3, (int64_t[]){0, 1, 7});
	CHECK(o && o->dim[0][2] == 7);
	CHECK(!node_out(&g, "interpolate_size", 1, &x3, 3, (int64_t[]){2, 1, 7}));
	CHECK(!node_out(&g, "interpolate_size", 1, &x4, 3, (int64_t[]){2, 1, 7}));
	o = node_out(&g, "interpolate_size", 1, &x4, 4, (int64_t[]){3, 2, 3, 9});
	CHECK(o && o->dim[0][2] == 3 && o->dim[0][3] == 9);
	/* 10 * 0.7 = 7 (double arithmetic), 10 * 0.05 rounds down to 0 */
	o = node_out(&g, "interpolate_scale", 1, &x3, 3, (int64_t[]){6, 700, 1});
	CHECK(o && o->dim[0][2] == 7);
	CHECK(!node_out(&g, "interpolate_scale", 1, &x3, 3, (int64_t[]){0, 50, 0}));
	/* align_corners only with the interpolating modes; antialias float32/64 bilinear/bicubic */
	CHECK(!node_out(&g, "interpolate_size_ac", 1, &x3, 5, (int64_t[]){0, 1, 0, 1, 4}));
	CHECK(node_out(&g, "interpolate_size_ac", 1, &x3, 5, (int64_t[]){1, 1, 0, 1, 4}) != NULL);
	CHECK(node_out(&g, "interpolate_size_ac", 1, &x4, 6, (int64_t[]){2, 0, 1, 2, 2, 3}) != NULL);
	CHECK(!node_out(&g, "interpolate_size_ac", 1, &h4, 6, (int64_t[]){2, 0, 1, 2, 2, 3}));
	CHECK(!node_out(&g, "interpolate_scale_ac", 1, &x4, 4, (int64_t[]){6, 2000, 0, 0}));
	o = node_out(&g, "upsample", 1, &x4, 2, (int64_t[]){5, 1500});
	CHECK(o && o->dim[0][2] == 7 && o->dim[0][3] == 9);
}

TEST(misc_interpolate_scale_checks_every_binding)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 6});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){1, 2, -1});
	const struct value *o = node_out(&g, "interpolate_scale", 1, &x, 3, (int64_t[]){0, 500, 0});
	CHECK(o && o->dim[0][2] == 1 && o->dim[1][2] == 3);
	CHECK(!node_out(&g, "interpolate_scale", 1, &x, 3, (int64_t[]){0, 250, 0}));
	CHECK(strstr(why, "binding 0") != NULL);
}

TEST(misc_index_ops_need_bounds)
{
	struct graph g;
	tk_static(&g);
	int i = tk_input(&g, DT_INT64, 2, (int[]){2, 3}); /* values in [0, 5] */
	int j = tk_input(&g, DT_INT32, 1, (int[]){4});
	const struct value *o = node_out(&g, "embedding", 1, &i, 3, (int64_t[]){6, 8, DT_FLOAT16});
	CHECK(o && o->rank == 3 && o->dim[0][2] == 8 && o->dtype == DT_FLOAT16);
	CHECK(!node_out(&g, "embedding", 1, &i, 3, (int64_t[]){5, 8, DT_FLOAT32}));
	CHECK(!node_out(&g, "embedding", 1, &i, 3, (int64_t[]){6, 8, DT_INT64}));
	CHECK(node_out(&g, "embedding", 1, &j, 3, (int64_t[]){6, 2, DT_FLOAT32}) != NULL);
	int w = tk_input(&g, DT_FLOAT64, 2, (int[]){6, 3});
	int w5 = tk_input(&g, DT_FLOAT64, 2, (int[]){5, 3});
	o = node_out(&g, "embedding_fn", 2, (int[]){i, w}, 0, NULL);
	CHECK(o && o->dtype == DT_FLOAT64 && o->dim[0][2] == 3);
	CHECK(!node_out(&g, "embedding_fn", 2, (int[]){i, w5}, 0, NULL));
	o = node_out(&g, "one_hot", 1, &i, 1, (int64_t[]){6});
	CHECK(o && o->dtype == DT_INT64 && o->dim[0][2] == 6 && o->lo == 0 && o->hi == 1);
	CHECK(!node_out(&g, "one_hot", 1, &i, 1, (int64_t[]){5}));
	CHECK(!node_out(&g, "one_hot", 1, &j, 1, (int64_t[]){6}));
}

TEST(misc_pixel_shuffle)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){4, 8});
	int x = tk_input(&g, DT_BOOL, 4, (int[]){1, 8, 2, 3});
	int y = tk_input(&g, DT_FLOAT32, 3, (int[]){-1, 4, 6}); /* channels s0 */
	const struct value *o = node_out(&g, "pixel_shuffle", 1, &x, 1, (int64_t[]){2});
	CHECK(o && o->dim[0][1] == 2 && o->dim[0][2] == 4 && o->dim[0][3] == 6);
	CHECK(!node_out(&g, "pixel_shuffle", 1, &x, 1, (int64_t[]){3}));
	o = node_out(&g, "pixel_shuffle", 1, &y, 1, (int64_t[]){2});
	CHECK(o && o->dim[0][0] == 1 && o->dim[1][0] == 2);
	o = node_out(&g, "pixel_unshuffle", 1, &y, 1, (int64_t[]){2});
	CHECK(o && o->dim[1][0] == 32 && o->dim[0][1] == 2 && o->dim[0][2] == 3);
	CHECK(!node_out(&g, "pixel_unshuffle", 1, &y, 1, (int64_t[]){4}));
}

TEST(misc_rearrangements)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_INT64, 3, (int[]){2, 3, 4}); /* values in [0, 5] */
	const struct value *o = node_out(&g, "flip", 1, &x, 3, (int64_t[]){2, 0, -1});
	CHECK(o && o->lo == 0 && o->hi == 5);
	CHECK(!node_out(&g, "flip", 1, &x, 3, (int64_t[]){2, 0, -3}));
	CHECK(!node_out(&g, "flip", 1, &x, 2, (int64_t[]){1, 3}));
	CHECK(!node_out(&g, "flip", 1, &x, 1, (int64_t[]){0}));
	CHECK(node_out(&g, "roll", 1, &x, 2, (int64_t[]){7, -1}) != NULL);
	CHECK(!node_out(&g, "roll", 1, &x, 2, (int64_t[]){7, 3}));
	CHECK(!node_out(&g, "roll2", 1, &x, 4, (int64_t[]){1, 2, 1, -2}));
	int s = tk_input(&g, DT_FLOAT32, 0, NULL);
	CHECK(node_out(&g, "roll_flat", 1, &s, 1, (int64_t[]){3}) != NULL);
	o = node_out(&g, "rot90", 1, &x, 3, (int64_t[]){-1, 0, 2});
	CHECK(o && o->dim[0][0] == 4 && o->dim[0][2] == 2);
	o = node_out(&g, "rot90", 1, &x, 3, (int64_t[]){2, 0, 2});
	CHECK(o && o->dim[0][0] == 2 && o->dim[0][2] == 4);
	CHECK(!node_out(&g, "rot90", 1, &x, 3, (int64_t[]){1, 1, 1}));
	int n = tk_input(&g, DT_INT32, 2, (int[]){3, 4});
	o = node_out(&g, "tril", 1, &n, 1, (int64_t[]){-1});
	CHECK(o && o->lo == 0);
	CHECK(!node_out(&g, "triu", 1, &s, 1, (int64_t[]){0}));
}

TEST(misc_diagonal_and_diag_embed)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 6});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, 4});
	int m = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 5});
	int d = tk_input(&g, DT_FLOAT32, 2, (int[]){4, -1}); /* [4, s0] */
	const struct value *o = node_out(&g, "diagonal", 1, &x, 3, (int64_t[]){0, 0, 2});
	CHECK(o && o->rank == 2 && o->dim[0][0] == 3 && o->dim[0][1] == 2);
	o = node_out(&g, "diagonal", 1, &m, 3, (int64_t[]){-2, 0, 1});
	CHECK(o && o->dim[0][0] == 1);
	o = node_out(&g, "diagonal", 1, &m, 3, (int64_t[]){4, 0, 1});
	CHECK(o && o->dim[0][0] == 1);
	CHECK(!node_out(&g, "diagonal", 1, &m, 3, (int64_t[]){5, 0, 1}));
	/* offset 4 leaves s0 - 4 columns: none at binding 0 */
	CHECK(!node_out(&g, "diagonal", 1, &d, 3, (int64_t[]){4, 0, 1}));
	CHECK(strstr(why, "binding 0") != NULL);
	int v = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 3});
	o = node_out(&g, "diag_embed", 1, &v, 3, (int64_t[]){1, 0, 2});
	CHECK(o && o->rank == 3 && o->dim[0][0] == 4 && o->dim[0][1] == 2 && o->dim[0][2] == 4);
	o = node_out(&g, "diag_embed", 1, &v, 3, (int64_t[]){-1, -1, 0});
	CHECK(o && o->dim[0][0] == 4 && o->dim[0][1] == 2 && o->dim[0][2] == 4);
	CHECK(!node_out(&g, "diag_embed", 1, &v, 3, (int64_t[]){0, 1, -2}));
	CHECK(!node_out(&g, "diag_embed", 1, &v, 3, (int64_t[]){0, 0, 3}));
}

TEST(misc_pdist_counts_row_pairs)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){2, 6});
	int x = tk_input(&g, DT_FLOAT64, 2, (int[]){-1, 3});
	const struct value *o = node_out(&g, "pdist", 1, &x, 1, (int64_t[]){2000});
	CHECK(o && o->rank == 1 && o->dim[0][0] == 1 && o->dim[1][0] == 15 && o->dtype == DT_FLOAT64);
	CHECK(!node_out(&g, "pdist", 1, &x, 1, (int64_t[]){-1000})); /* p >= 0 */
	int one = tk_input(&g, DT_FLOAT32, 2, (int[]){1, 3});
	CHECK(!node_out(&g, "pdist", 1, &one, 1, (int64_t[]){2000})); /* no pairs: an empty result */
	int h = tk_input(&g, DT_FLOAT16, 2, (int[]){4, 3});
	CHECK(!node_out(&g, "pdist", 1, &h, 1, (int64_t[]){2000})); /* no half kernel */
}

TEST(misc_upsample_spellings_fix_the_mode)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 6});
	int x3 = tk_input(&g, DT_FLOAT32, 3, (int[]){1, 2, -1});
	int x4 = tk_input(&g, DT_FLOAT32, 4, (int[]){1, 2, -1, 4});
	const struct value *o = node_out(&g, "upsample_nearest", 1, &x3, 2, (int64_t[]){1, 7});
	CHECK(o && o->dim[0][2] == 7 && o->dim[1][2] == 7);
	CHECK(!node_out(&g, "upsample_nearest", 1, &x4, 2, (int64_t[]){1, 7})); /* one size per spatial dim */
	o = node_out(&g, "upsample_bilinear", 1, &x4, 1, (int64_t[]){1500});
	CHECK(o && o->dim[0][2] == 4 && o->dim[1][2] == 9 && o->dim[1][3] == 6);
	CHECK(!node_out(&g, "upsample_bilinear", 1, &x3, 1, (int64_t[]){1500})); /* bilinear: 4-D only */
}

TEST(misc_grid_sample_takes_the_grid_shape)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){2, 3});
	int x = tk_input(&g, DT_FLOAT32, 4, (int[]){-1, 3, 5, 5});
	int gr = tk_input(&g, DT_FLOAT32, 4, (int[]){-1, 4, 6, 2});
	int g3 = tk_input(&g, DT_FLOAT32, 4, (int[]){-1, 4, 6, 3});
	int gh = tk_input(&g, DT_FLOAT16, 4, (int[]){-1, 4, 6, 2});
	int gb = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 4, 6, 2});
	/* mode bicubic (2), padding 'border' (strs index 4) */
	const struct value *o = node_out(&g, "grid_sample", 2, (int[]){x, gr}, 3, (int64_t[]){2, 4, 1});
	CHECK(o && o->dim[1][0] == 3 && o->dim[0][1] == 3 && o->dim[0][2] == 4 && o->dim[0][3] == 6);
	CHECK(!node_out(&g, "grid_sample", 2, (int[]){x, gr}, 3, (int64_t[]){1, 4, 1})); /* nearest: left out */
	CHECK(!node_out(&g, "grid_sample", 2, (int[]){x, gr}, 3, (int64_t[]){0, 2, 1})); /* not a padding mode */
	CHECK(!node_out(&g, "grid_sample", 2, (int[]){x, g3}, 3, (int64_t[]){0, 3, 0})); /* 2 coordinates in 2-D */
	CHECK(!node_out(&g, "grid_sample", 2, (int[]){x, gh}, 3, (int64_t[]){0, 3, 0})); /* one dtype */
	CHECK(!node_out(&g, "grid_sample", 2, (int[]){x, gb}, 3, (int64_t[]){0, 3, 0})); /* batch 2 vs 3 */
	CHECK(node_out(&g, "grid_sampler_2d", 2, (int[]){x, gr}, 3, (int64_t[]){0, 2, 0}) != NULL);
	CHECK(!node_out(&g, "grid_sampler_2d", 2, (int[]){x, gr}, 3, (int64_t[]){0, 3, 0}));
	int v = tk_input(&g, DT_FLOAT32, 5, (int[]){2, 3, 4, 4, 4});
	int gv = tk_input(&g, DT_FLOAT32, 5, (int[]){2, 1, 2, 3, 3});
	o = node_out(&g, "grid_sampler_3d", 2, (int[]){v, gv}, 3, (int64_t[]){0, 1, 1});
	CHECK(o && o->rank == 5 && o->dim[0][2] == 1 && o->dim[0][4] == 3);
	CHECK(!node_out(&g, "grid_sampler_3d", 2, (int[]){v, gv}, 3, (int64_t[]){2, 1, 1})); /* bicubic: 2-D only */
}

TEST(misc_embedding_bag_sums_rows_of_bags)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){2, 4});
	int i = tk_input(&g, DT_INT64, 2, (int[]){-1, 3}); /* values in [0, 5] */
	int w = tk_input(&g, DT_FLOAT16, 2, (int[]){6, 7});
	int w5 = tk_input(&g, DT_FLOAT16, 2, (int[]){5, 7});
	const struct value *o = node_out(&g, "embedding_bag", 2, (int[]){i, w}, 1, (int64_t[]){2});
	CHECK(o && o->rank == 2 && o->dim[1][0] == 4 && o->dim[0][1] == 7 && o->dtype == DT_FLOAT16);
	CHECK(!node_out(&g, "embedding_bag", 2, (int[]){i, w5}, 1, (int64_t[]){0})); /* index 5 past 5 rows */
	CHECK(!node_out(&g, "embedding_bag", 2, (int[]){i, w}, 1, (int64_t[]){3})); /* no such mode */
}

/* attrs: num_heads need_weights */
TEST(misc_multi_head_attention_keeps_the_query_shape)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){-1, 2, 8});
	int wi = tk_input(&g, DT_FLOAT32, 2, (int[]){24, 8});
	int wo = tk_input(&g, DT_FLOAT32, 2, (int[]){8, 8});
	const struct value *o = node_out(&g, "multi_head_attention_forward", 3, (int[]){x, wi, wo}, 2, (int64_t[]){4, 1});
	CHECK(o && o->rank == 3 && o->dim[1][0] == 5 && o->dim[0][2] == 8);
	CHECK(!node_out(&g, "multi_head_attention_forward", 3, (int[]){x, wi, wo}, 2, (int64_t[]){3, 1})); /* 8 % 3 */
	CHECK(!node_out(&g, "multi_head_attention_forward", 3, (int[]){x, wo, wo}, 2, (int64_t[]){2, 0}));
	int wh = tk_input(&g, DT_FLOAT16, 2, (int[]){8, 8});
	CHECK(!node_out(&g, "multi_head_attention_forward", 3, (int[]){x, wi, wh}, 2, (int64_t[]){2, 0}));
	int d = tk_input(&g, DT_FLOAT32, 2, (int[]){4, -1}); /* a dynamic embed dim */
	int dw = tk_input(&g, DT_FLOAT32, 2, (int[]){9, 3});
	int dwo = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 3});
	CHECK(!node_out(&g, "multi_head_attention_forward", 3, (int[]){d, dw, dwo}, 2, (int64_t[]){1, 0}));
}
