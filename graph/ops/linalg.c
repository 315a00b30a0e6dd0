/* torch.linalg and its older torch.* forms: decompositions, solvers,
 * inverses, determinants, norms, and the small matrix ops (vecdot, vander,
 * diagonal, trace, diag, diagflat, dist).
 *
 * A random matrix may be singular or have no Cholesky factor, where eager
 * raises or returns garbage that no compiled run need match. So the
 * decompositions, solvers and inverses read A = X X^T + I, X being input 0
 * ([..., m, n]) with NaN and inf replaced and its entries clamped to
 * [-4, 4]: symmetric positive definite, its eigenvalues in [1, 1 + 16 m n],
 * for every input value and every mutation. Right-hand sides are input 0
 * itself, [..., m, n]. Each such op is a spec: its outputs' shapes and
 * dtypes; one rule reads it. The results are unique (no eigenvector or
 * singular vector signs).
 *
 * Dtypes: float32 and float64 (no half kernels, CPU or CUDA). Results may
 * be column-major (LAPACK's layout): LAYOUT_STRIDED. */
#include "../opkit.h"
#include "families.h"

#define SPD "(torch.nan_to_num(@0).clamp(-4, 4) @ torch.nan_to_num(@0).clamp(-4, 4).mT + " \
	    "torch.eye(@0.shape[-2], dtype=@0.dtype, device=@0.device))"
#define CHOLESKY "torch.linalg.cholesky(" SPD ")"
/* input 0 made finite and bounded, for the SVD-based ops, whose LAPACK and
 * cuSOLVER kernels raise on non-finite values and overflow on huge ones */
#define BOUNDED "torch.nan_to_num(@0).clamp(-1e4, 1e4)"
#define LU_FACTOR "*torch.linalg.lu_factor(" SPD ")"
#define MATRIX_POWER_MAX 3

/* The outputs' shapes, batch being input 0's leading dims. */
enum linalg_out {
	LO_SQUARE, /* [..., m, m] float */
	LO_BATCH,  /* [...] float */
	LO_VEC,    /* [..., m] float */
	LO_LIKE,   /* input 0's shape, float (a solve's solution) */
	LO_SVALS,  /* [..., min(m, n)] float */
	LO_PIVOTS, /* [..., m] int32 */
	LO_INFO,   /* [...] int32 */
	LO_RANK,   /* [...] int64 */
};

struct linalg_spec {
	uint8_t nout, out[3];
	uint8_t power; /* attribute 0 is matrix_power's exponent */
	/* computed matrix by matrix on the host, a CUDA tensor's too (eig,
	 * eigvals: MAGMA's geev): at most LINALG_HOST_BATCH_MAX matrices, where
	 * a large batch of tiny ones keeps eager alone past a request's limit */
	uint8_t host;
};

#define LINALG_HOST_BATCH_MAX 4096

static bool linalg_rule(struct infer_io *io, const struct linalg_spec *s)
{
	const struct value *x = io->in[0];
	unsigned r = x->rank, batch = r - 2;
	if (s->power && !io_attr_range(io, 0, -2, MATRIX_POWER_MAX))
		return false;
	if (s->host)
		FOR_BIND(io, b)
		{
			int64_t matrices = 1;
			for (unsigned i = 0; i < batch; i++)
				matrices *= x->dim[b][i];
			if (matrices > LINALG_HOST_BATCH_MAX)
				return io_fail(io, "%lld matrices, more than the host's %d (binding %u)",
					       (long long)matrices, LINALG_HOST_BATCH_MAX, b);
		}
	io->nout = s->nout;
	for (unsigned k = 0; k < s->nout; k++) {
		enum linalg_out o = (enum linalg_out)s->out[k];
		enum dtype dt = o == LO_PIVOTS || o == LO_INFO ? DT_INT32 : o == LO_RANK ? DT_INT64 : (enum dtype)x->dtype;
		unsigned extra = o == LO_SQUARE ? 2 : o == LO_VEC || o == LO_SVALS || o == LO_PIVOTS ? 1 : 0;
		if (o == LO_LIKE) {
			io_out_like(io, k, x, dt);
			continue;
		}
		io_out_rank(io, k, batch + extra, dt);
		FOR_BIND(io, b)
		{
			int32_t *d = io->out[k].dim[b], m = x->dim[b][r - 2], n = x->dim[b][r - 1];
			for (unsigned i = 0; i < batch; i++)
				d[i] = x->dim[b][i];
			if (extra)
				d[batch] = o == LO_SVALS && n < m ? n : m;
			if (extra == 2)
				d[batch + 1] = m;
		}
	}
	return true;
}

