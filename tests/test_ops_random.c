/* Random op rules: attribute ranges torch checks, the feature dropouts'
 * ranks, and the shapes and value bounds of the integer draws (randint_like,
 * randperm, multinomial) at every binding. */
#include "test.h"
#include "testkit.h"
#include <string.h>

static char why[300];

TEST(random_draws_keep_shape_and_dtype)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT16, 2, (int[]){2, -1}); /* [2, s0] */
	int s = tk_input(&g, DT_FLOAT64, 0, NULL);
	int i = tk_input(&g, DT_INT32, 1, (int[]){4});
	int k = tk_node(&g, "bernoulli", 1, &x, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT16);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 5);
	CHECK(tk_node(&g, "randn_like", 1, &s, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "poisson", 1, &s, 0, NULL, why, sizeof why) >= 0);
	/* float-valued draws take float inputs only */
	CHECK(tk_node(&g, "rand_like", 1, &i, 0, NULL, why, sizeof why) < 0);
	CHECK(tk_node(&g, "normal", 1, &i, 1, (int64_t[]){1000}, why, sizeof why) < 0);
	/* dropout's p in [0, 0.99]; normal's std >= 0 */
	CHECK(tk_node(&g, "dropout", 1, &x, 1, (int64_t[]){990}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "dropout", 1, &x, 1, (int64_t[]){1000}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "alpha_dropout", 1, &s, 1, (int64_t[]){-1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "normal", 1, &x, 1, (int64_t[]){0}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "normal", 1, &x, 1, (int64_t[]){-100}, why, sizeof why) < 0);
}

TEST(random_feature_dropout_ranks)
{
	struct graph g;
	tk_static(&g);
	int r1 = tk_input(&g, DT_FLOAT32, 1, (int[]){6});
	int r2 = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 6});
	int r3 = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, 6});
	int r4 = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 3, 4, 5});
	int r5 = tk_input(&g, DT_FLOAT32, 5, (int[]){2, 3, 2, 2, 2});
	int64_t p = 300;
	CHECK(tk_node(&g, "dropout1d", 1, &r2, 1, &p, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "dropout1d", 1, &r3, 1, &p, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "dropout1d", 1, &r4, 1, &p, why, sizeof why) < 0);
	/* a 3-D input to dropout2d means 1-D dropout (with a warning): left out */
	CHECK(tk_node(&g, "dropout2d", 1, &r3, 1, &p, why, sizeof why) < 0);
	CHECK(tk_node(&g, "dropout2d", 1, &r4, 1, &p, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "dropout3d", 1, &r3, 1, &p, why, sizeof why) < 0);
	CHECK(tk_node(&g, "dropout3d", 1, &r4, 1, &p, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "dropout3d", 1, &r5, 1, &p, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "feature_alpha_dropout", 1, &r1, 1, &p, why, sizeof why) < 0);
	CHECK(tk_node(&g, "feature_alpha_dropout", 1, &r2, 1, &p, why, sizeof why) >= 0);
}

