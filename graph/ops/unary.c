/* Elementwise unary ops: one input, same shape out. */
#include "../opkit.h"
#include "../real.h"
#include "families.h"

static bool infer_same(struct infer_io *io)
{
	io->nout = 1;
	io_out_like(io, 0, io->in[0], (enum dtype)io->in[0]->dtype);
	return true;
}

static bool infer_bool(struct infer_io *io)
{
	io->nout = 1;
	io_out_like(io, 0, io->in[0], DT_BOOL);
	return true;
}

/* frexp: mantissa in the input's dtype, exponent as int32. */
static bool infer_frexp(struct infer_io *io)
{
	io->nout = 2;
	io_out_like(io, 0, io->in[0], (enum dtype)io->in[0]->dtype);
	io_out_like(io, 1, io->in[0], DT_INT32);
	return true;
}

/* clamp(min, max): real bounds that fit x's dtype, min <= max unless one is
 * NaN (which eager propagates). */
static bool infer_clamp(struct infer_io *io)
{
	double lo = real_value(io->attr[0]), hi = real_value(io->attr[1]);
	if (lo > hi)
		return io_fail(io, "min %g above max %g", lo, hi);
	return io_real_fits(io, 0, io->in[0]->dtype) && io_real_fits(io, 1, io->in[0]->dtype) && infer_same(io);
}

/* pow(x, exponent): the exponent fits x's dtype. */
static bool infer_pow_scalar(struct infer_io *io) { return io_real_fits(io, 0, io->in[0]->dtype) && infer_same(io); }

/* Two draws of every class, in order. */
static bool choose_clamp(struct chooser *c, struct op_choice *ch)
{
	int64_t a = real_draw(c->rng, RCM_ALL, 0), b = real_draw(c->rng, RCM_ALL, 0);
	bool swap = real_value(a) > real_value(b);
	ch->nattr = 2;
	ch->attr[0] = swap ? b : a;
	ch->attr[1] = swap ? a : b;
	return true;
}

/* pow and nan_to_num take any real numbers: tiny, huge, -0.0, inf, NaN. */
static bool choose_reals(struct chooser *c, struct op_choice *ch)
{
	struct attr_spec s;
	op_attr_spec(c->op, &s);
	ch->nattr = (uint8_t)s.nscalar;
	for (unsigned i = 0; i < s.nscalar; i++)
		ch->attr[i] = real_draw(c->rng, RCM_ALL, 0);
	return true;
}

/* real, abs, angle: a complex input's parts' type, a real input's own. */
static bool infer_part(struct infer_io *io)
{
	io->nout = 1;
	io_out_like(io, 0, io->in[0], dtype_part_type(io->in[0]->dtype));
	return true;
}

#define U(nm, spelling, dt, inf, ...) \
	{.name = nm, .family = FAM_UNARY, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK, .dtypes = dt, \
	 .layout = LAYOUT_KEEP, .weight = 3, .empty_ok = 1, .py = spelling, .infer = inf, .choose = choose_none, __VA_ARGS__}
#define UF(nm, ...) U(#nm, "torch." #nm "(@0)", DTM_FLOAT, infer_same, __VA_ARGS__)