static bool choose_power(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = rng_range(c->rng, -2, MATRIX_POWER_MAX);
	return true;
}

#define LINALG_FNS(tag, ...) \
	static const struct linalg_spec spec_##tag = __VA_ARGS__; \
	static bool infer_##tag(struct infer_io *io) { return linalg_rule(io, &spec_##tag); }
LINALG_FNS(square, {1, {LO_SQUARE}})
LINALG_FNS(square_info, {2, {LO_SQUARE, LO_INFO}})
LINALG_FNS(square_pivots, {2, {LO_SQUARE, LO_PIVOTS}})
LINALG_FNS(square_pivots_info, {3, {LO_SQUARE, LO_PIVOTS, LO_INFO}})
LINALG_FNS(three_squares, {3, {LO_SQUARE, LO_SQUARE, LO_SQUARE}})
LINALG_FNS(batch, {1, {LO_BATCH}})
LINALG_FNS(two_batches, {2, {LO_BATCH, LO_BATCH}})
LINALG_FNS(vec, {1, {LO_VEC}})
LINALG_FNS(vec_host, {1, {LO_VEC}, 0, 1})
LINALG_FNS(like, {1, {LO_LIKE}})
LINALG_FNS(like_info, {2, {LO_LIKE, LO_INFO}})
LINALG_FNS(like_square, {2, {LO_LIKE, LO_SQUARE}})
LINALG_FNS(svals, {1, {LO_SVALS}})
LINALG_FNS(rank, {1, {LO_RANK}})
LINALG_FNS(power, {1, {LO_SQUARE}, 1})
LINALG_FNS(two_squares, {2, {LO_SQUARE, LO_SQUARE}})

/* vecdot(x, y, dim): x and y broadcast but along dim, where both have the
 * same size; the result drops dim. */
static bool infer_vecdot(struct infer_io *io)
{
	struct value all;
	if (!io_same_dtype(io) || !io_broadcast(io, io->in[0], io->in[1], &all))
		return false;
	int d = io_dim(io->attr[0], all.rank);
	if (d < 0 || !all.rank)
		return io_fail(io, "dim %lld out of range", (long long)io->attr[0]);
	for (unsigned i = 0; i < 2; i++) {
		int di = d - (int)(all.rank - io->in[i]->rank);
		if (di < 0)
			return io_fail(io, "input %u lacks the contracted dim", i);
		FOR_BIND(io, b) if (io->in[i]->dim[b][di] != all.dim[b][d]) return io_fail(
			io, "contracted sizes differ: %d vs %d (binding %u)", (int)io->in[i]->dim[b][di], (int)all.dim[b][d], b);
	}
	io->nout = 1;
	io_out_rank(io, 0, all.rank - 1, (enum dtype)io->in[0]->dtype);
	FOR_BIND(io, b) for (unsigned i = 0, j = 0; i < all.rank; i++) if ((int)i != d) io->out[0].dim[b][j++] =
		all.dim[b][i];
	return true;
}

static bool choose_vecdot(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int y = pick_broadcast_partner(c, x, (enum dtype)x->dtype);
	if (y < 0 || !x->rank)
		return false;
	ch->in[1] = (uint16_t)y;
	ch->nin = 2;
	ch->nattr = 1;
	ch->attr[0] = -1 - rng_range(c->rng, 0, x->rank - 1) * rng_chance(c->rng, 30);
	return true;
}

/* linalg.norm(x, ord, dim, keepdim): a vector norm over one dim. */
static bool infer_vector_norm_dim(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int d = io_dim(io->attr[1], x->rank);
	if (!io_attr_range(io, 0, 1, 4000) || !io_attr_range(io, 2, 0, 1))
		return false;
	if (d < 0 || !x->rank)
		return io_fail(io, "dim %lld out of range", (long long)io->attr[1]);
	io->nout = 1;
	io_out_rank(io, 0, x->rank - (io->attr[2] ? 0 : 1), (enum dtype)x->dtype);
	FOR_BIND(io, b) for (unsigned i = 0, j = 0; i < x->rank; i++)
	{
		if ((int)i != d)
			io->out[0].dim[b][j++] = x->dim[b][i];
		else if (io->attr[2])
			io->out[0].dim[b][j++] = 1;
	}
	return true;
}

