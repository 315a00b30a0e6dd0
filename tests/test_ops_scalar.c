/* Binary ops with a Python number (graph/ops/scalar.c): a float number
 * keeps a float tensor's dtype and makes float32 of the rest, an integer
 * keeps an integer tensor's (bool becomes int64), comparisons give bool;
 * where broadcasts with its condition; integer divisors are never 0, nor
 * negative for a dividend that may be the minimum; the spellings. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../graph/emit.h"
#include "../graph/real.h"
#include "test.h"
#include "testkit.h"

static char why[300];

static int one(struct graph *g, const char *op, int x, int64_t a)
{
	return tk_node(g, op, 1, &x, 1, &a, why, sizeof why);
}

TEST(scalar_rows_promote_like_eager)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int h = tk_input(&g, DT_FLOAT16, 2, (int[]){2, -1});
	int i = tk_input(&g, DT_INT32, 1, (int[]){4});
	int b = tk_input(&g, DT_BOOL, 1, (int[]){4});
	int64_t nan = real_bits(NAN);
	CHECK_EQ(tk_out(&g, one(&g, "add_scalar", h, nan), 0)->dtype, DT_FLOAT16);
	CHECK_EQ(tk_out(&g, one(&g, "add_scalar", h, nan), 0)->dim[1][1], 5);
	CHECK_EQ(tk_out(&g, one(&g, "div_scalar", i, real_bits(-0.0)), 0)->dtype, DT_FLOAT32);
	CHECK_EQ(tk_out(&g, one(&g, "mul_scalar", b, real_bits(1e-6)), 0)->dtype, DT_FLOAT32);
	CHECK_EQ(tk_out(&g, one(&g, "lt_scalar", h, real_bits(INFINITY)), 0)->dtype, DT_BOOL);
	CHECK_EQ(tk_out(&g, one(&g, "eq_int_scalar", i, 3), 0)->hi, 1);
	CHECK_EQ(tk_out(&g, one(&g, "add_int_scalar", i, -3), 0)->dtype, DT_INT32);
	CHECK_EQ(tk_out(&g, one(&g, "add_int_scalar", b, 2), 0)->dtype, DT_INT64);
	CHECK(one(&g, "add_int_scalar", i, 1000) < 0);          /* out of the drawn range */
	CHECK(one(&g, "rpow_scalar", i, real_bits(2.0)) < 0);    /* float tensors only */
	CHECK(one(&g, "sub_scalar", b, real_bits(2.0)) < 0);     /* no bool subtraction */
	CHECK(one(&g, "add_int_scalar", h, 1) < 0);              /* an int number with a float tensor: add_scalar */
	int k = tk_node(&g, "where_scalar", 2, (int[]){i, b}, 1, (int64_t[]){real_bits(-INFINITY)}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT32);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 4);
	CHECK(tk_node(&g, "where_scalar", 2, (int[]){i, i}, 1, (int64_t[]){0}, why, sizeof why) < 0); /* int cond */
	CHECK(tk_node(&g, "where_scalar", 2, (int[]){h, b}, 1, (int64_t[]){0}, why, sizeof why) < 0); /* [2,s0] vs [4] */
}

TEST(scalar_integer_divisors_avoid_zero_and_the_minimum)
{
	struct graph g;
	tk_static(&g);
	int x = tk_leaf(&g, DT_INT64, 1, (int[]){4}, FILL_RANGE, -6, 5);
	int u = tk_leaf(&g, DT_UINT8, 1, (int[]){4}, FILL_RANGE, 0, 200);
	int any = tk_node(&g, "mul", 2, (int[]){x, x}, 0, NULL, why, sizeof why); /* unbounded */
	CHECK(any >= 0);
	any = g.n[any].out0;
	CHECK(one(&g, "floor_divide_int_scalar", x, 0) < 0);
	CHECK(one(&g, "floor_divide_int_scalar", x, -3) >= 0);
	CHECK(one(&g, "remainder_int_scalar", u, -3) < 0); /* unsigned */
	CHECK(one(&g, "remainder_int_scalar", u, 3) >= 0);
	CHECK(one(&g, "floor_divide_int_scalar", any, -1) < 0);
	CHECK(one(&g, "floor_divide_int_scalar", any, 2) >= 0);
}

TEST(scalar_rows_spell_the_number_exactly)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int b = tk_input(&g, DT_BOOL, 1, (int[]){4});
	CHECK(one(&g, "rpow_scalar", x, real_bits(-2.0)) >= 0);
	CHECK(one(&g, "rdiv_scalar", x, real_bits(3.0)) >= 0);
	CHECK(one(&g, "clamp_min_scalar", x, real_bits(-0.0)) >= 0);
	CHECK(tk_node(&g, "where_scalar", 2, (int[]){x, b}, 1, (int64_t[]){real_bits(1e-6)}, why, sizeof why) >= 0);
	CHECK(one(&g, "pow_scalar", x, real_bits(0.5)) >= 0);
	CHECK(tk_node(&g, "clamp", 1, &x, 2, (int64_t[]){real_bits(-INFINITY), real_bits(1.0 / 300)}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "clamp", 1, &x, 2, (int64_t[]){real_bits(1.0), real_bits(-1.0)}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "clamp", 1, &x, 2, (int64_t[]){real_bits(NAN), real_bits(-1.0)}, why, sizeof why) >= 0);
	graph_mark_sinks(&g);
	char *p = emit_program_string(&g, NULL, NULL);
	CHECK(p && strstr(p, "(-2.0) ** x0") && strstr(p, "3.0 / x0") && strstr(p, "torch.clamp_min(x0, -0.0)") &&
	      strstr(p, "torch.where(x1, x0, 1e-06)") && strstr(p, "torch.pow(x0, 0.5)") &&
	      strstr(p, "torch.clamp(x0, min=float('-inf'), max=0.0033333333333333335)") &&
	      strstr(p, "torch.clamp(x0, min=float('nan'), max=-1.0)"));
	free(p);
}
