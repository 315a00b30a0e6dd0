/* Padding: F.pad in its four modes, the nn padding modules and
 * torch.constant_pad_nd. Padding a dynamic dim is a known Inductor bug site
 * (constant_pad_nd + relu failed in autotuning with dynamic shapes), so the
 * chooser pads dynamic dims whenever it can.
 *
 * Widths go last dim first, in (left, right) pairs. torch's rules (2.6):
 * constant pads any k <= rank trailing dims and a negative width crops;
 * reflect/replicate/circular pad k = 1..3 dims of a (k+1)-D or (k+2)-D input,
 * reflect needs each width < the dim's size, circular <= it. We keep widths of
 * the non-constant modes >= 0. */
#include "../opkit.h"
#include "families.h"

enum pad_mode { PM_CONSTANT, PM_REFLECT, PM_REPLICATE, PM_CIRCULAR };

#define PAD_MAX 1024 /* a wider pad would exceed G_MAX_DIM anyway */

/* Constant fill value (thousandths): integral for integer dtypes, 0 or 1 for bool. */
static bool value_ok(struct infer_io *io, int64_t v)
{
	enum dtype dt = (enum dtype)io->in[0]->dtype;
	if (v < -100000 || v > 100000)
		return io_fail(io, "pad value %lld/1000 not in [-100, 100]", (long long)v);
	if (dt == DT_BOOL && v != 0 && v != 1000)
		return io_fail(io, "pad value %lld/1000 for a bool tensor must be 0 or 1", (long long)v);
	if (!dtype_is_float(dt) && v % 1000)
		return io_fail(io, "pad value %lld/1000 for an integer tensor must be integral", (long long)v);
	return true;
}

/* The width list starts at attribute `at` (its count); want = required count, 0 for any. */
static bool pad_rule(struct infer_io *io, enum pad_mode mode, unsigned at, unsigned want)
{
	static const char *const names[] = {"constant", "reflect", "replicate", "circular"};
	const struct value *x = io->in[0];
	if (io->nattr <= at || io->nattr != at + 1 + io->attr[at])
		return io_fail(io, "pad list malformed");
	unsigned n = (unsigned)io->attr[at], k = n / 2;
	const int64_t *w = io->attr + at + 1;
	if (n < 2 || n % 2 || (want && n != want))
		return io_fail(io, "%u pad widths: need %s", n, want == 2 ? "2" : want == 4 ? "4" : want == 6 ? "6" : "an even count >= 2");
	if (k > x->rank)
		return io_fail(io, "%u pad widths for a %u-D input", n, x->rank);
	if (mode != PM_CONSTANT && (k > 3 || x->rank < k + 1 || x->rank > k + 2))
		return io_fail(io, "%s padding of %u dims needs a %u-D or %u-D input, got %u-D", names[mode], k, k + 1,
			       k + 2, x->rank);
	if (mode == PM_CONSTANT && at == 1 && !value_ok(io, io->attr[0]))
		return false;
	for (unsigned i = 0; i < n; i++)
		if (w[i] < (mode == PM_CONSTANT ? -PAD_MAX : 0) || w[i] > PAD_MAX)
			return io_fail(io, "pad width %lld out of range", (long long)w[i]);
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	for (unsigned i = 0; i < k; i++) {
		unsigned d = x->rank - 1 - i;
		int64_t l = w[2 * i], r = w[2 * i + 1];
		FOR_BIND(io, b) {
			int64_t s = x->dim[b][d], o = s + l + r;
			if (mode == PM_REFLECT && (l >= s || r >= s))
				return io_fail(io, "reflect pad (%lld, %lld) of dim %u must be below its size %lld (binding %u)",
					       (long long)l, (long long)r, d, (long long)s, b);
			if (mode == PM_CIRCULAR && (l > s || r > s))
				return io_fail(io, "circular pad (%lld, %lld) of dim %u exceeds its size %lld (binding %u)",
					       (long long)l, (long long)r, d, (long long)s, b);
			/* torch crops a negative width by narrowing, left first: each
			 * narrow needs a non-negative length. */
			if ((l < 0 && s + l < 0) || (r < 0 && s + (l < 0 ? l : 0) + r < 0))
				return io_fail(io, "crop (%lld, %lld) of dim %u exceeds its size %lld (binding %u)",
					       (long long)l, (long long)r, d, (long long)s, b);
			if (o < 1 || o > G_MAX_DIM)
				return io_fail(io, "padded dim %u would be %lld (binding %u)", d, (long long)o, b);
			io->out[0].dim[b][d] = (int32_t)o;
		}
	}
	/* Integer values keep their range, widened by the fill value. */
	io->out[0].lo = x->lo;
	io->out[0].hi = x->hi;
	if (mode == PM_CONSTANT && !dtype_is_float(x->dtype)) {
		int64_t v = at == 1 ? io->attr[0] / 1000 : 0;
		io->out[0].lo = v < x->lo ? v : x->lo;
		io->out[0].hi = v > x->hi ? v : x->hi;
	}
	return true;
}

