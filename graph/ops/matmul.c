/* Matrix products: mm, bmm, matmul (1-D/2-D/batched with batch broadcasting),
 * the fused add* forms, dot/vdot/outer/inner, tensordot, kron, multi_dot,
 * nn.Linear, F.linear, nn.Bilinear (matmul_linear.c), scaled dot-product
 * attention (matmul_attention.c), and einsum with fixed
 * equations, ellipses broadcasting (matmul_einsum.c). This file holds the table.
 *
 * Operands share input 0's float dtype: mm/bmm reject mixed dtypes, and
 * cuBLAS has no integer matmul (CPU has), so the masks are floats only.
 * Contracted dims must be equal at every binding: the choosers copy them per
 * binding from input 0, so a dynamic inner dim stays dynamic. */
#include "matmul_kit.h"
#include "families.h"

static void pick_scales(struct chooser *c, struct op_choice *ch)
{
	static const int64_t beta[] = {1000, 1000, 500, 0, -1000, 2000}, alpha[] = {1000, 1000, 500, -1000, 1500};
	ch->nattr = 2;
	ch->attr[0] = pick_of(c, beta, NELEM(beta));
	ch->attr[1] = pick_of(c, alpha, NELEM(alpha));
}

/* ---- mm, bmm, mv, dot, outer and their add* forms ---- */

/* The result of a ra-D by rb-D product (outer: no contraction; sum_batch:
 * addbmm's sum over the batch), pushed onto o. */
static void mm_shape(const struct value *a, const struct value *b, unsigned ra, unsigned rb, bool outer,
		     bool sum_batch, struct value *o)
{
	if (ra == 3 && !sum_batch)
		push_dim(o, a, 0);
	if (ra >= 2 || outer)
		push_dim(o, a, ra - (outer ? 1 : 2));
	if (rb >= 2 || outer)
		push_dim(o, b, rb - 1);
}

/* in0 is ra-D and in1 rb-D (3 and 3: bmm; 1 and 1: dot, or outer when
 * `outer`). add: in2 expands to the result, attrs beta, alpha. */
static bool mm_rule(struct infer_io *io, unsigned ra, unsigned rb, bool add, bool outer, bool sum_batch)
{
	const struct value *a = io->in[0], *b = io->in[1];
	if (!float_operands(io) || !need_rank(io, 1, rb, rb))
		return false;
	if (ra == 3 && !dims_equal(io, a, 0, b, 0))
		return false;
	if (!outer && !dims_equal(io, a, ra - 1, b, rb == 1 ? 0 : rb - 2))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 0, (enum dtype)a->dtype);
	mm_shape(a, b, ra, rb, outer, sum_batch, &io->out[0]);
	if (!add)
		return true;
	return io_attr_range(io, 0, -4000, 4000) && io_attr_range(io, 1, -4000, 4000) &&
	       expands_to(io, io->in[2], &io->out[0]);
}

static bool mm_choose(struct chooser *c, struct op_choice *ch, unsigned ra, unsigned rb, bool add, bool outer,
		      bool sum_batch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	enum dtype dt = (enum dtype)x->dtype;
	struct value b, o;
	memset(&b, 0, sizeof b);
	memset(&o, 0, sizeof o);
	if (ra == 3)
		push_dim(&b, x, 0);
	if (outer)
		push_size(&b, pick_free(c, max_numel(c->g, x)));
	else
		push_dim(&b, x, ra - 1);
	if (rb >= 2)
		push_size(&b, pick_free(c, numel_without(c->g, x, ra - 1)));
	if (!set_input(ch, 1, operand_like(c, &b, dt)))
		return false;
	if (!add)
		return true;
	mm_shape(x, &b, ra, rb, outer, sum_batch, &o);
	pick_scales(c, ch);
	return set_input(ch, 2, pick_broadcast_partner(c, &o, dt));
}

