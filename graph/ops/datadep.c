/* Ops whose output shapes depend on the data: nonzero, unique (with and
 * without counts), unique_consecutive, masked_select, boolean-mask indexing
 * x[mask], repeat_interleave with a tensor of repeats. Dynamo captures them
 * only with capture_dynamic_output_shape_ops (the emitted program and the
 * worker turn it on for graphs that have one).
 *
 * The IR cannot know their shapes: each output gets an upper bound (the
 * most elements the data could select) and is marked data-dependent, so no
 * node may read it: these ops are sinks, their outputs graph outputs. The
 * oracle compares the real shapes before any value. Inputs of at most the
 * graph's dim cap in elements (graph_dim_cap: larger in a graph for a GPU)
 * keep every bound within one dim. */
#include <string.h>
#include "../opkit.h"
#include "families.h"

#define REPEATS_MAX 3      /* repeat_interleave: repeats drawn in [0, REPEATS_MAX] */

/* Elements of v at binding b, checked against the bound. */
static bool small_enough(struct infer_io *io, const struct value *v)
{
	FOR_BIND(io, b) if (value_numel(v, b) > graph_dim_cap(io->g))
		return io_fail(io, "%lld elements at binding %u: data-dependent ops take at most %d",
			       (long long)value_numel(v, b), b, (int)graph_dim_cap(io->g));
	return true;
}

/* Output k: 1-D of at most numel(v) elements. */
static void out_flat(struct infer_io *io, unsigned k, const struct value *v, enum dtype dt)
{
	io_out_rank(io, k, 1, dt);
	FOR_BIND(io, b) io->out[k].dim[b][0] = (int32_t)value_numel(v, b);
}

/* nonzero: [count, rank] indices, each below the largest dim. */
static bool infer_nonzero(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (!small_enough(io, x))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 2, DT_INT64);
	io->out[0].lo = 0;
	io->out[0].hi = 0;
	FOR_BIND(io, b) {
		io->out[0].dim[b][0] = (int32_t)value_numel(x, b);
		io->out[0].dim[b][1] = x->rank;
		for (unsigned d = 0; d < x->rank; d++)
			io->out[0].hi = x->dim[b][d] - 1 > io->out[0].hi ? x->dim[b][d] - 1 : io->out[0].hi;
	}
	return true;
}

/* unique / unique_consecutive: the flattened distinct values, and with
 * return_counts (attribute 0) how often each occurs. */
static bool infer_unique(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (!small_enough(io, x))
		return false;
	io->nout = io->attr[0] ? 2 : 1;
	out_flat(io, 0, x, (enum dtype)x->dtype);
	io->out[0].lo = x->lo;
	io->out[0].hi = x->hi;
	if (io->attr[0]) {
		out_flat(io, 1, x, DT_INT64);
		io->out[1].lo = 1;
		io->out[1].hi = 0;
		FOR_BIND(io, b) io->out[1].hi = value_numel(x, b) > io->out[1].hi ? value_numel(x, b) : io->out[1].hi;
	}
	return true;
}

/* masked_select: a bool mask broadcast with x; 1-D of the selected values. */
static bool infer_masked_select(struct infer_io *io)
{
	struct value both;
	memset(&both, 0, sizeof both);
	if (io->in[1]->dtype != DT_BOOL)
		return io_fail(io, "mask must be bool");
	if (!io_broadcast(io, io->in[0], io->in[1], &both) || !small_enough(io, &both))
		return false;
	io->nout = 1;
	out_flat(io, 0, &both, (enum dtype)io->in[0]->dtype);
	io->out[0].lo = io->in[0]->lo;
	io->out[0].hi = io->in[0]->hi;
	return true;
}

/* x[mask]: a bool mask of exactly x's leading k dims; the selected rows of
 * those k dims become one dim. */
