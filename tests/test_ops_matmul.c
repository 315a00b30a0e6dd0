/* The matmul family's shape rules: contraction sizes at every binding, batch
 * broadcasting of matmul, expandable add* inputs, module features, and the
 * einsum equations. */
#include <string.h>
#include "test.h"
#include "testkit.h"

static char why[300];

static int node2(struct graph *g, const char *op, int a, int b)
{
	return tk_node(g, op, 2, (int[]){a, b}, 0, NULL, why, sizeof why);
}

TEST(matmul_mm_checks_inner_dim_and_dtype)
{
	struct graph g;
	tk_static(&g);
	int a = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 3});
	int b = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int c = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 5});
	int d = tk_input(&g, DT_FLOAT64, 2, (int[]){3, 4});
	int e = tk_input(&g, DT_FLOAT32, 3, (int[]){1, 3, 4});
	int i = tk_input(&g, DT_INT64, 2, (int[]){2, 3});
	int k = node2(&g, "mm", a, b);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 4);
	CHECK(tk_out(&g, k, 0)->contig);
	CHECK(node2(&g, "mm", a, c) < 0); /* 3 vs 4 */
	CHECK(node2(&g, "mm", a, d) < 0); /* float32 @ float64 */
	CHECK(node2(&g, "mm", a, e) < 0); /* 3-D second operand */
	CHECK(node2(&g, "mm", i, b) < 0); /* no integer matmul on CUDA */
}

TEST(matmul_mm_dynamic_inner_dim_checked_at_every_binding)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int a = tk_input(&g, DT_FLOAT32, 2, (int[]){2, -1});
	int b = tk_input(&g, DT_FLOAT32, 2, (int[]){-1, 4});
	int c = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	CHECK(node2(&g, "mm", a, b) >= 0);
	CHECK(node2(&g, "mm", a, c) < 0); /* 5 vs 3 at binding 1 */
	CHECK(strstr(why, "binding 1") != NULL);
	int k = node2(&g, "mm", b, a); /* (s0,4) @ ... inner 4 vs 2: no */
	CHECK(k < 0);
}

TEST(matmul_bmm_batches_must_be_equal)
{
	struct graph g;
	tk_static(&g);
	int a = tk_input(&g, DT_FLOAT16, 3, (int[]){2, 3, 4});
	int b = tk_input(&g, DT_FLOAT16, 3, (int[]){2, 4, 5});
	int c = tk_input(&g, DT_FLOAT16, 3, (int[]){1, 4, 5});
	int k = node2(&g, "bmm", a, b);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 5);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT16);
	CHECK(node2(&g, "bmm", a, c) < 0); /* bmm does not broadcast */
}

TEST(matmul_matmul_promotes_1d_and_broadcasts_batches)
{
	struct graph g;
	tk_static(&g);
	int v4 = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int m34 = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int m45 = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 5});
	int b2145 = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 1, 4, 5});
	int b3534 = tk_input(&g, DT_FLOAT32, 3, (int[]){3, 3, 4});
	int b2345 = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 4, 5});
	int k = node2(&g, "matmul", v4, v4);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);
	k = node2(&g, "matmul", m34, v4);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 1);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 3);
	k = node2(&g, "matmul", v4, b2145);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 3); /* (2, 1, 5) */
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 5);
	k = node2(&g, "matmul", b3534, b2145); /* (3,3,4) @ (2,1,4,5) -> (2,3,3,5) */
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 4);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][3], 5);
	CHECK(!tk_out(&g, k, 0)->contig);
	CHECK(node2(&g, "matmul", b3534, b2345) < 0); /* batch 3 vs 2 */
	CHECK(node2(&g, "matmul", m45, m34) < 0);     /* 5 vs 3 */
	CHECK(node2(&g, "matmul_op", m34, m45) >= 0);
}

