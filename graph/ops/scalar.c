/* Binary ops with a Python number as one operand: `x + 1e-06`, `3.0 / x`,
 * `x ** 0.5`, `torch.clamp_min(x, -0.0)`, `torch.where(c, x, float('-inf'))`,
 * `x < float('nan')`, and integer numbers with integer tensors (`x // 3`).
 * A Python number takes part in type promotion only by its category: a
 * float tensor keeps its dtype, an integer or bool one becomes the default
 * float32 with a float number; an integer number leaves an integer tensor's
 * dtype (bool becomes int64). Float numbers are real attributes
 * (graph/real.h): tiny and huge magnitudes, -0.0, infinities and NaN, which
 * compilers fold into constants of their own. */
#include "../opkit.h"
#include "../real.h"
#include "families.h"

#define INT_SCALAR_MAX 100

static enum dtype with_float(const struct value *x)
{
	return dtype_is_float(x->dtype) ? (enum dtype)x->dtype : DT_FLOAT32;
}

/* x op float: elementwise, input 0's shape. */
static bool infer_float_scalar(struct infer_io *io)
{
	io->nout = 1;
	io_out_like(io, 0, io->in[0], with_float(io->in[0]));
	return true;
}

/* The same where eager casts the number to the result's dtype (clamp_min,
 * pow): it must fit. */
static bool infer_float_scalar_fits(struct infer_io *io)
{
	return infer_float_scalar(io) && io_real_fits(io, 0, (enum dtype)io->out[0].dtype);
}

/* x compared with a float: bool. */
static bool infer_compare_scalar(struct infer_io *io)
{
	io->nout = 1;
	io_out_like(io, 0, io->in[0], DT_BOOL);
	return true;
}

/* where(cond, x, float): in[0] = x, in[1] = cond (bool), broadcast. */
static bool infer_where_scalar(struct infer_io *io)
{
	if (io->in[1]->dtype != DT_BOOL)
		return io_fail(io, "condition must be bool");
	io->nout = 1;
	io_out_rank(io, 0, 0, with_float(io->in[0]));
	return io_broadcast(io, io->in[0], io->in[1], &io->out[0]) && io_real_fits(io, 0, (enum dtype)io->out[0].dtype);
}

/* x * torch.tensor(value): a 0-dim operand takes part in type promotion
 * only when its category is higher (a float scalar with an int x: float32). */
static bool infer_times_0dim(struct infer_io *io)
{
	enum dtype dts[2] = {(enum dtype)io->in[0]->dtype, DT_FLOAT32};
	int zero[2] = {io->in[0]->rank == 0, 1};
	io->nout = 1;
	io_out_like(io, 0, io->in[0], dtype_result(dts, zero, 2));
	return true;
}

static bool choose_real(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = real_draw(c->rng, RCM_ALL, 0);
	return true;
}

static bool choose_where_scalar(struct chooser *c, struct op_choice *ch)
{
	int cond = pick_broadcast_partner(c, &c->g->v[ch->in[0]], DT_BOOL);
	if (cond < 0)
		return false;
	ch->in[1] = (uint16_t)cond;
	ch->nin = 2;
	return choose_real(c, ch);
}

/* x op int: integers keep their dtype (bool becomes int64). */
static bool infer_int_scalar(struct infer_io *io)
{
	if (!io_in_range(io, "value", io->attr[0], -INT_SCALAR_MAX, INT_SCALAR_MAX))
		return false;
	io->nout = 1;
	io_out_like(io, 0, io->in[0], io->in[0]->dtype == DT_BOOL ? DT_INT64 : (enum dtype)io->in[0]->dtype);
	return true;
}

static bool infer_int_compare(struct infer_io *io)
{
	return io_in_range(io, "value", io->attr[0], -INT_SCALAR_MAX, INT_SCALAR_MAX) && infer_compare_scalar(io);
}

/* x // k and x % k of an integer x: k never 0 (CPU raises ZeroDivisionError,
 * CUDA returns garbage); a negative k only for a signed x above its dtype's
 * minimum, whose quotient by -1 traps (SIGFPE). */
static bool infer_int_divisor(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int64_t k = io->attr[0];
	if (!infer_int_scalar(io))
		return false;
	if (!k)
		return io_fail(io, "integer divisor 0");
	if (k < 0 && (dtype_info(x->dtype)->min == 0 || x->lo <= dtype_info(x->dtype)->min))
		return io_fail(io, "a negative divisor needs a signed dividend above the minimum, not from %lld",
			       (long long)x->lo);
	return true;
}

static bool choose_int_scalar(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = rng_range(c->rng, -4, 4);
	return true;
}

static bool choose_int_divisor(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	bool neg = dtype_info(x->dtype)->min < 0 && x->lo > dtype_info(x->dtype)->min && rng_chance(c->rng, 30);
	ch->nattr = 1;
	ch->attr[0] = neg ? -rng_range(c->rng, 1, 7) : rng_range(c->rng, 1, 7);
	return true;
}

