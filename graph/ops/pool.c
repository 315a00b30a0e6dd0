/* Pooling: F.max_pool*d (optionally with indices), F.avg_pool*d, F.lp_pool*d,
 * the adaptive avg/max pools, max_unpool*d of max_pool's indices and the
 * fractional max pools, in 1, 2 and 3 spatial dims.
 *
 * torch's rules (2.6): the input is (N, C, *spatial) or (C, *spatial); any C.
 * A window has kernel k > 0, stride s > 0, dilation d > 0 and padding
 * p <= k/2. Per spatial dim L:
 *   out = floor((L + 2p - d(k-1) - 1 + (ceil ? s-1 : 0)) / s) + 1,
 *   and with ceil_mode one less when the last window would start at or past
 *   L + p (it must start inside the input or the left padding); out >= 1.
 * avg_pool3d (so lp_pool3d) also needs L >= k before padding.
 * Adaptive pools take any output size >= 1 per dim. Integer dtypes only in
 * graphs for the CPU, and only for max_pool2d/3d: CUDA's pooling kernels are
 * floating-point only, and max_pool1d has no integer CPU kernel either.
 * avg_pool3d's float16/bfloat16 only in graphs for the GPU: no CPU kernel
 * (lp_pool3d, over it, likewise; its OpInfo does not list them on CUDA). */
#include <string.h>
#include "../opkit.h"
#include "families.h"

/* How an op spells its window: which attribute holds which parameter. */
enum pool_form { PF_MAX, PF_AVG, PF_AVGDIV, PF_LP, PF_ADAPT };
enum { P_K, P_STRIDE, P_PAD, P_DIL, P_CEIL, P_CIP, P_DIV, P_NORM, P_COUNT };
static const int8_t pool_slots[][P_COUNT] = {
	[PF_MAX] = {0, 1, 2, 3, 4, -1, -1, -1},
	[PF_AVG] = {0, 1, 2, -1, 3, 4, -1, -1},
	[PF_AVGDIV] = {0, 1, 2, -1, 3, 4, 5, -1},
	[PF_LP] = {1, 2, -1, -1, 3, -1, -1, 0},
};
static const int64_t pool_defaults[P_COUNT] = {[P_K] = 1, [P_STRIDE] = 1, [P_DIL] = 1, [P_DIV] = 1, [P_NORM] = 2000};

#define POOL_MAX_K 16
#define POOL_MAX_STRIDE 16
#define POOL_MAX_DIL 8
#define POOL_MAX_DIV 100
#define POOL_MAX_ADAPT 64 /* adaptive output size per dim */

static unsigned form_nattr(enum pool_form f)
{
	unsigned n = 0;
	for (unsigned s = 0; s < P_COUNT; s++)
		if (pool_slots[f][s] >= (int)n)
			n = (unsigned)pool_slots[f][s] + 1;
	return n;
}

/* floor(a / b) for b > 0 (torch's div_rtn). */
static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* torch's pooling_output_shape. */
static int64_t pool_out_size(int64_t L, int64_t k, int64_t p, int64_t s, int64_t d, bool ceil)
{
	int64_t o = floor_div(L + 2 * p - d * (k - 1) - 1 + (ceil ? s - 1 : 0), s) + 1;
	if (ceil && (o - 1) * s >= L + p)
		o--;
	return o;
}


static bool rank_ok(struct infer_io *io, unsigned nd)
{
	unsigned r = io->in[0]->rank;
	if (r != nd + 1 && r != nd + 2)
		return io_fail(io, "%uD pooling takes a %u-D or %u-D input, got %u-D", nd, nd + 1, nd + 2, r);
	return true;
}

/* Output 1 (when wanted) holds int64 flat indices into each input plane. */
static void add_indices(struct infer_io *io, unsigned nd)
{
	const struct value *x = io->in[0];
	int64_t plane = 1;
	FOR_BIND(io, b) {
		int64_t n = 1;
		for (unsigned i = 0; i < nd; i++)
			n *= x->dim[b][x->rank - nd + i];
		plane = n > plane ? n : plane;
	}
	io_out_like(io, 1, &io->out[0], DT_INT64);
	io->out[1].lo = 0;
	io->out[1].hi = plane - 1;
	io->nout = 2;
}