TEST(random_fill_attributes)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_BFLOAT16, 3, (int[]){2, 3, 4});
	int k = tk_node(&g, "empty_like_uniform_", 1, &x, 2, (int64_t[]){-500, 1500}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_BFLOAT16);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 4);
	CHECK(tk_node(&g, "empty_like_uniform_", 1, &x, 2, (int64_t[]){1500, 1500}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "empty_like_normal_", 1, &x, 2, (int64_t[]){0, 0}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "empty_like_normal_", 1, &x, 2, (int64_t[]){0, -1}, why, sizeof why) < 0);
	/* lambda, sigma and log_normal's std > 0; geometric's p in (0, 1); bernoulli_'s in [0, 1] */
	CHECK(tk_node(&g, "empty_like_exponential_", 1, &x, 1, (int64_t[]){0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "empty_like_cauchy_", 1, &x, 2, (int64_t[]){0, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "empty_like_log_normal_", 1, &x, 2, (int64_t[]){0, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "empty_like_geometric_", 1, &x, 1, (int64_t[]){1000}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "empty_like_geometric_", 1, &x, 1, (int64_t[]){999}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "empty_like_bernoulli_", 1, &x, 1, (int64_t[]){1000}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "empty_like_bernoulli_", 1, &x, 1, (int64_t[]){1001}, why, sizeof why) < 0);
}

TEST(random_randint_like_draws_usable_indices)
{
	struct graph g;
	tk_static(&g);
	int b = tk_input(&g, DT_BOOL, 2, (int[]){3, 4});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){5, 7});
	int k = tk_node(&g, "randint_like", 1, &b, 2, (int64_t[]){0, 7}, why, sizeof why);
	CHECK(k >= 0);
	const struct value *o = tk_out(&g, k, 0);
	CHECK_EQ(o->dtype, DT_INT64);
	CHECK_EQ(o->lo, 0);
	CHECK_EQ(o->hi, 6);
	CHECK_EQ(o->dim[0][1], 4);
	/* [0, 7) indexes x's dim 1 (7), not its dim 0 (5) */
	int idx = g.n[k].out0;
	CHECK(tk_node(&g, "gather", 2, (int[]){x, idx}, 1, (int64_t[]){1}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "gather", 2, (int[]){x, idx}, 1, (int64_t[]){0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "randint_like", 1, &b, 2, (int64_t[]){3, 3}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "randint_like", 1, &b, 2, (int64_t[]){-2000000, 0}, why, sizeof why) < 0);
}

TEST(random_randperm_follows_a_dynamic_dim)
{
	struct graph g;
	tk_dynamic(&g, 3, (int32_t[]){4, 9, 6});
	int x = tk_input(&g, DT_INT32, 2, (int[]){3, -1}); /* [3, s0] */
	int s = tk_input(&g, DT_FLOAT32, 0, NULL);
	int k = tk_node(&g, "randperm", 1, &x, 1, (int64_t[]){-1}, why, sizeof why);
	CHECK(k >= 0);
	const struct value *o = tk_out(&g, k, 0);
	CHECK_EQ(o->rank, 1);
	CHECK_EQ(o->dim[0][0], 4);
	CHECK_EQ(o->dim[1][0], 9);
	CHECK_EQ(o->dim[2][0], 6);
	CHECK_EQ(o->lo, 0);
	CHECK_EQ(o->hi, 8); /* the largest size's last index */
	CHECK(tk_node(&g, "randperm", 1, &x, 1, (int64_t[]){2}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "randperm", 1, &s, 1, (int64_t[]){0}, why, sizeof why) < 0); /* 0-d: no dim */
	k = tk_node(&g, "randperm_n", 1, &s, 1, (int64_t[]){12}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[2][0], 12);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 11);
	CHECK(tk_node(&g, "randperm_n", 1, &s, 1, (int64_t[]){0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "randperm_n", 1, &s, 1, (int64_t[]){G_MAX_DIM + 1}, why, sizeof why) < 0);
}

TEST(random_multinomial_samples_and_categories)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int rows = tk_input(&g, DT_FLOAT32, 2, (int[]){4, -1}); /* [4, s0] */
	int cats = tk_input(&g, DT_FLOAT64, 1, (int[]){-1});    /* [s0] */
	int r3 = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 2, 2});
	int k = tk_node(&g, "multinomial", 1, &rows, 2, (int64_t[]){20, 1}, why, sizeof why);
	CHECK(k >= 0);
	const struct value *o = tk_out(&g, k, 0);
	CHECK_EQ(o->dtype, DT_INT64);
	CHECK_EQ(o->dim[1][0], 4);
	CHECK_EQ(o->dim[1][1], 20);
	CHECK_EQ(o->hi, 4); /* up to 5 categories */
	/* without replacement: 1-D only (a 2-D input's draws follow its layout) */
	CHECK(tk_node(&g, "multinomial", 1, &rows, 2, (int64_t[]){2, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "multinomial", 1, &cats, 2, (int64_t[]){3, 0}, why, sizeof why) >= 0);
	/* 4 samples from 3 categories at binding 0 */
	CHECK(tk_node(&g, "multinomial", 1, &cats, 2, (int64_t[]){4, 0}, why, sizeof why) < 0);
	CHECK(strstr(why, "binding 0") != NULL);
	CHECK(tk_node(&g, "multinomial", 1, &cats, 2, (int64_t[]){4, 1}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "multinomial", 1, &cats, 2, (int64_t[]){0, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "multinomial", 1, &r3, 2, (int64_t[]){1, 1}, why, sizeof why) < 0);
}

TEST(random_shape_readers_take_no_random_value)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int k = tk_node(&g, "alpha_dropout", 1, &x, 1, (int64_t[]){500}, why, sizeof why);
	CHECK(k >= 0);
	int d = g.n[k].out0;
	k = tk_node(&g, "relu", 1, &d, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	int r = g.n[k].out0; /* computed from the dropout */
	/* reading values keeps the dropout alive in compiled code */
	CHECK(tk_node(&g, "rand_like", 1, &r, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "dropout", 1, &d, 1, (int64_t[]){500}, why, sizeof why) >= 0);
	/* a shape alone would not: Inductor drops the mask's draws */
	CHECK(tk_node(&g, "empty_like_uniform_", 1, &r, 2, (int64_t[]){0, 1000}, why, sizeof why) < 0);
	CHECK(strstr(why, "random op") != NULL);
	CHECK(tk_node(&g, "randperm", 1, &d, 1, (int64_t[]){0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "randperm_n", 1, &r, 1, (int64_t[]){5}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "empty_like_uniform_", 1, &x, 2, (int64_t[]){0, 1000}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "randperm", 1, &x, 1, (int64_t[]){0}, why, sizeof why) >= 0);
}

TEST(random_bernoulli_p_takes_probabilities_in_0_1)
{
	struct graph g;
	tk_static(&g);
	int p = tk_leaf(&g, DT_INT64, 2, (int[]){3, 4}, FILL_RANGE, 0, 1);
	int b = tk_input(&g, DT_BOOL, 1, (int[]){5});
	int k = tk_node(&g, "bernoulli_p", 1, &p, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT32);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 4);
	CHECK(tk_node(&g, "bernoulli_p", 1, &b, 0, NULL, why, sizeof why) >= 0);
	/* eager raises for p outside [0, 1]: the rule refuses what may hold it */
	int two = tk_leaf(&g, DT_INT64, 1, (int[]){4}, FILL_RANGE, 2, 2);
	int neg = tk_leaf(&g, DT_INT8, 1, (int[]){4}, FILL_RANGE, -1, 1);
	int f = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	CHECK(tk_node(&g, "bernoulli_p", 1, &two, 0, NULL, why, sizeof why) < 0);
	CHECK(tk_node(&g, "bernoulli_p", 1, &neg, 0, NULL, why, sizeof why) < 0);
	CHECK(tk_node(&g, "bernoulli_p", 1, &f, 0, NULL, why, sizeof why) < 0);
}

TEST(random_factories_of_a_shape)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_BFLOAT16, 2, (int[]){-1, 4});
	int k = tk_node(&g, "randn", 1, &x, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_BFLOAT16);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 5);
	int i = tk_input(&g, DT_INT32, 1, (int[]){4});
	CHECK(tk_node(&g, "randn", 1, &i, 0, NULL, why, sizeof why) < 0); /* float inputs only */
	k = tk_node(&g, "randint", 1, &x, 2, (int64_t[]){-2, 3}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT64);
	CHECK_EQ(tk_out(&g, k, 0)->lo, -2);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 3);
	CHECK(tk_node(&g, "randint", 1, &x, 2, (int64_t[]){3, 3}, why, sizeof why) < 0); /* low < high */
	/* a shape from a random op: Inductor would drop that op's draws */
	int d = tk_node(&g, "dropout", 1, &x, 1, (int64_t[]){500}, why, sizeof why);
	CHECK(d >= 0);
	int dv = g.n[d].out0;
	CHECK(tk_node(&g, "randn", 1, &dv, 0, NULL, why, sizeof why) < 0);
	CHECK(tk_node(&g, "randint", 1, &dv, 2, (int64_t[]){0, 3}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "randn_like", 1, &dv, 0, NULL, why, sizeof why) >= 0); /* reads the value itself */
}
