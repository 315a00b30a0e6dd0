/* Padding's shape rules: what torch accepts, computed sizes at every
 * binding, and the cases torch rejects (reflect width >= size, wrong rank). */
#include "test.h"
#include "testkit.h"
#include <string.h>

static char why[300];

TEST(pad_constant_grows_and_crops)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, 4});
	/* value 1.5, pad last dim (1, 2), crop dim 1 by (-1, 0) */
	int k = tk_node(&g, "pad_constant", 1, &x, 6, (int64_t[]){1500, 4, 1, 2, -1, 0}, why, sizeof why);
	CHECK(k >= 0);
	const struct value *o = tk_out(&g, k, 0);
	CHECK_EQ(o->rank, 3);
	CHECK_EQ(o->dim[0][0], 2);
	CHECK_EQ(o->dim[0][1], 2);
	CHECK_EQ(o->dim[0][2], 7);
}

TEST(pad_constant_rejects_crop_to_nothing)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 3});
	CHECK(tk_node(&g, "pad_constant", 1, &x, 4, (int64_t[]){0, 2, -2, -1}, why, sizeof why) < 0);
}

TEST(pad_reflect_on_dynamic_dim_checks_every_binding)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 6});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 4, -1}); /* last dim = s0 */
	/* width 2 < 3 and < 6: fine at both bindings */
	int k = tk_node(&g, "pad_reflect", 1, &x, 3, (int64_t[]){2, 2, 2}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 7);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][2], 10);
	CHECK(tk_out(&g, k, 0)->dyn == 4);
	/* width 3 is not below 3 at binding 0 */
	CHECK(tk_node(&g, "pad_reflect", 1, &x, 3, (int64_t[]){2, 3, 0}, why, sizeof why) < 0);
	CHECK(strstr(why, "binding 0") != NULL);
}

TEST(pad_reflect_rank_rules)
{
	struct graph g;
	tk_static(&g);
	int x1 = tk_input(&g, DT_FLOAT32, 1, (int[]){5});
	int x4 = tk_input(&g, DT_FLOAT32, 4, (int[]){1, 2, 5, 5});
	/* reflect of 1 dim needs a 2-D or 3-D input */
	CHECK(tk_node(&g, "pad_reflect", 1, &x1, 3, (int64_t[]){2, 1, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "pad_reflect", 1, &x4, 3, (int64_t[]){2, 1, 1}, why, sizeof why) < 0);
	/* 2 dims of a 4-D input is fine */
	CHECK(tk_node(&g, "pad_reflect", 1, &x4, 5, (int64_t[]){4, 1, 1, 2, 2}, why, sizeof why) >= 0);
	/* ReflectionPad3d takes exactly 6 widths */
	int x5 = tk_input(&g, DT_FLOAT32, 5, (int[]){2, 3, 4, 4, 4});
	CHECK(tk_node(&g, "reflection_pad3d", 1, &x5, 5, (int64_t[]){4, 1, 1, 1, 1}, why, sizeof why) < 0);
	int k = tk_node(&g, "reflection_pad3d", 1, &x5, 7, (int64_t[]){6, 1, 1, 1, 1, 1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 6);
}

TEST(pad_circular_allows_width_equal_to_size)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){1, 2, 3});
	CHECK(tk_node(&g, "pad_circular", 1, &x, 3, (int64_t[]){2, 3, 3}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "pad_circular", 1, &x, 3, (int64_t[]){2, 4, 0}, why, sizeof why) < 0);
}

TEST(pad_rejects_bool_reflect_and_bad_fill)
{
	struct graph g;
	tk_static(&g);
	int b = tk_input(&g, DT_BOOL, 3, (int[]){1, 2, 3});
	int i = tk_input(&g, DT_INT64, 2, (int[]){2, 3});
	CHECK(tk_node(&g, "pad_reflect", 1, &b, 3, (int64_t[]){2, 1, 1}, why, sizeof why) < 0);
	/* integer tensors take integral fill values only */
	CHECK(tk_node(&g, "pad_constant", 1, &i, 4, (int64_t[]){500, 2, 1, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "pad_constant", 1, &i, 4, (int64_t[]){2000, 2, 1, 1}, why, sizeof why) >= 0);
}

TEST(pad_constant_crop_narrows_before_padding)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){5});
	/* -7 + 3 leaves 1 element, but torch narrows by -7 first: rejected */
	CHECK(tk_node(&g, "pad_constant", 1, &x, 4, (int64_t[]){0, 2, -7, 3}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "pad_constant", 1, &x, 4, (int64_t[]){0, 2, -6, 3}, why, sizeof why) < 0);
	/* narrowing to nothing is allowed when the right pad refills the dim */
	int k = tk_node(&g, "pad_constant", 1, &x, 4, (int64_t[]){0, 2, -5, 3}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 3);
}