TEST(matmul_add_forms_expand_their_input)
{
	struct graph g;
	tk_static(&g);
	int a = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 3});
	int b = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int row = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int col = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 1});
	int bad = tk_input(&g, DT_FLOAT32, 1, (int[]){2});
	int64_t ab[2] = {1000, 500};
	CHECK(tk_node(&g, "addmm", 3, (int[]){a, b, row}, 2, ab, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "addmm", 3, (int[]){a, b, col}, 2, ab, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "addmm", 3, (int[]){a, b, bad}, 2, ab, why, sizeof why) < 0);
	CHECK(tk_node(&g, "addmm", 3, (int[]){a, b, row}, 2, (int64_t[]){99000, 0}, why, sizeof why) < 0);
	/* addbmm sums over the batch: its input expands to (n, m) */
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){5, 2, 3});
	int y = tk_input(&g, DT_FLOAT32, 3, (int[]){5, 3, 4});
	int k = tk_node(&g, "addbmm", 3, (int[]){x, y, col}, 2, ab, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	k = tk_node(&g, "baddbmm", 3, (int[]){x, y, row}, 2, ab, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 3);
	int v3 = tk_input(&g, DT_FLOAT32, 1, (int[]){3});
	k = tk_node(&g, "addr", 3, (int[]){bad, v3, col}, 2, ab, why, sizeof why); /* (2,) x (3,) + (2,1) */
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 3);
}

TEST(matmul_vector_products)
{
	struct graph g;
	tk_static(&g);
	int a = tk_input(&g, DT_BFLOAT16, 1, (int[]){3});
	int b = tk_input(&g, DT_BFLOAT16, 1, (int[]){4});
	int m = tk_input(&g, DT_BFLOAT16, 2, (int[]){2, 3});
	CHECK(node2(&g, "dot", a, a) >= 0);
	CHECK(node2(&g, "dot", a, b) < 0);
	int k = node2(&g, "outer", a, b);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 4);
	CHECK(node2(&g, "mv", m, a) >= 0);
	CHECK(node2(&g, "mv", m, b) < 0);
	k = node2(&g, "inner", m, a); /* (2,3) . (3,) -> (2,) */
	CHECK_EQ(tk_out(&g, k, 0)->rank, 1);
}

TEST(matmul_tensordot_kron_multi_dot)
{
	struct graph g;
	tk_static(&g);
	int a = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, 4});
	int b = tk_input(&g, DT_FLOAT32, 3, (int[]){3, 4, 5});
	int k = tk_node(&g, "tensordot", 2, (int[]){a, b}, 1, (int64_t[]){2}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 5);
	CHECK(tk_node(&g, "tensordot", 2, (int[]){a, b}, 1, (int64_t[]){1}, why, sizeof why) < 0); /* 4 vs 3 */
	CHECK(tk_node(&g, "tensordot", 2, (int[]){a, b}, 1, (int64_t[]){0}, why, sizeof why) >= 0); /* rank 6 */
	int s = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 3});
	k = node2(&g, "kron", a, s);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 6);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 12);
	/* kron of a transposed operand fails in torch 2.6 */
	int t = tk_node(&g, "einsum_transpose", 1, &s, 0, NULL, why, sizeof why);
	CHECK(t >= 0);
	CHECK(node2(&g, "kron", a, g.n[t].out0) < 0);
	int m1 = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int m2 = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 5});
	k = tk_node(&g, "multi_dot", 3, (int[]){s, m1, m2}, 0, NULL, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 5);
	CHECK(tk_node(&g, "multi_dot", 3, (int[]){s, m2, m1}, 0, NULL, why, sizeof why) < 0);
}

TEST(matmul_linear_module_needs_static_features)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 4});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){-1, 2, 3});
	int y = tk_input(&g, DT_FLOAT32, 2, (int[]){2, -1});
	int k = tk_node(&g, "linear", 1, &x, 3, (int64_t[]){3, 1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 4);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 1);
	CHECK(tk_node(&g, "linear", 1, &x, 3, (int64_t[]){4, 1, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "linear", 1, &y, 3, (int64_t[]){3, 1, 1}, why, sizeof why) < 0); /* 3 then 4 */
	CHECK(tk_node(&g, "linear", 1, &x, 3, (int64_t[]){3, 0, 1}, why, sizeof why) < 0);
}

TEST(matmul_linear_fn_takes_dynamic_weights)
{
	struct graph g;
	tk_dynamic(&g, 3, (int32_t[]){3, 4, 6});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){5, -1});
	int w = tk_input(&g, DT_FLOAT32, 2, (int[]){7, -1});
	int w2 = tk_input(&g, DT_FLOAT32, 2, (int[]){7, 4});
	int bias = tk_input(&g, DT_FLOAT32, 1, (int[]){7});
	int one = tk_input(&g, DT_FLOAT32, 1, (int[]){1});
	int k = node2(&g, "linear_fn", x, w);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[2][1], 7);
	CHECK(node2(&g, "linear_fn", x, w2) < 0);
	CHECK(tk_node(&g, "linear_fn_bias", 3, (int[]){x, w, bias}, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "linear_fn_bias", 3, (int[]){x, w, one}, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "linear_fn_bias", 3, (int[]){x, w, x}, 0, NULL, why, sizeof why) < 0);
}

