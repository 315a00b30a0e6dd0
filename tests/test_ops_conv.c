/* Convolution shape rules: output sizes as torch computes them (checked
 * against torch 2.6), channel and group checks, padding-mode limits, and
 * dynamic spatial dims that fail at one binding only. */
#include "test.h"
#include "testkit.h"
#include <string.h>

static char why[300];

/* attrs of conv*d: in out kernel stride padding dilation groups bias */
TEST(conv_conv2d_strided_grouped)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 4, 9, 7});
	int k = tk_node(&g, "conv2d", 1, &x, 8, (int64_t[]){4, 6, 3, 2, 1, 1, 2, 1}, why, sizeof why);
	CHECK(k >= 0);
	const struct value *o = tk_out(&g, k, 0);
	CHECK_EQ(o->rank, 4);
	CHECK_EQ(o->dim[0][0], 2);
	CHECK_EQ(o->dim[0][1], 6);
	CHECK_EQ(o->dim[0][2], 5);
	CHECK_EQ(o->dim[0][3], 4);
	CHECK_EQ(o->dtype, DT_FLOAT32);
}

TEST(conv_conv1d_unbatched_dilated_depthwise)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_BFLOAT16, 2, (int[]){4, 10});
	int k = tk_node(&g, "conv1d", 1, &x, 8, (int64_t[]){4, 8, 3, 1, 0, 2, 4, 0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 8);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 6);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_BFLOAT16);
}

TEST(conv_rejects_bad_channels_groups_rank_dtype)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){1, 4, 6});
	int xi = tk_input(&g, DT_INT64, 3, (int[]){1, 4, 6});
	int x4 = tk_input(&g, DT_FLOAT32, 4, (int[]){1, 4, 6, 6});
	int x1 = tk_input(&g, DT_FLOAT32, 1, (int[]){6});
	CHECK(tk_node(&g, "conv1d", 1, &x, 8, (int64_t[]){4, 6, 3, 1, 0, 1, 1, 1}, why, sizeof why) >= 0);
	/* in_channels differs from the input's 4 channels */
	CHECK(tk_node(&g, "conv1d", 1, &x, 8, (int64_t[]){3, 6, 3, 1, 0, 1, 1, 1}, why, sizeof why) < 0);
	/* groups 4 does not divide out_channels 6 */
	CHECK(tk_node(&g, "conv1d", 1, &x, 8, (int64_t[]){4, 6, 3, 1, 0, 1, 4, 1}, why, sizeof why) < 0);
	/* stride 0, dilation 0, kernel 0 */
	CHECK(tk_node(&g, "conv1d", 1, &x, 8, (int64_t[]){4, 6, 3, 0, 0, 1, 1, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "conv1d", 1, &x, 8, (int64_t[]){4, 6, 3, 1, 0, 0, 1, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "conv1d", 1, &x, 8, (int64_t[]){4, 6, 0, 1, 0, 1, 1, 1}, why, sizeof why) < 0);
	/* kernel 7 exceeds 6 (+0 padding), but fits with padding 1 */
	CHECK(tk_node(&g, "conv1d", 1, &x, 8, (int64_t[]){4, 6, 7, 1, 0, 1, 1, 1}, why, sizeof why) < 0);
	int k = tk_node(&g, "conv1d", 1, &x, 8, (int64_t[]){4, 6, 7, 1, 1, 1, 1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 2);
	/* a 4-D input is not a conv1d input; a 1-D one neither; int64 has no conv */
	CHECK(tk_node(&g, "conv1d", 1, &x4, 8, (int64_t[]){4, 6, 3, 1, 0, 1, 1, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "conv1d", 1, &x1, 8, (int64_t[]){6, 6, 3, 1, 0, 1, 1, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "conv1d", 1, &xi, 8, (int64_t[]){4, 6, 3, 1, 0, 1, 1, 1}, why, sizeof why) < 0);
	/* wrong attribute count */
	CHECK(tk_node(&g, "conv1d", 1, &x, 7, (int64_t[]){4, 6, 3, 1, 0, 1, 1}, why, sizeof why) < 0);
}

TEST(conv_dynamic_spatial_checked_at_every_binding)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 8});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 2, -1});
	int k = tk_node(&g, "conv1d", 1, &x, 8, (int64_t[]){2, 3, 3, 1, 0, 1, 1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 1);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][2], 6);
	CHECK(tk_out(&g, k, 0)->dyn == 4);
	/* kernel 4 fits 8 but not 3 */
	CHECK(tk_node(&g, "conv1d", 1, &x, 8, (int64_t[]){2, 3, 4, 1, 0, 1, 1, 1}, why, sizeof why) < 0);
	CHECK(strstr(why, "binding 0") != NULL);
}

TEST(conv_dynamic_channel_rejected)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 4});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, -1, 6});
	CHECK(tk_node(&g, "conv1d", 1, &x, 8, (int64_t[]){3, 3, 3, 1, 0, 1, 1, 1}, why, sizeof why) < 0);
}

