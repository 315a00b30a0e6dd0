/* torch.special: elementwise functions of one tensor, of two (broadcast,
 * torch.result_type), and of one with a parameter (polygamma's order,
 * multigammaln's dimension, logit's eps, round's decimals, the orthogonal
 * polynomials' degree).
 *
 * Dtypes (torch 2.15 CPU, each function tried on every dtype): integer and
 * bool inputs promote to float32, float ones keep their dtype. Every float
 * dtype for erfinv, i0, i0e, i1, i1e, ndtr, entr, sinc, logit, expit,
 * log1p, polygamma, xlogy, xlog1py; float32 and float64 only (no half
 * kernels) for ndtri, log_ndtr, erfcx, the Bessel and Airy functions, the
 * polynomials, zeta
 * and, on CUDA, gammainc(c) (a float16 pair raises, float16 with float32
 * runs in float32: torch 2.11 CUDA's igamma has no half kernels). multigammaln and round(decimals=) take floats only.
 * Outside a function's domain the result is NaN, never an error, except
 * multigammaln's (below).
 *
 * Autograd: no derivative for zeta's and gammainc(c)'s first operand;
 * scaled_modified_bessel_k0/k1, spherical_bessel_j0, airy_ai and the
 * polynomials return
 * results that do not require grad, so a backward through them has nothing
 * to differentiate: `nograd`. */
#include "../opkit.h"
#include "families.h"

/* One input: float32 for integer and bool inputs, else its dtype. */
static bool infer_promote(struct infer_io *io)
{
	const struct value *x = io->in[0];
	io->nout = 1;
	io_out_like(io, 0, x, dtype_is_float(x->dtype) ? (enum dtype)x->dtype : DT_FLOAT32);
	return true;
}

/* Two inputs that broadcast; torch.result_type, float32 when not a float.
 * `floats`: both operands floating (zeta, gammainc: no integer kernels). */
static bool pair_rule(struct infer_io *io, bool floats)
{
	for (unsigned i = 0; floats && i < 2; i++)
		if (!dtype_is_float(io->in[i]->dtype))
			return io_fail(io, "operand %u must be floating point", i);
	enum dtype dt = io_result_dtype(io);
	io->nout = 1;
	io_out_rank(io, 0, 0, dtype_is_float(dt) ? dt : DT_FLOAT32);
	return io_broadcast(io, io->in[0], io->in[1], &io->out[0]);
}
static bool infer_pair(struct infer_io *io) { return pair_rule(io, false); }

/* zeta, and gammainc(c) on CUDA, compute in float32 or float64 only: a
 * float16 or bfloat16 pair raises. */
static bool infer_wide_float_pair(struct infer_io *io)
{
	if (!pair_rule(io, true))
		return false;
	if (io->out[0].dtype != DT_FLOAT32 && io->out[0].dtype != DT_FLOAT64)
		return io_fail(io, "no %s kernel (float32 or float64 only)", dtype_info(io->out[0].dtype)->name);
	return true;
}

/* A partner that broadcasts: mostly input 0's dtype, sometimes another of mask. */
static bool choose_partner(struct chooser *c, struct op_choice *ch, unsigned mask)
{
	const struct value *x = &c->g->v[ch->in[0]];
	enum dtype dt = rng_chance(c->rng, 80) ? (enum dtype)x->dtype : pick_dtype(c, mask);
	int p = pick_broadcast_partner(c, x, dt);
	ch->in[1] = (uint16_t)p;
	ch->nin = 2;
	return p >= 0;
}
static bool choose_any_partner(struct chooser *c, struct op_choice *ch) { return choose_partner(c, ch, DTM_ALL); }
static bool choose_wide_partner(struct chooser *c, struct op_choice *ch) { return choose_partner(c, ch, DTM_F32_F64); }

/* ---- one input and one parameter ---- */

#define POLYGAMMA_MAX 3 /* higher orders only overflow sooner */