/* Python-number operands keep input 0's layout, like any elementwise op. */
#define SCALAR(nm, dt, attrs_, spelling, tag, ch_, ...) \
	{.name = nm, .family = FAM_SCALAR, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK, .dtypes = dt, \
	 .layout = LAYOUT_KEEP, .weight = 2, .empty_ok = 1, .attrs = attrs_, .py = spelling, .infer = infer_##tag, \
	 .choose = ch_, __VA_ARGS__}
#define REAL(nm, dt, spelling, ...) SCALAR(nm, dt, "value^", spelling, float_scalar, choose_real, __VA_ARGS__)
#define REAL_FITS(nm, spelling) SCALAR(nm, DTM_FLOAT, "value^", spelling, float_scalar_fits, choose_real)
#define REAL_COMPARE(nm, dt, spelling) SCALAR(nm, dt, "value^", spelling, compare_scalar, choose_real)
#define INT(nm, dt, spelling, ...) SCALAR(nm, dt, "value", spelling, int_scalar, choose_int_scalar, __VA_ARGS__)
#define INT_DIVISOR(nm, spelling) \
	SCALAR(nm, DTM_INTS, "value", spelling, int_divisor, choose_int_divisor, .step = 1)
#define INT_COMPARE(nm, spelling) \
	SCALAR(nm, DTM_INTS | DTM(DT_BOOL), "value", spelling, int_compare, choose_int_scalar)

/* A reflected power parenthesizes the number: `-2.0 ** x` is -(2.0 ** x). */
const struct op_def ops_scalar[] = {
	REAL("add_scalar", DTM_ALL, "@0 + #0"),
	REAL("radd_scalar", DTM_ALL, "#0 + @0"),
	REAL("sub_scalar", DTM_NUM, "@0 - #0"),
	REAL("rsub_scalar", DTM_FLOAT, "#0 - @0"),
	REAL("mul_scalar", DTM_ALL, "@0 * #0"),
	REAL("rmul_scalar", DTM_ALL, "#0 * @0"),
	REAL("div_scalar", DTM_NUM, "@0 / #0"),
	REAL("rdiv_scalar", DTM_FLOAT, "#0 / @0"),
	REAL("true_divide_scalar", DTM_NUM, "torch.true_divide(@0, #0)"),
	REAL("floor_divide_scalar", DTM_FLOAT, "@0 // #0", .step = 1, .nograd = 1),
	REAL("rfloor_divide_scalar", DTM_FLOAT, "(#0) // @0", .step = 1, .nograd = 1),
	REAL("remainder_scalar", DTM_FLOAT, "torch.remainder(@0, #0)", .step = 1),
	REAL("rmod_scalar", DTM_FLOAT, "(#0) % @0", .step = 1),
	REAL_FITS("pow_py_scalar", "@0 ** #0"),
	REAL("rpow_scalar", DTM_FLOAT, "(#0) ** @0"),
	REAL_FITS("clamp_min_scalar", "torch.clamp_min(@0, #0)"),
	REAL_FITS("clamp_max_scalar", "torch.clamp_max(@0, #0)"),
	REAL_COMPARE("eq_scalar", DTM_ALL, "@0 == #0"),
	REAL_COMPARE("ne_scalar", DTM_ALL, "@0 != #0"),
	REAL_COMPARE("lt_scalar", DTM_NUM, "@0 < #0"),
	REAL_COMPARE("ge_scalar", DTM_NUM, "@0 >= #0"),
	{.name = "where_scalar", .family = FAM_SCALAR, .nin_min = 2, .nin_max = 2, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_ALL, .weight = 2, .empty_ok = 1, .attrs = "value^", .py = "torch.where(@1, @0, #0)",
	 .infer = infer_where_scalar, .choose = choose_where_scalar},
	SCALAR("times_0dim", DTM_ALL, "value^", "@0 * torch.tensor(#0, device=@0.device)", times_0dim, choose_real),
	INT("add_int_scalar", DTM_EVERY & ~DTM_FLOAT, "@0 + #0"),
	INT("sub_int_scalar", DTM_INTS, "@0 - #0"),
	INT("mul_int_scalar", DTM_EVERY & ~DTM_FLOAT, "@0 * #0"),
	INT("rand_scalar", DTM_INTS | DTM(DT_BOOL), "#0 & @0"),
	INT("ror_scalar", DTM_INTS | DTM(DT_BOOL), "#0 | @0"),
	INT("rxor_scalar", DTM_INTS | DTM(DT_BOOL), "#0 ^ @0"),
	INT_DIVISOR("floor_divide_int_scalar", "@0 // #0"),
	INT_DIVISOR("remainder_int_scalar", "@0 % #0"),
	INT_COMPARE("eq_int_scalar", "@0 == #0"),
	INT_COMPARE("lt_int_scalar", "@0 < #0"),
};
FAMILY_COUNT(scalar);
