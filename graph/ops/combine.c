/* Joining and splitting: cat/stack of 2-4 operands, hstack/vstack, and the
 * ops with several outputs (chunk, split, split_with_sizes, tensor_split,
 * unbind). Python unpacks the result into a fixed number of names, so a split
 * must give the same number of pieces (at most G_MAX_OUT) at every binding. */
#include "../opkit.h"
#include "families.h"
#include <string.h>

/* Integer outputs lie within the union of the inputs' bounds. */
static void union_bounds(struct infer_io *io)
{
	for (unsigned k = 0; k < io->nout; k++) {
		io->out[k].lo = io->in[0]->lo;
		io->out[k].hi = io->in[0]->hi;
		for (unsigned i = 1; i < io->nin; i++) {
			if (io->in[i]->lo < io->out[k].lo)
				io->out[k].lo = io->in[i]->lo;
			if (io->in[i]->hi > io->out[k].hi)
				io->out[k].hi = io->in[i]->hi;
		}
	}
}

/* How a join lifts low-rank inputs first: atleast_1d/2d add leading ones,
 * column_stack makes [n] a column [n, 1], atleast_3d makes [n] [1, n, 1]
 * and [m, n] [m, n, 1]. */
enum lift { LIFT_NONE, LIFT_1D, LIFT_2D, LIFT_COL, LIFT_3D };
static const unsigned lift_rank[] = {0, 1, 2, 2, 3};

static unsigned lifted_rank(const struct value *v, enum lift lift)
{
	return v->rank < lift_rank[lift] ? lift_rank[lift] : v->rank;
}
/* Dim k of v lifted: v's own dims sit from an offset on, ones elsewhere. */
static int32_t lifted_dim(const struct value *v, enum lift lift, unsigned b, unsigned k)
{
	unsigned r = v->rank, off = 0;
	if (r < lift_rank[lift])
		off = lift == LIFT_COL ? 0 : lift == LIFT_3D ? r == 1 : lift_rank[lift] - r;
	return k >= off && k - off < r ? v->dim[b][k - off] : 1;
}

/* Joins promote plainly: hstack/vstack lift 0-D inputs first, so none of
 * them is a lower-priority scalar. */
static enum dtype join_dtype(const struct infer_io *io)
{
	enum dtype dt = (enum dtype)io->in[0]->dtype;
	for (unsigned i = 1; i < io->nin; i++)
		dt = dtype_promote(dt, (enum dtype)io->in[i]->dtype);
	return dt;
}

/* cat along dim of the lifted inputs: all dims but that one equal at every
 * binding; the output has their sum there. */
static bool cat_rule(struct infer_io *io, int64_t dim, enum lift lift)
{
	unsigned r = lifted_rank(io->in[0], lift);
	int d = r ? io_dim(dim, r) : -1;
	if (d < 0)
		return io_fail(io, "cat dim %lld invalid for %u-D inputs", (long long)dim, r);
	io->nout = 1;
	io_out_rank(io, 0, r, join_dtype(io));
	FOR_BIND(io, b) {
		for (unsigned k = 0; k < r; k++)
			io->out[0].dim[b][k] = k == (unsigned)d ? 0 : lifted_dim(io->in[0], lift, b, k);
		for (unsigned i = 0; i < io->nin; i++) {
			if (lifted_rank(io->in[i], lift) != r)
				return io_fail(io, "input %u is %u-D, input 0 is %u-D", i, io->in[i]->rank, io->in[0]->rank);
			for (unsigned k = 0; k < r; k++)
				if (k != (unsigned)d && lifted_dim(io->in[i], lift, b, k) != io->out[0].dim[b][k])
					return io_fail(io, "input %u differs at dim %u (binding %u)", i, k, b);
			io->out[0].dim[b][d] += lifted_dim(io->in[i], lift, b, (unsigned)d);
		}
	}
	union_bounds(io);
	return true;
}

static bool infer_cat(struct infer_io *io) { return cat_rule(io, io->attr[0], LIFT_NONE); }
static bool infer_hstack(struct infer_io *io) { return cat_rule(io, io->in[0]->rank >= 2, LIFT_1D); }
static bool infer_vstack(struct infer_io *io) { return cat_rule(io, 0, LIFT_2D); }
static bool infer_column_stack(struct infer_io *io) { return cat_rule(io, 1, LIFT_COL); }
static bool infer_dstack(struct infer_io *io) { return cat_rule(io, 2, LIFT_3D); }