static bool infer_polygamma(struct infer_io *io)
{
	return io_attr_range(io, 0, 0, POLYGAMMA_MAX) && infer_promote(io);
}

/* multigammaln(x, p) raises unless every element exceeds (p - 1) / 2 (NaN
 * fails too), so it reads nan_to_num(x).abs() + shift, shift above (p - 1) / 2:
 * a multiple of 1/2, exact in every float dtype, so the sum stays above it
 * after rounding. */
#define MULTIGAMMALN_P_MAX 4

static bool infer_multigammaln(struct infer_io *io)
{
	if (!io_attr_range(io, 0, 1, MULTIGAMMALN_P_MAX) || !io_attr_range(io, 1, 500 * io->attr[0], 10000))
		return false;
	if (io->attr[1] % 500)
		return io_fail(io, "shift %lld/1000 is not a multiple of 1/2", (long long)io->attr[1]);
	return infer_promote(io);
}

/* logit's eps clamps the input to [eps, 1 - eps]. */
static bool infer_logit_eps(struct infer_io *io) { return io_attr_range(io, 0, 0, 499) && infer_promote(io); }

/* round(decimals=d) scales by 10^d: a few digits, so float16 does not overflow. */
static bool infer_round_decimals(struct infer_io *io) { return io_attr_range(io, 0, -3, 3) && infer_promote(io); }

/* The orthogonal polynomials of degree n (a Python int): torch switches
 * from closed forms to recurrences past small degrees, and these reach both. */
#define POLYNOMIAL_DEGREE_MAX 12

static bool infer_polynomial(struct infer_io *io)
{
	return io_attr_range(io, 0, 0, POLYNOMIAL_DEGREE_MAX) && infer_promote(io);
}

static bool choose_polynomial(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = rng_range(c->rng, 0, POLYNOMIAL_DEGREE_MAX);
	return true;
}

static bool choose_polygamma(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = rng_range(c->rng, 0, POLYGAMMA_MAX);
	return true;
}

static bool choose_multigammaln(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 2;
	ch->attr[0] = rng_range(c->rng, 1, MULTIGAMMALN_P_MAX);
	ch->attr[1] = 500 * (ch->attr[0] + rng_range(c->rng, 0, 2));
	return true;
}

static bool choose_logit_eps(struct chooser *c, struct op_choice *ch)
{
	static const int64_t eps[] = {1, 10, 100, 250, 0};
	ch->nattr = 1;
	ch->attr[0] = pick_of(c, eps, NELEM(eps));
	return true;
}

static bool choose_round_decimals(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = rng_range(c->rng, -2, 3);
	return true;
}

/* ---- the table ---- */

#define DTM_F32_F64_INT (DTM_F32_F64 | DTM_INT | DTM(DT_BOOL)) /* no half kernels */
#define SPECIAL(nm, dt, nograd_, w, nin, attrs_, spelling, inf, ch_, ...) \
	{.name = nm, .family = FAM_SPECIAL, .nin_min = nin, .nin_max = nin, .rank_max = G_MAX_RANK, .dtypes = dt, \
	 .nograd = nograd_, .weight = w, .attrs = attrs_, .py = spelling, .infer = inf, .choose = ch_, __VA_ARGS__}