static int64_t pick_value(struct chooser *c, enum dtype dt)
{
	static const int64_t fl[] = {0, 0, 1000, -1000, 500, 2500, -3000}, in[] = {0, 0, 1000, -2000, 3000};
	if (dt == DT_BOOL)
		return rng_chance(c->rng, 50) ? 1000 : 0;
	return dtype_is_float(dt) ? pick_of(c, fl, NELEM(fl)) : pick_of(c, in, NELEM(in));
}

static int64_t pick_width(struct chooser *c, int64_t lim, bool dyn)
{
	if (lim <= 0)
		return 0;
	if (rng_chance(c->rng, 20)) /* the edge of what the mode allows */
		return lim;
	int64_t lo = dyn && rng_chance(c->rng, 75) ? 1 : 0;
	return rng_range(c->rng, lo, lim < 3 ? lim : 3);
}

static bool choose_pad(struct chooser *c, struct op_choice *ch, enum pad_mode mode, unsigned at, unsigned want)
{
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned r = x->rank, k, kmax = (G_MAX_ATTR - 1 - at) / 2;
	int last_dyn = -1;
	for (unsigned d = 0; d < r; d++)
		if (x->dyn & (1u << d))
			last_dyn = (int)d;
	if (want) {
		k = want / 2;
	} else if (mode == PM_CONSTANT) {
		if (kmax > r)
			kmax = r;
		unsigned kmin = last_dyn >= 0 && rng_chance(c->rng, 80) ? r - (unsigned)last_dyn : 1;
		k = (unsigned)rng_range(c->rng, kmin, kmax);
	} else {
		/* rank = k+1 or k+2; rank 2 and 5 allow one k only. */
		k = r - 1 - (r > 2 && (r == 5 || rng_chance(c->rng, 50)));
	}
	if (k < 1 || k > r || k > kmax || (mode != PM_CONSTANT && (k > 3 || r > k + 2 || r < k + 1)))
		return false;
	ch->nattr = (uint8_t)(at + 1 + 2 * k);
	if (at)
		ch->attr[0] = pick_value(c, (enum dtype)x->dtype);
	ch->attr[at] = 2 * k;
	for (unsigned i = 0; i < k; i++) {
		unsigned d = r - 1 - i;
		bool dyn = x->dyn & (1u << d);
		int32_t mn = value_dim_min(c->g, x, d);
		int64_t lim = mode == PM_REFLECT ? mn - 1 : mode == PM_CIRCULAR ? mn : 3;
		int64_t *lr = &ch->attr[at + 1 + 2 * i];
		lr[0] = pick_width(c, lim, dyn);
		lr[1] = pick_width(c, lim, dyn);
		/* Constant mode crops sometimes: at least one element stays at every binding. */
		if (mode == PM_CONSTANT && rng_chance(c->rng, 15))
			lr[0] = -rng_range(c->rng, 0, mn - 1);
	}
	return true;
}

/* One infer/choose pair per op: the op entry carries no parameters. */
#define PAD_FNS(tag, mode, at, want) \
	static bool infer_##tag(struct infer_io *io) { return pad_rule(io, mode, at, want); } \
	static bool choose_##tag(struct chooser *c, struct op_choice *ch) { return choose_pad(c, ch, mode, at, want); }
