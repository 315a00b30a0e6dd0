/* Reductions' shape rules: dims removed or kept, dim lists, dtype
 * promotion, index bounds and tie bits, dynamic dims, 0-d inputs, and the
 * cases torch rejects (duplicate or out-of-range dims, bad dtypes). */
#include "test.h"
#include "testkit.h"
#include <string.h>

static char why[300];

TEST(reduce_mean_over_one_dim)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, 4});
	int k = tk_node(&g, "mean", 1, &x, 2, (int64_t[]){-1, 0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 3);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT32);
	k = tk_node(&g, "mean", 1, &x, 2, (int64_t[]){1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 1);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 4);
	/* out of range dims */
	CHECK(tk_node(&g, "mean", 1, &x, 2, (int64_t[]){3, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "mean", 1, &x, 2, (int64_t[]){-4, 0}, why, sizeof why) < 0);
}

TEST(reduce_float_only_ops_reject_integers)
{
	struct graph g;
	tk_static(&g);
	int i = tk_input(&g, DT_INT32, 2, (int[]){2, 3});
	int b = tk_input(&g, DT_BOOL, 2, (int[]){2, 3});
	CHECK(tk_node(&g, "mean", 1, &i, 2, (int64_t[]){0, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "var", 1, &i, 4, (int64_t[]){1, 0, 1, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "logsumexp", 1, &b, 3, (int64_t[]){0, 1, 0}, why, sizeof why) < 0);
	/* no bool kernel for argmax/median */
	CHECK(tk_node(&g, "argmax", 1, &b, 2, (int64_t[]){0, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "median_dim", 1, &b, 2, (int64_t[]){0, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "amax", 1, &b, 3, (int64_t[]){0, 1, 0}, why, sizeof why) >= 0);
}

TEST(reduce_sum_promotes_integers_to_int64)
{
	struct graph g;
	tk_static(&g);
	int i = tk_input(&g, DT_INT32, 2, (int[]){2, 3});
	int b = tk_input(&g, DT_BOOL, 2, (int[]){2, 3});
	int h = tk_input(&g, DT_FLOAT16, 2, (int[]){2, 3});
	int k = tk_node(&g, "sum", 1, &i, 2, (int64_t[]){0, 0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT64);
	k = tk_node(&g, "prod_all", 1, &b, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT64);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);
	k = tk_node(&g, "sum_dims", 1, &h, 3, (int64_t[]){0, 1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT16);
	/* amax keeps the dtype and the value range */
	k = tk_node(&g, "amax", 1, &i, 3, (int64_t[]){0, 1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT32);
	CHECK_EQ(tk_out(&g, k, 0)->lo, 0);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 5);
}

TEST(reduce_dim_lists)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, 4});
	int k = tk_node(&g, "sum_dims", 1, &x, 4, (int64_t[]){0, 2, 0, -1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 1);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 3);
	k = tk_node(&g, "logsumexp", 1, &x, 4, (int64_t[]){1, 2, 2, 0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 1);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 1);
	/* duplicates after wrapping, an empty list, out of range */
	CHECK(tk_node(&g, "sum_dims", 1, &x, 4, (int64_t[]){0, 2, 1, -2}, why, sizeof why) < 0);
	CHECK(strstr(why, "twice") != NULL);
	CHECK(tk_node(&g, "sum_dims", 1, &x, 2, (int64_t[]){0, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "amin", 1, &x, 3, (int64_t[]){0, 1, 3}, why, sizeof why) < 0);
	/* count_nonzero has no keepdim */
	k = tk_node(&g, "count_nonzero", 1, &x, 3, (int64_t[]){2, 0, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT64);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 1);
	CHECK_EQ(tk_out(&g, k, 0)->lo, 0);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 6);
}

TEST(reduce_indices_are_bounded_and_tie_broken)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_INT32, 2, (int[]){2, 5});
	int k = tk_node(&g, "argmax", 1, &x, 2, (int64_t[]){1, 0}, why, sizeof why);
	CHECK(k >= 0);
	const struct value *o = tk_out(&g, k, 0);
	CHECK_EQ(o->dtype, DT_INT64);
	CHECK_EQ(o->lo, 0);
	CHECK_EQ(o->hi, 4);
	CHECK(o->tie);
	k = tk_node(&g, "max_dim", 1, &x, 2, (int64_t[]){0, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(g.n[k].nout, 2);
	CHECK(!tk_out(&g, k, 0)->tie); /* values are well defined */
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT32);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 1);
	CHECK(tk_out(&g, k, 1)->tie);
	CHECK_EQ(tk_out(&g, k, 1)->hi, 1);
	k = tk_node(&g, "argmin_all", 1, &x, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 9);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);
	/* aminmax: two compared outputs */
	k = tk_node(&g, "aminmax", 1, &x, 2, (int64_t[]){-1, 0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK(!tk_out(&g, k, 1)->tie);
	CHECK_EQ(tk_out(&g, k, 1)->dtype, DT_INT32);
}

TEST(reduce_dynamic_dims)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 7});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, -1, 4}); /* dim 1 = s0 */
	int k = tk_node(&g, "argmax", 1, &x, 2, (int64_t[]){1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 6); /* the largest binding */
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 1);
	k = tk_node(&g, "amax", 1, &x, 3, (int64_t[]){0, 1, 0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 7);
	CHECK(tk_out(&g, k, 0)->dyn == 1);
	k = tk_node(&g, "count_nonzero_all", 1, &x, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 56);
}

