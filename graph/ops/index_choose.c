/* Choosers of the index family (rules and table: index.c). Index operands
 * are int64 leaves or values whose bounds fit [0, smallest size - 1]; the
 * ops that need distinct indices get FILL_PERM leaves of at most that many
 * elements. */
#include "index_ops.h"
#include "misc_ops.h"

/* An int64 index of shape q.dim, values in [0, hi], distinct when asked. */
static int index_operand(struct chooser *c, struct tensor_req q, int64_t hi, bool distinct)
{
	q.dtype = DT_INT64;
	q.fill = distinct ? FILL_PERM : FILL_RANGE;
	q.want_param = 0;
	q.lo = 0;
	q.hi = hi;
	return c->operand(c, &q);
}

static void set_dim(struct tensor_req *q, unsigned k, const struct value *from, int32_t s)
{
	for (unsigned b = 0; b < G_MAX_BIND; b++)
		q->dim[b][k] = from ? from->dim[b][k] : s;
}

/* Index shape for gather/scatter-like ops along dim d of x: other dims x's
 * (possibly dynamic) or smaller static sizes; dim d static. Distinct
 * indices: a static shape of at most hi+1 elements. */
static struct tensor_req along_index_shape(struct chooser *c, const struct value *x, unsigned d, bool distinct,
					   bool bcast)
{
	int64_t room = value_dim_min(c->g, x, d);
	int32_t none[G_MAX_RANK] = {0};
	struct tensor_req q = req_static(DT_INT64, x->rank, none);
	for (unsigned k = 0; k < x->rank; k++) {
		int32_t mn = value_dim_min(c->g, x, k);
		if (k == d)
			set_dim(&q, k, NULL, distinct ? 1 : (int32_t)rng_range(c->rng, 1, 4));
		else if (distinct)
			set_dim(&q, k, NULL, (int32_t)(rng_chance(c->rng, 70) ? 1 : rng_range(c->rng, 1, mn < 3 ? mn : 3)));
		else if (rng_chance(c->rng, 55))
			set_dim(&q, k, x, 0);
		else
			set_dim(&q, k, NULL, bcast ? 1 : (int32_t)rng_range(c->rng, 1, mn));
	}
	if (distinct) { /* dim d takes what the other dims leave of room */
		int64_t rest = 1;
		for (unsigned k = 0; k < x->rank; k++)
			rest *= k == d ? 1 : q.dim[0][k];
		for (unsigned k = 0; k < x->rank && rest > room; k++)
			set_dim(&q, k, NULL, 1);
		rest = rest > room ? 1 : rest;
		set_dim(&q, d, NULL, (int32_t)rng_range(c->rng, 1, room / rest > 4 ? 4 : room / rest));
	}
	return q;
}

static int64_t pick_value(struct chooser *c, enum dtype dt)
{
	static const int64_t fl[] = {0, 1000, -1000, 2500, -500}, in[] = {0, 1000, -3000, 7000};
	if (dt == DT_BOOL)
		return rng_chance(c->rng, 50) ? 1000 : 0;
	return dtype_is_float(dt) ? pick_of(c, fl, NELEM(fl)) : pick_of(c, in, NELEM(in));
}

/* gather (src 0, no value), scatter (src, distinct), scatter_value (value),
 * scatter_add/scatter_reduce (src). */