/* stack: equal shapes, a new dim of size nin. */
static bool infer_stack(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int d = io_dim(io->attr[0], x->rank + 1u);
	if (d < 0 || x->rank >= G_MAX_RANK)
		return io_fail(io, "stack dim %lld invalid for %u-D inputs", (long long)io->attr[0], x->rank);
	for (unsigned i = 1; i < io->nin; i++)
		if (!value_same_shape(io->g, io->in[i], x))
			return io_fail(io, "input %u's shape differs from input 0's", i);
	io->nout = 1;
	io_out_rank(io, 0, x->rank + 1u, join_dtype(io));
	FOR_BIND(io, b) for (unsigned k = 0, s = 0; k <= x->rank; k++) io->out[0].dim[b][k] =
		(int)k == d ? (int32_t)io->nin : x->dim[b][s++];
	union_bounds(io);
	return true;
}

/* Partners of x's shape: the join dim (when >= 0) gets some static size
 * half of the time; the dtype is mostly x's. */
static bool choose_partners(struct chooser *c, struct op_choice *ch, unsigned n, int join)
{
	const struct value *x = &c->g->v[ch->in[0]];
	for (unsigned i = 1; i < n; i++) {
		struct tensor_req q = req_like(x);
		if (join >= 0 && rng_chance(c->rng, 50)) {
			int32_t s = (int32_t)rng_range(c->rng, 1, 4);
			for (unsigned b = 0; b < G_MAX_BIND; b++)
				q.dim[b][join] = s;
		}
		if (rng_chance(c->rng, 12)) {
			q.dtype = (uint8_t)pick_dtype(c, DTM_ALL);
			q.fill = dtype_is_float(q.dtype) ? FILL_NORMAL : FILL_RANGE;
			q.lo = q.dtype == DT_BOOL ? 0 : -8;
			q.hi = q.dtype == DT_BOOL ? 1 : 8;
		}
		int p = c->operand(c, &q);
		if (p < 0)
			return false;
		ch->in[i] = (uint16_t)p;
	}
	ch->nin = (uint8_t)n;
	return true;
}

static bool choose_cat_n(struct chooser *c, struct op_choice *ch, unsigned n)
{
	unsigned r = c->g->v[ch->in[0]].rank;
	ch->nattr = 1;
	ch->attr[0] = pick_dim(c, r);
	return choose_partners(c, ch, n, io_dim(ch->attr[0], r));
}

static bool choose_stack_n(struct chooser *c, struct op_choice *ch, unsigned n)
{
	ch->nattr = 1;
	ch->attr[0] = pick_dim(c, c->g->v[ch->in[0]].rank + 1u);
	return choose_partners(c, ch, n, -1);
}

#define JOIN_FNS(n) \
	static bool choose_cat##n(struct chooser *c, struct op_choice *ch) { return choose_cat_n(c, ch, n); } \
	static bool choose_stack##n(struct chooser *c, struct op_choice *ch) { return choose_stack_n(c, ch, n); }
JOIN_FNS(2)
JOIN_FNS(3)
JOIN_FNS(4)

/* hstack joins dim 1 (dim 0 of 0-D/1-D inputs); vstack joins dim 0 after
 * lifting to 2-D, so a 0-D/1-D input's join dim is an added one. */
static bool choose_hstack(struct chooser *c, struct op_choice *ch)
{
	unsigned r = c->g->v[ch->in[0]].rank;
	return choose_partners(c, ch, 2, r >= 2 ? 1 : r == 1 ? 0 : -1);
}
static bool choose_vstack(struct chooser *c, struct op_choice *ch)
{
	return choose_partners(c, ch, 2, c->g->v[ch->in[0]].rank >= 2 ? 0 : -1);
}
/* column_stack joins dim 1 of 2-D and larger inputs (lower ones become
 * columns of one length); dstack dim 2 of 3-D and larger ones. */
static bool choose_column_stack(struct chooser *c, struct op_choice *ch)
{
	return choose_partners(c, ch, 2, c->g->v[ch->in[0]].rank >= 2 ? 1 : -1);
}
static bool choose_dstack(struct chooser *c, struct op_choice *ch)
{
	return choose_partners(c, ch, 2, c->g->v[ch->in[0]].rank >= 3 ? 2 : -1);
}