/* Windowed pools (max, avg, lp): the rule on decoded parameters v. */
static bool window_shape(struct infer_io *io, enum pool_form f, unsigned nd, const int64_t *v)
{
	const struct value *x = io->in[0];
	if (!rank_ok(io, nd) || !io_in_range(io, "kernel_size", v[P_K], 1, POOL_MAX_K) ||
	    !io_in_range(io, "stride", v[P_STRIDE], 1, POOL_MAX_STRIDE) ||
	    !io_in_range(io, "padding", v[P_PAD], 0, v[P_K] / 2) || !io_in_range(io, "dilation", v[P_DIL], 1, POOL_MAX_DIL) ||
	    !io_in_range(io, "ceil_mode", v[P_CEIL], 0, 1) || !io_in_range(io, "count_include_pad", v[P_CIP], 0, 1) ||
	    !io_in_range(io, "divisor_override", v[P_DIV], 1, POOL_MAX_DIV))
		return false;
	/* lp_pool's p: (a sum of x^p)^(1/p); p near 0 only makes infinities. */
	if (f == PF_LP && !io_in_range(io, "norm_type (1/1000)", v[P_NORM], 250, 8000))
		return false;
	bool whole_kernel = nd == 3 && f != PF_MAX; /* pool3d_shape_check's check_input_size */
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	FOR_BIND(io, b) {
		for (unsigned i = 0; i < nd; i++) {
			unsigned d = x->rank - nd + i;
			if (whole_kernel && x->dim[b][d] < v[P_K])
				return io_fail(io, "3d avg pooling: dim %u (%d) smaller than the kernel %lld (binding %u)", d,
					       (int)x->dim[b][d], (long long)v[P_K], b);
			int64_t o = pool_out_size(x->dim[b][d], v[P_K], v[P_PAD], v[P_STRIDE], v[P_DIL], v[P_CEIL]);
			if (o < 1 || o > G_MAX_DIM)
				return io_fail(io, "output size %lld of dim %u out of range (binding %u)", (long long)o, d,
					       b);
			io->out[0].dim[b][d] = (int32_t)o;
		}
	}
	return true;
}

static void window_decode(const struct infer_io *io, enum pool_form f, int64_t *v)
{
	for (unsigned s = 0; s < P_COUNT; s++)
		v[s] = pool_slots[f][s] >= 0 ? io->attr[pool_slots[f][s]] : pool_defaults[s];
}

static bool window_rule(struct infer_io *io, enum pool_form f, unsigned nd, bool indices)
{
	int64_t v[P_COUNT];
	if (io->nattr != form_nattr(f))
		return io_fail(io, "%u attributes, want %u", io->nattr, form_nattr(f));
	window_decode(io, f, v);
	if (!window_shape(io, f, nd, v))
		return false;
	/* max_pool3d's CPU kernel reads a 4-D (unbatched) input's strides as a
	 * 2-d memory format: channels_last ones it refuses, so only a contiguous
	 * input is sure. */
	if (f == PF_MAX && nd == 3 && io->in[0]->rank == 4 && !io->in[0]->contig)
		return io_fail(io, "an unbatched max_pool3d takes a contiguous input");
	if (indices)
		add_indices(io, nd);
	return true;
}

/* Adaptive pools: output_size[@] has one item per spatial dim, a size >= 1
 * or -2-k for "input 0's dim k" (which keeps a dynamic dim dynamic). */