static bool choose_along(struct chooser *c, struct op_choice *ch, bool src, bool distinct, unsigned extra)
{
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = (uint8_t)(1 + extra);
	ch->attr[0] = pick_dim(c, x->rank);
	unsigned d = (unsigned)io_dim(ch->attr[0], x->rank);
	struct tensor_req q = along_index_shape(c, x, d, distinct, false);
	int idx = index_operand(c, q, value_dim_min(c->g, x, d) - 1, distinct), s = 0;
	if (src) {
		struct tensor_req sq = q;
		sq.dtype = x->dtype;
		sq.fill = dtype_is_float(x->dtype) ? FILL_NORMAL : FILL_RANGE;
		sq.lo = x->dtype == DT_BOOL ? 0 : -8;
		sq.hi = x->dtype == DT_BOOL ? 1 : 8;
		s = c->operand(c, &sq);
	}
	if (idx < 0 || s < 0)
		return false;
	ch->in[1] = (uint16_t)idx;
	ch->in[2] = (uint16_t)s;
	ch->nin = (uint8_t)(src ? 3 : 2);
	return true;
}
bool index_choose_gather(struct chooser *c, struct op_choice *ch) { return choose_along(c, ch, false, false, 0); }
bool index_choose_scatter(struct chooser *c, struct op_choice *ch) { return choose_along(c, ch, true, true, 0); }
bool index_choose_scatter_add(struct chooser *c, struct op_choice *ch) { return choose_along(c, ch, true, false, 0); }
bool index_choose_scatter_value(struct chooser *c, struct op_choice *ch)
{
	if (!choose_along(c, ch, false, false, 1))
		return false;
	ch->attr[1] = pick_value(c, (enum dtype)c->g->v[ch->in[0]].dtype);
	return true;
}
bool index_choose_scatter_reduce(struct chooser *c, struct op_choice *ch)
{
	if (!choose_along(c, ch, true, false, 2))
		return false;
	ch->attr[1] = (int64_t)rng_below(c->rng, 5);
	ch->attr[2] = rng_chance(c->rng, 50);
	return true;
}

bool index_choose_take_along_dim(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = 1;
	ch->attr[0] = pick_dim(c, x->rank);
	unsigned d = (unsigned)io_dim(ch->attr[0], x->rank);
	int idx = index_operand(c, along_index_shape(c, x, d, false, true), value_dim_min(c->g, x, d) - 1, false);
	ch->in[1] = (uint16_t)idx;
	ch->nin = 2;
	return idx >= 0;
}

/* A 1-D index along dim d of x (attr 0) and, with src, the matching source. */
static bool choose_select_like(struct chooser *c, struct op_choice *ch, bool distinct, bool src, unsigned extra)
{
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = (uint8_t)(1 + extra);
	ch->attr[0] = pick_dim(c, x->rank);
	unsigned d = (unsigned)io_dim(ch->attr[0], x->rank);
	int64_t mn = value_dim_min(c->g, x, d);
	int32_t len = (int32_t)rng_range(c->rng, 1, distinct ? (mn < 5 ? mn : 5) : 6);
	int idx = index_operand(c, req_static(DT_INT64, 1, &len), mn - 1, distinct), s = 0;
	if (src) {
		struct tensor_req q = req_like(x);
		set_dim(&q, d, NULL, len);
		s = c->operand(c, &q);
	}
	if (idx < 0 || s < 0)
		return false;
	ch->in[1] = (uint16_t)idx;
	ch->in[2] = (uint16_t)s;
	ch->nin = (uint8_t)(src ? 3 : 2);
	if (extra)
		ch->attr[1] = pick_value(c, (enum dtype)x->dtype);
	return true;
}
bool index_choose_index_select(struct chooser *c, struct op_choice *ch) { return choose_select_like(c, ch, false, false, 0); }
bool index_choose_index_add(struct chooser *c, struct op_choice *ch)
{
	static const int64_t alphas[] = {1, 2, -1, 3};
	if (!choose_select_like(c, ch, false, true, 1))
		return false;
	ch->attr[1] = pick_of(c, alphas, NELEM(alphas));
	return true;
}
bool index_choose_index_copy(struct chooser *c, struct op_choice *ch) { return choose_select_like(c, ch, true, true, 0); }
bool index_choose_index_fill(struct chooser *c, struct op_choice *ch) { return choose_select_like(c, ch, false, false, 1); }

/* take / x[idx] / x[:, idx]: a small static index of rank 1-2. */
static bool choose_small_index(struct chooser *c, struct op_choice *ch, int64_t hi)
{
	int32_t dims[2] = {(int32_t)rng_range(c->rng, 1, 5), (int32_t)rng_range(c->rng, 1, 3)};
	int idx = index_operand(c, req_static(DT_INT64, 1 + rng_chance(c->rng, 30), dims), hi, false);
	ch->in[1] = (uint16_t)idx;
	ch->nin = 2;
	return idx >= 0;
}
bool index_choose_take(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int64_t n = value_numel(x, 0);
	for (unsigned b = 1; b < c->g->nbind; b++)
		n = value_numel(x, b) < n ? value_numel(x, b) : n;
	return choose_small_index(c, ch, n - 1);
}
bool index_choose_index0(struct chooser *c, struct op_choice *ch)
{
	return choose_small_index(c, ch, value_dim_min(c->g, &c->g->v[ch->in[0]], 0) - 1);
}
bool index_choose_index1(struct chooser *c, struct op_choice *ch)
{
	return choose_small_index(c, ch, value_dim_min(c->g, &c->g->v[ch->in[0]], 1) - 1);
}