enum split_kind { SK_CHUNK, SK_SPLIT, SK_TENSOR_SPLIT };

/* The pieces torch cuts a dim of size s into; returns their count (sizes
 * written only for the first G_MAX_OUT). 0 when the arguments are invalid. */
static unsigned pieces(enum split_kind kind, int64_t arg, int64_t s, int32_t *sz)
{
	if (arg < 1 || arg > G_MAX_DIM)
		return 0;
	int64_t cs = kind == SK_CHUNK ? (s + arg - 1) / arg : arg;
	int64_t n = kind == SK_TENSOR_SPLIT ? arg : (s + cs - 1) / cs;
	if (kind == SK_TENSOR_SPLIT && s < n)
		return 0; /* empty pieces */
	for (int64_t i = 0; i < n && i < G_MAX_OUT; i++)
		sz[i] = (int32_t)(kind == SK_TENSOR_SPLIT ? s / n + (i < s % n) : (i + 1 < n ? cs : s - (n - 1) * cs));
	return (unsigned)n;
}

/* Outputs like x with dim d of size sz[b][k] (k-th piece), or dim d removed
 * when sz is NULL (unbind). */
static void split_outputs(struct infer_io *io, unsigned n, int d, int32_t sz[G_MAX_BIND][G_MAX_OUT])
{
	const struct value *x = io->in[0];
	io->nout = n;
	for (unsigned k = 0; k < n; k++) {
		io_out_rank(io, k, x->rank - !sz, (enum dtype)x->dtype);
		FOR_BIND(io, b) for (unsigned i = 0, o = 0; i < x->rank; i++) {
			if ((int)i != d)
				io->out[k].dim[b][o++] = x->dim[b][i];
			else if (sz)
				io->out[k].dim[b][o++] = sz[b][k];
		}
	}
	union_bounds(io);
}

/* The pieces of dim `dim` for a split of this kind and argument. */
static bool split_rule(struct infer_io *io, enum split_kind kind, int64_t arg, int64_t dim)
{
	const struct value *x = io->in[0];
	int d = x->rank ? io_dim(dim, x->rank) : -1;
	int32_t sz[G_MAX_BIND][G_MAX_OUT];
	unsigned n = 0;
	if (d < 0)
		return io_fail(io, "split dim %lld invalid for a %u-D input", (long long)dim, x->rank);
	FOR_BIND(io, b) {
		unsigned nb = pieces(kind, arg, x->dim[b][d], sz[b]);
		if (!nb || nb > G_MAX_OUT || (b && nb != n))
			return io_fail(io, "%u pieces of dim %d at binding %u (need 1-%d, the same at every binding)", nb, d, b,
				       G_MAX_OUT);
		n = nb;
	}
	split_outputs(io, n, d, sz);
	return true;
}
/* chunk(chunks, dim) / split(split_size, dim) / tensor_split(sections, dim). */
static bool infer_chunk(struct infer_io *io) { return split_rule(io, SK_CHUNK, io->attr[0], io->attr[1]); }
static bool infer_split(struct infer_io *io) { return split_rule(io, SK_SPLIT, io->attr[0], io->attr[1]); }
static bool infer_tensor_split(struct infer_io *io)
{
	return split_rule(io, SK_TENSOR_SPLIT, io->attr[0], io->attr[1]);
}

/* hsplit/vsplit/dsplit(x, sections): equal pieces of dim 1 (dim 0 of a 1-D
 * x), 0 and 2, which must divide by sections at every binding. */
static const struct np_split { const char *name; unsigned min_rank; int dim; } np_splits[] = {
	{"hsplit", 1, 1}, {"vsplit", 2, 0}, {"dsplit", 3, 2}};
/* The dim the op splits, or -1 when x has too few dims. */
static int np_split_dim(const struct op_def *op, const struct value *x)
{
	for (unsigned i = 0; i < NELEM(np_splits); i++)
		if (!strcmp(op->name, np_splits[i].name))
			return x->rank < np_splits[i].min_rank ? -1 : x->rank == 1 ? 0 : np_splits[i].dim;
	return -1;
}
static bool infer_np_split(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int d = np_split_dim(io->op, x);
	if (d < 0 || io->attr[0] < 1)
		return io_fail(io, "%s of a %u-D input into %lld sections", io->op->name, x->rank, (long long)io->attr[0]);
	FOR_BIND(io, b) if (x->dim[b][d] % io->attr[0])
		return io_fail(io, "dim %d of size %d does not divide by %lld (binding %u)", d, (int)x->dim[b][d],
			       (long long)io->attr[0], b);
	return split_rule(io, SK_TENSOR_SPLIT, io->attr[0], d);
}