#define MM_FNS(tag, ra, rb, add, outer, sum_batch) \
	static bool infer_##tag(struct infer_io *io) { return mm_rule(io, ra, rb, add, outer, sum_batch); } \
	static bool choose_##tag(struct chooser *c, struct op_choice *ch) \
	{ \
		return mm_choose(c, ch, ra, rb, add, outer, sum_batch); \
	}
MM_FNS(mm, 2, 2, false, false, false)
MM_FNS(bmm, 3, 3, false, false, false)
MM_FNS(mv, 2, 1, false, false, false)
MM_FNS(dot, 1, 1, false, false, false)
MM_FNS(outer, 1, 1, false, true, false)
MM_FNS(addmm, 2, 2, true, false, false)
MM_FNS(baddbmm, 3, 3, true, false, false)
MM_FNS(addbmm, 3, 3, true, false, true)
MM_FNS(addmv, 2, 1, true, false, false)
MM_FNS(addr, 1, 1, true, true, false)

/* ---- matmul: 1-D operands are promoted and squeezed back; batch dims broadcast ---- */

static bool infer_matmul(struct infer_io *io)
{
	const struct value *a = io->in[0], *b = io->in[1];
	if (!float_operands(io) || !need_rank(io, 0, 1, G_MAX_RANK) || !need_rank(io, 1, 1, G_MAX_RANK))
		return false;
	unsigned ra = a->rank, rb = b->rank;
	if (!dims_equal(io, a, ra - 1, b, rb == 1 ? 0 : rb - 2))
		return false;
	/* Batch dims: all but the last two of each (none of a 1-D operand). */
	struct value ba, bb;
	memset(&ba, 0, sizeof ba);
	memset(&bb, 0, sizeof bb);
	for (unsigned d = 0; d + 2 < ra; d++)
		push_dim(&ba, a, d);
	for (unsigned d = 0; d + 2 < rb; d++)
		push_dim(&bb, b, d);
	io->nout = 1;
	io_out_rank(io, 0, 0, (enum dtype)a->dtype);
	if (!io_broadcast(io, &ba, &bb, &io->out[0]))
		return false;
	if (ra >= 2)
		push_dim(&io->out[0], a, ra - 2);
	if (rb >= 2)
		push_dim(&io->out[0], b, rb - 1);
	return true;
}

/* The other operand: 1-D, 2-D, or batched with batch dims that broadcast
 * against input 0's (copied, set to 1, grown where input 0 has a static 1,
 * or extra leading dims). */
static bool choose_matmul(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned ra = x->rank, xb = ra >= 2 ? ra - 2 : 0;
	const int64_t low[] = {1, 2, 2, 3, 4}, high[] = {1, 2, ra, ra, ra - 1, ra < G_MAX_RANK ? ra + 1 : ra};
	unsigned rb = (unsigned)(ra <= 2 ? pick_of(c, low, NELEM(low)) : pick_of(c, high, NELEM(high)));
	unsigned bn = rb >= 2 ? rb - 2 : 0;
	int64_t grow = 1;
	struct value b;
	memset(&b, 0, sizeof b);
	for (unsigned i = 0; i < bn; i++) {
		int j = (int)i - (int)(bn - xb); /* x's batch dim aligned with this one */
		bool static_one = j >= 0 && !(x->dyn >> j & 1) && x->dim[0][j] == 1;
		int32_t s = 1;
		if (j < 0 || (static_one && rng_chance(c->rng, 40)))
			s = (int32_t)rng_range(c->rng, j < 0, 3);
		else if (!rng_chance(c->rng, 20)) {
			push_dim(&b, x, (unsigned)j);
			continue;
		}
		push_size(&b, s);
		grow *= s;
	}
	push_dim(&b, x, ra - 1);
	if (rb >= 2)
		push_size(&b, pick_free(c, numel_without(c->g, x, ra - 1) * grow));
	return set_input(ch, 1, operand_like(c, &b, (enum dtype)x->dtype));
}

/* ---- inner, tensordot, kron, multi_dot ---- */

