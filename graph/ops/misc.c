/* Miscellaneous ops: distances (PairwiseDistance, cdist, pdist, cosine
 * similarity), interpolation and grid sampling, multi-head self-attention,
 * lookups that read integer indices (embedding, embedding_bag, one_hot) and
 * rearrangements (pixel shuffle, tril/triu, flip, roll, rot90, diagonal,
 * diag_embed). Index inputs must lie in [0, n) at run time, so the rules
 * read the values' lo/hi bounds and the choosers build index tensors with a
 * FILL_RANGE when the primary input's bounds do not fit. */
#include "../opkit.h"
#include "families.h"
#include "misc_ops.h"

/* Output 0: x's shape minus dim d (or with it kept as 1). */
static void drop_dim(struct infer_io *io, const struct value *x, unsigned d, bool keep, enum dtype dt)
{
	io_out_rank(io, 0, x->rank - !keep, dt);
	FOR_BIND(io, b) for (unsigned i = 0, j = 0; i < x->rank; i++) {
		if (i != d)
			io->out[0].dim[b][j++] = x->dim[b][i];
		else if (keep)
			io->out[0].dim[b][j++] = 1;
	}
}

/* ---- distances ---- */

/* pairwise_distance: norm of x1 - x2 + eps over the last dim of the
 * broadcast shape; integer inputs give float32. */
static bool pairwise_rule(struct infer_io *io, bool keep)
{
	struct value bc;
	if (!io_attr_range(io, 0, 0, 10000) || !io_same_dtype(io) || !io_broadcast(io, io->in[0], io->in[1], &bc))
		return false;
	if (!bc.rank)
		return io_fail(io, "pairwise_distance needs rank >= 1");
	enum dtype dt = (enum dtype)io->in[0]->dtype;
	io->nout = 1;
	drop_dim(io, &bc, bc.rank - 1u, keep, dtype_is_float(dt) ? dt : DT_FLOAT32);
	return true;
}
static bool infer_pairwise(struct infer_io *io) { return pairwise_rule(io, false); }
static bool infer_pairwise_fn(struct infer_io *io)
{
	return io_attr_range(io, 1, 0, 1) && pairwise_rule(io, io->attr[1]);
}

static const int64_t norm_ps[] = {2000, 2000, 1000, 3000, 1500, 500, 0};

/* Second operand: x's shape (as PairwiseDistance is used), sometimes a broadcast partner. */
static bool choose_partner(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	struct tensor_req r = req_like(x);
	int p = rng_chance(c->rng, 75) ? c->operand(c, &r) : pick_broadcast_partner(c, x, (enum dtype)x->dtype);
	if (p < 0)
		return false;
	ch->in[1] = (uint16_t)p;
	ch->nin = 2;
	return true;
}

static bool choose_pairwise(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = pick_of(c, norm_ps, NELEM(norm_ps));
	return choose_partner(c, ch);
}

static bool choose_pairwise_fn(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 2;
	ch->attr[0] = pick_of(c, norm_ps, NELEM(norm_ps));
	ch->attr[1] = rng_chance(c->rng, 30);
	return choose_partner(c, ch);
}

static bool infer_cosine(struct infer_io *io)
{
	struct value bc;
	if (!io_same_dtype(io) || !io_broadcast(io, io->in[0], io->in[1], &bc))
		return false;
	int d = bc.rank ? io_dim(io->attr[0], bc.rank) : -1;
	if (d < 0)
		return io_fail(io, "dim %lld out of range for rank %u", (long long)io->attr[0], bc.rank);
	io->nout = 1;
	drop_dim(io, &bc, (unsigned)d, false, (enum dtype)io->in[0]->dtype);
	return true;
}

static bool choose_cosine(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = pick_dim(c, c->g->v[ch->in[0]].rank);
	return choose_partner(c, ch);
}

/* pdist: the distances between the N rows of an [N, M] input, i < j, so
 * N(N-1)/2 of them; N >= 2 keeps the output non-empty. */
