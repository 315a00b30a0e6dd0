/* Tensors made inside the graph: factories (torch.full, zeros/ones, arange,
 * linspace, eye, torch.tensor of a Python number, the signal windows), their *_like and new_*
 * forms. Input 0 gives
 * the device (and, for the *_like forms and sized factories, the shape, so
 * a factory may follow a dynamic dim); its values are not read. Compilers
 * fold constants and specialize on them: a different path from tensors
 * that arrive as inputs. */
#include <math.h>
#include "../opkit.h"
#include "../real.h"
#include "families.h"

#define SIZE_MAX_ITEM 16 /* a factory's static sizes stay small */

/* Integral fill values for integer dtypes. */
static const int64_t int_values[] = {0, 1, -1, 2, 7, -3};

static enum dtype factory_dtype(struct chooser *c)
{
	return rng_chance(c->rng, 60) ? DT_FLOAT32 : pick_dtype(c, DTM_EVERY);
}

/* A fill value (a real attribute) dtype dt holds: any real number for a
 * float dtype (tiny, huge, -0.0, inf, NaN), an integral one for the rest. */
static int64_t value_for(struct chooser *c, enum dtype dt)
{
	if (dt == DT_BOOL)
		return real_bits(rng_chance(c->rng, 50) ? 1.0 : 0.0);
	if (!dtype_is_float(dt)) {
		int64_t v = pick_of(c, int_values, NELEM(int_values));
		return real_bits((double)(v < 0 && dtype_info(dt)->min == 0 ? -v : v));
	}
	return real_draw(c->rng, RCM_ALL, 0);
}

/* A fill value dtype dt holds: within a float dtype's range (eager raises on
 * an overflow; inf and NaN pass), else integral (0 or 1 for bool) and in range. */
static bool fill_fits(struct infer_io *io, unsigned at, enum dtype dt)
{
	double x = real_value(io->attr[at]);
	if (dtype_is_float(dt))
		return io_real_fits(io, at, dt);
	if (!(x == floor(x)) || x < (double)dtype_info(dt)->min || x > (double)dtype_info(dt)->max)
		return io_fail(io, "value %g is not an integer %s holds", x, dtype_info(dt)->name);
	return true;
}

/* A bound of arange or linspace, in thousandths, dtype dt holds exactly:
 * integral (0 or 1 for bool), in range. */
static bool value_fits(struct infer_io *io, int64_t milli, enum dtype dt)
{
	if (dtype_is_float(dt))
		return io_in_range(io, "value/1000", milli, -1000000000, 1000000000);
	if (milli % 1000)
		return io_fail(io, "value %lld/1000 is not an integer for %s", (long long)milli, dtype_info(dt)->name);
	return io_in_range(io, "value", milli / 1000, dtype_info(dt)->min, dtype_info(dt)->max);
}

/* Output 0 of rank n and dtype dt, sized by a shape list (attrs from `at`):
 * static sizes >= 0, or -2-k for input 0's dim k. */
static bool sized_out(struct infer_io *io, unsigned at, enum dtype dt)
{
	int64_t n = io->attr[at];
	if (n < 0 || n > G_MAX_RANK)
		return io_fail(io, "%lld sizes", (long long)n);
	io->nout = 1;
	io_out_rank(io, 0, (unsigned)n, dt);
	for (unsigned d = 0; d < n; d++) {
		int64_t s = io->attr[at + 1 + d];
		if (s <= -2 && -s - 2 < io->in[0]->rank) {
			FOR_BIND(io, b)
			io->out[0].dim[b][d] = io->in[0]->dim[b][-s - 2];
		} else if (s >= 0 && s <= SIZE_MAX_ITEM) {
			FOR_BIND(io, b)
			io->out[0].dim[b][d] = (int32_t)s;
		} else {
			return io_fail(io, "size %lld: not in [0, %d] nor a dim of input 0", (long long)s, SIZE_MAX_ITEM);
		}
	}
	return true;
}

/* A shape list at attrs[at..]: up to 4 sizes, some following input 0's dims. */
static void choose_sizes(struct chooser *c, struct op_choice *ch, unsigned at)
{
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned n = (unsigned)rng_below(c->rng, 5);
	ch->attr[at] = n;
	for (unsigned d = 0; d < n; d++)
		ch->attr[at + 1 + d] = x->rank && rng_chance(c->rng, 40) ? -2 - (int64_t)rng_below(c->rng, x->rank)
									: rng_range(c->rng, rng_chance(c->rng, 5) ? 0 : 1, 6);
	ch->nattr = (uint8_t)(at + 1 + n);
}