static bool adapt_rule(struct infer_io *io, unsigned nd, bool indices)
{
	const struct value *x = io->in[0];
	if (!rank_ok(io, nd))
		return false;
	if (io->nattr != 1 + nd || io->attr[0] != nd)
		return io_fail(io, "output_size needs %u items", nd);
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	for (unsigned i = 0; i < nd; i++) {
		int64_t a = io->attr[1 + i];
		unsigned d = x->rank - nd + i;
		if (a <= -2 && -a - 2 < x->rank) {
			FOR_BIND(io, b) io->out[0].dim[b][d] = x->dim[b][-a - 2];
		} else if (a >= 1 && a <= POOL_MAX_ADAPT) {
			FOR_BIND(io, b) io->out[0].dim[b][d] = (int32_t)a;
		} else {
			return io_fail(io, "output size item %lld: need 1..%d or an input dim", (long long)a,
				       POOL_MAX_ADAPT);
		}
	}
	if (indices)
		add_indices(io, nd);
	return true;
}

/* ---- choosers ---- */

static struct infer_io probe_io(const struct graph *g, const struct value *x)
{
	struct infer_io io;
	memset(&io, 0, sizeof io);
	io.g = g;
	io.nbind = g->nbind;
	io.nin = 1;
	io.in[0] = x;
	return io;
}


static void window_random(struct chooser *c, enum pool_form f, int64_t lmin, bool shrink, int64_t *v)
{
	static const int64_t norms[] = {2000, 2000, 2000, 1000, 3000, 1500};
	struct rng *r = c->rng;
	memcpy(v, pool_defaults, sizeof pool_defaults);
	v[P_DIL] = f == PF_MAX && !shrink && rng_chance(r, 25) ? rng_range(r, 2, 3) : 1;
	int64_t kmax = (lmin - 1) / v[P_DIL] + 1;
	kmax = kmax > 4 ? 4 : kmax;
	v[P_K] = rng_range(r, shrink ? 1 : kmax > 1 ? 2 : 1, kmax);
	if (!shrink && rng_chance(r, 15))
		v[P_K]++; /* wider than the input: padding or ceil_mode must make up for it */
	v[P_STRIDE] = rng_chance(r, 40) ? v[P_K] : rng_range(r, 1, 3);
	v[P_PAD] = f == PF_LP || shrink || rng_chance(r, 50) ? 0 : rng_range(r, 0, v[P_K] / 2);
	v[P_CEIL] = !shrink && rng_chance(r, 30);
	v[P_CIP] = rng_chance(r, 50);
	v[P_DIV] = rng_range(r, 1, 9);
	v[P_NORM] = pick_of(c, norms, NELEM(norms));
}

static bool choose_window(struct chooser *c, struct op_choice *ch, enum pool_form f, unsigned nd)
{
	const struct value *x = &c->g->v[ch->in[0]];
	if (x->rank != nd + 1 && x->rank != nd + 2)
		return false;
	struct infer_io io = probe_io(c->g, x);
	int64_t lmin = value_trailing_min(c->g, x, nd);
	for (unsigned t = 0; t < 16; t++) {
		int64_t v[P_COUNT];
		window_random(c, f, lmin, t >= 8, v);
		if (!window_shape(&io, f, nd, v))
			continue;
		ch->nattr = (uint8_t)form_nattr(f);
		for (unsigned s = 0; s < P_COUNT; s++)
			if (pool_slots[f][s] >= 0)
				ch->attr[pool_slots[f][s]] = v[s];
		return true;
	}
	return false;
}

static bool choose_adapt(struct chooser *c, struct op_choice *ch, unsigned nd)
{
	const struct value *x = &c->g->v[ch->in[0]];
	if (x->rank != nd + 1 && x->rank != nd + 2)
		return false;
	ch->nattr = (uint8_t)(1 + nd);
	ch->attr[0] = nd;
	for (unsigned i = 0; i < nd; i++) {
		unsigned d = x->rank - nd + i;
		int32_t mn = value_dim_min(c->g, x, d);
		if (((x->dyn >> d) & 1) && rng_chance(c->rng, 60))
			ch->attr[1 + i] = -2 - (int64_t)d; /* keep the dynamic size */
		else if (rng_chance(c->rng, 10))
			ch->attr[1 + i] = -2 - (int64_t)rng_below(c->rng, x->rank);
		else if (rng_chance(c->rng, 15))
			ch->attr[1 + i] = rng_range(c->rng, mn, mn + 3); /* as large or larger: overlapping bins */
		else
			ch->attr[1 + i] = rng_range(c->rng, 1, mn < 6 ? mn : 6);
	}
	return true;
}