static bool choose_np_split(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int d = np_split_dim(c->op, x);
	if (d < 0)
		return false;
	ch->nattr = 1;
	ch->attr[0] = 1;
	for (unsigned t = 0; t < 6; t++) {
		int64_t k = rng_range(c->rng, 2, G_MAX_OUT), ok = 1;
		for (unsigned b = 0; b < c->g->nbind; b++)
			ok &= x->dim[b][d] % k == 0;
		if (ok) {
			ch->attr[0] = k;
			break;
		}
	}
	return true;
}

/* A dim and an argument giving a valid count everywhere, in a few tries. */
static bool choose_split_kind(struct chooser *c, struct op_choice *ch, enum split_kind kind)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int32_t sz[G_MAX_OUT];
	ch->nattr = 2;
	for (unsigned t = 0; t < 8; t++) {
		ch->attr[1] = pick_dim(c, x->rank);
		unsigned d = (unsigned)io_dim(ch->attr[1], x->rank), n = 0, ok = 1;
		int64_t mn = value_dim_min(c->g, x, d), mx = mn;
		for (unsigned b = 0; b < c->g->nbind; b++)
			mx = x->dim[b][d] > mx ? x->dim[b][d] : mx;
		ch->attr[0] = kind == SK_SPLIT ? rng_range(c->rng, (mx + 3) / 4, mx) : rng_range(c->rng, 1, mn < 4 ? mn : 4);
		for (unsigned b = 0; b < c->g->nbind; b++) {
			unsigned nb = pieces(kind, ch->attr[0], x->dim[b][d], sz);
			ok &= nb >= 1 && nb <= G_MAX_OUT && (!b || nb == n);
			n = nb;
		}
		if (ok)
			return true;
	}
	return false;
}
static bool choose_chunk(struct chooser *c, struct op_choice *ch) { return choose_split_kind(c, ch, SK_CHUNK); }
static bool choose_split(struct chooser *c, struct op_choice *ch) { return choose_split_kind(c, ch, SK_SPLIT); }
static bool choose_tensor_split(struct chooser *c, struct op_choice *ch)
{
	return choose_split_kind(c, ch, SK_TENSOR_SPLIT);
}

/* split(sizes, dim): 1-4 sizes summing to the dim's size at every binding. */
static bool infer_split_sizes(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int d = x->rank ? io_dim(io->attr[0], x->rank) : -1;
	int64_t n = io->nattr > 1 ? io->attr[1] : 0;
	int32_t sz[G_MAX_BIND][G_MAX_OUT];
	if (d < 0 || n < 1 || n > G_MAX_OUT || io->nattr != 2 + n)
		return io_fail(io, "split dim or sizes invalid");
	FOR_BIND(io, b) {
		int64_t sum = 0;
		for (unsigned k = 0; k < n; k++) {
			int64_t s = io->attr[2 + k];
			if (s < 1 || s > G_MAX_DIM)
				return io_fail(io, "split size %lld invalid", (long long)s);
			sum += s;
			sz[b][k] = (int32_t)s;
		}
		if (sum != x->dim[b][d])
			return io_fail(io, "split sizes sum to %lld, dim %d is %d (binding %u)", (long long)sum, d,
				       (int)x->dim[b][d], b);
	}
	split_outputs(io, (unsigned)n, d, sz);
	return true;
}

/* A dim of the same size at every binding: its index, or -1. */
static int pick_static_dim(struct chooser *c, const struct value *x, int32_t max)
{
	for (unsigned t = 0; t < 8 && x->rank; t++) {
		unsigned d = (unsigned)rng_below(c->rng, x->rank);
		if (!(x->dyn >> d & 1) && x->dim[0][d] <= max)
			return (int)d;
	}
	return -1;
}