static bool infer_pdist(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (!io_attr_range(io, 0, 0, 10000))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 1, (enum dtype)x->dtype);
	FOR_BIND(io, b) {
		int64_t n = x->dim[b][0], o = n * (n - 1) / 2;
		if (o < 1 || o > G_MAX_DIM)
			return io_fail(io, "pdist of %lld rows gives %lld distances (binding %u)", (long long)n,
				       (long long)o, b);
		io->out[0].dim[b][0] = (int32_t)o;
	}
	return true;
}

static bool choose_pdist(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = pick_of(c, norm_ps, NELEM(norm_ps));
	return true;
}

/* F.multi_head_attention_forward(x, x, x, E, heads, in_proj, ..., out_proj)[0]:
 * self-attention of x [L, N, E] or [L, E] with in_proj [3E, E] and out_proj
 * [E, E] of x's dtype, no biases, no dropout; the attention output has x's
 * shape. E is static (the weights' size) and heads divides it. */
static bool infer_mha(struct infer_io *io)
{
	const struct value *x = io->in[0], *wi = io->in[1], *wo = io->in[2];
	unsigned last = x->rank - 1u;
	int32_t e = x->dim[0][last];
	if (!io_same_dtype(io) || !io_attr_range(io, 0, 1, 16) || !io_attr_range(io, 1, 0, 1))
		return false;
	if (!io_dim_static(io, x, last) || e % io->attr[0])
		return io_fail(io, "embed dim must be static and divisible by %lld heads", (long long)io->attr[0]);
	if (wi->rank != 2 || wo->rank != 2 || wi->dim[0][0] != 3 * e || wi->dim[0][1] != e || wo->dim[0][0] != e ||
	    wo->dim[0][1] != e || !io_dim_static(io, wi, 0) || !io_dim_static(io, wi, 1) || !io_dim_static(io, wo, 0) ||
	    !io_dim_static(io, wo, 1))
		return io_fail(io, "projections must be [%d, %d] and [%d, %d]", 3 * e, e, e, e);
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	return true;
}

static bool choose_mha(struct chooser *c, struct op_choice *ch)
{
	static const int64_t heads[] = {1, 2, 4, 3};
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned last = x->rank - 1u;
	int32_t e = x->dim[0][last];
	if (e > 64)
		return false;
	for (unsigned b = 1; b < c->g->nbind; b++)
		if (x->dim[b][last] != e)
			return false;
	ch->nattr = 2;
	ch->attr[0] = pick_of(c, heads, NELEM(heads));
	if (e % ch->attr[0])
		ch->attr[0] = 1;
	ch->attr[1] = rng_chance(c->rng, 50);
	struct tensor_req wi = req_static((enum dtype)x->dtype, 2, (int32_t[]){3 * e, e}),
			  wo = req_static((enum dtype)x->dtype, 2, (int32_t[]){e, e});
	wi.want_param = wo.want_param = 1;
	int a = c->operand(c, &wi), b = a < 0 ? -1 : c->operand(c, &wo);
	if (b < 0)
		return false;
	ch->in[1] = (uint16_t)a;
	ch->in[2] = (uint16_t)b;
	ch->nin = 3;
	return true;
}

/* cdist: [B.., P, M] x [B.., R, M] -> [B.., P, R], batch dims broadcast. */
static bool infer_cdist(struct infer_io *io)
{
	const struct value *a = io->in[0], *b2 = io->in[1];
	if (!io_attr_range(io, 0, 0, 10000) || !io_same_dtype(io))
		return false;
	if (b2->rank < 2)
		return io_fail(io, "cdist operand 1 needs rank >= 2, got %u", b2->rank);
	struct value ba = *a, bb = *b2, bc;
	ba.rank -= 2;
	bb.rank -= 2;
	if (!io_broadcast(io, &ba, &bb, &bc))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, bc.rank + 2u, (enum dtype)a->dtype);
	FOR_BIND(io, b) {
		if (a->dim[b][a->rank - 1] != b2->dim[b][b2->rank - 1])
			return io_fail(io, "cdist feature sizes %d and %d differ (binding %u)", (int)a->dim[b][a->rank - 1],
				       (int)b2->dim[b][b2->rank - 1], b);
		for (unsigned i = 0; i < bc.rank; i++)
			io->out[0].dim[b][i] = bc.dim[b][i];
		io->out[0].dim[b][bc.rank] = a->dim[b][a->rank - 2];
		io->out[0].dim[b][bc.rank + 1] = b2->dim[b][b2->rank - 2];
	}
	return true;
}