/* fractional_max_pool{2,3}d(x, k, output_size, _random_samples) of a
 * batched input, the samples a constant u of input 0's dtype (new_full), so
 * every mode pools the same windows. Per spatial dim of size L and output
 * size o: o + k - 1 <= L (torch's check; < L in 3-D), and the windows start at
 * trunc((i + u) * a) - trunc(u * a), a = (L - k) / (o - 1), computed in the
 * input's dtype: with o - 1 a power of two (or o = 1, which needs no a) and
 * u a multiple of 1/4 every product is exact, so float32, float64 and
 * compiled code agree. Attributes: kernel_size, sample (thousandths),
 * output_size[]. */
#define FRAC_MAX_K 4
static bool frac_rule(struct infer_io *io, unsigned nd)
{
	const struct value *x = io->in[0];
	int64_t k = io->attr[0], u = io->attr[1];
	if (x->rank != nd + 2)
		return io_fail(io, "fractional pooling here takes a batched %u-D input, got %u-D", nd + 2, x->rank);
	if (!io_attr_range(io, 0, 1, FRAC_MAX_K) || !io_attr_range(io, 1, 0, 750))
		return false;
	if (u % 250)
		return io_fail(io, "sample %lld/1000 is not a multiple of 1/4", (long long)u);
	if (io->attr[2] != nd)
		return io_fail(io, "output_size needs %u items", nd);
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	for (unsigned i = 0; i < nd; i++) {
		int64_t o = io->attr[3 + i];
		unsigned d = 2 + i;
		if (o < 1 || o > G_MAX_DIM || ((o - 1) & (o - 2)))
			return io_fail(io, "output size %lld: need 1 or a power of two plus 1", (long long)o);
		FOR_BIND(io, b) {
			if (o + k - 1 + (nd == 3) > x->dim[b][d])
				return io_fail(io, "pool %lld too large for dim %u of %d with output %lld (binding %u)",
					       (long long)k, d, (int)x->dim[b][d], (long long)o, b);
			io->out[0].dim[b][d] = (int32_t)o;
		}
	}
	return true;
}

static bool choose_frac(struct chooser *c, struct op_choice *ch, unsigned nd)
{
	static const int64_t sizes[] = {1, 2, 3, 5, 9, 17};
	const struct value *x = &c->g->v[ch->in[0]];
	if (x->rank != nd + 2)
		return false;
	int64_t lmin = value_trailing_min(c->g, x, nd) - (nd == 3), kmax = lmin < FRAC_MAX_K ? lmin : FRAC_MAX_K;
	if (kmax < 1)
		return false;
	ch->nattr = (uint8_t)(3 + nd);
	ch->attr[0] = rng_range(c->rng, 1, kmax);
	ch->attr[1] = 250 * rng_range(c->rng, 0, 3);
	ch->attr[2] = nd;
	for (unsigned i = 0; i < nd; i++) {
		int64_t most = value_dim_min(c->g, x, 2 + i) - ch->attr[0] + 1 - (nd == 3), o;
		do
			o = sizes[rng_below(c->rng, NELEM(sizes))];
		while (o > most);
		ch->attr[3 + i] = o;
	}
	return true;
}

/* F.max_unpoolNd(*F.max_poolNd(x, k, s, return_indices=True), k, s,
 * output_size=x's spatial sizes): x's shape, each window's maximum back in
 * its place and zeros elsewhere. Where a window ties, the place is the
 * tie-break's, so input 0 is a positive leaf: distinct draws in float32 and
 * float64, a fill every mutation keeps. Every spatial dim holds a window. */