static bool choose_split_sizes(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int d = pick_static_dim(c, x, G_MAX_DIM);
	if (d < 0)
		return false;
	int64_t left = x->dim[0][d], n = rng_range(c->rng, 1, left < G_MAX_OUT ? left : G_MAX_OUT);
	ch->attr[0] = rng_chance(c->rng, 30) ? d - (int64_t)x->rank : d;
	ch->attr[1] = n;
	for (int64_t k = 0; k < n; k++) {
		int64_t s = k + 1 == n ? left : rng_range(c->rng, 1, left - (n - 1 - k));
		ch->attr[2 + k] = s;
		left -= s;
	}
	ch->nattr = (uint8_t)(2 + n);
	return true;
}

/* unbind(dim): one output per index of a static dim of size <= G_MAX_OUT. */
static bool infer_unbind(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int d = x->rank ? io_dim(io->attr[0], x->rank) : -1;
	if (d < 0 || !io_dim_static(io, x, (unsigned)d) || x->dim[0][d] > G_MAX_OUT)
		return io_fail(io, "unbind needs a static dim of size <= %d", G_MAX_OUT);
	split_outputs(io, (unsigned)x->dim[0][d], d, NULL);
	return true;
}

static bool choose_unbind(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int d = pick_static_dim(c, x, G_MAX_OUT);
	if (d < 0)
		return false;
	ch->nattr = 1;
	ch->attr[0] = rng_chance(c->rng, 30) ? d - (int64_t)x->rank : d;
	return true;
}

/* Whether output o (of rank r) expands v's dims: a dim of v that is 1 or
 * missing where o's is larger makes elements share memory. */
static bool expands(const struct infer_io *io, const struct value *v, const struct value *o)
{
	FOR_BIND(io, b) for (unsigned k = 0; k < o->rank; k++) {
		int32_t have = k + v->rank >= o->rank ? v->dim[b][k + v->rank - o->rank] : 1;
		if (have == 1 && o->dim[b][k] > 1)
			return true;
	}
	return false;
}

/* broadcast_tensors(a, b): both expanded to their broadcast shape, each
 * keeping its dtype and bounds. */
static bool infer_broadcast_tensors(struct infer_io *io)
{
	struct value both;
	memset(&both, 0, sizeof both);
	if (!io_broadcast(io, io->in[0], io->in[1], &both))
		return false;
	io->nout = 2;
	for (unsigned k = 0; k < 2; k++) {
		io_out_like(io, k, &both, (enum dtype)io->in[k]->dtype);
		io->out[k].lo = io->in[k]->lo;
		io->out[k].hi = io->in[k]->hi;
		io->out[k].overlap = expands(io, io->in[k], &io->out[k]);
	}
	return true;
}

static bool choose_broadcast_tensors(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int p = pick_broadcast_partner(c, x, rng_chance(c->rng, 70) ? (enum dtype)x->dtype : pick_dtype(c, DTM_ALL));
	ch->in[1] = (uint16_t)p;
	ch->nin = 2;
	return p >= 0;
}

/* Inputs of at most one dim, of one dtype: their lengths (1 for 0-D). */
static bool grid_lengths(struct infer_io *io, int32_t len[G_MAX_BIND][G_MAX_IN])
{
	if (!io_same_dtype(io))
		return false;
	for (unsigned i = 0; i < io->nin; i++) {
		if (io->in[i]->rank > 1)
			return io_fail(io, "input %u has %u dims, at most 1 allowed", i, io->in[i]->rank);
		FOR_BIND(io, b) len[b][i] = io->in[i]->rank ? io->in[i]->dim[b][0] : 1;
	}
	return true;
}

/* meshgrid(indexing='ij' | 'xy'): every output has the inputs' lengths as
 * its dims ('xy' swaps the first two); output k repeats input k's values. */
static const char *const grid_indexings[] = {"ij", "xy", NULL};
static bool infer_meshgrid(struct infer_io *io)
{
	int32_t len[G_MAX_BIND][G_MAX_IN];
	if (!grid_lengths(io, len))
		return false;
	unsigned n = io->nin, xy = io->attr[0] == 1;
	io->nout = n;
	for (unsigned k = 0; k < n; k++) {
		io_out_rank(io, k, n, (enum dtype)io->in[k]->dtype);
		FOR_BIND(io, b) for (unsigned i = 0; i < n; i++) io->out[k].dim[b][i] = len[b][xy && i < 2 ? 1 - i : i];
		io->out[k].lo = io->in[k]->lo;
		io->out[k].hi = io->in[k]->hi;
		FOR_BIND(io, b) io->out[k].overlap |= value_numel(&io->out[k], b) > len[b][k];
	}
	return true;
}