/* full(value, dtype, size): torch.full and the sized zeros/ones. */
static bool infer_full(struct infer_io *io)
{
	return fill_fits(io, 0, (enum dtype)io->attr[1]) && sized_out(io, 2, (enum dtype)io->attr[1]);
}

static bool choose_full(struct chooser *c, struct op_choice *ch)
{
	enum dtype dt = factory_dtype(c);
	ch->attr[0] = value_for(c, dt);
	ch->attr[1] = dt;
	choose_sizes(c, ch, 2);
	return true;
}

/* dtype, size: zeros / ones. */
static bool infer_sized(struct infer_io *io) { return sized_out(io, 1, (enum dtype)io->attr[0]); }

static bool choose_sized(struct chooser *c, struct op_choice *ch)
{
	ch->attr[0] = factory_dtype(c);
	choose_sizes(c, ch, 1);
	return true;
}

/* new_full / new_zeros: input 0's dtype. */
static bool infer_new_full(struct infer_io *io)
{
	return fill_fits(io, 0, (enum dtype)io->in[0]->dtype) && sized_out(io, 1, (enum dtype)io->in[0]->dtype);
}

static bool choose_new_full(struct chooser *c, struct op_choice *ch)
{
	ch->attr[0] = value_for(c, (enum dtype)c->g->v[ch->in[0]].dtype);
	choose_sizes(c, ch, 1);
	return true;
}

static bool infer_new_sized(struct infer_io *io) { return sized_out(io, 0, (enum dtype)io->in[0]->dtype); }

static bool choose_new_sized(struct chooser *c, struct op_choice *ch)
{
	choose_sizes(c, ch, 0);
	return true;
}

/* *_like(x, value, dtype): x's shape (dynamic dims included). */
static bool infer_full_like(struct infer_io *io)
{
	if (!fill_fits(io, 0, (enum dtype)io->attr[1]))
		return false;
	io->nout = 1;
	io_out_like(io, 0, io->in[0], (enum dtype)io->attr[1]);
	return true;
}

static bool choose_full_like(struct chooser *c, struct op_choice *ch)
{
	enum dtype dt = factory_dtype(c);
	ch->nattr = 2;
	ch->attr[0] = value_for(c, dt);
	ch->attr[1] = dt;
	return true;
}

static bool infer_like(struct infer_io *io)
{
	io->nout = 1;
	io_out_like(io, 0, io->in[0], (enum dtype)io->attr[0]);
	return true;
}

static bool choose_like(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = factory_dtype(c);
	return true;
}

/* empty_like(x).fill_(value): never an unfilled empty tensor. */
static bool infer_empty_fill(struct infer_io *io)
{
	if (!fill_fits(io, 0, (enum dtype)io->in[0]->dtype))
		return false;
	io->nout = 1;
	io_out_like(io, 0, io->in[0], (enum dtype)io->in[0]->dtype);
	return true;
}

static bool choose_empty_fill(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = value_for(c, (enum dtype)c->g->v[ch->in[0]].dtype);
	return true;
}

/* arange(start, end, step, dtype): integers, so its length is exact. */
static bool infer_arange(struct infer_io *io)
{
	int64_t start = io->attr[0], end = io->attr[1], step = io->attr[2];
	enum dtype dt = (enum dtype)io->attr[3];
	if (step == 0 || (end - start) / step < 0 || dt == DT_BOOL)
		return io_fail(io, "arange(%lld, %lld, %lld) of %s", (long long)start, (long long)end, (long long)step,
			       dtype_info(dt)->name);
	int64_t len = (end - start + step + (step > 0 ? -1 : 1)) / step;
	if (!io_in_range(io, "arange length", len, 0, G_MAX_DIM) || !value_fits(io, 1000 * start, dt) ||
	    !value_fits(io, 1000 * (start + (len ? len - 1 : 0) * step), dt))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 1, dt);
	FOR_BIND(io, b)
	io->out[0].dim[b][0] = (int32_t)len;
	if (!dtype_is_float(dt)) {
		io->out[0].lo = step > 0 ? start : start + (len - 1) * step;
		io->out[0].hi = step > 0 ? start + (len - 1) * step : start;
	}
	return true;
}

