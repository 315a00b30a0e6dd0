/* Searching and counting: searchsorted and bucketize into sorted boundaries,
 * isin, isclose, histc and nonzero_static.
 *
 * The boundaries are input 0, a 1-D tensor sorted in the spelling (any
 * values, any order, in every mode); the values searched (input 1) take any
 * shape. NaN has no place in a sorted sequence, so both read nan_to_num.
 * The positions are int64 in [0, n]: index values for later nodes.
 * nonzero_static pads to a fixed count with -1: a shape that does not
 * depend on the data, unlike nonzero's. */
#include "../opkit.h"
#include "families.h"

#define HISTC_BINS_MAX 32
#define NONZERO_STATIC_MAX 64
#define HISTOGRAMDD_DIMS 3
#define HISTOGRAMDD_BINS_MAX 8
#define SORTED "torch.sort(torch.nan_to_num(@0)).values"

/* searchsorted(boundaries, values, right=): values' shape, int64 in [0, n]. */
static bool infer_search(struct infer_io *io)
{
	const struct value *b = io->in[0], *v = io->in[1];
	if (!io_attr_range(io, 0, 0, 1) || !io_same_dtype(io))
		return false;
	io->nout = 1;
	io_out_like(io, 0, v, DT_INT64);
	io->out[0].lo = 0;
	io->out[0].hi = 0;
	FOR_BIND(io, k) io->out[0].hi = b->dim[k][0] > io->out[0].hi ? b->dim[k][0] : io->out[0].hi;
	return true;
}

/* values: a partner of input 0's dtype, of any shape. */
static bool choose_search(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int v = pick_broadcast_partner(c, x, (enum dtype)x->dtype);
	ch->in[1] = (uint16_t)v;
	ch->nin = 2;
	ch->nattr = 1;
	ch->attr[0] = rng_chance(c->rng, 50);
	return v >= 0;
}

/* isin(elements, test_elements, invert=): bool of input 0's shape. */
static bool infer_isin(struct infer_io *io)
{
	if (!io_attr_range(io, 0, 0, 1) || !io_same_dtype(io))
		return false;
	io->nout = 1;
	io_out_like(io, 0, io->in[0], DT_BOOL);
	return true;
}

/* isclose(a, b, rtol, atol, equal_nan): broadcast, bool. */
static bool infer_isclose(struct infer_io *io)
{
	if (!io_attr_range(io, 0, 0, 1000) || !io_attr_range(io, 1, 0, 1000) || !io_attr_range(io, 2, 0, 1) ||
	    !io_same_dtype(io))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 0, DT_BOOL);
	return io_broadcast(io, io->in[0], io->in[1], &io->out[0]);
}

static bool choose_isclose(struct chooser *c, struct op_choice *ch)
{
	static const int64_t tols[] = {0, 1, 10, 100};
	if (!choose_search(c, ch))
		return false;
	ch->nattr = 3;
	ch->attr[0] = pick_of(c, tols, NELEM(tols));
	ch->attr[1] = pick_of(c, tols, NELEM(tols));
	ch->attr[2] = rng_chance(c->rng, 50);
	return true;
}

/* histc(x, bins, min, max): [bins] counts in x's float dtype; min < max. */
static bool infer_histc(struct infer_io *io)
{
	if (!io_attr_range(io, 0, 1, HISTC_BINS_MAX) || !io_attr_range(io, 1, -100000, 100000) ||
	    !io_attr_range(io, 2, io->attr[1] + 1, 100001))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 1, (enum dtype)io->in[0]->dtype);
	FOR_BIND(io, b) io->out[0].dim[b][0] = (int32_t)io->attr[0];
	return true;
}

static bool choose_histc(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 3;
	ch->attr[0] = rng_range(c->rng, 1, HISTC_BINS_MAX);
	ch->attr[1] = rng_range(c->rng, -3000, 0);
	ch->attr[2] = ch->attr[1] + rng_range(c->rng, 1, 6000);
	return true;
}

/* histogram(x, bins, range=(min, max), density=): histc's counts and the
 * bins + 1 edges. */
static bool infer_histogram(struct infer_io *io)
{
	if (!infer_histc(io) || !io_attr_range(io, 3, 0, 1))
		return false;
	io->nout = 2;
	io_out_rank(io, 1, 1, (enum dtype)io->in[0]->dtype);
	FOR_BIND(io, b) io->out[1].dim[b][0] = (int32_t)io->attr[0] + 1;
	return true;
}

static bool choose_histogram(struct chooser *c, struct op_choice *ch)
{
	choose_histc(c, ch);
	ch->nattr = 4;
	ch->attr[3] = rng_chance(c->rng, 30);
	return true;
}