static bool choose_cdist(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	struct tensor_req r = req_like(x);
	int32_t rows = (int32_t)rng_range(c->rng, 1, 8);
	bool same_rows = rng_chance(c->rng, 30);
	for (unsigned d = 0; d + 1 < x->rank; d++) {
		bool one = d + 2 < x->rank && rng_chance(c->rng, 20);
		for (unsigned b = 0; b < G_MAX_BIND; b++)
			r.dim[b][d] = one ? 1 : d + 2 == x->rank ? (same_rows ? x->dim[b][d] : rows) : x->dim[b][d];
	}
	int p = c->operand(c, &r);
	if (p < 0)
		return false;
	ch->in[1] = (uint16_t)p;
	ch->nin = 2;
	ch->nattr = 1;
	ch->attr[0] = pick_of(c, norm_ps, NELEM(norm_ps));
	return true;
}

/* ---- lookups by integer index ---- */

/* Index input 0 must lie in [0, n) wherever it is read. */
static bool index_ok(struct infer_io *io, const struct value *idx, int64_t n)
{
	if (idx->lo < 0 || idx->hi >= n)
		return io_fail(io, "index values in [%lld, %lld] not within [0, %lld)", (long long)idx->lo,
			       (long long)idx->hi, (long long)n);
	return true;
}

/* Output 0: idx's shape plus one trailing dim of size `last` at binding b. */
static void append_dim(struct infer_io *io, const struct value *idx, enum dtype dt, const int32_t *last)
{
	io->nout = 1;
	io_out_like(io, 0, idx, dt);
	io->out[0].rank = idx->rank + 1;
	FOR_BIND(io, b) io->out[0].dim[b][idx->rank] = last[b];
}

static bool infer_embedding(struct infer_io *io)
{
	int32_t d[G_MAX_BIND];
	if (!io_attr_range(io, 0, 1, 1 << 14) || !io_attr_range(io, 1, 1, G_MAX_DIM) ||
	    !index_ok(io, io->in[0], io->attr[0]))
		return false;
	if (!dtype_is_float(io->attr[2]))
		return io_fail(io, "embedding weight dtype must be floating point");
	if (io->attr[0] * io->attr[1] > G_MAX_NUMEL) /* the weight is a tensor too */
		return io_fail(io, "embedding weight of %lld x %lld is too large", (long long)io->attr[0],
			       (long long)io->attr[1]);
	FOR_BIND(io, b) d[b] = (int32_t)io->attr[1];
	append_dim(io, io->in[0], (enum dtype)io->attr[2], d);
	return true;
}

/* F.embedding(idx, weight): weight is [n, dim], n above every index. */
static bool infer_embedding_fn(struct infer_io *io)
{
	const struct value *w = io->in[1];
	int32_t d[G_MAX_BIND];
	if (w->rank != 2 || !dtype_is_float(w->dtype))
		return io_fail(io, "embedding weight must be a 2-D float tensor");
	FOR_BIND(io, b) {
		if (!index_ok(io, io->in[0], w->dim[b][0]))
			return false;
		d[b] = w->dim[b][1];
	}
	append_dim(io, io->in[0], (enum dtype)w->dtype, d);
	return true;
}

/* F.embedding_bag(idx, weight, mode=) of a 2-D idx (one bag per row, no
 * offsets): [B, L] and [n, dim] give [B, dim]. */
static const char *const bag_modes[] = {"sum", "mean", "max", NULL};

static bool infer_embedding_bag(struct infer_io *io)
{
	const struct value *idx = io->in[0], *w = io->in[1];
	if (!io_attr_range(io, 0, 0, 2))
		return false;
	if (w->rank != 2 || !dtype_is_float(w->dtype))
		return io_fail(io, "embedding_bag weight must be a 2-D float tensor");
	io->nout = 1;
	io_out_rank(io, 0, 2, (enum dtype)w->dtype);
	FOR_BIND(io, b) {
		if (!index_ok(io, idx, w->dim[b][0]))
			return false;
		io->out[0].dim[b][0] = idx->dim[b][0];
		io->out[0].dim[b][1] = w->dim[b][1];
	}
	return true;
}

