/* Scans' shape rules: same shape out, int/bool promotion, cummax/cummin
 * indices (bounded, tie-broken), the dtype= variant, and rejected dims. */
#include "test.h"
#include "testkit.h"
#include <string.h>

static char why[300];

TEST(cumulative_cumsum_promotes_integers)
{
	struct graph g;
	tk_static(&g);
	int i = tk_input(&g, DT_INT32, 2, (int[]){2, 3});
	int b = tk_input(&g, DT_BOOL, 1, (int[]){4});
	int f = tk_input(&g, DT_BFLOAT16, 2, (int[]){2, 3});
	int k = tk_node(&g, "cumsum", 1, &i, 1, (int64_t[]){-1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT64);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 3);
	k = tk_node(&g, "cumprod", 1, &b, 1, (int64_t[]){0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT64);
	k = tk_node(&g, "cumsum", 1, &f, 1, (int64_t[]){0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_BFLOAT16);
	CHECK(tk_node(&g, "cumsum", 1, &i, 1, (int64_t[]){2}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "cumsum", 1, &i, 1, (int64_t[]){-3}, why, sizeof why) < 0);
}

TEST(cumulative_cummax_values_and_indices)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_INT64, 2, (int[]){2, -1});
	int k = tk_node(&g, "cummax", 1, &x, 1, (int64_t[]){1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(g.n[k].nout, 2);
	const struct value *v = tk_out(&g, k, 0), *ix = tk_out(&g, k, 1);
	CHECK_EQ(v->dtype, DT_INT64);
	CHECK(!v->tie);
	CHECK_EQ(v->lo, 0);
	CHECK_EQ(v->hi, 5);
	CHECK(ix->tie);
	CHECK_EQ(ix->lo, 0);
	CHECK_EQ(ix->hi, 4);
	CHECK_EQ(ix->dim[1][1], 5);
	CHECK(ix->dyn == 2);
	k = tk_node(&g, "cummin", 1, &x, 1, (int64_t[]){0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 1)->hi, 1);
}

TEST(cumulative_logcumsumexp_needs_float)
{
	struct graph g;
	tk_static(&g);
	int i = tk_input(&g, DT_INT32, 2, (int[]){2, 3});
	int f = tk_input(&g, DT_FLOAT16, 2, (int[]){2, 3});
	CHECK(tk_node(&g, "logcumsumexp", 1, &i, 1, (int64_t[]){0}, why, sizeof why) < 0);
	int k = tk_node(&g, "logcumsumexp", 1, &f, 1, (int64_t[]){0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT16);
}

TEST(cumulative_cumsum_dtype)
{
	struct graph g;
	tk_static(&g);
	int i = tk_input(&g, DT_INT32, 2, (int[]){2, 3});
	int f = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 3});
	int k = tk_node(&g, "cumsum_dtype", 1, &i, 2, (int64_t[]){1, DT_FLOAT32}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT32);
	CHECK(tk_node(&g, "cumsum_dtype", 1, &f, 2, (int64_t[]){1, DT_FLOAT64}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "cumsum_dtype", 1, &f, 2, (int64_t[]){1, DT_INT64}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "cumsum_dtype", 1, &i, 2, (int64_t[]){1, DT_BOOL}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "cumsum_dtype", 1, &i, 2, (int64_t[]){1, DT_COUNT}, why, sizeof why) < 0);
}

TEST(cumulative_zero_dim_input)
{
	struct graph g;
	tk_static(&g);
	int s = tk_input(&g, DT_FLOAT32, 0, (int[]){0});
	int k = tk_node(&g, "cummin", 1, &s, 1, (int64_t[]){-1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);
	CHECK_EQ(tk_out(&g, k, 1)->hi, 0);
	CHECK(tk_node(&g, "cumsum", 1, &s, 1, (int64_t[]){1}, why, sizeof why) < 0);
}

TEST(cumulative_gradient_keeps_the_shape)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 6});
	int x = tk_input(&g, DT_INT32, 2, (int[]){4, -1});
	int k = tk_node(&g, "gradient", 1, &x, 2, (int64_t[]){1, 2}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT32);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 6);
	int short_dim = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 5});
	CHECK(tk_node(&g, "gradient", 1, &short_dim, 2, (int64_t[]){0, 2}, why, sizeof why) < 0); /* 2 < edge_order + 1 */
	CHECK(tk_node(&g, "gradient", 1, &short_dim, 2, (int64_t[]){0, 1}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "gradient", 1, &short_dim, 2, (int64_t[]){0, 3}, why, sizeof why) < 0);
}
