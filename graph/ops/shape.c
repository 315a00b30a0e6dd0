/* Shape ops: view/reshape, permutations, squeeze/unsqueeze, flatten,
 * expand/repeat, narrow/select/slicing, unfold. The values stay the same
 * (integer bounds pass through); only the shape and the layout change.
 * The size-list ops and slicing live in shape_lists.c.
 *
 * Layouts: reshapes keep contiguity (LAYOUT_KEEP: a contiguous input gives a
 * contiguous output), strided views (permute, expand, narrow, slices) are
 * LAYOUT_VIEW, copies are FRESH. */
#include "families.h"
#include "shape_ops.h"
#include <stdlib.h>

static bool infer_same(struct infer_io *io)
{
	io->nout = 1;
	io_out_like(io, 0, io->in[0], (enum dtype)io->in[0]->dtype);
	keep_bounds(io, io->in[0]);
	return true;
}

/* Output 0 like x with dim d removed (d < 0: nothing removed). */
static void out_without(struct infer_io *io, const struct value *x, int d)
{
	io->nout = 1;
	io_out_rank(io, 0, x->rank - (d >= 0), (enum dtype)x->dtype);
	FOR_BIND(io, b) for (unsigned i = 0, o = 0; i < x->rank; i++) if ((int)i != d) io->out[0].dim[b][o++] = x->dim[b][i];
	keep_bounds(io, x);
}

/* permute(dims): a permutation of all dims (negative ones wrap). */
static bool infer_permute(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (!list_ok(io, 0, G_MAX_RANK) || io->attr[0] != x->rank)
		return io_fail(io, "permute needs %u dims", x->rank);
	unsigned seen = 0;
	io->nout = 1;
	io_out_rank(io, 0, x->rank, (enum dtype)x->dtype);
	keep_bounds(io, x);
	for (unsigned i = 0; i < x->rank; i++) {
		int d = io_dim(io->attr[1 + i], x->rank);
		if (d < 0 || (seen >> d & 1))
			return io_fail(io, "permute dim %lld out of range or repeated", (long long)io->attr[1 + i]);
		seen |= 1u << d;
		FOR_BIND(io, b) io->out[0].dim[b][i] = x->dim[b][d];
	}
	return true;
}

static bool choose_permute(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int64_t p[G_MAX_RANK];
	for (unsigned i = 0; i < x->rank; i++)
		p[i] = i;
	shuffle(c, p, x->rank);
	ch->nattr = (uint8_t)(1 + x->rank);
	ch->attr[0] = x->rank;
	for (unsigned i = 0; i < x->rank; i++)
		ch->attr[1 + i] = rng_chance(c->rng, 20) ? p[i] - x->rank : p[i];
	return true;
}

/* movedim(source, destination); transpose swaps two dims (also at rank 0). */
static bool infer_movedim(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int s = io_dim(io->attr[0], x->rank), t = io_dim(io->attr[1], x->rank);
	if (s < 0 || t < 0)
		return io_fail(io, "movedim dims out of range");
	int order[G_MAX_RANK], n = 0;
	for (int i = 0; i < (int)x->rank; i++)
		if (i != s)
			order[n++] = i;
	for (int i = n; i > t; i--)
		order[i] = order[i - 1];
	order[t] = s;
	io->nout = 1;
	io_out_rank(io, 0, x->rank, (enum dtype)x->dtype);
	keep_bounds(io, x);
	FOR_BIND(io, b) for (unsigned i = 0; i < x->rank; i++) io->out[0].dim[b][i] = x->dim[b][order[i]];
	return true;
}

static bool swap_rule(struct infer_io *io, int64_t d0, int64_t d1)
{
	const struct value *x = io->in[0];
	int s = io_dim(d0, x->rank), t = io_dim(d1, x->rank);
	if (s < 0 || t < 0)
		return io_fail(io, "transpose dims out of range");
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	keep_bounds(io, x);
	if (x->rank)
		FOR_BIND(io, b) {
			io->out[0].dim[b][s] = x->dim[b][t];
			io->out[0].dim[b][t] = x->dim[b][s];
		}
	return true;
}
static bool infer_transpose(struct infer_io *io) { return swap_rule(io, io->attr[0], io->attr[1]); }
static bool infer_mt(struct infer_io *io) { return swap_rule(io, -2, -1); }

static bool choose_two_dims(struct chooser *c, struct op_choice *ch)
{
	unsigned r = c->g->v[ch->in[0]].rank;
	ch->nattr = 2;
	ch->attr[0] = pick_dim(c, r);
	ch->attr[1] = pick_dim(c, r);
	return true;
}

/* torch.t: rank <= 2, reverses the dims. */
static bool infer_t(struct infer_io *io)
{
	const struct value *x = io->in[0];
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	keep_bounds(io, x);
	FOR_BIND(io, b) for (unsigned i = 0; i < x->rank; i++) io->out[0].dim[b][i] = x->dim[b][x->rank - 1 - i];
	return true;
}