/* inner: last dims contract; out = a[:-1] + b[:-1]. */
static bool infer_inner(struct infer_io *io)
{
	const struct value *a = io->in[0], *b = io->in[1];
	if (!float_operands(io) || !need_rank(io, 1, 1, G_MAX_RANK) || !dims_equal(io, a, a->rank - 1, b, b->rank - 1))
		return false;
	if (a->rank + b->rank - 2 > G_MAX_RANK)
		return io_fail(io, "result rank %u", a->rank + b->rank - 2);
	io->nout = 1;
	io_out_rank(io, 0, 0, (enum dtype)a->dtype);
	for (unsigned d = 0; d + 1 < a->rank; d++)
		push_dim(&io->out[0], a, d);
	for (unsigned d = 0; d + 1 < b->rank; d++)
		push_dim(&io->out[0], b, d);
	return true;
}

static bool choose_inner(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned lim = G_MAX_RANK + 2 - x->rank;
	unsigned rb = (unsigned)rng_range(c->rng, 1, lim < 3 ? lim : 3);
	int64_t rest = numel_without(c->g, x, x->rank - 1);
	struct value b;
	memset(&b, 0, sizeof b);
	for (unsigned d = 0; d + 1 < rb; d++) {
		int32_t s = pick_free(c, rest);
		push_size(&b, s);
		rest *= s;
	}
	push_dim(&b, x, x->rank - 1);
	return set_input(ch, 1, operand_like(c, &b, (enum dtype)x->dtype));
}

/* tensordot(a, b, dims=k): a's last k dims contract with b's first k. */
static bool infer_tensordot(struct infer_io *io)
{
	const struct value *a = io->in[0], *b = io->in[1];
	if (!float_operands(io) || !io_attr_range(io, 0, 0, G_MAX_RANK))
		return false;
	unsigned k = (unsigned)io->attr[0];
	if (k > a->rank || k > b->rank)
		return io_fail(io, "dims=%u exceeds a rank (%u, %u)", k, a->rank, b->rank);
	if (a->rank + b->rank - 2 * k > G_MAX_RANK)
		return io_fail(io, "result rank %u", a->rank + b->rank - 2 * k);
	for (unsigned i = 0; i < k; i++)
		if (!dims_equal(io, a, a->rank - k + i, b, i))
			return false;
	io->nout = 1;
	io_out_rank(io, 0, 0, (enum dtype)a->dtype);
	for (unsigned d = 0; d < a->rank - k; d++)
		push_dim(&io->out[0], a, d);
	for (unsigned d = k; d < b->rank; d++)
		push_dim(&io->out[0], b, d);
	return true;
}

static bool choose_tensordot(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned k = (unsigned)rng_range(c->rng, 0, x->rank < 2 ? x->rank : 2);
	unsigned room = G_MAX_RANK - (x->rank - k), extra = (unsigned)rng_range(c->rng, k == 0, room < 2 ? room : 2);
	int64_t rest = 1;
	struct value b;
	memset(&b, 0, sizeof b);
	for (unsigned d = x->rank - k; d < x->rank; d++)
		push_dim(&b, x, d);
	for (unsigned d = 0; d < k; d++)
		rest *= value_dim_min(c->g, x, x->rank - k + d);
	rest = max_numel(c->g, x) / (rest < 1 ? 1 : rest);
	for (unsigned i = 0; i < extra; i++) {
		int32_t s = pick_free(c, rest);
		push_size(&b, s);
		rest *= s;
	}
	ch->nattr = 1;
	ch->attr[0] = k;
	return set_input(ch, 1, operand_like(c, &b, (enum dtype)x->dtype));
}