static bool infer_mask_index(struct infer_io *io)
{
	const struct value *x = io->in[0], *m = io->in[1];
	if (m->dtype != DT_BOOL || m->rank < 1 || m->rank > x->rank)
		return io_fail(io, "mask must be bool with 1 to %u dims", x->rank);
	FOR_BIND(io, b) for (unsigned d = 0; d < m->rank; d++)
		if (m->dim[b][d] != x->dim[b][d])
			return io_fail(io, "mask dim %u is %d, input's %d (binding %u)", d, (int)m->dim[b][d],
				       (int)x->dim[b][d], b);
	if (!small_enough(io, x))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, x->rank - m->rank + 1u, (enum dtype)x->dtype);
	io->out[0].lo = x->lo;
	io->out[0].hi = x->hi;
	FOR_BIND(io, b) {
		io->out[0].dim[b][0] = (int32_t)value_numel(m, b);
		for (unsigned d = m->rank; d < x->rank; d++)
			io->out[0].dim[b][d - m->rank + 1] = x->dim[b][d];
	}
	return true;
}

/* repeat_interleave(x, repeats, dim): repeats 1-D int64 of x.size(dim)
 * non-negative counts; dim d grows to their sum. */
static bool infer_repeat_interleave(struct infer_io *io)
{
	const struct value *x = io->in[0], *r = io->in[1];
	int d = io_dim(io->attr[0], x->rank);
	if (d < 0 || !x->rank)
		return io_fail(io, "dim %lld out of range", (long long)io->attr[0]);
	if (r->dtype != DT_INT64 || r->rank != 1 || r->lo < 0 || r->hi < 1 || r->hi > REPEATS_MAX)
		return io_fail(io, "repeats must be 1-D int64 counts in [0, %d], not all 0", REPEATS_MAX);
	FOR_BIND(io, b) if (r->dim[b][0] != x->dim[b][d])
		return io_fail(io, "%d repeats for a dim of %d (binding %u)", (int)r->dim[b][0], (int)x->dim[b][d], b);
	if (!small_enough(io, x))
		return false;
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	io->out[0].lo = x->lo;
	io->out[0].hi = x->hi;
	FOR_BIND(io, b) io->out[0].dim[b][d] = (int32_t)(x->dim[b][d] * r->hi);
	return true;
}

/* Every chooser: input 0 small enough, or nothing. */
static bool small_input(struct chooser *c, const struct value *x)
{
	for (unsigned b = 0; b < c->g->nbind; b++)
		if (value_numel(x, b) > graph_dim_cap(c->g))
			return false;
	return true;
}

static bool choose_nonzero(struct chooser *c, struct op_choice *ch)
{
	return small_input(c, &c->g->v[ch->in[0]]);
}

static bool choose_unique(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = rng_chance(c->rng, 50);
	return small_input(c, &c->g->v[ch->in[0]]);
}

static bool choose_masked_select(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int m = pick_broadcast_partner(c, x, DT_BOOL);
	ch->in[1] = (uint16_t)m;
	ch->nin = 2;
	return m >= 0 && small_input(c, x);
}

static bool choose_mask_index(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	struct tensor_req q = req_like(x);
	q.dtype = DT_BOOL;
	q.fill = FILL_RANGE;
	q.lo = 0;
	q.hi = 1;
	q.rank = (uint8_t)rng_range(c->rng, 1, x->rank);
	int m = c->operand(c, &q);
	ch->in[1] = (uint16_t)m;
	ch->nin = 2;
	return m >= 0 && small_input(c, x);
}

static bool choose_repeat_interleave(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = 1;
	ch->attr[0] = pick_dim(c, x->rank);
	unsigned d = (unsigned)io_dim(ch->attr[0], x->rank);
	struct tensor_req q = req_like(x);
	q.dtype = DT_INT64;
	q.fill = FILL_RANGE;
	q.rank = 1;
	q.lo = 0;
	q.hi = rng_range(c->rng, 1, REPEATS_MAX);
	for (unsigned b = 0; b < G_MAX_BIND; b++)
		q.dim[b][0] = x->dim[b][d];
	int r = c->operand(c, &q);
	ch->in[1] = (uint16_t)r;
	ch->nin = 2;
	return r >= 0 && small_input(c, x);
}