/* Whether dim d is 1 at every binding (1), at none (0), or mixed (-1). */
static int dim_is_one(const struct infer_io *io, const struct value *x, unsigned d)
{
	unsigned ones = 0;
	FOR_BIND(io, b) ones += x->dim[b][d] == 1;
	return ones == io->nbind ? 1 : ones ? -1 : 0;
}

/* squeeze(dims): listed dims of size 1 go, others stay; squeeze() drops all
 * size-1 dims. Either way the dims dropped must be the same at every binding. */
static bool squeeze_rule(struct infer_io *io, unsigned listed)
{
	const struct value *x = io->in[0];
	unsigned drop = 0;
	for (unsigned d = 0; d < x->rank; d++) {
		int one = dim_is_one(io, x, d);
		if ((listed >> d & 1) && one < 0)
			return io_fail(io, "dim %u is 1 at some bindings only", d);
		drop |= (unsigned)(one > 0 && (listed >> d & 1)) << d;
	}
	io->nout = 1;
	io_out_rank(io, 0, x->rank - (unsigned)__builtin_popcount(drop), (enum dtype)x->dtype);
	keep_bounds(io, x);
	FOR_BIND(io, b) for (unsigned i = 0, o = 0; i < x->rank; i++) if (!(drop >> i & 1)) io->out[0].dim[b][o++] = x->dim[b][i];
	return true;
}

static bool infer_squeeze(struct infer_io *io)
{
	int d = io_dim(io->attr[0], io->in[0]->rank);
	return d < 0 ? io_fail(io, "squeeze dim out of range") : squeeze_rule(io, 1u << d);
}

static bool infer_squeeze_all(struct infer_io *io) { return squeeze_rule(io, (1u << io->in[0]->rank) - 1); }

static bool infer_squeeze_dims(struct infer_io *io)
{
	unsigned listed = 0;
	if (!list_ok(io, 0, G_MAX_RANK))
		return false;
	for (unsigned i = 0; i < io->attr[0]; i++) {
		int d = io_dim(io->attr[1 + i], io->in[0]->rank);
		if (d < 0 || (listed >> d & 1))
			return io_fail(io, "squeeze dim %lld out of range or repeated", (long long)io->attr[1 + i]);
		listed |= 1u << d;
	}
	return squeeze_rule(io, listed);
}

/* A dim that is 1 everywhere when there is one (mostly), else any. */
static int64_t pick_squeezable(struct chooser *c, const struct value *x)
{
	for (unsigned t = 0; t < 8; t++) {
		int64_t d = pick_dim(c, x->rank);
		if (value_dim_min(c->g, x, (unsigned)io_dim(d, x->rank)) == 1 && !(x->dyn >> io_dim(d, x->rank) & 1))
			return d;
	}
	return pick_dim(c, x->rank);
}

static bool choose_squeeze(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = pick_squeezable(c, &c->g->v[ch->in[0]]);
	return true;
}

static bool choose_squeeze_dims(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned n = (unsigned)rng_range(c->rng, 1, x->rank < 3 ? x->rank : 3), used = 0;
	ch->attr[0] = 0;
	for (unsigned i = 0; i < n; i++) {
		int64_t d = pick_squeezable(c, x);
		if (used >> io_dim(d, x->rank) & 1)
			continue;
		used |= 1u << io_dim(d, x->rank);
		ch->attr[1 + ch->attr[0]++] = d;
	}
	ch->nattr = (uint8_t)(1 + ch->attr[0]);
	return true;
}

static bool infer_unsqueeze(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int d = io_dim(io->attr[0], x->rank + 1u);
	if (d < 0 || x->rank >= G_MAX_RANK)
		return io_fail(io, "unsqueeze dim out of range");
	io->nout = 1;
	io_out_rank(io, 0, x->rank + 1u, (enum dtype)x->dtype);
	keep_bounds(io, x);
	FOR_BIND(io, b) for (unsigned i = 0, s = 0; i <= x->rank; i++) io->out[0].dim[b][i] = (int)i == d ? 1 : x->dim[b][s++];
	return true;
}

static bool choose_unsqueeze(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = pick_dim(c, c->g->v[ch->in[0]].rank + 1u);
	return true;
}

