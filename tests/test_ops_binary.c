/* Division that rounds (div's rounding_mode, floor_divide): an integer
 * quotient only with a divisor that cannot be zero (CPU raises
 * ZeroDivisionError) and, when negative, a dividend that cannot be the
 * dtype's minimum (its quotient by -1 traps); the quotient's bounds; float
 * quotients without constraint. No bool operands (ours: torch divides by a
 * bool divisor, but a bool pair has no kernel). */
#include "test.h"
#include "testkit.h"

static char why[300];

enum { TRUNC, FLOOR };

static int div_node(struct graph *g, int x, int d, int64_t mode)
{
	return tk_node(g, "div_rounding", 2, (int[]){x, d}, 1, &mode, why, sizeof why);
}

TEST(binary_integer_division_needs_a_divisor_away_from_zero)
{
	struct graph g;
	tk_static(&g);
	int x = tk_leaf(&g, DT_INT64, 2, (int[]){3, 4}, FILL_RANGE, -6, 5);
	int pos = tk_leaf(&g, DT_INT64, 1, (int[]){4}, FILL_RANGE, 1, 8);
	int neg = tk_leaf(&g, DT_INT32, 1, (int[]){4}, FILL_RANGE, -3, -1);
	int zero = tk_leaf(&g, DT_INT64, 1, (int[]){4}, FILL_RANGE, 0, 8);
	int k = div_node(&g, x, pos, FLOOR);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT64);
	CHECK_EQ(tk_out(&g, k, 0)->lo, -6);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 5);
	k = div_node(&g, x, neg, TRUNC); /* int64 / int32: int64, signs flipped */
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->lo, -5);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 6);
	CHECK(div_node(&g, x, zero, FLOOR) < 0);
	CHECK(tk_node(&g, "floor_divide", 2, (int[]){x, zero}, 0, NULL, why, sizeof why) < 0);
	CHECK(tk_node(&g, "floor_divide", 2, (int[]){x, pos}, 0, NULL, why, sizeof why) >= 0);
	/* x * x has unknown bounds: it may be the minimum, so no negative divisor */
	int sq = tk_node(&g, "mul", 2, (int[]){x, x}, 0, NULL, why, sizeof why);
	int big = (int)g.n[sq].out0;
	CHECK(div_node(&g, big, pos, TRUNC) >= 0);
	CHECK(div_node(&g, big, neg, TRUNC) < 0);
	CHECK(div_node(&g, x, pos, 2) < 0); /* 'trunc' and 'floor' only */
}

TEST(binary_float_division_rounds_without_constraint)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int f = tk_input(&g, DT_FLOAT16, 2, (int[]){2, -1});
	int i = tk_input(&g, DT_INT64, 1, (int[]){-1}); /* [0, 5]: zero divides a float into inf */
	int b = tk_input(&g, DT_BOOL, 1, (int[]){-1});
	int k = div_node(&g, f, i, FLOOR);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT16);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 5);
	k = div_node(&g, i, f, TRUNC); /* an integer dividend, a float quotient */
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT16);
	CHECK(div_node(&g, f, b, FLOOR) < 0); /* ours: no bool operand */
	int bad = tk_input(&g, DT_FLOAT16, 1, (int[]){4});
	CHECK(div_node(&g, f, bad, FLOOR) < 0);
}

TEST(binary_lcm_and_shifts_stay_defined)
{
	struct graph g;
	tk_static(&g);
	int a = tk_leaf(&g, DT_INT32, 1, (int[]){4}, FILL_RANGE, -40, 40);
	int b = tk_leaf(&g, DT_INT32, 1, (int[]){4}, FILL_RANGE, 1, 30);
	int wide = tk_leaf(&g, DT_INT32, 1, (int[]){4}, FILL_RANGE, -100000, 100000);
	int k = tk_node(&g, "lcm", 2, (int[]){a, b}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT32);
	CHECK(tk_node(&g, "lcm", 2, (int[]){wide, wide}, 0, NULL, why, sizeof why) < 0); /* 10^10 overflows int32 */
	int n = tk_leaf(&g, DT_INT32, 1, (int[]){4}, FILL_RANGE, 0, 7);
	int neg = tk_leaf(&g, DT_INT32, 1, (int[]){4}, FILL_RANGE, -1, 3);
	int small = tk_leaf(&g, DT_INT8, 1, (int[]){4}, FILL_RANGE, 0, 9);
	int small_x = tk_leaf(&g, DT_INT8, 1, (int[]){4}, FILL_RANGE, -9, 9);
	CHECK(tk_node(&g, "bitwise_left_shift", 2, (int[]){wide, n}, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "bitwise_right_shift", 2, (int[]){wide, neg}, 0, NULL, why, sizeof why) < 0);
	CHECK(tk_node(&g, "bitwise_left_shift", 2, (int[]){small_x, small}, 0, NULL, why, sizeof why) < 0); /* 9 >= 8 bits */
	CHECK(tk_node(&g, "bitwise_left_shift", 2, (int[]){wide, small}, 0, NULL, why, sizeof why) < 0); /* mixed dtypes */
}

TEST(binary_complex_parts_and_cross)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, -1, 3});
	int y = tk_input(&g, DT_FLOAT32, 3, (int[]){1, -1, 3});
	int y1 = tk_input(&g, DT_FLOAT32, 3, (int[]){2, -1, 1});
	int d = tk_input(&g, DT_FLOAT64, 3, (int[]){2, -1, 3});
	int k = tk_node(&g, "complex", 2, (int[]){x, y}, 0, NULL, why, sizeof why);
	CHECK(k >= 0 && tk_out(&g, k, 0)->rank == 4 && tk_out(&g, k, 0)->dim[1][1] == 5 && tk_out(&g, k, 0)->dim[1][3] == 2);
	CHECK(tk_node(&g, "polar", 2, (int[]){x, d}, 0, NULL, why, sizeof why) < 0); /* mixed dtypes */
	CHECK(tk_node(&g, "view_as_complex_abs", 2, (int[]){x, x}, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "view_as_complex_abs", 2, (int[]){x, y}, 0, NULL, why, sizeof why) < 0); /* stack: one shape */
	k = tk_node(&g, "cross", 2, (int[]){x, y}, 1, (int64_t[]){-1}, why, sizeof why);
	CHECK(k >= 0 && tk_out(&g, k, 0)->dim[0][0] == 2 && tk_out(&g, k, 0)->dim[1][1] == 5);
	k = tk_node(&g, "linalg_cross", 2, (int[]){x, y}, 1, (int64_t[]){1}, why, sizeof why); /* s0's first 3 */
	CHECK(k >= 0 && tk_out(&g, k, 0)->dim[1][1] == 3 && tk_out(&g, k, 0)->dim[1][2] == 3);
	CHECK(tk_node(&g, "linalg_cross", 2, (int[]){x, y1}, 1, (int64_t[]){2}, why, sizeof why) < 0); /* 3 and 1 */
	CHECK(tk_node(&g, "linalg_cross", 2, (int[]){x, x}, 1, (int64_t[]){0}, why, sizeof why) < 0); /* 2 < 3 */
	int v = tk_input(&g, DT_FLOAT32, 1, (int[]){3});
	CHECK(tk_node(&g, "linalg_cross", 2, (int[]){x, v}, 1, (int64_t[]){-1}, why, sizeof why) < 0); /* ranks differ */
}
