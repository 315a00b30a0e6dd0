/* Cast rules: float -> int only through the safe ops, integer bounds carried
 * over, type_as / to(other) take the second operand's dtype. */
#include "test.h"
#include "testkit.h"

static char why[300];

TEST(cast_float_to_int_only_through_safe_path)
{
	struct graph g;
	tk_static(&g);
	int f = tk_input(&g, DT_BFLOAT16, 2, (int[]){3, 4});
	CHECK(tk_node(&g, "to_dtype", 1, &f, 1, (int64_t[]){DT_INT32}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "to_dtype", 1, &f, 1, (int64_t[]){DT_BOOL}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "to_dtype", 1, &f, 1, (int64_t[]){DT_FLOAT64}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "to_int", 1, &f, 0, NULL, why, sizeof why) < 0);
	int k = tk_node(&g, "to_int_safe", 1, &f, 1, (int64_t[]){DT_INT64}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT64);
	CHECK_EQ(tk_out(&g, k, 0)->lo, -1000);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 1000);
	CHECK(tk_node(&g, "to_int_safe", 1, &f, 1, (int64_t[]){DT_FLOAT16}, why, sizeof why) < 0);
	k = tk_node(&g, "int_safe", 1, &f, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT32);
	/* the safe path has no meaning for integer inputs */
	int i = tk_input(&g, DT_INT64, 1, (int[]){3});
	CHECK(tk_node(&g, "long_safe", 1, &i, 0, NULL, why, sizeof why) < 0);
	CHECK(tk_node(&g, "to_dtype", 1, &i, 1, (int64_t[]){DT_COUNT}, why, sizeof why) < 0);
}

TEST(cast_integer_bounds)
{
	struct graph g;
	tk_static(&g);
	int i = tk_input(&g, DT_INT64, 2, (int[]){2, 2}); /* values in [0, 5] */
	int k = tk_node(&g, "to_int", 1, &i, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT32);
	CHECK_EQ(tk_out(&g, k, 0)->lo, 0);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 5);
	k = tk_node(&g, "to_bool", 1, &i, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 1);
	k = tk_node(&g, "to_half", 1, &i, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT16);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 2);
	/* the method spellings refuse a no-op cast: .float() of float32 is not generated */
	int f = tk_input(&g, DT_FLOAT32, 1, (int[]){2});
	CHECK(tk_node(&g, "to_float", 1, &f, 0, NULL, why, sizeof why) < 0);
}

TEST(cast_type_as_takes_second_dtype)
{
	struct graph g;
	tk_static(&g);
	int f = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int h = tk_input(&g, DT_FLOAT16, 1, (int[]){1});
	int i = tk_input(&g, DT_INT32, 0, NULL);
	int k = tk_node(&g, "type_as", 2, (int[]){f, h}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT16);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK(tk_node(&g, "type_as", 2, (int[]){f, i}, 0, NULL, why, sizeof why) < 0);
	CHECK(tk_node(&g, "to_other", 2, (int[]){f, i}, 0, NULL, why, sizeof why) < 0);
	k = tk_node(&g, "to_other", 2, (int[]){i, f}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT32);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);
}

TEST(cast_to_complex_read_as_real)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int i = tk_input(&g, DT_INT64, 2, (int[]){2, -1});
	int k = tk_node(&g, "to_cdouble", 1, &i, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	const struct value *v = tk_out(&g, k, 0);
	CHECK(v->dtype == DT_FLOAT64 && v->rank == 3 && v->dim[1][1] == 5 && v->dim[1][2] == 2);
	k = tk_node(&g, "to_chalf", 1, &i, 0, NULL, why, sizeof why);
	CHECK(k >= 0 && tk_out(&g, k, 0)->dtype == DT_FLOAT16);
	/* no room for the real/imaginary dim */
	int x6 = tk_input(&g, DT_FLOAT32, 6, (int[]){1, 1, 1, 1, 1, 2});
	CHECK(tk_node(&g, "to_cfloat", 1, &x6, 0, NULL, why, sizeof why) < 0);
}