static bool unpool_rule(struct infer_io *io, unsigned nd)
{
	const struct value *x = io->in[0];
	int64_t k = io->attr[0];
	if (!rank_ok(io, nd) || !io_attr_range(io, 0, 1, 4) || !io_attr_range(io, 1, 1, 4))
		return false;
	if (x->kind == VK_NODE || x->fill != FILL_POSITIVE)
		return io_fail(io, "input 0 must be a positive leaf: a tie would place a maximum by the tie-break");
	if (nd == 3 && x->rank == 4 && !x->contig) /* as window_rule's max_pool3d */
		return io_fail(io, "an unbatched max_pool3d takes a contiguous input");
	FOR_BIND(io, b) for (unsigned d = x->rank - nd; d < x->rank; d++) if (x->dim[b][d] < k)
		return io_fail(io, "dim %u (%d) smaller than the kernel %lld (binding %u)", d, (int)x->dim[b][d],
			       (long long)k, b);
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	return true;
}

static bool choose_unpool(struct chooser *c, struct op_choice *ch, unsigned nd)
{
	const struct value *x = &c->g->v[ch->in[0]];
	if (x->rank != nd + 1 && x->rank != nd + 2)
		return false;
	if (x->kind == VK_NODE || x->fill != FILL_POSITIVE) {
		int id = pick_positive(c, req_like(x));
		if (id < 0)
			return false;
		ch->in[0] = (uint16_t)id;
		x = &c->g->v[id];
	}
	int64_t lmin = value_trailing_min(c->g, x, nd);
	ch->nattr = 2;
	ch->attr[0] = rng_range(c->rng, 1, lmin < 3 ? lmin : 3);
	ch->attr[1] = rng_chance(c->rng, 50) ? ch->attr[0] : rng_range(c->rng, 1, 3);
	return true;
}

#define WINDOW_FNS(tag, form, nd, idx) \
	static bool infer_##tag(struct infer_io *io) { return window_rule(io, form, nd, idx); } \
	static bool choose_##tag(struct chooser *c, struct op_choice *ch) { return choose_window(c, ch, form, nd); }
#define ADAPT_FNS(tag, nd, idx) \
	static bool infer_##tag(struct infer_io *io) { return adapt_rule(io, nd, idx); } \
	static bool choose_##tag(struct chooser *c, struct op_choice *ch) { return choose_adapt(c, ch, nd); }
WINDOW_FNS(max1, PF_MAX, 1, false)
WINDOW_FNS(max2, PF_MAX, 2, false)
WINDOW_FNS(max3, PF_MAX, 3, false)
WINDOW_FNS(maxi1, PF_MAX, 1, true)
WINDOW_FNS(maxi2, PF_MAX, 2, true)
WINDOW_FNS(maxi3, PF_MAX, 3, true)
WINDOW_FNS(avg1, PF_AVG, 1, false)
WINDOW_FNS(avg2, PF_AVG, 2, false)
WINDOW_FNS(avg3, PF_AVG, 3, false)
WINDOW_FNS(avgd2, PF_AVGDIV, 2, false)
WINDOW_FNS(avgd3, PF_AVGDIV, 3, false)
WINDOW_FNS(lp1, PF_LP, 1, false)
WINDOW_FNS(lp2, PF_LP, 2, false)
WINDOW_FNS(lp3, PF_LP, 3, false)
ADAPT_FNS(aavg1, 1, false)
ADAPT_FNS(aavg2, 2, false)
ADAPT_FNS(aavg3, 3, false)
ADAPT_FNS(amax1, 1, false)
ADAPT_FNS(amax2, 2, false)
ADAPT_FNS(amax3, 3, false)
ADAPT_FNS(amaxi1, 1, true)
ADAPT_FNS(amaxi2, 2, true)
ADAPT_FNS(amaxi3, 3, true)
static bool infer_unpool1(struct infer_io *io) { return unpool_rule(io, 1); }
static bool choose_unpool1(struct chooser *c, struct op_choice *ch) { return choose_unpool(c, ch, 1); }
static bool infer_unpool2(struct infer_io *io) { return unpool_rule(io, 2); }
static bool choose_unpool2(struct chooser *c, struct op_choice *ch) { return choose_unpool(c, ch, 2); }
static bool infer_unpool3(struct infer_io *io) { return unpool_rule(io, 3); }
static bool choose_unpool3(struct chooser *c, struct op_choice *ch) { return choose_unpool(c, ch, 3); }
static bool infer_frac2(struct infer_io *io) { return frac_rule(io, 2); }
static bool choose_frac2(struct chooser *c, struct op_choice *ch) { return choose_frac(c, ch, 2); }
static bool infer_frac3(struct infer_io *io) { return frac_rule(io, 3); }
static bool choose_frac3(struct chooser *c, struct op_choice *ch) { return choose_frac(c, ch, 3); }