static bool choose_arange(struct chooser *c, struct op_choice *ch)
{
	static const int64_t steps[] = {1, 1, 2, 3, -1, -2};
	int64_t step = pick_of(c, steps, NELEM(steps)), start = rng_range(c->rng, -5, 5);
	int64_t len = rng_range(c->rng, rng_chance(c->rng, 5) ? 0 : 1, 16);
	ch->nattr = 4;
	ch->attr[0] = start;
	ch->attr[1] = start + len * step;
	ch->attr[2] = step;
	ch->attr[3] = rng_chance(c->rng, 50) ? DT_INT64 : pick_dtype(c, DTM_FLOAT | DTM(DT_INT32));
	return true;
}

/* arange(x.size(d)): a length that follows a dynamic dim; int64 in [0, size-1]. */
static bool infer_arange_dim(struct infer_io *io)
{
	int d = io_dim(io->attr[0], io->in[0]->rank);
	if (d < 0 || !io->in[0]->rank)
		return io_fail(io, "dim %lld out of range", (long long)io->attr[0]);
	io->nout = 1;
	io_out_rank(io, 0, 1, DT_INT64);
	int32_t most = 0;
	FOR_BIND(io, b)
	{
		io->out[0].dim[b][0] = io->in[0]->dim[b][d];
		most = io->in[0]->dim[b][d] > most ? io->in[0]->dim[b][d] : most;
	}
	io->out[0].lo = 0;
	io->out[0].hi = most ? most - 1 : 0;
	return true;
}

static bool choose_arange_dim(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	if (!x->rank)
		return false;
	ch->nattr = 1;
	ch->attr[0] = pick_dim(c, x->rank);
	return true;
}

/* torch.signal.windows.NAME(x.size(d), sym=, dtype=, PARAM=): a window of
 * the length of a (maybe dynamic) dim, float32 or float64 (no half kernels);
 * PARAM (attribute 3, in 1/1000: gaussian's std, kaiser's beta,
 * exponential's tau, general_hamming's alpha) is positive. */
#define WINDOW_PARAM_MAX 20000

static bool infer_window(struct infer_io *io)
{
	enum dtype dt = (enum dtype)io->attr[2];
	int d = io_dim(io->attr[0], io->in[0]->rank);
	if (d < 0 || !io->in[0]->rank)
		return io_fail(io, "dim %lld out of range", (long long)io->attr[0]);
	if (dt != DT_FLOAT32 && dt != DT_FLOAT64)
		return io_fail(io, "a window of %s", dtype_info(dt)->name);
	if (io->nattr > 3 && !io_attr_range(io, 3, 1, WINDOW_PARAM_MAX))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 1, dt);
	FOR_BIND(io, b) io->out[0].dim[b][0] = io->in[0]->dim[b][d];
	return true;
}

static bool choose_window(struct chooser *c, struct op_choice *ch)
{
	static const int64_t params[] = {500, 1000, 2000, 540, 12000};
	const struct value *x = &c->g->v[ch->in[0]];
	if (!x->rank)
		return false;
	ch->attr[0] = pick_dim(c, x->rank);
	ch->attr[1] = rng_chance(c->rng, 50);
	ch->attr[2] = rng_chance(c->rng, 70) ? DT_FLOAT32 : DT_FLOAT64;
	ch->attr[3] = pick_edge_or(c, 1, WINDOW_PARAM_MAX, params, NELEM(params));
	struct attr_spec spec;
	op_attr_spec(c->op, &spec);
	ch->nattr = (uint8_t)spec.nscalar; /* 4 with a parameter */
	return true;
}

/* linspace (and logspace, base 10) (start, end, steps, dtype): floats. */
static bool infer_linspace(struct infer_io *io)
{
	enum dtype dt = (enum dtype)io->attr[3];
	if (!dtype_is_float(dt))
		return io_fail(io, "linspace of %s", dtype_info(dt)->name);
	if (!io_in_range(io, "steps", io->attr[2], 0, G_MAX_DIM) || !value_fits(io, io->attr[0], dt) ||
	    !value_fits(io, io->attr[1], dt))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 1, dt);
	FOR_BIND(io, b)
	io->out[0].dim[b][0] = (int32_t)io->attr[2];
	return true;
}