const struct op_def ops_unary[] = {
	U("abs", "torch.abs(@0)", DTM_NUM | DTM_SMALL | DTM_COMPLEX, infer_part),
	U("neg", "torch.neg(@0)", DTM_NUM | DTM_SMALL | DTM_COMPLEX, infer_same),
	U("sign", "torch.sign(@0)", DTM_NUM | DTM_SMALL, infer_same, .step = 1),
	U("square", "torch.square(@0)", DTM_FLOAT | DTM_COMPLEX, infer_same),
	U("exp", "torch.exp(@0)", DTM_FLOAT | DTM_COMPLEX, infer_same), UF(exp2), UF(expm1), UF(log), UF(log2), UF(log1p), UF(sqrt), UF(rsqrt),
	U("sin", "torch.sin(@0)", DTM_FLOAT | DTM_COMPLEX, infer_same),
	U("cos", "torch.cos(@0)", DTM_FLOAT | DTM_COMPLEX, infer_same), UF(tan), UF(asin), UF(atan), UF(sinh), UF(cosh), UF(erf), UF(erfc),
	UF(reciprocal), UF(floor, .step = 1), UF(ceil, .step = 1), UF(round, .step = 1), UF(trunc, .step = 1),
	UF(frac, .step = 1), UF(lgamma), UF(digamma),
	UF(acos), UF(acosh), UF(asinh), UF(atanh), UF(log10), UF(deg2rad), UF(rad2deg),
	/* CUDA has no half kernels for angle */
	U("angle", "torch.angle(@0)", DTM_F32_F64 | DTM_COMPLEX, infer_part, .step = 1),
	U("sgn", "torch.sgn(@0)", DTM_NUM | DTM_SMALL | DTM_COMPLEX, infer_same, .step = 1),
	U("positive", "torch.positive(@0)", DTM_NUM | DTM_SMALL, infer_same, .aliases = 1), /* returns x itself */
	U("isneginf", "torch.isneginf(@0)", DTM_FLOAT | DTM_INTS, infer_bool),
	U("isposinf", "torch.isposinf(@0)", DTM_FLOAT | DTM_INTS, infer_bool),
	U("isreal", "torch.isreal(@0)", DTM_EVERY, infer_bool),
	/* the complex views and conjugations: a real tensor comes back itself; real
	 * of a complex one is a strided view of its real parts */
	U("real", "torch.real(@0)", DTM_EVERY | DTM_COMPLEX, infer_part, .aliases = 1),
	U("conj", "torch.conj(@0)", DTM_EVERY | DTM_COMPLEX, infer_same, .aliases = 1),
	U("resolve_conj", "torch.resolve_conj(@0)", DTM_EVERY | DTM_COMPLEX, infer_same, .aliases = 1),
	U("resolve_neg", "torch.resolve_neg(@0)", DTM_EVERY, infer_same, .aliases = 1),
	U("conj_physical", "torch.conj_physical(@0)", DTM_EVERY | DTM_COMPLEX, infer_same, .aliases = 1),
	U("clone", "torch.clone(@0)", DTM_EVERY | DTM_COMPLEX, infer_same),
	U("isnan", "torch.isnan(@0)", DTM_FLOAT, infer_bool),
	U("isinf", "torch.isinf(@0)", DTM_FLOAT, infer_bool),
	U("isfinite", "torch.isfinite(@0)", DTM_FLOAT, infer_bool),
	U("signbit", "torch.signbit(@0)", DTM_FLOAT | DTM_INTS, infer_bool),
	U("logical_not", "torch.logical_not(@0)", DTM_EVERY, infer_bool),
	U("bitwise_not", "torch.bitwise_not(@0)", DTM_INTS | DTM(DT_BOOL), infer_same),
	{.name = "frexp", .family = FAM_UNARY, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .weight = 3, .tuple = 1, .step = 1, .py = "torch.frexp(@0)", .infer = infer_frexp,
	 .choose = choose_none},
	{.name = "clamp", .family = FAM_UNARY, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .weight = 3, .attrs = "min^ max^", .py = "torch.clamp(@0, min=#0, max=#1)",
	 .infer = infer_clamp, .choose = choose_clamp},
	{.name = "pow_scalar", .family = FAM_UNARY, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .weight = 3, .attrs = "exponent^", .py = "torch.pow(@0, #0)",
	 .infer = infer_pow_scalar, .choose = choose_reals},
	{.name = "nan_to_num", .family = FAM_UNARY, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .weight = 2, .attrs = "nan^ posinf^ neginf^",
	 .py = "torch.nan_to_num(@0, nan=#0, posinf=#1, neginf=#2)", .infer = infer_same,
	 .choose = choose_reals},
};
FAMILY_COUNT(unary);