#define DTM_POOL3 DTM_F32_F64 /* avg_pool3d: no float16/bfloat16 on CPU */
#define DTM_POOL3_GPU (DTM(DT_FLOAT16) | DTM(DT_BFLOAT16))
#define DTM_MAXPOOL_CPU(nd) ((nd) > 1 ? DTM_INTS : 0)
#define POOL(nm, tag, nd, dt, w, ties, attrs_, py_, ...) \
	{.name = nm, .family = FAM_POOL, .nin_min = 1, .nin_max = 1, .rank_min = nd + 1, .rank_max = nd + 2, \
	 .dtypes = dt, .layout = LAYOUT_KEEP, .tie = ties, .weight = w, .attrs = attrs_, .py = py_, \
	 .infer = infer_##tag, .choose = choose_##tag, __VA_ARGS__}
#define PY_F "torch.nn.functional."
#define A_MAX "kernel_size stride padding dilation ceil_mode?"
#define A_AVG "kernel_size stride padding ceil_mode? count_include_pad?"
#define A_LP "norm_type~ kernel_size stride ceil_mode?"
#define MAXP(nm, tag, nd, w, fn) \
	POOL(nm, tag, nd, DTM_FLOAT, w, 0, A_MAX, PY_F fn "(@0, #0, stride=#1, padding=#2, dilation=#3, ceil_mode=#4)", \
	     .dtypes_cpu = DTM_MAXPOOL_CPU(nd))
#define MAXPI(nm, tag, nd, w, fn) \
	POOL(nm, tag, nd, DTM_FLOAT, w, 2, A_MAX, \
	     PY_F fn "(@0, #0, stride=#1, padding=#2, dilation=#3, ceil_mode=#4, return_indices=True)", \
	     .dtypes_cpu = DTM_MAXPOOL_CPU(nd))
#define AVGP(nm, tag, nd, dt, w, fn, ...) \
	POOL(nm, tag, nd, dt, w, 0, A_AVG, PY_F fn "(@0, #0, stride=#1, padding=#2, ceil_mode=#3, count_include_pad=#4)", \
	     __VA_ARGS__)
#define AVGPD(nm, tag, nd, dt, fn, ...) \
	POOL(nm, tag, nd, dt, 1, 0, A_AVG " divisor_override", \
	     PY_F fn "(@0, #0, stride=#1, padding=#2, ceil_mode=#3, count_include_pad=#4, divisor_override=#5)", \
	     __VA_ARGS__)
#define LPP(nm, tag, nd, dt, fn) POOL(nm, tag, nd, dt, 1, 0, A_LP, PY_F fn "(@0, #0, #1, stride=#2, ceil_mode=#3)")
#define ADP(nm, tag, nd, w, fn) POOL(nm, tag, nd, DTM_FLOAT, w, 0, "output_size[@]", PY_F fn "(@0, #0)")
#define ADPI(nm, tag, nd, fn) \
	POOL(nm, tag, nd, DTM_FLOAT, 1, 2, "output_size[@]", PY_F fn "(@0, #0, return_indices=True)")
/* the indices of max_pool of input 0, so valid by construction */
#define UNPOOL(nd, tag, sizes) \
	POOL("max_unpool" #nd "d", tag, nd, DTM_F32_F64, 1, 0, "kernel_size stride", \
	     PY_F "max_unpool" #nd "d(*" PY_F "max_pool" #nd "d(@0, #0, #1, return_indices=True), #0, #1, " \
		  "output_size=@0.shape[" sizes "])")

const struct op_def ops_pool[] = {
	MAXP("max_pool1d", max1, 1, 2, "max_pool1d"),
	MAXP("max_pool2d", max2, 2, 3, "max_pool2d"),
	MAXP("max_pool3d", max3, 3, 2, "max_pool3d"),
	MAXPI("max_pool1d_with_indices", maxi1, 1, 1, "max_pool1d"),
	MAXPI("max_pool2d_with_indices", maxi2, 2, 1, "max_pool2d"),
	MAXPI("max_pool3d_with_indices", maxi3, 3, 1, "max_pool3d"),
	AVGP("avg_pool1d", avg1, 1, DTM_FLOAT, 2, "avg_pool1d"),
	AVGP("avg_pool2d", avg2, 2, DTM_FLOAT, 3, "avg_pool2d"),
	AVGP("avg_pool3d", avg3, 3, DTM_POOL3, 2, "avg_pool3d", .dtypes_gpu = DTM_POOL3_GPU),
	AVGPD("avg_pool2d_divisor", avgd2, 2, DTM_FLOAT, "avg_pool2d"),
	AVGPD("avg_pool3d_divisor", avgd3, 3, DTM_POOL3, "avg_pool3d", .dtypes_gpu = DTM_POOL3_GPU),
	LPP("lp_pool1d", lp1, 1, DTM_FLOAT, "lp_pool1d"),
	LPP("lp_pool2d", lp2, 2, DTM_FLOAT, "lp_pool2d"),
	LPP("lp_pool3d", lp3, 3, DTM_POOL3, "lp_pool3d"),
	ADP("adaptive_avg_pool1d", aavg1, 1, 2, "adaptive_avg_pool1d"),
	ADP("adaptive_avg_pool2d", aavg2, 2, 3, "adaptive_avg_pool2d"),
	ADP("adaptive_avg_pool3d", aavg3, 3, 1, "adaptive_avg_pool3d"),
	ADP("adaptive_max_pool1d", amax1, 1, 1, "adaptive_max_pool1d"),
	ADP("adaptive_max_pool2d", amax2, 2, 2, "adaptive_max_pool2d"),
	ADP("adaptive_max_pool3d", amax3, 3, 1, "adaptive_max_pool3d"),
	ADPI("adaptive_max_pool1d_indices", amaxi1, 1, "adaptive_max_pool1d"),
	ADPI("adaptive_max_pool2d_indices", amaxi2, 2, "adaptive_max_pool2d"),
	ADPI("adaptive_max_pool3d_indices", amaxi3, 3, "adaptive_max_pool3d"),
	UNPOOL(1, unpool1, "-1:"),
	UNPOOL(2, unpool2, "-2:"),
	UNPOOL(3, unpool3, "-3:"),
	/* float32/float64: in float16 the window starts would round */
	POOL("fractional_max_pool2d", frac2, 2, DTM_F32_F64, 1, 0, "kernel_size sample~ output_size[]",
	     PY_F "fractional_max_pool2d(@0, #0, output_size=#2, _random_samples=@0.new_full((@0.size(0), "
		  "@0.size(1), 2), #1))"),
	POOL("fractional_max_pool3d", frac3, 3, DTM_F32_F64, 1, 0, "kernel_size sample~ output_size[]",
	     PY_F "fractional_max_pool3d(@0, #0, output_size=#2, _random_samples=@0.new_full((@0.size(0), "
		  "@0.size(1), 3), #1))"),
};
FAMILY_COUNT(pool);