/* histogramdd(x, bins, range): x holds N points of D coordinates, D (its
 * static last dim) at most HISTOGRAMDD_DIMS; [bins] * D counts, every
 * coordinate binned over [min, max]. */
static bool infer_histogramdd(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (!io_dim_static(io, x, 1))
		return false;
	unsigned dims = (unsigned)x->dim[0][1];
	if (dims < 1 || dims > HISTOGRAMDD_DIMS)
		return io_fail(io, "%u coordinates, not 1 to %d", dims, HISTOGRAMDD_DIMS);
	if (!io_attr_range(io, 0, 1, HISTOGRAMDD_BINS_MAX) || !io_attr_range(io, 1, -100000, 100000) ||
	    !io_attr_range(io, 2, io->attr[1] + 1, 100001))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, dims, (enum dtype)x->dtype);
	FOR_BIND(io, b) for (unsigned d = 0; d < dims; d++) io->out[0].dim[b][d] = (int32_t)io->attr[0];
	return true;
}

static bool choose_histogramdd(struct chooser *c, struct op_choice *ch)
{
	choose_histc(c, ch);
	ch->attr[0] = rng_range(c->rng, 1, HISTOGRAMDD_BINS_MAX);
	return true;
}

/* nonzero_static(x, size=): [size, rank] int64 indices, padded with -1. */
static bool infer_nonzero_static(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (!io_attr_range(io, 0, 0, NONZERO_STATIC_MAX))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 2, DT_INT64);
	io->out[0].lo = -1;
	io->out[0].hi = 0;
	FOR_BIND(io, b)
	{
		io->out[0].dim[b][0] = (int32_t)io->attr[0];
		io->out[0].dim[b][1] = x->rank;
		for (unsigned d = 0; d < x->rank; d++)
			io->out[0].hi = x->dim[b][d] - 1 > io->out[0].hi ? x->dim[b][d] - 1 : io->out[0].hi;
	}
	return true;
}

static bool choose_nonzero_static(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = rng_range(c->rng, 0, NONZERO_STATIC_MAX);
	return true;
}

static bool choose_isin(struct chooser *c, struct op_choice *ch) { return choose_search(c, ch); }

#define SEARCH(nm, nin, rmin, rmax, dt, attrs_, spelling, tag, ...) \
	{.name = nm, .family = FAM_SEARCH, .nin_min = nin, .nin_max = nin, .rank_min = rmin, .rank_max = rmax, \
	 .dtypes = dt, .layout = LAYOUT_FRESH, .weight = 1, .attrs = attrs_, .py = spelling, .infer = infer_##tag, \
	 .choose = choose_##tag, __VA_ARGS__}

const struct op_def ops_search[] = {
	SEARCH("searchsorted", 2, 1, 1, DTM_NUM, "right?",
	       "torch.searchsorted(" SORTED ", torch.nan_to_num(@1), right=#0)", search, .nograd = 3),
	SEARCH("bucketize", 2, 1, 1, DTM_NUM, "right?", "torch.bucketize(torch.nan_to_num(@1), " SORTED ", right=#0)",
	       search, .nograd = 3),
	SEARCH("isin", 2, 0, G_MAX_RANK, DTM_NUM, "invert?", "torch.isin(@0, @1, invert=#0)", isin, .nograd = 3),
	SEARCH("isclose", 2, 0, G_MAX_RANK, DTM_FLOAT, "rtol~ atol~ equal_nan?",
	       "torch.isclose(@0, @1, rtol=#0, atol=#1, equal_nan=#2)", isclose, .nograd = 3, .step = 1, .same_dtype = 1),
	SEARCH("histc", 1, 0, G_MAX_RANK, DTM_F32_F64, "bins min~ max~", "torch.histc(@0, bins=#0, min=#1, max=#2)",
	       histc, .nograd = 1, .step = 1),
	/* CPU kernels only */
	SEARCH("histogram", 1, 0, G_MAX_RANK, DTM_F32_F64, "bins min~ max~ density?",
	       "torch.histogram(@0, bins=#0, range=(#1, #2), density=#3)", histogram, .nograd = 1, .step = 1,
	       .cpu_only = 1),
	SEARCH("histogramdd", 1, 2, 2, DTM_F32_F64, "bins min~ max~",
	       "torch.histogramdd(@0, bins=#0, range=[#1, #2] * @0.shape[1])[0]", histogramdd, .nograd = 1,
	       .step = 1, .cpu_only = 1),
	SEARCH("nonzero_static", 1, 1, G_MAX_RANK, DTM_ALL, "size",
	       "torch.nonzero_static(@0, size=#0, fill_value=-1)", nonzero_static),
};
FAMILY_COUNT(search);