static bool choose_linspace(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 4;
	ch->attr[0] = rng_range(c->rng, -5000, 5000);
	ch->attr[1] = ch->attr[0] + rng_range(c->rng, -10000, 10000);
	ch->attr[2] = rng_range(c->rng, rng_chance(c->rng, 5) ? 0 : 1, 20);
	ch->attr[3] = pick_dtype(c, DTM_FLOAT);
	return true;
}

/* tril_indices / triu_indices(row, col, offset): the [2, N] int64 indices
 * of the lower (upper) triangle of a row x col matrix, N counted here. */
static bool triangle_rule(struct infer_io *io, bool lower)
{
	int64_t rows = io->attr[0], cols = io->attr[1], off = io->attr[2], n = 0;
	if (!io_in_range(io, "row", rows, 0, SIZE_MAX_ITEM) || !io_in_range(io, "col", cols, 0, SIZE_MAX_ITEM) ||
	    !io_in_range(io, "offset", off, -SIZE_MAX_ITEM, SIZE_MAX_ITEM))
		return false;
	for (int64_t r = 0; r < rows; r++) {
		int64_t k = lower ? r + off + 1 : cols - (r + off > 0 ? r + off : 0);
		n += k < 0 ? 0 : k > cols ? cols : k;
	}
	io->nout = 1;
	io_out_rank(io, 0, 2, DT_INT64);
	FOR_BIND(io, b)
	{
		io->out[0].dim[b][0] = 2;
		io->out[0].dim[b][1] = (int32_t)n;
	}
	io->out[0].lo = 0;
	io->out[0].hi = (rows > cols ? rows : cols) - 1;
	return true;
}

static bool infer_tril_indices(struct infer_io *io) { return triangle_rule(io, true); }
static bool infer_triu_indices(struct infer_io *io) { return triangle_rule(io, false); }

static bool choose_triangle(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 3;
	ch->attr[0] = rng_range(c->rng, 1, 8);
	ch->attr[1] = rng_range(c->rng, 1, 8);
	ch->attr[2] = rng_range(c->rng, -3, 3);
	return true;
}

/* eye(n, m, dtype). */
static bool infer_eye(struct infer_io *io)
{
	if (!io_in_range(io, "n", io->attr[0], 0, SIZE_MAX_ITEM) || !io_in_range(io, "m", io->attr[1], 0, SIZE_MAX_ITEM))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 2, (enum dtype)io->attr[2]);
	FOR_BIND(io, b)
	{
		io->out[0].dim[b][0] = (int32_t)io->attr[0];
		io->out[0].dim[b][1] = (int32_t)io->attr[1];
	}
	return true;
}

static bool choose_eye(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 3;
	ch->attr[0] = rng_range(c->rng, 1, 8);
	ch->attr[1] = rng_chance(c->rng, 50) ? ch->attr[0] : rng_range(c->rng, 1, 8);
	ch->attr[2] = factory_dtype(c);
	return true;
}

/* torch.tensor(value, dtype): a 0-dim constant. */
static bool infer_scalar_tensor(struct infer_io *io)
{
	if (!fill_fits(io, 0, (enum dtype)io->attr[1]))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 0, (enum dtype)io->attr[1]);
	return true;
}

static bool choose_scalar_tensor(struct chooser *c, struct op_choice *ch)
{
	enum dtype dt = factory_dtype(c);
	ch->nattr = 2;
	ch->attr[0] = value_for(c, dt);
	ch->attr[1] = dt;
	return true;
}