static bool infer_one_hot(struct infer_io *io)
{
	int32_t d[G_MAX_BIND];
	if (!io_attr_range(io, 0, 1, G_MAX_DIM) || !index_ok(io, io->in[0], io->attr[0]))
		return false;
	FOR_BIND(io, b) d[b] = (int32_t)io->attr[0];
	append_dim(io, io->in[0], DT_INT64, d);
	io->out[0].lo = 0;
	io->out[0].hi = 1;
	return true;
}

/* Keeps the primary input when its values suit a table of *n rows (n then
 * chosen above its maximum), else builds an index tensor of its shape. Returns
 * the largest numel over the bindings, or 0 on failure. */
static int64_t choose_index(struct chooser *c, struct op_choice *ch, int64_t *n)
{
	const struct value *x = &c->g->v[ch->in[0]];
	if (x->lo >= 0 && x->hi < 256 && rng_chance(c->rng, 80)) {
		*n = x->hi + 1 + rng_range(c->rng, 0, 6);
	} else {
		struct tensor_req r = req_like(x);
		*n = rng_range(c->rng, 2, 40);
		r.fill = FILL_RANGE;
		r.lo = 0;
		r.hi = *n - 1;
		int id = c->operand(c, &r);
		if (id < 0)
			return 0;
		ch->in[0] = (uint16_t)id;
		x = &c->g->v[id];
	}
	int64_t numel = 1;
	for (unsigned b = 0; b < c->g->nbind; b++)
		numel = value_numel(x, b) > numel ? value_numel(x, b) : numel;
	return numel;
}

/* An embedding width that keeps the output small. */
static int64_t pick_width(struct chooser *c, int64_t numel)
{
	int64_t cap = 8192 / numel;
	return cap < 1 ? 0 : rng_range(c->rng, 1, cap < 16 ? cap : 16);
}

static bool choose_embedding(struct chooser *c, struct op_choice *ch)
{
	int64_t n, numel = choose_index(c, ch, &n), w = numel ? pick_width(c, numel) : 0;
	if (!w)
		return false;
	ch->nattr = 3;
	ch->attr[0] = n;
	ch->attr[1] = w;
	ch->attr[2] = pick_dtype(c, DTM_FLOAT);
	return true;
}

static bool choose_embedding_fn(struct chooser *c, struct op_choice *ch)
{
	int64_t n, numel = choose_index(c, ch, &n), w = numel ? pick_width(c, numel) : 0;
	if (!w)
		return false;
	struct tensor_req r = req_static(pick_dtype(c, DTM_FLOAT), 2, (int32_t[]){(int32_t)n, (int32_t)w});
	int id = c->operand(c, &r);
	if (id < 0)
		return false;
	ch->in[1] = (uint16_t)id;
	ch->nin = 2;
	return true;
}

static bool choose_embedding_bag(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = (int64_t)rng_below(c->rng, 3);
	return choose_embedding_fn(c, ch);
}

static bool choose_one_hot(struct chooser *c, struct op_choice *ch)
{
	int64_t n, numel = choose_index(c, ch, &n);
	ch->nattr = 1;
	ch->attr[0] = n;
	return numel && numel * n <= 8192;
}