PAD_FNS(constant, PM_CONSTANT, 1, 0)
PAD_FNS(reflect, PM_REFLECT, 0, 0)
PAD_FNS(replicate, PM_REPLICATE, 0, 0)
PAD_FNS(circular, PM_CIRCULAR, 0, 0)
PAD_FNS(reflect1, PM_REFLECT, 0, 2)
PAD_FNS(reflect2, PM_REFLECT, 0, 4)
PAD_FNS(reflect3, PM_REFLECT, 0, 6)
PAD_FNS(replicate1, PM_REPLICATE, 0, 2)
PAD_FNS(replicate2, PM_REPLICATE, 0, 4)
PAD_FNS(replicate3, PM_REPLICATE, 0, 6)
PAD_FNS(circular1, PM_CIRCULAR, 0, 2)
PAD_FNS(circular2, PM_CIRCULAR, 0, 4)
PAD_FNS(circular3, PM_CIRCULAR, 0, 6)
PAD_FNS(constant1, PM_CONSTANT, 1, 2)
PAD_FNS(constant2, PM_CONSTANT, 1, 4)
PAD_FNS(constant3, PM_CONSTANT, 1, 6)
PAD_FNS(zero2, PM_CONSTANT, 0, 4)

/* reflect/replicate kernels have no bool variant. */
#define DTM_PAD_NUM DTM_NUM
#define PAD(nm, tag, rmin, rmax, dt, attrs_, spelling, ctor_) \
	{.name = nm, .family = FAM_PAD, .nin_min = 1, .nin_max = 1, .rank_min = rmin, .rank_max = rmax, \
	 .dtypes = dt, .layout = LAYOUT_FRESH, .weight = 3, .attrs = attrs_, .py = spelling, .ctor = ctor_, \
	 .infer = infer_##tag, .choose = choose_##tag}
#define FPAD(nm, tag, mode, dt) \
	PAD(nm, tag, 2, 5, dt, "pad[]", "torch.nn.functional.pad(@0, #0, mode='" mode "')", NULL)
#define MPAD(nm, tag, rmin, cls, dt) PAD(nm, tag, rmin, rmin + 1, dt, "pad[]", NULL, "torch.nn." cls "(#0)")
#define CPAD(nm, tag, rmin, cls) \
	PAD(nm, tag, rmin, G_MAX_RANK, DTM_ALL, "value~ pad[]", NULL, "torch.nn." cls "(#1, #0)")

const struct op_def ops_pad[] = {
	PAD("pad_constant", constant, 1, G_MAX_RANK, DTM_ALL, "value~ pad[]",
	    "torch.nn.functional.pad(@0, #1, mode='constant', value=#0)", NULL),
	FPAD("pad_reflect", reflect, "reflect", DTM_PAD_NUM),
	FPAD("pad_replicate", replicate, "replicate", DTM_PAD_NUM),
	FPAD("pad_circular", circular, "circular", DTM_ALL),
	MPAD("reflection_pad1d", reflect1, 2, "ReflectionPad1d", DTM_PAD_NUM),
	MPAD("reflection_pad2d", reflect2, 3, "ReflectionPad2d", DTM_PAD_NUM),
	MPAD("reflection_pad3d", reflect3, 4, "ReflectionPad3d", DTM_PAD_NUM),
	MPAD("replication_pad1d", replicate1, 2, "ReplicationPad1d", DTM_PAD_NUM),
	MPAD("replication_pad2d", replicate2, 3, "ReplicationPad2d", DTM_PAD_NUM),
	MPAD("replication_pad3d", replicate3, 4, "ReplicationPad3d", DTM_PAD_NUM),
	MPAD("circular_pad1d", circular1, 2, "CircularPad1d", DTM_ALL),
	MPAD("circular_pad2d", circular2, 3, "CircularPad2d", DTM_ALL),
	MPAD("circular_pad3d", circular3, 4, "CircularPad3d", DTM_ALL),
	CPAD("constant_pad1d", constant1, 1, "ConstantPad1d"),
	CPAD("constant_pad2d", constant2, 2, "ConstantPad2d"),
	CPAD("constant_pad3d", constant3, 3, "ConstantPad3d"),
	PAD("zero_pad2d", zero2, 2, G_MAX_RANK, DTM_ALL, "pad[]", NULL, "torch.nn.ZeroPad2d(#0)"),
	PAD("constant_pad_nd", constant, 1, G_MAX_RANK, DTM_ALL, "value~ pad[]", "torch.constant_pad_nd(@0, #1, #0)",
	    NULL),
};
FAMILY_COUNT(pad);