#define FACTORY(nm, dt, attrs_, spelling, tag, w) \
	{.name = nm, .family = FAM_FACTORY, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK, .dtypes = dt, \
	 .layout = LAYOUT_FRESH, .weight = w, .empty_ok = 1, .attrs = attrs_, .py = spelling, .infer = infer_##tag, \
	 .choose = choose_##tag}
#define ON_DEVICE "device=@0.device)"
/* param: the window's one number, as an attribute and as spelled ("" for none) */
#define WINDOW(nm, param_attr, param_spelled) \
	FACTORY(#nm "_window", DTM_EVERY, "dim sym? dtype%" param_attr, \
		"torch.signal.windows." #nm "(@0.size(#0), sym=#1, dtype=#2, " param_spelled ON_DEVICE, window, 1)

const struct op_def ops_factory[] = {
	FACTORY("full", DTM_EVERY, "value^ dtype% size[@]", "torch.full(#2, #0, dtype=#1, " ON_DEVICE, full, 2),
	FACTORY("zeros", DTM_EVERY, "dtype% size[@]", "torch.zeros(#1, dtype=#0, " ON_DEVICE, sized, 1),
	FACTORY("ones", DTM_EVERY, "dtype% size[@]", "torch.ones(#1, dtype=#0, " ON_DEVICE, sized, 1),
	FACTORY("new_full", DTM_EVERY, "value^ size[@]", "@0.new_full(#1, #0)", new_full, 1),
	FACTORY("new_zeros", DTM_EVERY, "size[@]", "@0.new_zeros(#0)", new_sized, 1),
	FACTORY("new_ones", DTM_EVERY, "size[@]", "@0.new_ones(#0)", new_sized, 1),
	FACTORY("full_like", DTM_EVERY, "value^ dtype%", "torch.full_like(@0, #0, dtype=#1)", full_like, 2),
	FACTORY("zeros_like", DTM_EVERY, "dtype%", "torch.zeros_like(@0, dtype=#0)", like, 1),
	FACTORY("ones_like", DTM_EVERY, "dtype%", "torch.ones_like(@0, dtype=#0)", like, 1),
	FACTORY("empty_like_fill", DTM_EVERY, "value^", "torch.empty_like(@0).fill_(#0)", empty_fill, 1),
	FACTORY("arange", DTM_EVERY, "start end step dtype%", "torch.arange(#0, #1, #2, dtype=#3, " ON_DEVICE, arange,
		2),
	FACTORY("arange_dim", DTM_EVERY, "dim", "torch.arange(@0.size(#0), " ON_DEVICE, arange_dim, 2),
	FACTORY("linspace", DTM_EVERY, "start~ end~ steps dtype%", "torch.linspace(#0, #1, #2, dtype=#3, " ON_DEVICE,
		linspace, 1),
	FACTORY("logspace", DTM_EVERY, "start~ end~ steps dtype%", "torch.logspace(#0, #1, #2, dtype=#3, " ON_DEVICE,
		linspace, 1),
	{.name = "tril_indices", .family = FAM_FACTORY, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_EVERY, .layout = LAYOUT_FRESH, .weight = 1, .empty_ok = 1, .attrs = "row col offset",
	 .py = "torch.tril_indices(#0, #1, #2, " ON_DEVICE, .infer = infer_tril_indices, .choose = choose_triangle},
	{.name = "triu_indices", .family = FAM_FACTORY, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_EVERY, .layout = LAYOUT_FRESH, .weight = 1, .empty_ok = 1, .attrs = "row col offset",
	 .py = "torch.triu_indices(#0, #1, #2, " ON_DEVICE, .infer = infer_triu_indices, .choose = choose_triangle},
	FACTORY("eye", DTM_EVERY, "n m dtype%", "torch.eye(#0, #1, dtype=#2, " ON_DEVICE, eye, 1),
	FACTORY("scalar_tensor", DTM_EVERY, "value^ dtype%", "torch.tensor(#0, dtype=#1, " ON_DEVICE, scalar_tensor, 2),
	WINDOW(bartlett, "", ""),
	WINDOW(blackman, "", ""),
	WINDOW(cosine, "", ""),
	WINDOW(hamming, "", ""),
	WINDOW(hann, "", ""),
	WINDOW(nuttall, "", ""),
	WINDOW(gaussian, " std~", "std=#3, "),
	WINDOW(kaiser, " beta~", "beta=#3, "),
	WINDOW(exponential, " tau~", "tau=#3, "),
	WINDOW(general_hamming, " alpha~", "alpha=#3, "),
	FACTORY("general_cosine_window", DTM_EVERY, "dim sym? dtype%",
		"torch.signal.windows.general_cosine(@0.size(#0), a=[0.46, 0.23, 0.31], sym=#1, dtype=#2, " ON_DEVICE,
		window, 1),
};
FAMILY_COUNT(factory);