TEST(reduce_extra_attributes)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 3});
	CHECK(tk_node(&g, "var", 1, &x, 4, (int64_t[]){1, 0, 1, 0}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "var", 1, &x, 4, (int64_t[]){2, 0, 1, 0}, why, sizeof why) < 0);
	int k = tk_node(&g, "std_mean", 1, &x, 4, (int64_t[]){0, 1, 1, -1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(g.n[k].nout, 2);
	CHECK_EQ(tk_out(&g, k, 1)->dim[0][1], 1);
	CHECK(tk_node(&g, "norm", 1, &x, 4, (int64_t[]){2000, 0, 1, 0}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "norm", 1, &x, 4, (int64_t[]){0, 0, 1, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "norm_p", 1, &x, 4, (int64_t[]){5000, 0, 1, 0}, why, sizeof why) < 0);
	k = tk_node(&g, "std_unbiased", 1, &x, 3, (int64_t[]){1, 0, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 1);
	CHECK(tk_node(&g, "var_all", 1, &x, 1, (int64_t[]){1}, why, sizeof why) >= 0);
}

TEST(reduce_zero_dim_input_stays_zero_dim)
{
	struct graph g;
	tk_static(&g);
	int s = tk_input(&g, DT_FLOAT32, 0, (int[]){0});
	int k = tk_node(&g, "mean", 1, &s, 2, (int64_t[]){-1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);
	CHECK(tk_node(&g, "mean", 1, &s, 2, (int64_t[]){1, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "sum_dims", 1, &s, 3, (int64_t[]){1, 1, 0}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "sum_dims", 1, &s, 4, (int64_t[]){1, 2, 0, -1}, why, sizeof why) < 0);
	k = tk_node(&g, "all_all", 1, &s, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_BOOL);
}

TEST(reduce_cov_corrcoef_rows_of_observations)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){2, 6});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, -1});
	int k = tk_node(&g, "cov", 1, &x, 1, (int64_t[]){1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 3);
	CHECK(tk_node(&g, "corrcoef", 1, &x, 0, NULL, why, sizeof why) >= 0);
	int once = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 1});
	CHECK(tk_node(&g, "cov", 1, &once, 1, (int64_t[]){1}, why, sizeof why) < 0); /* 1 observation, correction 1 */
	CHECK(tk_node(&g, "cov", 1, &once, 1, (int64_t[]){0}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "corrcoef", 1, &once, 0, NULL, why, sizeof why) < 0);
	int row = tk_input(&g, DT_INT64, 2, (int[]){1, 7});
	k = tk_node(&g, "corrcoef", 1, &row, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);	       /* one variable: 0-d, as torch squeezes it */
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT32); /* integers give the default float */
}

TEST(reduce_hash_tensor_integers_to_int64)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_INT16, 2, (int[]){3, 5});
	int k = tk_node(&g, "hash_tensor", 1, &x, 3, (int64_t[]){0, 1, -1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT64);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 3);
	int f = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 5});
	CHECK(tk_node(&g, "hash_tensor", 1, &f, 3, (int64_t[]){0, 1, -1}, why, sizeof why) < 0);
}
