/* Activation rules: integer support and bounds, attribute ranges, the
 * softmax dim, glu's even dim at every binding, PReLU's channel count. */
#include "test.h"
#include "testkit.h"
#include <string.h>

static char why[300];

TEST(activation_relu_keeps_integer_bounds)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_INT64, 2, (int[]){3, 4}); /* values in [0, 5] */
	int k = tk_node(&g, "relu", 1, &x, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT64);
	CHECK_EQ(tk_out(&g, k, 0)->lo, 0);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 5);
	/* hardtanh(-1, 2) clamps the range to [0, 2] */
	k = tk_node(&g, "hardtanh", 1, &x, 2, (int64_t[]){-1000, 2000}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->lo, 0);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 2);
	/* threshold(3, -4): values <= 3 become -4 */
	k = tk_node(&g, "threshold", 1, &x, 2, (int64_t[]){3000, -4000}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->lo, -4);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 5);
}

TEST(activation_rejects_bad_attributes_and_dtypes)
{
	struct graph g;
	tk_static(&g);
	int i = tk_input(&g, DT_INT32, 2, (int[]){3, 4});
	int f = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int b = tk_input(&g, DT_BOOL, 1, (int[]){3});
	/* fractional bounds for an integer input, min >= max, bool input */
	CHECK(tk_node(&g, "hardtanh", 1, &i, 2, (int64_t[]){-500, 1000}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "hardtanh", 1, &f, 2, (int64_t[]){1000, 1000}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "hardtanh", 1, &f, 2, (int64_t[]){-500, 1000}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "relu", 1, &b, 0, NULL, why, sizeof why) < 0);
	/* float-only ops, celu alpha 0, gelu mode index out of range */
	CHECK(tk_node(&g, "gelu", 1, &i, 1, (int64_t[]){0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "gelu", 1, &f, 1, (int64_t[]){2}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "gelu", 1, &f, 1, (int64_t[]){1}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "celu", 1, &f, 1, (int64_t[]){0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "rrelu", 1, &f, 2, (int64_t[]){300, 100}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "rrelu", 1, &f, 2, (int64_t[]){300, 300}, why, sizeof why) >= 0);
}

TEST(activation_sigmoid_promotes_integers)
{
	struct graph g;
	tk_static(&g);
	int i = tk_input(&g, DT_INT32, 1, (int[]){5});
	int b = tk_input(&g, DT_BOOL, 1, (int[]){5});
	int k = tk_node(&g, "sigmoid", 1, &i, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT32);
	CHECK(tk_node(&g, "tanh", 1, &b, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "softsign", 1, &b, 0, NULL, why, sizeof why) < 0);
}

TEST(activation_softmax_dim_and_dtype)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT16, 3, (int[]){2, 3, 4});
	int s = tk_input(&g, DT_FLOAT32, 0, NULL);
	int i = tk_input(&g, DT_INT64, 2, (int[]){2, 3});
	CHECK(tk_node(&g, "softmax", 1, &x, 1, (int64_t[]){-3}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "softmax", 1, &x, 1, (int64_t[]){3}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "log_softmax", 1, &s, 1, (int64_t[]){-1}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "softmin", 1, &i, 1, (int64_t[]){0}, why, sizeof why) < 0);
	int k = tk_node(&g, "softmax_dtype", 1, &i, 2, (int64_t[]){1, DT_FLOAT64}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT64);
	CHECK(tk_node(&g, "softmax_dtype", 1, &i, 2, (int64_t[]){1, DT_INT32}, why, sizeof why) < 0);
}

TEST(activation_glu_needs_even_dim_at_every_binding)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){4, 5});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){6, -1}); /* [6, s0] */
	int y = tk_input(&g, DT_FLOAT32, 2, (int[]){3, -2}); /* [3, 2*s0] */
	int k = tk_node(&g, "glu", 1, &x, 1, (int64_t[]){0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 3);
	/* s0 = 5 is odd at binding 1 only */
	CHECK(tk_node(&g, "glu", 1, &x, 1, (int64_t[]){-1}, why, sizeof why) < 0);
	CHECK(strstr(why, "binding 1") != NULL);
	k = tk_node(&g, "glu", 1, &y, 1, (int64_t[]){1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 4);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 5);
	CHECK(tk_node(&g, "glu", 1, &y, 1, (int64_t[]){0}, why, sizeof why) < 0);
}

TEST(activation_prelu_channels)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 4});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 5, 7});
	int v = tk_input(&g, DT_FLOAT32, 1, (int[]){5});
	int d = tk_input(&g, DT_FLOAT32, 2, (int[]){2, -1});
	CHECK(tk_node(&g, "prelu", 1, &x, 2, (int64_t[]){5, 250}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "prelu", 1, &x, 2, (int64_t[]){1, 250}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "prelu", 1, &x, 2, (int64_t[]){7, 250}, why, sizeof why) < 0);
	/* no channel dim in a 1-D input; a dynamic channel dim matches at one binding only */
	CHECK(tk_node(&g, "prelu", 1, &v, 2, (int64_t[]){5, 250}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "prelu", 1, &d, 2, (int64_t[]){3, 250}, why, sizeof why) < 0);
	int w = tk_input(&g, DT_FLOAT32, 1, (int[]){5});
	int w16 = tk_input(&g, DT_FLOAT16, 1, (int[]){5});
	CHECK(tk_node(&g, "prelu_fn", 2, (int[]){x, w}, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "prelu_fn", 2, (int[]){x, w16}, 0, NULL, why, sizeof why) < 0);
}