/* flatten(start, end): dims start..end become one (a 0-d input gives 1-D). */
static bool infer_flatten(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int s = io_dim(io->attr[0], x->rank), e = io_dim(io->attr[1], x->rank);
	if (s < 0 || e < 0 || s > e)
		return io_fail(io, "flatten dims %lld..%lld invalid", (long long)io->attr[0], (long long)io->attr[1]);
	io->nout = 1;
	if (!x->rank) {
		io_out_rank(io, 0, 1, (enum dtype)x->dtype);
		FOR_BIND(io, b) io->out[0].dim[b][0] = 1;
		keep_bounds(io, x);
		return true;
	}
	io_out_rank(io, 0, x->rank - (unsigned)(e - s), (enum dtype)x->dtype);
	keep_bounds(io, x);
	FOR_BIND(io, b) {
		int64_t m = 1;
		for (int i = s; i <= e; i++)
			m *= x->dim[b][i];
		if (m > G_MAX_DIM)
			return io_fail(io, "flattened size %lld too large (binding %u)", (long long)m, b);
		for (int i = 0, o = 0; i < (int)x->rank; i++)
			if (i < s || i > e)
				io->out[0].dim[b][o++] = x->dim[b][i];
			else if (i == s)
				io->out[0].dim[b][o++] = (int32_t)m;
	}
	return true;
}

static bool choose_flatten(struct chooser *c, struct op_choice *ch)
{
	unsigned r = c->g->v[ch->in[0]].rank;
	int64_t s = (int64_t)rng_below(c->rng, r ? r : 1), e = rng_range(c->rng, s, r ? r - 1 : 0);
	ch->nattr = 2;
	ch->attr[0] = s;
	ch->attr[1] = rng_chance(c->rng, 30) && r ? e - r : e;
	return true;
}

/* narrow(dim, start, length) and select(dim, index) within the smallest size
 * over the bindings (a negative index counts from the end at each binding). */
static bool infer_narrow(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int d = x->rank ? io_dim(io->attr[0], x->rank) : -1;
	if (d < 0 || io->attr[1] < 0 || io->attr[2] < 1 || io->attr[1] + io->attr[2] > io_dim_min(io, x, (unsigned)d))
		return io_fail(io, "narrow dim %lld, start %lld, length %lld out of range", (long long)io->attr[0],
			       (long long)io->attr[1], (long long)io->attr[2]);
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	keep_bounds(io, x);
	FOR_BIND(io, b) io->out[0].dim[b][d] = (int32_t)io->attr[2];
	return true;
}

static bool choose_narrow(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = 3;
	ch->attr[0] = pick_dim(c, x->rank);
	int64_t mn = value_dim_min(c->g, x, (unsigned)io_dim(ch->attr[0], x->rank));
	ch->attr[2] = rng_range(c->rng, 1, mn);
	ch->attr[1] = rng_range(c->rng, 0, mn - ch->attr[2]);
	return true;
}

static bool infer_select(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int d = x->rank ? io_dim(io->attr[0], x->rank) : -1;
	int64_t mn = d < 0 ? 0 : io_dim_min(io, x, (unsigned)d);
	if (d < 0 || io->attr[1] < -mn || io->attr[1] >= mn)
		return io_fail(io, "select dim %lld, index %lld out of range", (long long)io->attr[0], (long long)io->attr[1]);
	out_without(io, x, d);
	return true;
}

static bool choose_select(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = 2;
	ch->attr[0] = pick_dim(c, x->rank);
	int64_t mn = value_dim_min(c->g, x, (unsigned)io_dim(ch->attr[0], x->rank));
	ch->attr[1] = rng_range(c->rng, rng_chance(c->rng, 30) ? -mn : 0, mn - 1);
	return true;
}

/* Python slicing of dim 0, 1, 2 or the last (the rule is in shape_lists.c). */
#define SLICE_FNS(tag, which) \
	static bool infer_##tag(struct infer_io *io) { return shape_slice_rule(io, which); } \
	static bool choose_##tag(struct chooser *c, struct op_choice *ch) { return shape_choose_slice(c, ch, which); }
SLICE_FNS(slice0, 0)
SLICE_FNS(slice1, 1)
SLICE_FNS(slice2, 2)
SLICE_FNS(slice_last, -1)

/* x.unfold(dim, size, step): windows of `size` along dim become a new last dim. */
static bool infer_unfold(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int d = io_dim(io->attr[0], x->rank);
	int64_t size = io->attr[1], step = io->attr[2];
	if (d < 0 || !x->rank || x->rank >= G_MAX_RANK || size < 1 || step < 1 || step > G_MAX_DIM ||
	    size > io_dim_min(io, x, (unsigned)d))
		return io_fail(io, "unfold dim %lld, size %lld, step %lld invalid", (long long)io->attr[0], (long long)size,
			       (long long)step);
	io->nout = 1;
	io_out_rank(io, 0, x->rank + 1u, (enum dtype)x->dtype);
	keep_bounds(io, x);
	FOR_BIND(io, b) {
		for (unsigned i = 0; i < x->rank; i++)
			io->out[0].dim[b][i] = x->dim[b][i];
		io->out[0].dim[b][d] = (int32_t)((x->dim[b][d] - size) / step + 1);
		io->out[0].dim[b][x->rank] = (int32_t)size;
	}
	io->out[0].overlap = step < size; /* windows that share elements */
	return true;
}