#define S1(nm, dt) SPECIAL(#nm, dt, 0, 1, 1, NULL, "torch.special." #nm "(@0)", infer_promote, choose_none)
#define S1_NOGRAD(nm, dt) \
	SPECIAL(#nm, dt, 1, 1, 1, NULL, "torch.special." #nm "(@0)", infer_promote, choose_none)
#define POLYNOMIAL(nm) \
	SPECIAL(#nm, DTM_F32_F64_INT, 1, 1, 1, "n", "torch.special." #nm "(@0, #0)", infer_polynomial, choose_polynomial)
#define S2(nm, dt, nograd_, inf, ch_) \
	SPECIAL(#nm, dt, nograd_, 2, 2, NULL, "torch.special." #nm "(@0, @1)", inf, ch_)

const struct op_def ops_special[] = {
	S1(ndtri, DTM_F32_F64_INT),
	S1(erfinv, DTM_ALL),
	S1(i0, DTM_ALL),
	S1(i0e, DTM_ALL),
	S1(i1, DTM_ALL),
	S1(i1e, DTM_ALL),
	S1(ndtr, DTM_ALL),
	S1(log_ndtr, DTM_F32_F64_INT),
	S1(entr, DTM_ALL),
	S1(erfcx, DTM_F32_F64_INT),
	S1(sinc, DTM_ALL),
	S1(logit, DTM_ALL),
	S1(expit, DTM_ALL),
	S1(bessel_j0, DTM_F32_F64_INT),
	S1(bessel_j1, DTM_F32_F64_INT),
	S1(bessel_y0, DTM_F32_F64_INT),
	S1(bessel_y1, DTM_F32_F64_INT),
	S1(modified_bessel_i0, DTM_F32_F64_INT),
	S1(modified_bessel_i1, DTM_F32_F64_INT),
	S1(modified_bessel_k0, DTM_F32_F64_INT),
	S1(modified_bessel_k1, DTM_F32_F64_INT),
	S1_NOGRAD(scaled_modified_bessel_k0, DTM_F32_F64_INT),
	S1_NOGRAD(scaled_modified_bessel_k1, DTM_F32_F64_INT),
	S1_NOGRAD(spherical_bessel_j0, DTM_F32_F64_INT),
	S1_NOGRAD(airy_ai, DTM_F32_F64_INT),
	/* torch.log1p under its torch.special name: Dynamo maps the alias */
	SPECIAL("special_log1p", DTM_ALL, 0, 1, 1, NULL, "torch.special.log1p(@0)", infer_promote, choose_none),
	S2(xlogy, DTM_ALL, 0, infer_pair, choose_any_partner),
	S2(xlog1py, DTM_ALL, 0, infer_pair, choose_any_partner),
	S2(zeta, DTM_F32_F64, 1, infer_wide_float_pair, choose_wide_partner),
	S2(gammainc, DTM_F32_F64, 1, infer_wide_float_pair, choose_wide_partner),
	S2(gammaincc, DTM_F32_F64, 1, infer_wide_float_pair, choose_wide_partner),
	SPECIAL("polygamma", DTM_ALL, 0, 2, 1, "n", "torch.special.polygamma(#0, @0)", infer_polygamma,
		choose_polygamma),
	SPECIAL("multigammaln", DTM_FLOAT, 0, 1, 1, "p shift~",
		"torch.special.multigammaln(torch.nan_to_num(@0).abs() + #1, #0)", infer_multigammaln,
		choose_multigammaln),
	SPECIAL("logit_eps", DTM_ALL, 0, 1, 1, "eps~", "torch.special.logit(@0, eps=#0)", infer_logit_eps,
		choose_logit_eps),
	POLYNOMIAL(chebyshev_polynomial_t),
	POLYNOMIAL(chebyshev_polynomial_u),
	POLYNOMIAL(chebyshev_polynomial_v),
	POLYNOMIAL(chebyshev_polynomial_w),
	POLYNOMIAL(shifted_chebyshev_polynomial_t),
	POLYNOMIAL(shifted_chebyshev_polynomial_u),
	POLYNOMIAL(shifted_chebyshev_polynomial_v),
	POLYNOMIAL(shifted_chebyshev_polynomial_w),
	POLYNOMIAL(hermite_polynomial_h),
	POLYNOMIAL(hermite_polynomial_he),
	POLYNOMIAL(laguerre_polynomial_l),
	POLYNOMIAL(legendre_polynomial_p),
	SPECIAL("round_decimals", DTM_FLOAT, 0, 1, 1, "decimals", "torch.special.round(@0, decimals=#0)",
		infer_round_decimals, choose_round_decimals, .step = 1),
};
FAMILY_COUNT(special);