TEST(conv_padding_mode_limits)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){1, 2, 5});
	/* modes: 0 zeros, 1 reflect, 2 replicate, 3 circular */
	int k = tk_node(&g, "conv1d_padding_mode", 1, &x, 9, (int64_t[]){2, 2, 3, 1, 4, 1, 1, 1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 11);
	CHECK(tk_node(&g, "conv1d_padding_mode", 1, &x, 9, (int64_t[]){2, 2, 3, 1, 5, 1, 1, 1, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "conv1d_padding_mode", 1, &x, 9, (int64_t[]){2, 2, 3, 1, 5, 1, 1, 1, 3}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "conv1d_padding_mode", 1, &x, 9, (int64_t[]){2, 2, 3, 1, 6, 1, 1, 1, 3}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "conv1d_padding_mode", 1, &x, 9, (int64_t[]){2, 2, 3, 1, 9, 1, 1, 1, 2}, why, sizeof why) >= 0);
	/* no fifth mode */
	CHECK(tk_node(&g, "conv1d_padding_mode", 1, &x, 9, (int64_t[]){2, 2, 3, 1, 1, 1, 1, 1, 4}, why, sizeof why) < 0);
}

/* attrs of conv*d_same: in out kernel dilation groups bias padding_mode */
TEST(conv_same_keeps_size_and_checks_reflect_width)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){1, 2, 5});
	int k = tk_node(&g, "conv1d_same", 1, &x, 7, (int64_t[]){2, 4, 5, 4, 2, 1, 0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 4);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 5);
	/* kernel 4, dilation 3: pads (4, 5); 5 is not below 5 */
	CHECK(tk_node(&g, "conv1d_same", 1, &x, 7, (int64_t[]){2, 2, 4, 3, 1, 1, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "conv1d_same", 1, &x, 7, (int64_t[]){2, 2, 4, 2, 1, 1, 1}, why, sizeof why) >= 0);
	/* circular allows a width equal to the size */
	CHECK(tk_node(&g, "conv1d_same", 1, &x, 7, (int64_t[]){2, 2, 3, 5, 1, 1, 3}, why, sizeof why) >= 0);
}

/* attrs of conv_transpose*d: in out kernel stride padding output_padding groups bias dilation */
TEST(conv_transpose_sizes_and_output_padding)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){1, 2, 5});
	int k = tk_node(&g, "conv_transpose1d", 1, &x, 9, (int64_t[]){2, 2, 3, 1, 3, 0, 1, 1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 1);
	CHECK(tk_node(&g, "conv_transpose1d", 1, &x, 9, (int64_t[]){2, 2, 3, 1, 4, 0, 1, 1, 1}, why, sizeof why) < 0);
	/* output_padding must be below max(stride, dilation) */
	CHECK(tk_node(&g, "conv_transpose1d", 1, &x, 9, (int64_t[]){2, 2, 3, 2, 0, 2, 1, 1, 1}, why, sizeof why) < 0);
	k = tk_node(&g, "conv_transpose1d", 1, &x, 9, (int64_t[]){2, 2, 3, 1, 0, 2, 1, 1, 3}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 13);
	int u = tk_input(&g, DT_FLOAT16, 3, (int[]){4, 5, 6});
	k = tk_node(&g, "conv_transpose2d", 1, &u, 9, (int64_t[]){4, 6, 3, 2, 1, 1, 2, 1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 6);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 10);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 12);
	int v = tk_input(&g, DT_FLOAT32, 5, (int[]){1, 2, 2, 3, 4});
	k = tk_node(&g, "conv_transpose3d", 1, &v, 9, (int64_t[]){2, 3, 2, 3, 0, 2, 1, 0, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 7);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][3], 10);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][4], 13);
}

/* attrs of functional_conv*d: stride padding dilation groups */
TEST(conv_functional_takes_shape_from_weight)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 4, (int[]){1, 4, 5, 6});
	int w = tk_input(&g, DT_FLOAT32, 4, (int[]){6, 2, 3, 1});
	int b = tk_input(&g, DT_FLOAT32, 1, (int[]){6});
	int b5 = tk_input(&g, DT_FLOAT32, 1, (int[]){5});
	int bh = tk_input(&g, DT_FLOAT16, 1, (int[]){6});
	int k = tk_node(&g, "functional_conv2d", 3, (int[]){x, w, b}, 4, (int64_t[]){2, 1, 1, 2}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 6);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][3], 4);
	/* groups 1 wants 2 input channels; bias of 5; a float16 bias */
	CHECK(tk_node(&g, "functional_conv2d", 3, (int[]){x, w, b}, 4, (int64_t[]){2, 1, 1, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "functional_conv2d", 3, (int[]){x, w, b5}, 4, (int64_t[]){2, 1, 1, 2}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "functional_conv2d", 3, (int[]){x, w, bh}, 4, (int64_t[]){2, 1, 1, 2}, why, sizeof why) < 0);
	/* transposed: weight (in, out/groups, k...) = (4, 6/2, 3, 1) */
	int wt = tk_input(&g, DT_FLOAT32, 4, (int[]){4, 3, 3, 1});
	k = tk_node(&g, "functional_conv_transpose2d", 3, (int[]){x, wt, b}, 5, (int64_t[]){2, 1, 1, 2, 1}, why,
		    sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 6);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 10);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][3], 10);
}