static bool choose_unfold(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = 3;
	ch->attr[0] = pick_dim(c, x->rank);
	int64_t mn = value_dim_min(c->g, x, (unsigned)io_dim(ch->attr[0], x->rank));
	ch->attr[1] = rng_range(c->rng, 1, mn < 4 ? mn : 4);
	ch->attr[2] = rng_range(c->rng, 1, 3);
	return true;
}

/* torch.as_strided_copy(x, (size0, size1), (stride0, stride1), offset):
 * a fresh 2-D tensor read from x's storage; torch.as_strided, the same
 * window as a view (elements read twice make it overlap). Conservative: x
 * must be known contiguous, so that its storage from its own storage offset
 * on holds its elements in order (the offset is spelled relative to it), and
 * every element read must be one of x's at every binding. */
#define AS_STRIDED_SIZE_MAX 16
static bool as_strided_fits(struct infer_io *io)
{
	const struct value *x = io->in[0];
	const int64_t *a = io->attr;
	if (!x->contig)
		return io_fail(io, "as_strided of a value not known contiguous");
	if (a[0] < 1 || a[0] > AS_STRIDED_SIZE_MAX || a[1] < 1 || a[1] > AS_STRIDED_SIZE_MAX || a[2] < 0 ||
	    a[2] > G_MAX_NUMEL_GPU || a[3] < 0 || a[3] > G_MAX_NUMEL_GPU || a[4] < 0 ||
	    a[4] > G_MAX_NUMEL_GPU)
		return io_fail(io, "as_strided sizes (%lld, %lld), strides (%lld, %lld), offset %lld out of range",
			       (long long)a[0], (long long)a[1], (long long)a[2], (long long)a[3], (long long)a[4]);
	int64_t last = a[4] + (a[0] - 1) * a[2] + (a[1] - 1) * a[3];
	FOR_BIND(io, b)
	if (last >= value_numel(x, b))
		return io_fail(io, "as_strided reads element %lld of %lld (binding %u)", (long long)last,
			       (long long)value_numel(x, b), b);
	return true;
}

static int cmp_i64(const void *p, const void *q)
{
	int64_t a = *(const int64_t *)p, b = *(const int64_t *)q;
	return (a > b) - (a < b);
}

/* Whether the window of sizes a[0], a[1] and strides a[2], a[3] reaches
 * some element twice. */
static bool window_overlaps(const int64_t *a)
{
	int64_t at[AS_STRIDED_SIZE_MAX * AS_STRIDED_SIZE_MAX];
	unsigned n = 0;
	for (int64_t i = 0; i < a[0]; i++)
		for (int64_t j = 0; j < a[1]; j++)
			at[n++] = i * a[2] + j * a[3];
	qsort(at, n, sizeof at[0], cmp_i64);
	for (unsigned i = 1; i < n; i++)
		if (at[i] == at[i - 1])
			return true;
	return false;
}

static bool infer_as_strided_copy(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (!as_strided_fits(io))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 2, (enum dtype)x->dtype);
	keep_bounds(io, x);
	FOR_BIND(io, b) {
		io->out[0].dim[b][0] = (int32_t)io->attr[0];
		io->out[0].dim[b][1] = (int32_t)io->attr[1];
	}
	io->out[0].overlap = io->op->layout == LAYOUT_VIEW && window_overlaps(io->attr);
	return true;
}

/* Small windows, overlapping or with gaps, that fit the smallest binding. */
static bool choose_as_strided_copy(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int64_t n = value_numel(x, 0);
	for (unsigned b = 1; b < c->g->nbind; b++)
		n = value_numel(x, b) < n ? value_numel(x, b) : n;
	if (!x->contig || n < 1)
		return false;
	int64_t *a = ch->attr;
	ch->nattr = 5;
	a[0] = rng_range(c->rng, 1, 4);
	a[1] = rng_range(c->rng, 1, 4);
	a[2] = rng_range(c->rng, 0, 6);
	a[3] = rng_range(c->rng, 0, 2);
	if ((a[0] - 1) * a[2] + (a[1] - 1) * a[3] >= n) /* too wide: one element */
		a[0] = a[1] = 1;
	a[4] = rng_range(c->rng, 0, n - 1 - (a[0] - 1) * a[2] - (a[1] - 1) * a[3]);
	return true;
}

/* as_strided_scatter(x, src, sizes, strides, offset): x with the window
 * replaced by src (of its sizes and x's dtype); every element of the window
 * distinct, so that no two of src's land on one. */
static bool infer_as_strided_scatter(struct infer_io *io)
{
	const struct value *x = io->in[0], *src = io->in[1];
	if (!as_strided_fits(io))
		return false;
	if (window_overlaps(io->attr))
		return io_fail(io, "as_strided_scatter window writes an element twice");
	if (src->dtype != x->dtype || src->rank != 2)
		return io_fail(io, "as_strided_scatter source must be 2-D of the input's dtype");
	FOR_BIND(io, b) if (src->dim[b][0] != io->attr[0] || src->dim[b][1] != io->attr[1])
		return io_fail(io, "as_strided_scatter source is not %lldx%lld (binding %u)", (long long)io->attr[0],
			       (long long)io->attr[1], b);
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	io->out[0].lo = x->lo < src->lo ? x->lo : src->lo;
	io->out[0].hi = x->hi > src->hi ? x->hi : src->hi;
	return true;
}