TEST(matmul_bilinear_leading_dims_match)
{
	struct graph g;
	tk_static(&g);
	int a = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 3});
	int b = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 5});
	int c = tk_input(&g, DT_FLOAT32, 2, (int[]){1, 5});
	int64_t attrs[4] = {3, 5, 6, 1};
	int k = tk_node(&g, "bilinear", 2, (int[]){a, b}, 4, attrs, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 6);
	CHECK(tk_node(&g, "bilinear", 2, (int[]){a, c}, 4, attrs, why, sizeof why) < 0); /* no broadcasting */
	CHECK(tk_node(&g, "bilinear", 2, (int[]){a, b}, 4, (int64_t[]){3, 4, 6, 1}, why, sizeof why) < 0);
}

TEST(matmul_einsum_equations)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int q = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 4, -1, 8});
	int kk = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 4, 6, 8});
	int k = node2(&g, "einsum_qk", q, kk);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][2], 5);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][3], 6);
	CHECK(node2(&g, "einsum_qk", kk, q) >= 0);
	int bad = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 4, 6, 7});
	CHECK(node2(&g, "einsum_qk", q, bad) < 0); /* d: 8 vs 7 */
	/* ii needs a square matrix at every binding */
	int sq = tk_input(&g, DT_FLOAT32, 2, (int[]){-1, -1});
	int rect = tk_input(&g, DT_FLOAT32, 2, (int[]){3, -1});
	CHECK(tk_node(&g, "einsum_diag", 1, &sq, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "einsum_diag", 1, &rect, 0, NULL, why, sizeof why) < 0);
	k = tk_node(&g, "einsum_trace", 1, &sq, 0, NULL, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);
	/* the ellipses broadcast: right-aligned, equal or 1, at every binding */
	int a = tk_input(&g, DT_FLOAT32, 4, (int[]){2, -1, 3, 4});
	int b = tk_input(&g, DT_FLOAT32, 4, (int[]){2, -1, 4, 6});
	int c = tk_input(&g, DT_FLOAT32, 3, (int[]){-1, 4, 6});
	int c1 = tk_input(&g, DT_FLOAT32, 5, (int[]){7, 1, 1, 4, 6});
	int c3 = tk_input(&g, DT_FLOAT32, 3, (int[]){3, 4, 6}); /* 3 vs s0 = 5 at binding 1 */
	k = node2(&g, "einsum_batched_mm", a, b);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 4);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 5);
	k = node2(&g, "einsum_batched_mm", a, c);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 4);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][3], 6);
	k = node2(&g, "einsum_batched_mm", a, c1);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 5);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 7);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][2], 5);
	CHECK(node2(&g, "einsum_batched_mm", a, c3) < 0);
	int w = tk_input(&g, DT_FLOAT32, 2, (int[]){7, 4});
	k = node2(&g, "einsum_linear", a, w);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][3], 7);
	/* three operands */
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 3});
	int t = tk_input(&g, DT_FLOAT32, 3, (int[]){5, 3, 4});
	int y = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 4});
	k = tk_node(&g, "einsum_bilinear", 3, (int[]){x, t, y}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 5);
	CHECK(tk_node(&g, "einsum_bilinear", 3, (int[]){x, t, x}, 0, NULL, why, sizeof why) < 0);
}