/* bincount(x, minlength): a 1-D x of non-negative integers with a known
 * bound hi; max(max(x) + 1, minlength) int64 counts, at most
 * max(hi + 1, minlength). */
#define BINCOUNT_MAX 64
static bool infer_bincount(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (x->lo < 0 || x->hi >= BINCOUNT_MAX)
		return io_fail(io, "bincount input may hold values outside [0, %d)", BINCOUNT_MAX);
	if (!io_attr_range(io, 0, 0, BINCOUNT_MAX) || !small_enough(io, x))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 1, DT_INT64);
	io->out[0].lo = 0;
	io->out[0].hi = 0;
	FOR_BIND(io, b) {
		io->out[0].dim[b][0] = (int32_t)(x->hi + 1 > io->attr[0] ? x->hi + 1 : io->attr[0]);
		io->out[0].hi = value_numel(x, b) > io->out[0].hi ? value_numel(x, b) : io->out[0].hi;
	}
	return true;
}

/* Input 0 itself when its values suit, else a leaf of its shape in [0, hi]. */
static bool choose_bincount(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	if (x->lo < 0 || x->hi >= BINCOUNT_MAX) {
		struct tensor_req q = req_like(x);
		q.dtype = DT_INT64;
		q.fill = FILL_RANGE;
		q.lo = 0;
		q.hi = rng_range(c->rng, 1, 12);
		int id = c->operand(c, &q);
		if (id < 0)
			return false;
		ch->in[0] = (uint16_t)id;
		x = &c->g->v[id];
	}
	ch->nattr = 1;
	ch->attr[0] = rng_chance(c->rng, 50) ? 0 : rng_range(c->rng, 1, x->hi + 4);
	return small_input(c, x);
}

#define DD(nm, nin, rmin, attrs_, spelling, tag, nograd_, ...) \
	{.name = nm, .family = FAM_DATADEP, .nin_min = nin, .nin_max = nin, .rank_min = rmin, .rank_max = G_MAX_RANK, \
	 .dtypes = DTM_ALL, .layout = LAYOUT_FRESH, .datadep = 1, .nograd = nograd_, .weight = 2, .attrs = attrs_, .py = spelling, \
	 .infer = infer_##tag, .choose = choose_##tag, __VA_ARGS__}

const struct op_def ops_datadep[] = {
	DD("nonzero", 1, 1, NULL, "torch.nonzero(@0)", nonzero, 0),
	DD("unique", 1, 0, "return_counts?", "torch.unique(@0, sorted=True, return_counts=#0)", unique, 1),
	DD("unique_consecutive", 1, 0, "return_counts?", "torch.unique_consecutive(@0, return_counts=#0)", unique, 1),
	DD("masked_select", 2, 0, NULL, "torch.masked_select(@0, @1)", masked_select, 0),
	DD("mask_index", 2, 1, NULL, "@0[@1]", mask_index, 0),
	DD("repeat_interleave", 2, 1, "dim", "torch.repeat_interleave(@0, @1, dim=#0)", repeat_interleave, 0),
	DD("argwhere", 1, 1, NULL, "torch.argwhere(@0)", as_base, 0, .base = "nonzero"),
	{.name = "bincount", .family = FAM_DATADEP, .nin_min = 1, .nin_max = 1, .rank_min = 1, .rank_max = 1,
	 .dtypes = DTM_INTS, .layout = LAYOUT_FRESH, .datadep = 1, .nograd = 1, .weight = 1, .attrs = "minlength",
	 .py = "torch.bincount(@0, minlength=#0)", .infer = infer_bincount, .choose = choose_bincount},
};
FAMILY_COUNT(datadep);