#define MISC(nm, nin, rmin, rmax, dt, lay, w, attrs_, spelling, ctor_, tag) \
	{.name = nm, .family = FAM_MISC, .nin_min = nin, .nin_max = nin, .rank_min = rmin, .rank_max = rmax, \
	 .dtypes = dt, .layout = lay, .weight = w, .attrs = attrs_, .py = spelling, .ctor = ctor_, \
	 .infer = infer_##tag, .choose = choose_##tag}
#define INTERP(nm, attrs_, spelling, ctor_, tag) \
	{.name = nm, .family = FAM_MISC, .nin_min = 1, .nin_max = 1, .rank_min = 3, .rank_max = 5, \
	 .dtypes = DTM_FLOAT, .layout = LAYOUT_KEEP, .weight = 2, .attrs = attrs_, .py = spelling, .ctor = ctor_, \
	 .strs = misc_interp_modes, .infer = misc_infer_##tag, .choose = misc_choose_##tag}
/* x and a grid of its dtype; `nm` picks the ranks: grid_sample 4-D or 5-D */
#define GRID(nm, rmin, rmax, attrs_, spelling, strs_, tag) \
	{.name = nm, .family = FAM_MISC, .nin_min = 2, .nin_max = 2, .rank_min = rmin, .rank_max = rmax, \
	 .dtypes = DTM_FLOAT, .layout = LAYOUT_FRESH, .weight = 1, .attrs = attrs_, .py = spelling, .strs = strs_, \
	 .infer = misc_infer_##tag, .choose = misc_choose_##tag}
#define REARRANGE(nm, rmin, rmax, lay, attrs_, spelling, tag) \
	{.name = nm, .family = FAM_MISC, .nin_min = 1, .nin_max = 1, .rank_min = rmin, .rank_max = rmax, \
	 .dtypes = DTM_ALL, .layout = lay, .weight = 1, .attrs = attrs_, .py = spelling, \
	 .infer = misc_infer_##tag, .choose = misc_choose_##tag}

const struct op_def ops_misc[] = {
	MISC("pairwise_distance", 2, 1, G_MAX_RANK, DTM_NUM, LAYOUT_FRESH, 3, "p~", "#m(@0, @1)",
	     "torch.nn.PairwiseDistance(p=#0)", pairwise),
	MISC("pairwise_distance_fn", 2, 1, G_MAX_RANK, DTM_NUM, LAYOUT_FRESH, 1, "p~ keepdim?",
	     "F.pairwise_distance(@0, @1, p=#0, keepdim=#1)", NULL, pairwise_fn),
	MISC("cosine_similarity", 2, 1, G_MAX_RANK, DTM_FLOAT, LAYOUT_FRESH, 2, "dim",
	     "F.cosine_similarity(@0, @1, dim=#0)", NULL, cosine),
	MISC("cdist", 2, 2, G_MAX_RANK, DTM_F32_F64, LAYOUT_FRESH, 2, "p~", "torch.cdist(@0, @1, p=#0)", NULL, cdist),
	/* no float16/bfloat16 kernel */
	MISC("pdist", 1, 2, 2, DTM_F32_F64, LAYOUT_FRESH, 1, "p~", "F.pdist(@0, p=#0)", NULL, pdist),
	MISC("multi_head_attention_forward", 3, 2, 3, DTM_FLOAT, LAYOUT_FRESH, 1, "num_heads need_weights?",
	     "F.multi_head_attention_forward(@0, @0, @0, @0.size(-1), #0, @1, None, None, None, False, 0.0, @2, None, "
	     "training=False, need_weights=#1)[0]",
	     NULL, mha),
	INTERP("interpolate_size", "mode$ size[]", "F.interpolate(@0, size=#1, mode=#0)", NULL, interp_size),
	INTERP("interpolate_scale", "mode$ scale_factor~ recompute_scale_factor?",
	       "F.interpolate(@0, scale_factor=#1, mode=#0, recompute_scale_factor=#2)", NULL, interp_scale),
	INTERP("interpolate_size_ac", "mode$ align_corners? antialias? size[]",
	       "F.interpolate(@0, size=#3, mode=#0, align_corners=#1, antialias=#2)", NULL, interp_size_ac),
	INTERP("interpolate_scale_ac", "mode$ scale_factor~ align_corners? recompute_scale_factor?",
	       "F.interpolate(@0, scale_factor=#1, mode=#0, align_corners=#2, recompute_scale_factor=#3)", NULL,
	       interp_scale_ac),
	INTERP("upsample", "mode$ scale_factor~", NULL, "torch.nn.Upsample(scale_factor=#1, mode=#0)", upsample),
	/* deprecated spellings of interpolate: nearest (3-D to 5-D) by size, bilinear with align_corners=True (4-D) by scale */
	INTERP("upsample_nearest", "size[]", "F.upsample_nearest(@0, size=#0)", NULL, upsample_nearest),
	INTERP("upsample_bilinear", "scale_factor~", "F.upsample_bilinear(@0, scale_factor=#0)", NULL, upsample_bilinear),
	GRID("grid_sample", 4, 5, "mode$ padding_mode$ align_corners?",
	     "F.grid_sample(@0, torch.tanh(torch.nan_to_num(@1)), mode=#0, padding_mode=#1, align_corners=#2)",
	     misc_grid_modes, grid_sample),
	GRID("grid_sampler_2d", 4, 4, "interpolation_mode padding_mode align_corners?",
	     "torch.grid_sampler_2d(@0, torch.tanh(torch.nan_to_num(@1)), #0, #1, #2)", NULL, grid_sampler),
	GRID("grid_sampler_3d", 5, 5, "interpolation_mode padding_mode align_corners?",
	     "torch.grid_sampler_3d(@0, torch.tanh(torch.nan_to_num(@1)), #0, #1, #2)", NULL, grid_sampler),
	MISC("embedding", 1, 0, G_MAX_RANK - 1, DTM_INT, LAYOUT_FRESH, 2, "num_embeddings embedding_dim dtype%", NULL,
	     "torch.nn.Embedding(#0, #1, dtype=#2)", embedding),
	MISC("embedding_fn", 2, 0, G_MAX_RANK - 1, DTM_INT, LAYOUT_FRESH, 1, NULL, "F.embedding(@0, @1)", NULL,
	     embedding_fn),
	{.name = "embedding_bag", .family = FAM_MISC, .nin_min = 2, .nin_max = 2, .rank_min = 2, .rank_max = 2,
	 .dtypes = DTM_INT, .layout = LAYOUT_FRESH, .weight = 1, .attrs = "mode$", .strs = bag_modes,
	 .py = "F.embedding_bag(@0, @1, mode=#0)", .infer = infer_embedding_bag, .choose = choose_embedding_bag},
	MISC("one_hot", 1, 0, G_MAX_RANK - 1, DTM(DT_INT64), LAYOUT_FRESH, 1, "num_classes", "F.one_hot(@0, #0)", NULL,
	     one_hot),
	REARRANGE("pixel_shuffle", 3, G_MAX_RANK, LAYOUT_KEEP, "upscale_factor", "F.pixel_shuffle(@0, #0)",
		  pixel_shuffle),
	REARRANGE("pixel_unshuffle", 3, G_MAX_RANK, LAYOUT_KEEP, "downscale_factor", "F.pixel_unshuffle(@0, #0)",
		  pixel_unshuffle),
	REARRANGE("tril", 2, G_MAX_RANK, LAYOUT_KEEP, "diagonal", "torch.tril(@0, #0)", tri),
	REARRANGE("triu", 2, G_MAX_RANK, LAYOUT_KEEP, "diagonal", "torch.triu(@0, #0)", tri),
	REARRANGE("flip", 1, G_MAX_RANK, LAYOUT_KEEP, "dims[]", "torch.flip(@0, #0)", flip),
	REARRANGE("roll", 1, G_MAX_RANK, LAYOUT_KEEP, "shifts dims", "torch.roll(@0, #0, #1)", roll),
	REARRANGE("roll2", 2, G_MAX_RANK, LAYOUT_KEEP, "shift0 shift1 dim0 dim1", "torch.roll(@0, (#0, #1), (#2, #3))",
		  roll2),
	REARRANGE("roll_flat", 0, G_MAX_RANK, LAYOUT_KEEP, "shifts", "torch.roll(@0, #0)", roll_flat),
	REARRANGE("rot90", 2, G_MAX_RANK, LAYOUT_VIEW, "k dim0 dim1", "torch.rot90(@0, #0, (#1, #2))", rot90),
	REARRANGE("diagonal", 2, G_MAX_RANK, LAYOUT_VIEW, "offset dim1 dim2", "torch.diagonal(@0, #0, #1, #2)",
		  diagonal),
	REARRANGE("diag_embed", 1, G_MAX_RANK - 1, LAYOUT_FRESH, "offset dim1 dim2",
		  "torch.diag_embed(@0, #0, #1, #2)", diag_embed),
};
FAMILY_COUNT(misc);