/* kron: ranks aligned at the right (padded with 1s), sizes multiply. */
static bool infer_kron(struct infer_io *io)
{
	const struct value *a = io->in[0], *b = io->in[1];
	if (!float_operands(io))
		return false;
	/* torch 2.6's kron views its inputs' strides: a transposed operand fails. */
	if (!a->contig || !b->contig)
		return io_fail(io, "kron needs contiguous operands");
	unsigned r = a->rank > b->rank ? a->rank : b->rank;
	io->nout = 1;
	io_out_rank(io, 0, r, (enum dtype)a->dtype);
	FOR_BIND(io, bi) for (unsigned d = 0; d < r; d++) {
		int ia = (int)d - (int)(r - a->rank), ib = (int)d - (int)(r - b->rank);
		int64_t s = (int64_t)(ia >= 0 ? a->dim[bi][ia] : 1) * (ib >= 0 ? b->dim[bi][ib] : 1);
		if (s > G_MAX_DIM)
			return io_fail(io, "kron dim %u would be %lld (binding %u)", d, (long long)s, bi);
		io->out[0].dim[bi][d] = (int32_t)s;
	}
	return true;
}

static bool choose_kron(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	if (!x->contig)
		return false;
	int64_t rest = max_numel(c->g, x);
	struct value b;
	memset(&b, 0, sizeof b);
	unsigned rb = (unsigned)rng_range(c->rng, 1, x->rank);
	for (unsigned d = 0; d < rb; d++) {
		int32_t s = rest * 3 <= OUT_SOFT_NUMEL ? (int32_t)rng_range(c->rng, 1, 3) : 1;
		push_size(&b, s);
		rest *= s;
	}
	return set_input(ch, 1, operand_like(c, &b, (enum dtype)x->dtype));
}

/* multi_dot([a, b, c]) of 2-D operands (n,k) (k,l) (l,m). */
static bool infer_multi_dot(struct infer_io *io)
{
	const struct value *a = io->in[0], *b = io->in[1], *cc = io->in[2];
	if (!float_operands(io) || !need_rank(io, 1, 2, 2) || !need_rank(io, 2, 2, 2) || !dims_equal(io, a, 1, b, 0) ||
	    !dims_equal(io, b, 1, cc, 0))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 0, (enum dtype)a->dtype);
	push_dim(&io->out[0], a, 0);
	push_dim(&io->out[0], cc, 1);
	return true;
}

static bool choose_multi_dot(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int64_t n = numel_without(c->g, x, 1);
	struct value b, m;
	memset(&b, 0, sizeof b);
	memset(&m, 0, sizeof m);
	push_dim(&b, x, 1);
	push_size(&b, pick_free(c, 1));
	push_dim(&m, &b, 1);
	push_size(&m, pick_free(c, n));
	return set_input(ch, 1, operand_like(c, &b, (enum dtype)x->dtype)) &&
	       set_input(ch, 2, operand_like(c, &m, (enum dtype)x->dtype));
}

/* ---- the table ---- */