static bool choose_vector_norm_dim(struct chooser *c, struct op_choice *ch)
{
	static const int64_t ords[] = {2000, 1000, 3000, 500, 1500};
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = 3;
	ch->attr[0] = pick_of(c, ords, NELEM(ords));
	ch->attr[1] = pick_dim(c, x->rank);
	ch->attr[2] = rng_chance(c->rng, 30);
	return x->rank > 0;
}

/* vander(x, N): [..., n] becomes [..., n, N], powers 0 .. N-1 of x (N > 1). */
#define VANDER_MAX 8
static bool infer_vander(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (!io_attr_range(io, 0, 2, VANDER_MAX))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, x->rank + 1, (enum dtype)x->dtype);
	FOR_BIND(io, b)
	{
		for (unsigned i = 0; i < x->rank; i++)
			io->out[0].dim[b][i] = x->dim[b][i];
		io->out[0].dim[b][x->rank] = (int32_t)io->attr[0];
	}
	return true;
}

static bool choose_vander(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = rng_range(c->rng, 2, VANDER_MAX);
	return true;
}

/* trace: a 2-D x's diagonal summed; integers sum in int64. */
static bool infer_trace(struct infer_io *io)
{
	enum dtype dt = (enum dtype)io->in[0]->dtype;
	io->nout = 1;
	io_out_rank(io, 0, 0, dtype_is_float(dt) ? dt : DT_INT64);
	return true;
}

/* diag(x, k): a 1-D x becomes the square matrix with x on diagonal k; a
 * 2-D x gives its diagonal k (not empty). diagflat(x, k): x flattened onto
 * diagonal k (at most DIAGFLAT_MAX elements: the result is their square). */
#define DIAGFLAT_MAX 64
static bool diag_rule(struct infer_io *io, bool flat)
{
	const struct value *x = io->in[0];
	int64_t k = io->attr[0];
	if (!io_attr_range(io, 0, -4, 4))
		return false;
	bool to_matrix = flat || x->rank == 1;
	io->nout = 1;
	io_out_rank(io, 0, to_matrix ? 2 : 1, (enum dtype)x->dtype);
	io->out[0].lo = x->lo < 0 ? x->lo : 0;
	io->out[0].hi = x->hi > 0 ? x->hi : 0;
	FOR_BIND(io, b)
	{
		int64_t n = 1, len;
		for (unsigned i = 0; i < x->rank; i++)
			n *= x->dim[b][i];
		if (to_matrix && n > DIAGFLAT_MAX)
			return io_fail(io, "%lld elements on a diagonal (binding %u)", (long long)n, b);
		len = to_matrix ? n + (k < 0 ? -k : k)
				: (k >= 0 ? (x->dim[b][0] < x->dim[b][1] - k ? x->dim[b][0] : x->dim[b][1] - k)
					  : (x->dim[b][0] + k < x->dim[b][1] ? x->dim[b][0] + k : x->dim[b][1]));
		if (len < 1)
			return io_fail(io, "diagonal %lld is empty (binding %u)", (long long)k, b);
		io->out[0].dim[b][0] = (int32_t)len;
		if (to_matrix)
			io->out[0].dim[b][1] = (int32_t)len;
	}
	return true;
}

static bool infer_diag(struct infer_io *io) { return diag_rule(io, false); }
static bool infer_diagflat(struct infer_io *io) { return diag_rule(io, true); }

static bool choose_diag(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = rng_chance(c->rng, 50) ? 0 : rng_range(c->rng, -2, 2);
	return true;
}

/* dist(x, y, p): the p-norm of x - y, broadcast; 0-d. */
static bool infer_dist(struct infer_io *io)
{
	struct value all;
	if (!io_attr_range(io, 0, 500, 4000) || !io_same_dtype(io) || !io_broadcast(io, io->in[0], io->in[1], &all))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 0, (enum dtype)io->in[0]->dtype);
	return true;
}