static bool choose_as_strided_scatter(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	if (!choose_as_strided_copy(c, ch))
		return false;
	if (window_overlaps(ch->attr)) /* one row of distinct elements */
		ch->attr[0] = 1;
	if (window_overlaps(ch->attr))
		ch->attr[1] = 1;
	int32_t dims[2] = {(int32_t)ch->attr[0], (int32_t)ch->attr[1]};
	struct tensor_req q = req_static((enum dtype)x->dtype, 2, dims);
	q.fill = dtype_is_inexact(x->dtype) ? FILL_NORMAL : FILL_RANGE;
	q.lo = x->dtype == DT_BOOL ? 0 : -8;
	q.hi = x->dtype == DT_BOOL ? 1 : 8;
	int p = c->operand(c, &q);
	ch->in[1] = (uint16_t)p;
	ch->nin = 2;
	return p >= 0;
}

/* x.expand_as(other): x broadcast to other's shape (other's dtype is free). */
static bool infer_expand_as(struct infer_io *io)
{
	const struct value *x = io->in[0], *o = io->in[1];
	if (x->rank > o->rank)
		return io_fail(io, "expand_as to fewer dims (%u) than the input's (%u)", o->rank, x->rank);
	io->nout = 1;
	io_out_like(io, 0, o, (enum dtype)x->dtype);
	keep_bounds(io, x);
	FOR_BIND(io, b) for (unsigned i = 0; i < o->rank; i++) {
		int32_t have = i + x->rank >= o->rank ? x->dim[b][i + x->rank - o->rank] : 0;
		if (have && have != 1 && have != o->dim[b][i])
			return io_fail(io, "cannot expand dim of size %d to %d (binding %u)", (int)have, (int)o->dim[b][i], b);
		io->out[0].overlap |= have <= 1 && o->dim[b][i] > 1;
	}
	return true;
}

/* x.reshape_as(other) / x.view_as(other): other's shape, of x's numel at
 * every binding (view_as: x known contiguous). */
static bool infer_reshape_as(struct infer_io *io)
{
	const struct value *x = io->in[0], *o = io->in[1];
	FOR_BIND(io, b) if (value_numel(x, b) != value_numel(o, b))
		return io_fail(io, "%lld elements reshaped as %lld (binding %u)", (long long)value_numel(x, b),
			       (long long)value_numel(o, b), b);
	io->nout = 1;
	io_out_like(io, 0, o, (enum dtype)x->dtype);
	keep_bounds(io, x);
	return true;
}

#define choose_view_as choose_reshape_as
static bool infer_view_as(struct infer_io *io)
{
	if (!io->in[0]->contig)
		return io_fail(io, "view_as of a value not known to be contiguous");
	return infer_reshape_as(io);
}

/* A partner of any dtype: x's shape with its dims shuffled and, some of the
 * time, a size-1 dim added (reshape_as), or with leading dims added and
 * size-1 dims grown (expand_as). */
static int other_like(struct chooser *c, struct tensor_req q)
{
	q.dtype = (uint8_t)(rng_chance(c->rng, 60) ? q.dtype : pick_dtype(c, DTM_ALL));
	q.fill = dtype_is_inexact(q.dtype) ? FILL_NORMAL : FILL_RANGE;
	q.lo = q.dtype == DT_BOOL ? 0 : -8;
	q.hi = q.dtype == DT_BOOL ? 1 : 8;
	q.want_param = 0;
	return c->operand(c, &q);
}

static bool choose_reshape_as(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	struct tensor_req q = req_like(x);
	int64_t p[G_MAX_RANK];
	for (unsigned i = 0; i < x->rank; i++)
		p[i] = i;
	shuffle(c, p, x->rank);
	for (unsigned b = 0; b < G_MAX_BIND; b++)
		for (unsigned i = 0; i < x->rank; i++)
			q.dim[b][i] = x->dim[b][p[i]];
	if (x->rank < G_MAX_RANK && rng_chance(c->rng, 30)) {
		for (unsigned b = 0; b < G_MAX_BIND; b++)
			q.dim[b][x->rank] = 1;
		q.rank++;
	}
	int o = other_like(c, q);
	ch->in[1] = (uint16_t)o;
	ch->nin = 2;
	return o >= 0;
}

