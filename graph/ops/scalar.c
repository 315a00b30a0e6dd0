/* Binary ops with a Python number as one operand: `x + 1e-06`, `3.0 / x`,
 * `x ** 0.5`, `torch.clamp_min(x, -0.0)`, `torch.where(c, x, float('-inf'))`,
 * `x < float('nan')`, and integer numbers with integer tensors (`x // 3`).
 * A Python number takes part in type promotion only by its category: a
 * float tensor keeps its dtype, an integer or bool one becomes the default
 * float32 with a float number; an integer number leaves an integer tensor's
 * dtype (bool becomes int64). Float numbers are real attributes
 * (graph/real.h): tiny and huge magnitudes, -0.0, infinities and NaN, which
 * compilers fold into constants of their own. Or the number is a forward()
 * argument (a graph input of layout number, op_def.number): a new value at
 * each binding, which Dynamo specializes and guards on, or makes a SymInt or
 * SymFloat under dynamic shapes. */
#include "../opkit.h"
#include "../real.h"
#include "families.h"

#define INT_SCALAR_MAX 100

/* The graph input giving the number, or NULL where attribute 0 does. */
static const struct value *number_input(const struct infer_io *io)
{
	return io->nin > io->op->nin_max ? io->in[io->op->nin_max] : NULL;
}

/* A float number: attribute 0 (any real), or a float input (a Python float). */
static bool float_number(struct infer_io *io)
{
	const struct value *k = number_input(io);
	return !k || k->dtype == DT_FLOAT64 || io_fail(io, "the number must be a Python float");
}

/* An integer number in [lo, hi]: attribute 0, or an int input (a Python int;
 * a bool too where bools may be) whose draws lie there. */
static bool int_number(struct infer_io *io, int64_t lo, int64_t hi, bool bools)
{
	const struct value *k = number_input(io);
	if (!k)
		return io_in_range(io, "value", io->attr[0], lo, hi);
	if (k->dtype != DT_INT64 && !(bools && k->dtype == DT_BOOL))
		return io_fail(io, "the number must be a Python int%s", bools ? " or bool" : "");
	return io_in_range(io, "number's low bound", k->lo, lo, hi) && io_in_range(io, "number's high bound", k->hi, lo, hi);
}

static enum dtype with_float(const struct value *x)
{
	return dtype_is_float(x->dtype) ? (enum dtype)x->dtype : DT_FLOAT32;
}

/* x op float: elementwise, input 0's shape. */
static bool infer_float_scalar(struct infer_io *io)
{
	if (!float_number(io))
		return false;
	io->nout = 1;
	io_out_like(io, 0, io->in[0], with_float(io->in[0]));
	return true;
}

/* The same where eager casts the number to the result's dtype (clamp_min,
 * pow): it must fit (an input's draws fit every float dtype but for the
 * special fill's huge ones). */
static bool infer_float_scalar_fits(struct infer_io *io)
{
	const struct value *k = number_input(io);
	if (!infer_float_scalar(io))
		return false;
	if (k)
		return k->fill != FILL_SPECIAL || io->out[0].dtype == DT_FLOAT64 ||
		       io_fail(io, "a special fill's number overflows %s", dtype_info(io->out[0].dtype)->name);
	return io_real_fits(io, 0, (enum dtype)io->out[0].dtype);
}

/* x compared with a number: bool. */
static bool compared(struct infer_io *io)
{
	io->nout = 1;
	io_out_like(io, 0, io->in[0], DT_BOOL);
	return true;
}

static bool infer_compare_scalar(struct infer_io *io) { return float_number(io) && compared(io); }

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

/* Now and then the number is a forward() argument instead: an input of
 * layout number with the dtype of a Python float, int or bool. */
#define NUMBER_INPUT_PCT 20
static bool choose_number_input(struct chooser *c, struct op_choice *ch, enum dtype dt, int64_t lo, int64_t hi)
{
	struct tensor_req q = req_static(dt, 0, NULL);
	q.number = 1;
	q.lo = lo, q.hi = hi;
	int k = c->operand(c, &q);
	if (k < 0)
		return false;
	ch->in[ch->nin++] = (uint16_t)k;
	ch->nattr = 0;
	return true;
}

static bool choose_real(struct chooser *c, struct op_choice *ch)
{
	if (c->op->number && rng_chance(c->rng, NUMBER_INPUT_PCT))
		return choose_number_input(c, ch, DT_FLOAT64, 0, 0);
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
	if (!int_number(io, -INT_SCALAR_MAX, INT_SCALAR_MAX, false))
		return false;
	io->nout = 1;
	io_out_like(io, 0, io->in[0], io->in[0]->dtype == DT_BOOL ? DT_INT64 : (enum dtype)io->in[0]->dtype);
	return true;
}

static bool infer_int_compare(struct infer_io *io)
{
	return int_number(io, -INT_SCALAR_MAX, INT_SCALAR_MAX, true) && compared(io);
}

/* x // k and x % k of an integer x: k never 0 (CPU raises ZeroDivisionError,
 * CUDA returns garbage); a negative k only for a signed x above its dtype's
 * minimum, whose quotient by -1 traps (SIGFPE). */
static bool infer_int_divisor(struct infer_io *io)
{
	const struct value *x = io->in[0], *number = number_input(io);
	int64_t lo = number ? number->lo : io->attr[0], hi = number ? number->hi : io->attr[0];
	if (!infer_int_scalar(io))
		return false;
	if (lo <= 0 && hi >= 0)
		return io_fail(io, "integer divisor may be 0");
	if (lo < 0 && (dtype_info(x->dtype)->min == 0 || x->lo <= dtype_info(x->dtype)->min))
		return io_fail(io, "a negative divisor needs a signed dividend above the minimum, not from %lld",
			       (long long)x->lo);
	return true;
}