static bool choose_dist(struct chooser *c, struct op_choice *ch)
{
	static const int64_t ps[] = {2000, 1000, 3000, 500};
	const struct value *x = &c->g->v[ch->in[0]];
	int y = pick_broadcast_partner(c, x, (enum dtype)x->dtype);
	ch->in[1] = (uint16_t)y;
	ch->nin = 2;
	ch->nattr = 1;
	ch->attr[0] = pick_of(c, ps, NELEM(ps));
	return y >= 0;
}

static const char *const matrix_norm_ords[] = {"fro", "nuc", NULL};

static bool infer_matrix_norm(struct infer_io *io) { return io_attr_range(io, 0, 0, 1) && infer_batch(io); }

static bool choose_matrix_norm(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = rng_chance(c->rng, 50);
	return true;
}

/* A matrix op of input 0 ([..., m, n], at most rmax - 2 batch dims). */
#define LINALG_RANKS(nm, spelling, tag, rmax, lay, attrs_, choose_, ...) \
	{.name = nm, .family = FAM_LINALG, .nin_min = 1, .nin_max = 1, .rank_min = 2, .rank_max = rmax, \
	 .dtypes = DTM_F32_F64, .layout = lay, .weight = 1, .attrs = attrs_, .py = spelling, .infer = infer_##tag, \
	 .choose = choose_, __VA_ARGS__}
#define LINALG_ATTRS(nm, spelling, tag, lay, attrs_, choose_, ...) \
	LINALG_RANKS(nm, spelling, tag, 4, lay, attrs_, choose_, __VA_ARGS__)
#define LINALG(nm, spelling, tag) LINALG_ATTRS(nm, spelling, tag, LAYOUT_STRIDED, NULL, choose_none)
/* tensorinv and tensorsolve have no batch dims: one matrix */
#define LINALG_2D(nm, spelling, tag) LINALG_RANKS(nm, spelling, tag, 2, LAYOUT_STRIDED, NULL, choose_none)
/* Householder QR of A: a, tau, and R = a's upper triangle. Row k of R and
 * column k of Q take the sign LAPACK gives that reflection, which flips
 * where a pivot crosses 0: only |R| and Q R are unique. */
#define GEQRF "torch.geqrf(" SPD ")"
#define GEQRF_R GEQRF "[0].triu()"
/* the factors multiplied back, where each alone has a sign per column;
 * torch.svd gives V, torch.linalg.svd V^T */
#define SVD_BACK(vh) "(lambda u, s, v: (u * s.unsqueeze(-2)) @ " vh ")"