static bool choose_expand_as(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned lead = (unsigned)rng_below(c->rng, 3);
	if (x->rank + lead > G_MAX_RANK)
		lead = G_MAX_RANK - x->rank;
	struct tensor_req q = req_like(x);
	q.rank = (uint8_t)(x->rank + lead);
	int32_t grow[G_MAX_RANK];
	for (unsigned i = 0; i < q.rank; i++)
		grow[i] = (int32_t)rng_range(c->rng, 1, 4);
	for (unsigned b = 0; b < G_MAX_BIND; b++)
		for (unsigned i = 0; i < q.rank; i++) {
			int32_t have = i < lead ? 1 : x->dim[b][i - lead];
			bool one = i < lead || (value_dim_min(c->g, x, i - lead) == 1 && !(x->dyn >> (i - lead) & 1));
			q.dim[b][i] = one ? grow[i] : have;
		}
	int o = other_like(c, q);
	ch->in[1] = (uint16_t)o;
	ch->nin = 2;
	return o >= 0;
}

/* F.channel_shuffle(x, groups): x of at least 3 dims whose dim 1 divides
 * by groups at every binding; x's shape. */
static bool infer_channel_shuffle(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (!io_attr_range(io, 0, 1, G_MAX_DIM))
		return false;
	FOR_BIND(io, b) if (x->dim[b][1] % io->attr[0])
		return io_fail(io, "%d channels in %lld groups (binding %u)", (int)x->dim[b][1], (long long)io->attr[0], b);
	return infer_same(io);
}

static bool choose_channel_shuffle(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = 1;
	ch->attr[0] = 1;
	for (unsigned t = 0; t < 6; t++) {
		int64_t k = rng_range(c->rng, 2, 6), ok = 1;
		for (unsigned b = 0; b < c->g->nbind; b++)
			ok &= x->dim[b][1] % k == 0;
		if (ok) {
			ch->attr[0] = k;
			break;
		}
	}
	return true;
}

/* ravel: flatten(0, -1). */
static bool infer_ravel(struct infer_io *io)
{
	const int64_t *attr = io->attr, all[2] = {0, -1};
	unsigned nattr = io->nattr;
	io->attr = all;
	io->nattr = 2;
	bool ok = infer_flatten(io);
	io->attr = attr;
	io->nattr = nattr;
	return ok;
}

/* atleast_Nd (N = 1, 2, 3: attribute-free rows, the N from the name's
 * digit): a 0-D x is all ones; a 1-D [n] is [1, n] for N >= 2 and [1, n, 1]
 * for N = 3; a 2-D [m, n] is [m, n, 1] for N = 3; otherwise x itself. */
static bool infer_atleast(struct infer_io *io)
{
	const struct value *x = io->in[0];
	unsigned want = (unsigned)(io->op->name[8] - '0'), r = x->rank;
	io->nout = 1;
	io_out_rank(io, 0, r > want ? r : want, (enum dtype)x->dtype);
	keep_bounds(io, x);
	FOR_BIND(io, b)
	{
		int32_t *o = io->out[0].dim[b];
		const int32_t *d = x->dim[b];
		for (unsigned i = 0; i < io->out[0].rank; i++)
			o[i] = r >= want ? d[i] : 1;
		if (r == 1 && want > 1)
			o[1] = d[0];
		if (r == 2 && want == 3) {
			o[0] = d[0];
			o[1] = d[1];
		}
	}
	return true;
}

/* Extra fields after the chooser: ALIAS for ops that return a view of their
 * input whatever the layout rule says (view, squeeze, ...: the layout is kept
 * but the memory is shared). */
#define SH(nm, rmin, rmax, lay, w, attrs_, spelling, inf, ch_, ...) \
	{.name = nm, .family = FAM_SHAPE, .nin_min = 1, .nin_max = 1, .rank_min = rmin, .rank_max = rmax, \
	 .dtypes = DTM_EVERY | DTM_COMPLEX, .layout = lay, .weight = w, .attrs = attrs_, .py = spelling, .infer = inf, .choose = ch_, \
	 __VA_ARGS__}
/* Ops of input 0 and another tensor (the shape's or the source's). */
#define SH2(nm, lay, attrs_, spelling, tag, ...) \
	{.name = nm, .family = FAM_SHAPE, .nin_min = 2, .nin_max = 2, .rank_max = G_MAX_RANK, .dtypes = DTM_EVERY, \
	 .layout = lay, .weight = 1, .attrs = attrs_, .py = spelling, .infer = infer_##tag, .choose = choose_##tag, \
	 __VA_ARGS__}
/* x_copy(...): what view op x makes, as a fresh tensor: x's rule and chooser. */
#define COPY(nm, base_, rmin, rmax, dt, attrs_, spelling) \
	{.name = nm, .family = FAM_SHAPE, .nin_min = 1, .nin_max = 1, .rank_min = rmin, .rank_max = rmax, \
	 .dtypes = dt, .layout = LAYOUT_FRESH, .weight = 1, .base = base_, .attrs = attrs_, .py = spelling, \
	 .infer = infer_as_base, .choose = choose_as_base}
#define ALIAS .aliases = 1
#define R6 G_MAX_RANK