static bool choose_int_scalar(struct chooser *c, struct op_choice *ch)
{
	if (rng_chance(c->rng, NUMBER_INPUT_PCT))
		return choose_number_input(c, ch, DT_INT64, -4, 4);
	ch->nattr = 1;
	ch->attr[0] = rng_range(c->rng, -4, 4);
	return true;
}

static bool choose_int_divisor(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	bool neg = dtype_info(x->dtype)->min < 0 && x->lo > dtype_info(x->dtype)->min && rng_chance(c->rng, 30);
	if (rng_chance(c->rng, NUMBER_INPUT_PCT))
		return neg ? choose_number_input(c, ch, DT_INT64, -7, -1) : choose_number_input(c, ch, DT_INT64, 1, 7);
	ch->nattr = 1;
	ch->attr[0] = neg ? -rng_range(c->rng, 1, 7) : rng_range(c->rng, 1, 7);
	return true;
}

/* A comparison with an integer: a Python bool now and then where an input gives it. */
static bool choose_int_compare(struct chooser *c, struct op_choice *ch)
{
	if (rng_chance(c->rng, NUMBER_INPUT_PCT / 2))
		return choose_number_input(c, ch, DT_BOOL, 0, 1);
	return choose_int_scalar(c, ch);
}

/* Python-number operands keep input 0's layout, like any elementwise op. */
#define SCALAR(nm, dt, attrs_, spelling, tag, ch_, ...) \
	{.name = nm, .family = FAM_SCALAR, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK, .dtypes = dt, \
	 .layout = LAYOUT_KEEP, .weight = 2, .empty_ok = 1, .attrs = attrs_, .py = spelling, .infer = infer_##tag, \
	 .choose = ch_, __VA_ARGS__}
#define REAL(nm, dt, spelling, ...) \
	SCALAR(nm, dt, "value^", spelling, float_scalar, choose_real, .number = 1, __VA_ARGS__)
#define REAL_FITS(nm, spelling) SCALAR(nm, DTM_FLOAT, "value^", spelling, float_scalar_fits, choose_real, .number = 1)
#define REAL_COMPARE(nm, dt, spelling) SCALAR(nm, dt, "value^", spelling, compare_scalar, choose_real, .number = 1)
#define INT(nm, dt, spelling, ...) \
	SCALAR(nm, dt, "value", spelling, int_scalar, choose_int_scalar, .number = 1, __VA_ARGS__)
#define INT_DIVISOR(nm, spelling) \
	SCALAR(nm, DTM_INTS, "value", spelling, int_divisor, choose_int_divisor, .number = 1, .step = 1)
#define INT_COMPARE(nm, spelling) \
	SCALAR(nm, DTM_INTS | DTM(DT_BOOL), "value", spelling, int_compare, choose_int_compare, .number = 1)

/* A reflected power parenthesizes the number: `-2.0 ** x` is -(2.0 ** x). */
const struct op_def ops_scalar[] = {
	REAL("add_scalar", DTM_ALL, "@0 + #0", .neutral = NEUTRAL_ZERO),
	REAL("radd_scalar", DTM_ALL, "#0 + @0", .neutral = NEUTRAL_ZERO),
	REAL("sub_scalar", DTM_NUM, "@0 - #0", .neutral = NEUTRAL_ZERO),
	REAL("rsub_scalar", DTM_FLOAT, "#0 - @0"),
	REAL("mul_scalar", DTM_ALL, "@0 * #0", .neutral = NEUTRAL_ONE),
	REAL("rmul_scalar", DTM_ALL, "#0 * @0", .neutral = NEUTRAL_ONE),
	REAL("div_scalar", DTM_NUM, "@0 / #0", .neutral = NEUTRAL_ONE),
	REAL("rdiv_scalar", DTM_FLOAT, "#0 / @0"),
	REAL("true_divide_scalar", DTM_NUM, "torch.true_divide(@0, #0)", .neutral = NEUTRAL_ONE),
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
	SCALAR("times_0dim", DTM_ALL, "value^", "@0 * torch.tensor(#0, device=@0.device)", times_0dim, choose_real,
	       .neutral = NEUTRAL_ONE),
	INT("add_int_scalar", DTM_EVERY & ~DTM_FLOAT, "@0 + #0", .neutral = NEUTRAL_ZERO),
	INT("sub_int_scalar", DTM_INTS, "@0 - #0", .neutral = NEUTRAL_ZERO),
	INT("mul_int_scalar", DTM_EVERY & ~DTM_FLOAT, "@0 * #0", .neutral = NEUTRAL_ONE),
	INT("rand_scalar", DTM_INTS | DTM(DT_BOOL), "#0 & @0"),
	INT("ror_scalar", DTM_INTS | DTM(DT_BOOL), "#0 | @0"),
	INT("rxor_scalar", DTM_INTS | DTM(DT_BOOL), "#0 ^ @0"),
	INT_DIVISOR("floor_divide_int_scalar", "@0 // #0"),
	INT_DIVISOR("remainder_int_scalar", "@0 % #0"),
	INT_COMPARE("eq_int_scalar", "@0 == #0"),
	INT_COMPARE("lt_int_scalar", "@0 < #0"),
};
FAMILY_COUNT(scalar);
