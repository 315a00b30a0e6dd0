/* torch.special rules against torch 2.15 on CPU: integer and bool inputs
 * promote to float32, half dtypes only where a kernel exists, the pairs'
 * broadcast and result dtype, and the parameters' ranges (multigammaln's
 * shift keeps every element above (p - 1) / 2, where torch raises).
 * Rejections marked "ours" are the rules' limits, where torch would run. */
#include "test.h"
#include "testkit.h"

static char why[300];

static int node1(struct graph *g, const char *op, int x, unsigned nattr, const int64_t *attr)
{
	return tk_node(g, op, 1, &x, nattr, attr, why, sizeof why);
}

static int node2(struct graph *g, const char *op, int a, int b)
{
	return tk_node(g, op, 2, (int[]){a, b}, 0, NULL, why, sizeof why);
}

TEST(special_promotes_integers_and_keeps_float_dtypes)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int i = tk_input(&g, DT_INT32, 2, (int[]){2, -1});
	int b = tk_input(&g, DT_BOOL, 1, (int[]){4});
	int h = tk_input(&g, DT_FLOAT16, 1, (int[]){4});
	int k = node1(&g, "i0", i, 0, NULL);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT32);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 5);
	CHECK_EQ(tk_out(&g, node1(&g, "ndtri", b, 0, NULL), 0)->dtype, DT_FLOAT32);
	CHECK_EQ(tk_out(&g, node1(&g, "erfinv", h, 0, NULL), 0)->dtype, DT_FLOAT16);
	/* no float16 kernels */
	CHECK(node1(&g, "ndtri", h, 0, NULL) < 0);
	CHECK(node1(&g, "bessel_j0", h, 0, NULL) < 0);
	CHECK(node1(&g, "erfcx", h, 0, NULL) < 0);
	/* round(decimals=) and multigammaln take floats only */
	CHECK(node1(&g, "round_decimals", i, 1, (int64_t[]){1}) < 0);
	CHECK(node1(&g, "multigammaln", b, 2, (int64_t[]){1, 500}) < 0);
}

TEST(special_pairs_broadcast_and_promote)
{
	struct graph g;
	tk_static(&g);
	int i = tk_input(&g, DT_INT64, 2, (int[]){3, 1});
	int j = tk_input(&g, DT_INT64, 1, (int[]){4});
	int h = tk_input(&g, DT_FLOAT16, 1, (int[]){4});
	int f = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int k = node2(&g, "xlogy", i, j);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT32);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 4);
	CHECK_EQ(tk_out(&g, node2(&g, "xlog1py", h, h), 0)->dtype, DT_FLOAT16);
	CHECK_EQ(tk_out(&g, node2(&g, "gammainc", f, h), 0)->dtype, DT_FLOAT32);
	/* zeta runs in float32 (a float16 pair raises); ours: float operands */
	CHECK(node2(&g, "zeta", f, h) >= 0);
	CHECK(node2(&g, "zeta", f, i) < 0);
	CHECK(node2(&g, "gammaincc", f, j) < 0);
	/* CUDA's igamma has no half kernels: a float16 pair is refused */
	CHECK(node2(&g, "gammainc", h, h) < 0);
	CHECK(node2(&g, "gammaincc", f, h) >= 0);
	int bad = tk_input(&g, DT_FLOAT32, 1, (int[]){5});
	CHECK(node2(&g, "xlogy", f, bad) < 0);
}

TEST(special_parameter_ranges)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_BFLOAT16, 2, (int[]){3, 4});
	CHECK(node1(&g, "polygamma", x, 1, (int64_t[]){3}) >= 0);
	CHECK(node1(&g, "polygamma", x, 1, (int64_t[]){-1}) < 0); /* negative n raises */
	/* p = 3: every element must exceed 1, so (ours) the shift is at least 3/2, in halves; p >= 1 */
	CHECK(node1(&g, "multigammaln", x, 2, (int64_t[]){3, 1500}) >= 0);
	CHECK(node1(&g, "multigammaln", x, 2, (int64_t[]){3, 1000}) < 0);
	CHECK(node1(&g, "multigammaln", x, 2, (int64_t[]){3, 1700}) < 0);
	CHECK(node1(&g, "multigammaln", x, 2, (int64_t[]){0, 1000}) < 0);
	CHECK(node1(&g, "logit_eps", x, 1, (int64_t[]){250}) >= 0);
	CHECK(node1(&g, "logit_eps", x, 1, (int64_t[]){500}) < 0); /* ours: eps < 1/2 */
	CHECK(node1(&g, "round_decimals", x, 1, (int64_t[]){-2}) >= 0);
	CHECK(node1(&g, "round_decimals", x, 1, (int64_t[]){4}) < 0); /* ours: 10^4 overflows float16 sooner */
}