const struct op_def ops_shape[] = {
	SH("view", 0, R6, LAYOUT_KEEP, 3, "shape[@]", "@0.view(#0)", shape_infer_view, shape_choose_reshape, ALIAS),
	SH("reshape", 0, R6, LAYOUT_KEEP, 3, "shape[@]", "torch.reshape(@0, #0)", shape_infer_reshape,
	   shape_choose_reshape, ALIAS),
	SH("permute", 1, R6, LAYOUT_VIEW, 2, "dims[]", "@0.permute(#0)", infer_permute, choose_permute),
	SH("transpose", 0, R6, LAYOUT_VIEW, 2, "dim0 dim1", "torch.transpose(@0, #0, #1)", infer_transpose,
	   choose_two_dims),
	SH("t", 0, 2, LAYOUT_VIEW, 1, NULL, "torch.t(@0)", infer_t, choose_none),
	SH("mt", 2, R6, LAYOUT_VIEW, 1, NULL, "@0.mT", infer_mt, choose_none),
	SH("movedim", 0, R6, LAYOUT_VIEW, 1, "source destination", "torch.movedim(@0, #0, #1)", infer_movedim,
	   choose_two_dims),
	SH("squeeze", 0, R6, LAYOUT_KEEP, 2, "dim", "torch.squeeze(@0, #0)", infer_squeeze, choose_squeeze, ALIAS),
	SH("squeeze_dims", 1, R6, LAYOUT_KEEP, 1, "dims[]", "torch.squeeze(@0, #0)", infer_squeeze_dims,
	   choose_squeeze_dims, ALIAS),
	SH("squeeze_all", 0, R6, LAYOUT_KEEP, 1, NULL, "torch.squeeze(@0)", infer_squeeze_all, choose_none, ALIAS),
	SH("unsqueeze", 0, R6 - 1, LAYOUT_KEEP, 2, "dim", "torch.unsqueeze(@0, #0)", infer_unsqueeze, choose_unsqueeze, ALIAS),
	SH("flatten", 0, R6, LAYOUT_KEEP, 2, "start_dim end_dim", "torch.flatten(@0, #0, #1)", infer_flatten,
	   choose_flatten, ALIAS),
	SH("unflatten", 1, R6 - 1, LAYOUT_KEEP, 2, "dim sizes[@]", "torch.unflatten(@0, #0, #1)",
	   shape_infer_unflatten, shape_choose_unflatten, ALIAS),
	SH("expand", 0, R6, LAYOUT_VIEW, 2, "sizes[@]", "@0.expand(#0)", shape_infer_expand, shape_choose_expand),
	SH("repeat", 0, R6, LAYOUT_FRESH, 2, "repeats[]", "@0.repeat(#0)", shape_infer_repeat, shape_choose_repeat),
	SH("tile", 0, R6, LAYOUT_FRESH, 1, "dims[]", "torch.tile(@0, #0)", shape_infer_tile, shape_choose_tile),
	SH("narrow", 1, R6, LAYOUT_VIEW, 2, "dim start length", "torch.narrow(@0, #0, #1, #2)", infer_narrow,
	   choose_narrow),
	SH("select", 1, R6, LAYOUT_VIEW, 2, "dim index", "torch.select(@0, #0, #1)", infer_select, choose_select),
	SH("slice0", 1, R6, LAYOUT_VIEW, 1, "start end step", "@0[#0:#1:#2]", infer_slice0, choose_slice0),
	SH("slice1", 2, R6, LAYOUT_VIEW, 1, "start end step", "@0[:, #0:#1:#2]", infer_slice1, choose_slice1),
	SH("slice2", 3, R6, LAYOUT_VIEW, 1, "start end step", "@0[:, :, #0:#1:#2]", infer_slice2, choose_slice2),
	SH("slice_last", 1, R6, LAYOUT_VIEW, 1, "start end step", "@0[..., #0:#1:#2]", infer_slice_last,
	   choose_slice_last),
	SH("unfold", 1, R6 - 1, LAYOUT_VIEW, 1, "dimension size step", "@0.unfold(#0, #1, #2)", infer_unfold,
	   choose_unfold),
	SH("contiguous", 0, R6, LAYOUT_FRESH, 1, NULL, "@0.contiguous()", infer_same, choose_none, ALIAS),
	/* to the CPU and back, explicit transfers: graphs for a GPU only (on a CPU both return x) */
	{.name = "cpu_round_trip", .family = FAM_SHAPE, .nin_min = 1, .nin_max = 1, .rank_max = R6,
	 .dtypes_gpu = DTM_EVERY | DTM_COMPLEX, .layout = LAYOUT_FRESH, .weight = 1, ALIAS,
	 .py = "@0.to('cpu').to(@0.device)", .infer = infer_same, .choose = choose_none},
	SH("T", 2, 2, LAYOUT_VIEW, 1, NULL, "@0.T", infer_as_base, choose_as_base, .base = "t"),
	SH("H", 2, 2, LAYOUT_VIEW, 1, NULL, "@0.H", infer_as_base, choose_as_base, .base = "t"),
	SH("mH", 2, R6, LAYOUT_VIEW, 1, NULL, "@0.mH", infer_as_base, choose_as_base, .base = "mt"),
	SH("ravel", 0, R6, LAYOUT_KEEP, 1, NULL, "torch.ravel(@0)", infer_ravel, choose_none, ALIAS),
	SH("atleast_1d", 0, R6, LAYOUT_KEEP, 1, NULL, "torch.atleast_1d(@0)", infer_atleast, choose_none, ALIAS),
	SH("atleast_2d", 0, R6, LAYOUT_KEEP, 1, NULL, "torch.atleast_2d(@0)", infer_atleast, choose_none, ALIAS),
	SH("atleast_3d", 0, R6, LAYOUT_KEEP, 1, NULL, "torch.atleast_3d(@0)", infer_atleast, choose_none, ALIAS),
	SH("fliplr", 2, R6, LAYOUT_FRESH, 1, NULL, "torch.fliplr(@0)", infer_same, choose_none),
	SH("flipud", 1, R6, LAYOUT_FRESH, 1, NULL, "torch.flipud(@0)", infer_same, choose_none),
	SH("broadcast_to", 0, R6, LAYOUT_VIEW, 1, "sizes[@]", "torch.broadcast_to(@0, #0)", infer_as_base,
	   choose_as_base, .base = "expand"),
	COPY("alias_copy", "contiguous", 0, R6, DTM_EVERY, NULL, "torch.alias_copy(@0)"),
	COPY("expand_copy", "expand", 0, R6, DTM_EVERY, "sizes[@]", "torch.expand_copy(@0, #0)"),
	COPY("permute_copy", "permute", 1, R6, DTM_EVERY, "dims[]", "torch.permute_copy(@0, #0)"),
	COPY("t_copy", "t", 0, 2, DTM_EVERY, NULL, "torch.t_copy(@0)"),
	COPY("transpose_copy", "transpose", 0, R6, DTM_EVERY, "dim0 dim1", "torch.transpose_copy(@0, #0, #1)"),
	COPY("unsqueeze_copy", "unsqueeze", 0, R6 - 1, DTM_EVERY, "dim", "torch.unsqueeze_copy(@0, #0)"),
	COPY("squeeze_copy", "squeeze", 0, R6, DTM_EVERY, "dim", "torch.squeeze_copy(@0, #0)"),
	COPY("view_copy", "view", 0, R6, DTM_EVERY, "shape[@]", "torch.view_copy(@0, #0)"),
	COPY("unfold_copy", "unfold", 1, R6 - 1, DTM_EVERY, "dimension size step", "torch.unfold_copy(@0, #0, #1, #2)"),
	COPY("narrow_copy", "narrow", 1, R6, DTM_EVERY, "dim start length", "torch.narrow_copy(@0, #0, #1, #2)"),
	COPY("diagonal_copy", "diagonal", 2, R6, DTM_ALL, "offset dim1 dim2", "torch.diagonal_copy(@0, #0, #1, #2)"),
	SH("as_strided_copy", 0, R6, LAYOUT_FRESH, 1, "size0 size1 stride0 stride1 offset",
	   "torch.as_strided_copy(@0, (#0, #1), (#2, #3), @0.storage_offset() + #4)", infer_as_strided_copy,
	   choose_as_strided_copy),
	SH("as_strided", 0, R6, LAYOUT_VIEW, 1, "size0 size1 stride0 stride1 offset",
	   "torch.as_strided(@0, (#0, #1), (#2, #3), @0.storage_offset() + #4)", infer_as_base, choose_as_base,
	   .base = "as_strided_copy"),
	SH2("as_strided_scatter", LAYOUT_KEEP, "size0 size1 stride0 stride1 offset",
	    "torch.as_strided_scatter(@0, @1, (#0, #1), (#2, #3), @0.storage_offset() + #4)", as_strided_scatter),
	SH2("expand_as", LAYOUT_VIEW, NULL, "@0.expand_as(@1)", expand_as),
	SH2("reshape_as", LAYOUT_KEEP, NULL, "@0.reshape_as(@1)", reshape_as, ALIAS),
	SH2("view_as", LAYOUT_KEEP, NULL, "@0.view_as(@1)", view_as, ALIAS),
	SH("sum_to_size", 0, R6, LAYOUT_KEEP, 1, "size[@]", "@0.sum_to_size(#0)", shape_infer_sum_to_size,
	   shape_choose_sum_to_size, ALIAS),
	SH("channel_shuffle", 3, R6, LAYOUT_KEEP, 1, "groups", "F.channel_shuffle(@0, #0)", infer_channel_shuffle,
	   choose_channel_shuffle),
};
FAMILY_COUNT(shape);