#define MM_OF(dt, nm, nin, ra_min, ra_max, lay, w, attrs_, spelling, tag, ...) \
	{.name = nm, .family = FAM_MATMUL, .nin_min = nin, .nin_max = nin, .rank_min = ra_min, .rank_max = ra_max, \
	 .dtypes = dt, .layout = lay, .weight = w, .attrs = attrs_, .py = spelling, .infer = infer_##tag, \
	 .choose = choose_##tag, __VA_ARGS__}
#define MM(...) MM_OF(DTM_FLOAT, __VA_ARGS__)
/* the plain products of complex matrices too */
#define MMC(...) MM_OF(DTM_FLOAT | DTM_COMPLEX, __VA_ARGS__)
/* Integer matrix products: CPU-only graphs (TARGET_CPU). */
#define MM_INT(nm, ra_min, ra_max, lay, spelling, tag) \
	{.name = nm, .family = FAM_MATMUL, .nin_min = 2, .nin_max = 2, .rank_min = ra_min, .rank_max = ra_max, \
	 .dtypes = DTM_INTS, .layout = lay, .weight = 1, .cpu_only = 1, .py = spelling, .infer = infer_##tag, \
	 .choose = choose_##tag}
#define ADDMM(nm, ra, tag, ...) \
	MM(nm, 3, ra, ra, LAYOUT_FRESH, 1, "beta~ alpha~", "torch." nm "(@2, @0, @1, beta=#0, alpha=#1)", tag, __VA_ARGS__)
#define EINSUM(nm, nin, ra_min, ra_max, eq, tag) \
	MM(nm, nin, ra_min, ra_max, LAYOUT_VIEW, 1, NULL, "torch.einsum('" eq "', " EIN_ARGS##nin ")", tag)
#define EIN_ARGS1 "@0"
#define EIN_ARGS2 "@0, @1"
#define EIN_ARGS3 "@0, @1, @2"

const struct op_def ops_matmul[] = {
	MMC("mm", 2, 2, 2, LAYOUT_FRESH, 3, NULL, "torch.mm(@0, @1)", mm),
	MMC("bmm", 2, 3, 3, LAYOUT_FRESH, 2, NULL, "torch.bmm(@0, @1)", bmm),
	/* matmul may return a transposed result (when it folds the second operand). */
	MMC("matmul", 2, 1, G_MAX_RANK, LAYOUT_VIEW, 3, NULL, "torch.matmul(@0, @1)", matmul),
	MMC("matmul_op", 2, 1, G_MAX_RANK, LAYOUT_VIEW, 1, NULL, "(@0 @ @1)", matmul),
	MMC("rmatmul", 2, 1, G_MAX_RANK, LAYOUT_VIEW, 1, NULL, "@1.__rmatmul__(@0)", as_base, .base = "matmul"),
	MMC("mv", 2, 2, 2, LAYOUT_FRESH, 1, NULL, "torch.mv(@0, @1)", mv, .same_dtype = 1),
	MM_INT("mm_int", 2, 2, LAYOUT_FRESH, "torch.mm(@0, @1)", mm),
	MM_INT("bmm_int", 3, 3, LAYOUT_FRESH, "torch.bmm(@0, @1)", bmm),
	MM_INT("matmul_int", 1, G_MAX_RANK, LAYOUT_VIEW, "torch.matmul(@0, @1)", matmul),
	MMC("dot", 2, 1, 1, LAYOUT_FRESH, 1, NULL, "torch.dot(@0, @1)", dot),
	MMC("vdot", 2, 1, 1, LAYOUT_FRESH, 1, NULL, "torch.vdot(@0, @1)", dot),
	MM("outer", 2, 1, 1, LAYOUT_FRESH, 1, NULL, "torch.outer(@0, @1)", outer),
	ADDMM("addmm", 2, addmm),
	ADDMM("baddbmm", 3, baddbmm),
	ADDMM("addbmm", 3, addbmm),
	ADDMM("addmv", 2, addmv, .same_dtype = 1),
	ADDMM("addr", 1, addr),
	MM("inner", 2, 1, G_MAX_RANK, LAYOUT_VIEW, 1, NULL, "torch.inner(@0, @1)", inner, .same_dtype = 1),
	MM("tensordot", 2, 0, G_MAX_RANK, LAYOUT_VIEW, 1, "dims", "torch.tensordot(@0, @1, dims=#0)", tensordot,
	   .same_dtype = 1),
	MM("kron", 2, 1, G_MAX_RANK, LAYOUT_VIEW, 1, NULL, "torch.kron(@0, @1)", kron),
	MM("multi_dot", 3, 2, 2, LAYOUT_FRESH, 1, NULL, "torch.linalg.multi_dot([@0, @1, @2])", multi_dot,
	   .same_dtype = 1),
	{.name = "linear", .family = FAM_MATMUL, .nin_min = 1, .nin_max = 1, .rank_min = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .layout = LAYOUT_FRESH, .weight = 3, .attrs = "in_features out_features bias?",
	 .ctor = "torch.nn.Linear(#0, #1, bias=#2, dtype=#T)", .infer = infer_linear, .choose = choose_linear},
	MM("linear_fn", 2, 1, G_MAX_RANK, LAYOUT_FRESH, 1, NULL, "torch.nn.functional.linear(@0, @1)", linear_w),
	MM("linear_fn_bias", 3, 1, G_MAX_RANK, LAYOUT_FRESH, 1, NULL, "torch.nn.functional.linear(@0, @1, @2)",
	   linear_wb),
	{.name = "bilinear", .family = FAM_MATMUL, .nin_min = 2, .nin_max = 2, .rank_min = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .layout = LAYOUT_VIEW, .weight = 1, .same_dtype = 1,
	 .attrs = "in1_features in2_features out_features bias?",
	 .ctor = "torch.nn.Bilinear(#0, #1, #2, bias=#3, dtype=#T)", .py = "#m(@0, @1)", .infer = infer_bilinear,
	 .choose = choose_bilinear},
	{.name = "sdpa", .family = FAM_MATMUL, .nin_min = 3, .nin_max = 3, .rank_min = 2, .rank_max = 4,
	 .dtypes = DTM_FLOAT, .layout = LAYOUT_VIEW, .weight = 2, .attrs = "is_causal?",
	 .py = "torch.nn.functional.scaled_dot_product_attention(@0, @1, @2, is_causal=#0)", .infer = infer_sdpa,
	 .choose = choose_sdpa},
	{.name = "sdpa_mask", .family = FAM_MATMUL, .nin_min = 4, .nin_max = 4, .rank_min = 2, .rank_max = 4,
	 .dtypes = DTM_FLOAT, .layout = LAYOUT_VIEW, .weight = 2, .attrs = "scale~",
	 .py = "torch.nn.functional.scaled_dot_product_attention(@0, @1, @2, attn_mask=@3, scale=#0)",
	 .infer = infer_sdpa_mask, .choose = choose_sdpa_mask},
	EINSUM("einsum_mm", 2, 2, 2, "ij,jk->ik", ein_mm),
	EINSUM("einsum_bmm", 2, 3, 3, "bij,bjk->bik", ein_bmm),
	EINSUM("einsum_qk", 2, 4, 4, "bhqd,bhkd->bhqk", ein_qk),
	EINSUM("einsum_av", 2, 4, 4, "bhqk,bhkd->bhqd", ein_av),
	EINSUM("einsum_outer", 2, 1, 1, "i,j->ij", ein_outer),
	EINSUM("einsum_diag", 1, 2, 2, "ii->i", ein_diag),
	EINSUM("einsum_trace", 1, 2, 2, "ii->", ein_trace),
	EINSUM("einsum_transpose", 1, 2, 2, "ij->ji", ein_transpose),
	EINSUM("einsum_batch_outer", 2, 2, 2, "bi,bj->bij", ein_batch_outer),
	EINSUM("einsum_bilinear", 3, 2, 2, "bn,anm,bm->ba", ein_bilinear),
	EINSUM("einsum_batched_mm", 2, 2, G_MAX_RANK, "...ij,...jk->...ik", ein_batched_mm),
	EINSUM("einsum_linear", 2, 1, G_MAX_RANK, "...i,oi->...o", ein_linear),
	EINSUM("einsum_batched_dot", 2, 1, G_MAX_RANK, "...i,...i->...", ein_batched_dot),
	EINSUM("einsum_contract_last", 2, 2, G_MAX_RANK, "b...d,d->b...", ein_contract_last),
	EINSUM("einsum_mid_mm", 2, 2, G_MAX_RANK, "i...j,j...k->i...k", ein_mid_mm),
	EINSUM("einsum_batched_transpose", 1, 2, G_MAX_RANK, "...ij->...ji", ein_batched_transpose),
	EINSUM("einsum_batched_diag", 1, 2, G_MAX_RANK, "...ii->...i", ein_batched_diag),
	EINSUM("einsum_batched_outer", 2, 1, G_MAX_RANK, "...i,...j->...ij", ein_batched_outer),
	EINSUM("einsum_sum_ellipsis", 1, 1, G_MAX_RANK, "b...->b", ein_sum_ellipsis),
};
FAMILY_COUNT(matmul);
