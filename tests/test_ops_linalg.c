/* The linalg family's shape rules: the ops on A = X X^T + I give m x m
 * matrices, batches, eigenvalue vectors, pivots and infos from X's [..., m, n];
 * solves keep X's shape; vecdot contracts a dim both operands have. */
#include "test.h"
#include "testkit.h"

static char why[300];

static const struct value *out(struct graph *g, const char *op, int x, unsigned k, unsigned nattr, const int64_t *attr)
{
	int n = tk_node(g, op, 1, (int[]){x}, nattr, attr, why, sizeof why);
	return n < 0 ? NULL : tk_out(g, n, k);
}

TEST(linalg_spd_ops_shape_from_the_row_count)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, -1, 4}); /* [2, s0, 4] */
	const struct value *v = out(&g, "linalg_inv", x, 0, 0, NULL);
	CHECK(v && v->rank == 3 && v->dim[1][1] == 5 && v->dim[1][2] == 5 && v->dtype == DT_FLOAT32);
	v = out(&g, "linalg_slogdet", x, 1, 0, NULL);
	CHECK(v && v->rank == 1 && v->dim[0][0] == 2);
	v = out(&g, "linalg_eigvalsh", x, 0, 0, NULL);
	CHECK(v && v->rank == 2 && v->dim[1][1] == 5);
	v = out(&g, "linalg_svdvals", x, 0, 0, NULL); /* min(m, n): 3, then 4 */
	CHECK(v && v->dim[0][1] == 3 && v->dim[1][1] == 4);
	v = out(&g, "linalg_lu_factor_ex", x, 1, 0, NULL);
	CHECK(v && v->dtype == DT_INT32 && v->rank == 2 && v->dim[0][1] == 3);
	v = out(&g, "linalg_lu_factor_ex", x, 2, 0, NULL);
	CHECK(v && v->dtype == DT_INT32 && v->rank == 1);
	v = out(&g, "linalg_matrix_rank", x, 0, 0, NULL);
	CHECK(v && v->dtype == DT_INT64 && v->rank == 1);
	v = out(&g, "linalg_solve", x, 0, 0, NULL);
	CHECK(v && v->rank == 3 && v->dim[1][1] == 5 && v->dim[1][2] == 4);
	CHECK(out(&g, "linalg_matrix_power", x, 0, 1, (int64_t[]){3}) != NULL);
	CHECK(out(&g, "linalg_matrix_power", x, 0, 1, (int64_t[]){9}) == NULL);
	int v1 = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	CHECK(out(&g, "linalg_inv", v1, 0, 0, NULL) == NULL); /* a vector is no matrix */
	int h = tk_input(&g, DT_FLOAT16, 2, (int[]){4, 4});
	CHECK(out(&g, "linalg_det", h, 0, 0, NULL) == NULL); /* no half kernels */
}

/* eig and eigvals run matrix by matrix on the host, a CUDA tensor's too: a
 * batch of 121,770 1 x 1 matrices kept eager alone at 60 s a call on an
 * H200. Such a batch is refused them, not the batched eigh. */
TEST(linalg_host_ops_take_a_bounded_batch)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){8, 64});
	int x = tk_input(&g, DT_FLOAT64, 4, (int[]){-1, 100, 1, 1}); /* [s0, 100, 1, 1]: 800 then 6,400 matrices */
	CHECK(out(&g, "linalg_eig", x, 0, 0, NULL) == NULL);
	CHECK(out(&g, "linalg_eigvals", x, 0, 0, NULL) == NULL);
	CHECK(out(&g, "linalg_eigvalsh", x, 0, 0, NULL) != NULL);
	int few = tk_input(&g, DT_FLOAT64, 4, (int[]){8, 100, 1, 1});
	CHECK(out(&g, "linalg_eig", few, 0, 0, NULL) != NULL);
}