/* cartesian_prod(a, b): 1-D inputs of one dtype; every pair, [na * nb, 2]. */
static bool infer_cartesian_prod(struct infer_io *io)
{
	int32_t len[G_MAX_BIND][G_MAX_IN];
	if (!grid_lengths(io, len))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 2, (enum dtype)io->in[0]->dtype);
	FOR_BIND(io, b) {
		int64_t m = 1;
		for (unsigned i = 0; i < io->nin; i++)
			m *= io->in[i]->rank ? len[b][i] : 0;
		if (m < 1 || m > G_MAX_DIM)
			return io_fail(io, "%lld pairs of 1-D inputs (binding %u)", (long long)m, b);
		io->out[0].dim[b][0] = (int32_t)m;
		io->out[0].dim[b][1] = (int32_t)io->nin;
	}
	union_bounds(io);
	return true;
}

/* Partners of input 0's dtype, 1-D of a few elements (0-D ones for meshgrid). */
static bool choose_grid(struct chooser *c, struct op_choice *ch, unsigned n, bool scalars)
{
	const struct value *x = &c->g->v[ch->in[0]];
	for (unsigned i = 1; i < n; i++) {
		int32_t len = (int32_t)rng_range(c->rng, 1, 5);
		struct tensor_req q = req_static((enum dtype)x->dtype, scalars && rng_chance(c->rng, 20) ? 0 : 1, &len);
		int p = c->operand(c, &q);
		if (p < 0)
			return false;
		ch->in[i] = (uint16_t)p;
	}
	ch->nin = (uint8_t)n;
	return true;
}
static bool choose_meshgrid_n(struct chooser *c, struct op_choice *ch, unsigned n)
{
	ch->nattr = 1;
	ch->attr[0] = rng_chance(c->rng, 50);
	return choose_grid(c, ch, n, true);
}
static bool choose_meshgrid(struct chooser *c, struct op_choice *ch) { return choose_meshgrid_n(c, ch, 2); }
static bool choose_meshgrid3(struct chooser *c, struct op_choice *ch) { return choose_meshgrid_n(c, ch, 3); }
static bool choose_cartesian_prod(struct chooser *c, struct op_choice *ch) { return choose_grid(c, ch, 2, false); }

/* block_diag(a, b): 0-D and 1-D inputs lifted to [1, 1] and [1, n]; the
 * matrices on the diagonal of a zero [rows, cols] of the promoted dtype. */
static bool infer_block_diag(struct infer_io *io)
{
	io->nout = 1;
	io_out_rank(io, 0, 2, io_result_dtype(io)); /* 0-D inputs promote as scalars here */
	FOR_BIND(io, b) {
		int64_t rows = 0, cols = 0;
		for (unsigned i = 0; i < io->nin; i++) {
			const struct value *v = io->in[i];
			if (v->rank > 2)
				return io_fail(io, "input %u has %u dims, at most 2 allowed", i, v->rank);
			rows += lifted_dim(v, LIFT_2D, b, 0);
			cols += lifted_dim(v, LIFT_2D, b, 1);
		}
		if (rows > G_MAX_DIM || cols > G_MAX_DIM)
			return io_fail(io, "block_diag of %lldx%lld (binding %u)", (long long)rows, (long long)cols, b);
		io->out[0].dim[b][0] = (int32_t)rows;
		io->out[0].dim[b][1] = (int32_t)cols;
	}
	union_bounds(io);
	io->out[0].lo = io->out[0].lo > 0 ? 0 : io->out[0].lo; /* the zeros off the blocks */
	io->out[0].hi = io->out[0].hi < 0 ? 0 : io->out[0].hi;
	return true;
}