/* Ellipses anywhere in a term, in the result or summed out of it. */
TEST(matmul_einsum_ellipsis_positions)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 4, (int[]){2, -1, 5, 4});
	int d = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int k = node2(&g, "einsum_contract_last", x, d); /* b...d,d->b... */
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 5);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 5);
	int m = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 4}); /* an empty ellipsis */
	CHECK_EQ(tk_out(&g, node2(&g, "einsum_contract_last", m, d), 0)->rank, 1);
	CHECK(node2(&g, "einsum_contract_last", d, d) < 0); /* b and d need 2 dims */
	/* i...j,j...k->i...k: [2, s0, 1, 5] and [5, 4, 6] make [2, s0, 4, 6] */
	int p = tk_input(&g, DT_FLOAT32, 4, (int[]){2, -1, 1, 5});
	int q = tk_input(&g, DT_FLOAT32, 3, (int[]){5, 4, 6});
	k = node2(&g, "einsum_mid_mm", p, q);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 4);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 5);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 4);
	CHECK(node2(&g, "einsum_mid_mm", q, p) < 0); /* j: 6 vs 2 */
	/* ...i,...i->...: the batch dims broadcast, i contracts */
	int v = tk_input(&g, DT_FLOAT32, 3, (int[]){-1, 1, 4});
	k = node2(&g, "einsum_batched_dot", x, v);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][2], 5);
	int w = tk_input(&g, DT_FLOAT32, 2, (int[]){-1, 4}); /* s0 under x's 5 */
	CHECK(node2(&g, "einsum_batched_dot", x, w) < 0);
	CHECK_EQ(tk_out(&g, node2(&g, "einsum_batched_dot", d, d), 0)->rank, 0);
	/* b...->b sums the ellipsis; ...ii->...i wants square trailing dims */
	k = tk_node(&g, "einsum_sum_ellipsis", 1, &x, 0, NULL, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 1);
	int sq = tk_input(&g, DT_FLOAT32, 3, (int[]){2, -1, -1});
	k = tk_node(&g, "einsum_batched_diag", 1, &sq, 0, NULL, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK(tk_node(&g, "einsum_batched_diag", 1, &x, 0, NULL, why, sizeof why) < 0);
}

/* q [..., L, E], k [..., S, E], v [..., S, Ev] give [..., L, Ev]; the batch
 * dims, E and S must agree at every binding, and the mask must broadcast to
 * the scores [..., L, S]. */
TEST(matmul_sdpa_shapes_and_mask)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int q = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 4, -1, 8});
	int k = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 4, 6, 8});
	int v = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 4, 6, 16});
	int k_e = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 4, 6, 7});
	int v_s = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 4, 5, 16});
	int k_h = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 2, 6, 8});
	int v16 = tk_input(&g, DT_FLOAT16, 4, (int[]){2, 4, 6, 16});
	int mask = tk_input(&g, DT_FLOAT32, 2, (int[]){-1, 6});
	int bad_mask = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 6});
	int scalar_mask = tk_input(&g, DT_FLOAT32, 0, NULL);
	int row_mask = tk_input(&g, DT_FLOAT32, 1, (int[]){6});
	int n = tk_node(&g, "sdpa", 3, (int[]){q, k, v}, 1, (int64_t[]){1}, why, sizeof why);
	CHECK(n >= 0);
	CHECK_EQ(tk_out(&g, n, 0)->rank, 4);
	CHECK_EQ(tk_out(&g, n, 0)->dim[1][2], 5); /* L follows q's dynamic dim */
	CHECK_EQ(tk_out(&g, n, 0)->dim[0][3], 16);
	CHECK(tk_node(&g, "sdpa", 3, (int[]){q, k_e, v}, 1, (int64_t[]){0}, why, sizeof why) < 0); /* E 8 vs 7 */
	CHECK(tk_node(&g, "sdpa", 3, (int[]){q, k, v_s}, 1, (int64_t[]){0}, why, sizeof why) < 0); /* S 6 vs 5 */
	CHECK(tk_node(&g, "sdpa", 3, (int[]){q, k_h, v}, 1, (int64_t[]){0}, why, sizeof why) < 0); /* heads 4 vs 2 */
	CHECK(tk_node(&g, "sdpa", 3, (int[]){q, k, v16}, 1, (int64_t[]){0}, why, sizeof why) < 0); /* mixed dtypes */
	CHECK(tk_node(&g, "sdpa_mask", 4, (int[]){q, k, v, mask}, 1, (int64_t[]){500}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "sdpa_mask", 4, (int[]){q, k, v, bad_mask}, 1, (int64_t[]){500}, why, sizeof why) < 0);
	CHECK(strstr(why, "binding 1") != NULL); /* L is 5 there, the mask's 3 */
	CHECK(tk_node(&g, "sdpa_mask", 4, (int[]){q, k, v, mask}, 1, (int64_t[]){0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "sdpa_mask", 4, (int[]){q, k, v, scalar_mask}, 1, (int64_t[]){500}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "sdpa_mask", 4, (int[]){q, k, v, row_mask}, 1, (int64_t[]){500}, why, sizeof why) < 0);
}

TEST(matmul_rmatmul_is_matmul_reflected)
{
	struct graph g;
	tk_static(&g);
	int m34 = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int v4 = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int k = node2(&g, "rmatmul", m34, v4); /* v4.__rmatmul__(m34) = m34 @ v4 */
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 1);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 3);
	CHECK(node2(&g, "rmatmul", v4, m34) < 0);
}