const struct op_def ops_linalg[] = {
	LINALG("linalg_inv", "torch.linalg.inv(" SPD ")", square),
	LINALG("linalg_inv_ex", "torch.linalg.inv_ex(" SPD ")", square_info),
	LINALG("linalg_pinv", "torch.linalg.pinv(" SPD ")", square),
	LINALG("pinverse", "torch.pinverse(" SPD ")", square),
	LINALG("linalg_det", "torch.linalg.det(" SPD ")", batch),
	LINALG("linalg_slogdet", "torch.linalg.slogdet(" SPD ")", two_batches),
	LINALG("logdet", "torch.logdet(" SPD ")", batch),
	LINALG("linalg_cond", "torch.linalg.cond(" SPD ")", batch),
	LINALG("linalg_matrix_rank", "torch.linalg.matrix_rank(" SPD ")", rank),
	LINALG("linalg_eigvalsh", "torch.linalg.eigvalsh(" SPD ")", vec),
	LINALG("linalg_eigh", "torch.linalg.eigh(" SPD ").eigenvalues", vec),
	/* Q diag(L) Q^T: an eigenvector's sign, or a basis of a repeated
	 * eigenvalue's space, cancels out */
	LINALG("linalg_eigh_back", "(lambda l, q: (q * l.unsqueeze(-2)) @ q.mT)(*torch.linalg.eigh(" SPD "))",
	       square),
	/* A is symmetric: its eigenvalues are real, and sorted they are unique */
	LINALG("linalg_eigvals", "torch.linalg.eigvals(" SPD ").real.sort(dim=-1).values", vec_host),
	LINALG("linalg_eig", "torch.linalg.eig(" SPD ").eigenvalues.real.sort(dim=-1).values", vec_host),
	LINALG("linalg_svd_s", "torch.linalg.svd(" BOUNDED ", full_matrices=False).S", svals),
	LINALG("linalg_svd_back", SVD_BACK("v") "(*torch.linalg.svd(" BOUNDED ", full_matrices=False))", like),
	LINALG("svd_back", SVD_BACK("v.mT") "(*torch.svd(" BOUNDED "))", like),
	LINALG("linalg_qr_back", "(lambda q, r: q @ r)(*torch.linalg.qr(" BOUNDED "))", like),
	/* geqrf has no derivative */
	LINALG_ATTRS("geqrf_abs_r", GEQRF_R ".abs()", square, LAYOUT_STRIDED, NULL, choose_none, .nograd = 1),
	LINALG_ATTRS("linalg_householder_product", "torch.linalg.householder_product(*" GEQRF ") @ " GEQRF_R, square,
		     LAYOUT_STRIDED, NULL, choose_none, .nograd = 1),
	LINALG_ATTRS("ormqr", "torch.ormqr(*" GEQRF ", " GEQRF_R ")", square, LAYOUT_STRIDED, NULL, choose_none,
		     .nograd = 1),
	/* a NaN right-hand side fails LAPACK's argument check (an internal assert in eager) */
	LINALG("linalg_lstsq", "torch.linalg.lstsq(" SPD ", torch.nan_to_num(@0)).solution", like),
	/* the factors of L, whose singular values are at least 1: U and H unique */
	/* not in torch 2.11; first seen in 2.15 */
	LINALG_ATTRS("linalg_polar", "torch.linalg.polar(" CHOLESKY ")", two_squares, LAYOUT_STRIDED, NULL, choose_none,
		     .since = "2.15"),
	LINALG_ATTRS("linalg_matrix_sqrth", "torch.linalg.matrix_sqrth(" SPD ")", square, LAYOUT_STRIDED, NULL,
		     choose_none, .since = "2.15"),
	LINALG_2D("linalg_tensorinv", "torch.linalg.tensorinv(" SPD ", ind=1)", square),
	LINALG_2D("linalg_tensorsolve", "torch.linalg.tensorsolve(" SPD ", @0[:, 0])", vec),
	LINALG("linalg_svdvals", "torch.linalg.svdvals(" BOUNDED ")", svals),
	LINALG("linalg_cholesky", CHOLESKY, square),
	LINALG("linalg_cholesky_ex", "torch.linalg.cholesky_ex(" SPD ")", square_info),
	LINALG("cholesky_inverse", "torch.cholesky_inverse(" CHOLESKY ")", square),
	LINALG("cholesky_solve", "torch.cholesky_solve(@0, " CHOLESKY ")", like),
	LINALG("linalg_solve", "torch.linalg.solve(" SPD ", @0)", like),
	LINALG("linalg_solve_ex", "torch.linalg.solve_ex(" SPD ", @0)", like_info),
	LINALG("linalg_solve_triangular", "torch.linalg.solve_triangular(" CHOLESKY ", @0, upper=False)", like),
	LINALG("triangular_solve", "torch.triangular_solve(@0, " CHOLESKY ", upper=False)", like_square),
	LINALG("linalg_lu_factor", "torch.linalg.lu_factor(" SPD ")", square_pivots),
	LINALG("linalg_lu_factor_ex", "torch.linalg.lu_factor_ex(" SPD ")", square_pivots_info),
	LINALG("lu", "torch.lu(" SPD ")", square_pivots),
	LINALG("linalg_lu", "torch.linalg.lu(" SPD ")", three_squares),
	LINALG("lu_unpack", "torch.lu_unpack(" LU_FACTOR ")", three_squares),
	LINALG("linalg_lu_solve", "torch.linalg.lu_solve(" LU_FACTOR ", @0)", like),
	LINALG("lu_solve", "torch.lu_solve(@0, " LU_FACTOR ")", like),
	/* the LDL ops have no derivative */
	LINALG_ATTRS("linalg_ldl_factor", "torch.linalg.ldl_factor(" SPD ")", square_pivots, LAYOUT_STRIDED, NULL,
		     choose_none, .nograd = 1),
	LINALG_ATTRS("linalg_ldl_factor_ex", "torch.linalg.ldl_factor_ex(" SPD ")", square_pivots_info, LAYOUT_STRIDED,
		     NULL, choose_none, .nograd = 1),
	LINALG_ATTRS("linalg_ldl_solve", "torch.linalg.ldl_solve(*torch.linalg.ldl_factor(" SPD "), @0)", like,
		     LAYOUT_STRIDED, NULL, choose_none, .nograd = 1),
	LINALG_ATTRS("linalg_matrix_power", "torch.linalg.matrix_power(" SPD ", #0)", power, LAYOUT_STRIDED, "n",
		     choose_power),
	/* eigenvalues of A / 8n lie in (0, 2m + 1]: exp stays finite in float32 */
	LINALG("matrix_exp", "torch.matrix_exp(" SPD " / (8 * @0.shape[-1]))", square),
	LINALG_ATTRS("linalg_matrix_norm", "torch.linalg.matrix_norm(" BOUNDED ", ord=#0)", matrix_norm, LAYOUT_FRESH, "ord$",
		     choose_matrix_norm, .strs = matrix_norm_ords),
	LINALG_ATTRS("linalg_diagonal", "torch.linalg.diagonal(@0, offset=#0, dim1=#1, dim2=#2)", as_base,
		     LAYOUT_VIEW, "offset dim1 dim2", choose_as_base, .base = "diagonal"),
	{.name = "trace", .family = FAM_LINALG, .nin_min = 1, .nin_max = 1, .rank_min = 2, .rank_max = 2,
	 .dtypes = DTM_NUM, .layout = LAYOUT_FRESH, .weight = 1, .py = "torch.trace(@0)", .infer = infer_trace,
	 .choose = choose_none},
	{.name = "diag", .family = FAM_LINALG, .nin_min = 1, .nin_max = 1, .rank_min = 1, .rank_max = 2,
	 .dtypes = DTM_ALL, .layout = LAYOUT_FRESH, .weight = 1, .attrs = "diagonal", .py = "torch.diag(@0, #0)",
	 .infer = infer_diag, .choose = choose_diag},
	{.name = "diagflat", .family = FAM_LINALG, .nin_min = 1, .nin_max = 1, .rank_min = 0, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_ALL, .layout = LAYOUT_FRESH, .weight = 1, .attrs = "offset", .py = "torch.diagflat(@0, #0)",
	 .infer = infer_diagflat, .choose = choose_diag},
	{.name = "dist", .family = FAM_LINALG, .nin_min = 2, .nin_max = 2, .rank_min = 0, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .layout = LAYOUT_FRESH, .weight = 1, .attrs = "p~", .py = "torch.dist(@0, @1, p=#0)",
	 .infer = infer_dist, .choose = choose_dist},
	{.name = "linalg_vecdot", .family = FAM_LINALG, .nin_min = 2, .nin_max = 2, .rank_min = 1,
	 .rank_max = G_MAX_RANK, .dtypes = DTM_FLOAT, .layout = LAYOUT_FRESH, .weight = 1, .attrs = "dim",
	 .py = "torch.linalg.vecdot(@0, @1, dim=#0)", .infer = infer_vecdot, .choose = choose_vecdot},
	{.name = "linalg_norm", .family = FAM_LINALG, .nin_min = 1, .nin_max = 1, .rank_min = 1,
	 .rank_max = G_MAX_RANK, .dtypes = DTM_FLOAT, .layout = LAYOUT_FRESH, .weight = 1,
	 .attrs = "ord~ dim keepdim?", .py = "torch.linalg.norm(@0, ord=#0, dim=#1, keepdim=#2)",
	 .infer = infer_vector_norm_dim, .choose = choose_vector_norm_dim},
	{.name = "linalg_vander", .family = FAM_LINALG, .nin_min = 1, .nin_max = 1, .rank_min = 1,
	 .rank_max = G_MAX_RANK - 1, .dtypes = DTM_F32_F64, .layout = LAYOUT_FRESH, .weight = 1, .attrs = "N",
	 .py = "torch.linalg.vander(@0, N=#0)", .infer = infer_vander, .choose = choose_vander},
};
FAMILY_COUNT(linalg);