static bool choose_block_diag(struct chooser *c, struct op_choice *ch)
{
	int32_t dims[2] = {(int32_t)rng_range(c->rng, 1, 4), (int32_t)rng_range(c->rng, 1, 4)};
	enum dtype dt = rng_chance(c->rng, 70) ? (enum dtype)c->g->v[ch->in[0]].dtype : pick_dtype(c, DTM_ALL);
	struct tensor_req q = req_static(dt, (unsigned)rng_below(c->rng, 3), dims);
	q.fill = dtype_is_float(dt) ? FILL_NORMAL : FILL_RANGE;
	q.lo = dt == DT_BOOL ? 0 : -8;
	q.hi = dt == DT_BOOL ? 1 : 8;
	int p = c->operand(c, &q);
	ch->in[1] = (uint16_t)p;
	ch->nin = 2;
	return p >= 0;
}

/* combinations(x, r, with_replacement): a 1-D x's r-subsets (multisets with
 * replacement) as rows of [count, r]; r in [1, 3], count at least 1. */
static int64_t n_choose(int64_t n, int64_t r)
{
	int64_t c = 1;
	for (int64_t i = 0; i < r; i++)
		c = c * (n - i) / (i + 1);
	return n < r ? 0 : c;
}
static bool infer_combinations(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int64_t r = io->attr[0];
	if (!io_attr_range(io, 0, 1, 3))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 2, (enum dtype)x->dtype);
	io->out[0].lo = x->lo;
	io->out[0].hi = x->hi;
	FOR_BIND(io, b) {
		int64_t n = x->dim[b][0], m = n_choose(io->attr[1] ? n + r - 1 : n, r);
		if (m < 1 || m > G_MAX_DIM)
			return io_fail(io, "%lld combinations of %lld elements (binding %u)", (long long)m, (long long)n, b);
		io->out[0].dim[b][0] = (int32_t)m;
		io->out[0].dim[b][1] = (int32_t)r;
	}
	return true;
}

static bool choose_combinations(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = 2;
	ch->attr[1] = rng_chance(c->rng, 40);
	ch->attr[0] = rng_range(c->rng, 1, 3);
	if (ch->attr[0] > value_dim_min(c->g, x, 0))
		ch->attr[0] = value_dim_min(c->g, x, 0);
	if (x->dim[0][0] > 12) /* keeps the count small */
		ch->attr[0] = 1;
	return true;
}

#define JOIN(nm, n, rmin, rmax, w, attrs_, spelling, inf, ch_) \
	{.name = nm, .family = FAM_COMBINE, .nin_min = n, .nin_max = n, .rank_min = rmin, .rank_max = rmax, \
	 .dtypes = DTM_EVERY, .layout = LAYOUT_FRESH, .weight = w, .attrs = attrs_, .py = spelling, .infer = inf, \
	 .choose = ch_}
#define SPLIT(nm, w, attrs_, spelling, inf, ch_) \
	{.name = nm, .family = FAM_COMBINE, .nin_min = 1, .nin_max = 1, .rank_min = 1, .rank_max = G_MAX_RANK, \
	 .dtypes = DTM_EVERY, .layout = LAYOUT_VIEW, .tuple = 1, .weight = w, .attrs = attrs_, .py = spelling, \
	 .infer = inf, .choose = ch_}

/* Another spelling or a copy of a split: its base's rule and chooser. */
#define SPLIT_BASE(nm, base_, lay, attrs_, spelling) \
	{.name = nm, .family = FAM_COMBINE, .nin_min = 1, .nin_max = 1, .rank_min = 1, .rank_max = G_MAX_RANK, \
	 .dtypes = DTM_EVERY, .layout = lay, .tuple = 1, .weight = 1, .base = base_, .attrs = attrs_, .py = spelling, \
	 .infer = infer_as_base, .choose = choose_as_base}