bool index_choose_masked_fill(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int m = pick_broadcast_partner(c, x, DT_BOOL);
	ch->in[1] = (uint16_t)m;
	ch->nin = 2;
	ch->nattr = 1;
	ch->attr[0] = pick_value(c, (enum dtype)x->dtype);
	return m >= 0;
}
/* x.masked_fill(mask, t) and x.index_fill(dim, index, t): t a 0-dim tensor of x's dtype. */
bool index_choose_masked_fill_tensor(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int m = pick_broadcast_partner(c, x, DT_BOOL), t = m < 0 ? -1 : pick_0dim_like(c, x);
	ch->in[1] = (uint16_t)m;
	ch->in[2] = (uint16_t)t;
	ch->nin = 3;
	return t >= 0;
}
bool index_choose_index_fill_tensor(struct chooser *c, struct op_choice *ch)
{
	if (!choose_select_like(c, ch, false, false, 0))
		return false;
	int t = pick_0dim_like(c, &c->g->v[ch->in[0]]);
	ch->in[2] = (uint16_t)t;
	ch->nin = 3;
	return t >= 0;
}
bool index_choose_masked_scatter(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	struct tensor_req q = req_like(x);
	int m = pick_broadcast_partner(c, x, DT_BOOL), s = m < 0 ? -1 : c->operand(c, &q);
	ch->in[1] = (uint16_t)m;
	ch->in[2] = (uint16_t)s;
	ch->nin = 3;
	return s >= 0;
}

/* index_put with n index tensors of one length k and values broadcast to (k, rest). */
static bool choose_index_put_n(struct chooser *c, struct op_choice *ch, unsigned n)
{
	const struct value *x = &c->g->v[ch->in[0]];
	bool acc = rng_chance(c->rng, 50);
	int64_t k = rng_range(c->rng, 1, 5);
	if (!acc) /* distinct first indices: at most dim 0's size */
		k = rng_range(c->rng, 1, value_dim_min(c->g, x, 0) < 5 ? value_dim_min(c->g, x, 0) : 5);
	int32_t len = (int32_t)k;
	for (unsigned i = 0; i < n; i++) {
		int idx = index_operand(c, req_static(DT_INT64, 1, &len), value_dim_min(c->g, x, i) - 1, !acc && i == 0);
		if (idx < 0)
			return false;
		ch->in[1 + i] = (uint16_t)idx;
	}
	struct value t = *x;
	t.rank = (uint8_t)(x->rank - n + 1);
	for (unsigned b = 0; b < G_MAX_BIND; b++) {
		t.dim[b][0] = len;
		for (unsigned j = n; j < x->rank; j++)
			t.dim[b][j - n + 1] = x->dim[b][j];
	}
	int v = pick_broadcast_partner(c, &t, (enum dtype)x->dtype);
	ch->in[1 + n] = (uint16_t)v;
	ch->nin = (uint8_t)(n + 2);
	ch->nattr = 1;
	ch->attr[0] = acc;
	return v >= 0;
}
bool index_choose_index_put(struct chooser *c, struct op_choice *ch) { return choose_index_put_n(c, ch, 1); }
bool index_choose_index_put2(struct chooser *c, struct op_choice *ch) { return choose_index_put_n(c, ch, 2); }