TEST(linalg_unique_spellings_of_decompositions)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, -1, 4}); /* [2, s0, 4] */
	const struct value *v = out(&g, "linalg_eigh", x, 0, 0, NULL);
	CHECK(v && v->rank == 2 && v->dim[1][1] == 5);
	v = out(&g, "linalg_eigvals", x, 0, 0, NULL);
	CHECK(v && v->rank == 2 && v->dim[1][1] == 5 && v->dtype == DT_FLOAT32);
	v = out(&g, "linalg_svd_back", x, 0, 0, NULL); /* x's shape */
	CHECK(v && v->rank == 3 && v->dim[0][1] == 3 && v->dim[1][2] == 4);
	v = out(&g, "linalg_svd_s", x, 0, 0, NULL); /* min(m, n) */
	CHECK(v && v->dim[0][1] == 3 && v->dim[1][1] == 4);
	static const char *const squares[] = {"linalg_eigh_back", "geqrf_abs_r", "linalg_householder_product", "ormqr",
					      "linalg_matrix_sqrth"}; /* A's m x m */
	for (unsigned i = 0; i < sizeof squares / sizeof *squares; i++) {
		v = out(&g, squares[i], x, 0, 0, NULL);
		CHECK(v && v->rank == 3 && v->dim[1][1] == 5 && v->dim[1][2] == 5);
	}
	static const char *const likes[] = {"svd_back", "linalg_qr_back", "linalg_lstsq"}; /* x's shape */
	for (unsigned i = 0; i < sizeof likes / sizeof *likes; i++) {
		v = out(&g, likes[i], x, 0, 0, NULL);
		CHECK(v && v->rank == 3 && v->dim[0][1] == 3 && v->dim[1][1] == 5 && v->dim[1][2] == 4);
	}
	v = out(&g, "linalg_eig", x, 0, 0, NULL);
	CHECK(v && v->rank == 2 && v->dim[0][1] == 3);
	v = out(&g, "linalg_polar", x, 1, 0, NULL);
	CHECK(v && v->rank == 3 && v->dim[1][2] == 5);
	CHECK(out(&g, "linalg_tensorinv", x, 0, 0, NULL) == NULL); /* no batch dims */
	CHECK(out(&g, "linalg_tensorsolve", x, 0, 0, NULL) == NULL);
	int m = tk_input(&g, DT_FLOAT64, 2, (int[]){-1, 3});
	v = out(&g, "linalg_tensorinv", m, 0, 0, NULL);
	CHECK(v && v->rank == 2 && v->dim[1][0] == 5 && v->dim[1][1] == 5);
	v = out(&g, "linalg_tensorsolve", m, 0, 0, NULL);
	CHECK(v && v->rank == 1 && v->dim[1][0] == 5 && v->dtype == DT_FLOAT64);
	int h = tk_input(&g, DT_FLOAT16, 2, (int[]){4, 4});
	CHECK(out(&g, "linalg_eig", h, 0, 0, NULL) == NULL); /* no half kernels */
}

TEST(linalg_vecdot_contracts_a_dim_both_have)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 6});
	int y = tk_input(&g, DT_FLOAT32, 1, (int[]){6});
	int y1 = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 1});
	int n = tk_node(&g, "linalg_vecdot", 2, (int[]){x, y}, 1, (int64_t[]){-1}, why, sizeof why);
	CHECK(n >= 0 && tk_out(&g, n, 0)->rank == 1 && tk_out(&g, n, 0)->dim[0][0] == 3);
	CHECK(tk_node(&g, "linalg_vecdot", 2, (int[]){x, y1}, 1, (int64_t[]){-1}, why, sizeof why) < 0); /* 6 vs 1 */
	CHECK(tk_node(&g, "linalg_vecdot", 2, (int[]){x, y}, 1, (int64_t[]){0}, why, sizeof why) < 0); /* y lacks dim 0 */
	CHECK(tk_node(&g, "linalg_vander", 1, (int[]){y}, 1, (int64_t[]){1}, why, sizeof why) < 0); /* N > 1 */
}