#define GRID(tag, n, spelling) \
	{.name = #tag, .family = FAM_COMBINE, .nin_min = n, .nin_max = n, .rank_max = 1, .dtypes = DTM_EVERY, \
	 .layout = LAYOUT_VIEW, .weight = 1, .same_dtype = 1, .attrs = "indexing$", .strs = grid_indexings, .py = spelling, \
	 .infer = infer_meshgrid, .choose = choose_##tag}

const struct op_def ops_combine[] = {
	JOIN("cat", 2, 1, G_MAX_RANK, 3, "dim", "torch.cat((@0, @1), dim=#0)", infer_cat, choose_cat2),
	JOIN("cat3", 3, 1, G_MAX_RANK, 2, "dim", "torch.cat((@0, @1, @2), dim=#0)", infer_cat, choose_cat3),
	JOIN("cat4", 4, 1, G_MAX_RANK, 1, "dim", "torch.cat([@0, @1, @2, @3], #0)", infer_cat, choose_cat4),
	JOIN("stack", 2, 0, G_MAX_RANK - 1, 2, "dim", "torch.stack((@0, @1), dim=#0)", infer_stack, choose_stack2),
	JOIN("stack3", 3, 0, G_MAX_RANK - 1, 1, "dim", "torch.stack([@0, @1, @2], #0)", infer_stack, choose_stack3),
	JOIN("stack4", 4, 0, G_MAX_RANK - 1, 1, "dim", "torch.stack((@0, @1, @2, @3), #0)", infer_stack,
	     choose_stack4),
	JOIN("hstack", 2, 0, G_MAX_RANK, 1, NULL, "torch.hstack((@0, @1))", infer_hstack, choose_hstack),
	JOIN("vstack", 2, 0, G_MAX_RANK, 1, NULL, "torch.vstack((@0, @1))", infer_vstack, choose_vstack),
	SPLIT("chunk", 3, "chunks dim", "torch.chunk(@0, #0, #1)", infer_chunk, choose_chunk),
	SPLIT("split", 2, "split_size dim", "torch.split(@0, #0, #1)", infer_split, choose_split),
	SPLIT("split_with_sizes", 2, "dim split_sizes[]", "torch.split(@0, #1, dim=#0)", infer_split_sizes,
	      choose_split_sizes),
	SPLIT("tensor_split", 2, "sections dim", "torch.tensor_split(@0, #0, dim=#1)", infer_tensor_split,
	      choose_tensor_split),
	SPLIT("unbind", 2, "dim", "torch.unbind(@0, #0)", infer_unbind, choose_unbind),
	JOIN("column_stack", 2, 0, G_MAX_RANK, 1, NULL, "torch.column_stack((@0, @1))", infer_column_stack,
	     choose_column_stack),
	JOIN("dstack", 2, 0, G_MAX_RANK, 1, NULL, "torch.dstack([@0, @1])", infer_dstack, choose_dstack),
	JOIN("block_diag", 2, 0, 2, 1, NULL, "torch.block_diag(@0, @1)", infer_block_diag, choose_block_diag),
	JOIN("cartesian_prod", 2, 1, 1, 1, NULL, "torch.cartesian_prod(@0, @1)", infer_cartesian_prod,
	     choose_cartesian_prod),
	JOIN("combinations", 1, 1, 1, 1, "r with_replacement?", "torch.combinations(@0, r=#0, with_replacement=#1)",
	     infer_combinations, choose_combinations),
	SPLIT("hsplit", 1, "sections", "torch.hsplit(@0, #0)", infer_np_split, choose_np_split),
	SPLIT("vsplit", 1, "sections", "torch.vsplit(@0, #0)", infer_np_split, choose_np_split),
	SPLIT("dsplit", 1, "sections", "torch.dsplit(@0, #0)", infer_np_split, choose_np_split),
	SPLIT_BASE("unsafe_chunk", "chunk", LAYOUT_VIEW, "chunks dim", "torch.unsafe_chunk(@0, #0, #1)"),
	SPLIT_BASE("unsafe_split", "split", LAYOUT_VIEW, "split_size dim", "torch.unsafe_split(@0, #0, #1)"),
	SPLIT_BASE("split_with_sizes_copy", "split_with_sizes", LAYOUT_FRESH, "dim split_sizes[]",
		   "torch.split_with_sizes_copy(@0, #1, dim=#0)"),
	SPLIT_BASE("unbind_copy", "unbind", LAYOUT_FRESH, "dim", "torch.unbind_copy(@0, #0)"),
	{.name = "broadcast_tensors", .family = FAM_COMBINE, .nin_min = 2, .nin_max = 2, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_EVERY, .layout = LAYOUT_VIEW, .weight = 1, .py = "torch.broadcast_tensors(@0, @1)",
	 .infer = infer_broadcast_tensors, .choose = choose_broadcast_tensors},
	GRID(meshgrid, 2, "torch.meshgrid(@0, @1, indexing=#0)"),
	GRID(meshgrid3, 3, "torch.meshgrid(@0, @1, @2, indexing=#0)"),
};
FAMILY_COUNT(combine);