/* A slice of one dim within its smallest size, and a source shaped like it. */
bool index_choose_slice_scatter(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = 4;
	ch->attr[0] = pick_dim(c, x->rank);
	unsigned d = (unsigned)io_dim(ch->attr[0], x->rank);
	int64_t mn = value_dim_min(c->g, x, d);
	ch->attr[1] = rng_range(c->rng, 0, mn - 1);
	ch->attr[2] = rng_range(c->rng, ch->attr[1] + 1, mn);
	ch->attr[3] = rng_chance(c->rng, 60) ? 1 : rng_range(c->rng, 2, 3);
	struct tensor_req q = req_like(x);
	set_dim(&q, d, NULL, (int32_t)((ch->attr[2] - ch->attr[1] + ch->attr[3] - 1) / ch->attr[3]));
	int s = c->operand(c, &q);
	ch->in[1] = (uint16_t)s;
	ch->nin = 2;
	return s >= 0;
}

bool index_choose_index_reduce(struct chooser *c, struct op_choice *ch)
{
	if (!choose_select_like(c, ch, false, true, 0))
		return false;
	ch->nattr = 3;
	ch->attr[1] = (int64_t)rng_below(c->rng, 4);
	ch->attr[2] = rng_chance(c->rng, 50);
	return true;
}

/* A few flat indices (distinct without accumulate) and a source of as many. */
bool index_choose_put(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int64_t n = value_numel(x, 0);
	for (unsigned b = 1; b < c->g->nbind; b++)
		n = value_numel(x, b) < n ? value_numel(x, b) : n;
	bool acc = rng_chance(c->rng, 50);
	int32_t len = (int32_t)rng_range(c->rng, 1, acc || n > 5 ? 5 : n);
	int idx = index_operand(c, req_static(DT_INT64, 1, &len), n - 1, !acc);
	struct tensor_req q = req_static((enum dtype)x->dtype, 1, &len);
	q.fill = dtype_is_float(x->dtype) ? FILL_NORMAL : FILL_RANGE;
	q.lo = -8;
	q.hi = 8;
	int s = idx < 0 ? -1 : c->operand(c, &q);
	ch->in[1] = (uint16_t)idx;
	ch->in[2] = (uint16_t)s;
	ch->nin = 3;
	ch->nattr = 1;
	ch->attr[0] = acc;
	return s >= 0;
}

/* A dim and index within its smallest size, and a source shaped like the selection. */
bool index_choose_select_scatter(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = 2;
	ch->attr[0] = pick_dim(c, x->rank);
	unsigned d = (unsigned)io_dim(ch->attr[0], x->rank);
	int64_t mn = value_dim_min(c->g, x, d);
	ch->attr[1] = rng_range(c->rng, rng_chance(c->rng, 30) ? -mn : 0, mn - 1);
	struct tensor_req q = req_like(x);
	q.rank--;
	for (unsigned b = 0; b < G_MAX_BIND; b++)
		for (unsigned k = d; k < q.rank; k++)
			q.dim[b][k] = x->dim[b][k + 1];
	int s = c->operand(c, &q);
	ch->in[1] = (uint16_t)s;
	ch->nin = 2;
	return s >= 0;
}

/* diagonal's offset and dims, and a source of the diagonal's shape. */
bool index_choose_diagonal_scatter(struct chooser *c, struct op_choice *ch)
{
	if (!misc_choose_diagonal(c, ch))
		return false;
	struct infer_io io = {.g = c->g, .op = c->op, .nbind = c->g->nbind, .nin = 1, .nattr = ch->nattr, .attr = ch->attr};
	io.in[0] = &c->g->v[ch->in[0]];
	if (!misc_infer_diagonal(&io))
		return false;
	struct tensor_req q = req_like(&io.out[0]);
	int s = c->operand(c, &q);
	ch->in[1] = (uint16_t)s;
	ch->nin = 2;
	return s >= 0;
}

/* 1 to 3 sizes; when the indices are known non-negative and small, the
 * first size makes the shape hold them all. */
bool index_choose_unravel_index(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int64_t n = rng_range(c->rng, 1, 3), rest = 1;
	ch->attr[0] = n;
	for (int64_t k = 0; k < n; k++) {
		ch->attr[1 + k] = rng_range(c->rng, 1, 6);
		rest *= k ? ch->attr[1 + k] : 1;
	}
	if (x->lo >= 0 && x->hi < G_MAX_DIM && ch->attr[1] * rest <= x->hi)
		ch->attr[1] = (x->hi + rest) / rest;
	ch->nattr = (uint8_t)(1 + n);
	return true;
}
