/* Binary ops with broadcasting, comparisons, logical/bitwise ops, where,
 * the three-operand elementwise ops (lerp, addcmul, addcdiv), and division
 * that rounds (div's rounding_mode, floor_divide) with integer divisors
 * that are never zero; complex tensors built from two real ones (read
 * through view_as_real, abs or imag) and the cross product. */
#include "../opkit.h"
#include "families.h"

/* out dtype: torch.result_type of the inputs. */
static bool infer_arith(struct infer_io *io)
{
	io->nout = 1;
	io_out_rank(io, 0, 0, io_result_dtype(io));
	if (!io_broadcast(io, io->in[0], io->in[1], &io->out[0]))
		return false;
	if (io->nin == 3) {
		struct value tmp = io->out[0];
		if (!io_broadcast(io, &tmp, io->in[2], &io->out[0]))
			return false;
	}
	return true;
}

/* Arithmetic that rejects bool operands (sub, and ops that are float-only
 * after promotion). */
static bool infer_arith_nobool(struct infer_io *io)
{
	for (unsigned i = 0; i < io->nin; i++)
		if (io->in[i]->dtype == DT_BOOL)
			return io_fail(io, "bool operand %u not supported", i);
	return infer_arith(io);
}

/* Ops whose result must be floating point (pow, atan2, fmod, ...): both
 * operands float, so no integer division by zero or negative powers. */
static bool infer_arith_float(struct infer_io *io)
{
	for (unsigned i = 0; i < io->nin; i++)
		if (!dtype_is_float(io->in[i]->dtype))
			return io_fail(io, "operand %u must be floating point", i);
	return infer_arith(io);
}

/* Operands of one dtype (nextafter, heaviside, gcd reject mixed ones). */
static bool infer_one_dtype(struct infer_io *io) { return io_same_dtype(io) && infer_arith(io); }

/* Integer operands of one dtype (gcd). */
static bool infer_one_int_dtype(struct infer_io *io)
{
	if (!dtype_is_int(io->in[0]->dtype))
		return io_fail(io, "needs integer operands");
	return infer_one_dtype(io);
}

/* |v| at most: the larger magnitude of its bounds. */
static uint64_t magnitude(const struct value *v)
{
	uint64_t lo = v->lo < 0 ? (uint64_t)0 - (uint64_t)v->lo : (uint64_t)v->lo;
	uint64_t hi = v->hi < 0 ? (uint64_t)0 - (uint64_t)v->hi : (uint64_t)v->hi;
	return lo > hi ? lo : hi;
}

/* lcm: integer operands of one dtype whose product fits it, since the
 * kernels overflow signed integers (undefined, so the modes may differ). */
static bool infer_lcm(struct infer_io *io)
{
	if (!infer_one_int_dtype(io))
		return false;
	uint64_t a = magnitude(io->in[0]), b = magnitude(io->in[1]);
	int64_t max = dtype_info(io->in[0]->dtype)->max;
	if (a && b > (uint64_t)max / a)
		return io_fail(io, "operands up to %llu and %llu may overflow %s", (unsigned long long)a,
			       (unsigned long long)b, dtype_info(io->in[0]->dtype)->name);
	return true;
}

/* Shifts: integer operands of one dtype, the amount in [0, bits): C's
 * shifts past the width or by a negative amount are undefined, and eager
 * and Inductor's kernels define them differently. */
static bool infer_shift(struct infer_io *io)
{
	if (!infer_one_int_dtype(io))
		return false;
	const struct value *n = io->in[1];
	if (n->lo < 0 || n->hi >= dtype_info(n->dtype)->bits)
		return io_fail(io, "shift amount in [%lld, %lld] outside [0, %d)", (long long)n->lo, (long long)n->hi,
			       dtype_info(n->dtype)->bits);
	return true;
}

/* float_power computes in double: float64 whatever the operands. */
static bool infer_float_power(struct infer_io *io)
{
	if (!infer_arith(io))
		return false;
	io->out[0].dtype = DT_FLOAT64;
	return true;
}

/* True division: integer operands give float32. */
static bool infer_div(struct infer_io *io)
{
	if (!infer_arith(io))
		return false;
	if (!dtype_is_inexact(io->out[0].dtype))
		io->out[0].dtype = DT_FLOAT32;
	return true;
}

/* Division that rounds (div's rounding_mode, floor_divide). An integer
 * quotient needs a divisor bounded away from zero (CPU raises
 * ZeroDivisionError, CUDA returns garbage) and of one sign; a negative one
 * also a dividend above the dtype's minimum, whose quotient by -1 traps
 * (SIGFPE). The quotient's bounds follow: |q| <= |x|, sign flipped by a
 * negative divisor. Bool operands have no kernel. */
static bool infer_div_rounding(struct infer_io *io)
{
	if (!infer_arith_nobool(io))
		return false;
	struct value *q = &io->out[0];
	const struct value *x = io->in[0], *d = io->in[1];
	if (dtype_is_float(q->dtype))
		return true;
	if (d->lo >= 1) {
		q->lo = x->lo < 0 ? x->lo : 0;
		q->hi = x->hi > 0 ? x->hi : 0;
		return true;
	}
	if (d->hi > -1)
		return io_fail(io, "integer divisor in [%lld, %lld] may be zero", (long long)d->lo, (long long)d->hi);
	if (x->lo <= (q->dtype == DT_INT32 ? INT32_MIN : INT64_MIN))
		return io_fail(io, "a negative divisor needs a dividend above the minimum, not from %lld",
			       (long long)x->lo);
	q->lo = x->hi > 0 ? -x->hi : 0;
	q->hi = x->lo < 0 ? -x->lo : 0;
	return true;
}

static bool infer_compare(struct infer_io *io)
{
	if (!infer_arith(io))
		return false;
	io->out[0].dtype = DT_BOOL;
	io->out[0].lo = 0;
	io->out[0].hi = 1;
	return true;
}

/* Bitwise ops: integer or bool operands of one category. */
static bool infer_bitwise(struct infer_io *io)
{
	for (unsigned i = 0; i < io->nin; i++)
		if (dtype_is_float(io->in[i]->dtype))
			return io_fail(io, "bitwise op on floating operand %u", i);
	return infer_arith(io);
}

/* where(cond, x, y): in[0] = x, in[1] = cond (bool), in[2] = y. */
static bool infer_where(struct infer_io *io)
{
	if (io->in[1]->dtype != DT_BOOL)
		return io_fail(io, "condition must be bool");
	struct value xy;
	enum dtype dts[2] = {(enum dtype)io->in[0]->dtype, (enum dtype)io->in[2]->dtype};
	int zero[2] = {io->in[0]->rank == 0, io->in[2]->rank == 0};
	io->nout = 1;
	io_out_rank(io, 0, 0, dtype_result(dts, zero, 2));
	if (!io_broadcast(io, io->in[0], io->in[2], &xy) || !io_broadcast(io, &xy, io->in[1], &io->out[0]))
		return false;
	return true;
}

/* Three-operand float ops: all float, one dtype (lerp requires it). */
static bool infer_ternary_float(struct infer_io *io)
{
	return io_same_dtype(io) && infer_arith_float(io);
}

/* torch.complex(re, im), torch.polar(abs, angle): float operands of one
 * dtype, broadcast; the complex result is read through view_as_real, a
 * trailing dim of 2. */
static bool infer_to_complex(struct infer_io *io)
{
	struct value all;
	if (!io_same_dtype(io) || !io_broadcast(io, io->in[0], io->in[1], &all))
		return false;
	if (all.rank >= G_MAX_RANK)
		return io_fail(io, "a %u-D result has no room for the real/imaginary dim", all.rank);
	io->nout = 1;
	io_out_rank(io, 0, all.rank + 1, (enum dtype)io->in[0]->dtype);
	FOR_BIND(io, b)
	{
		for (unsigned i = 0; i < all.rank; i++)
			io->out[0].dim[b][i] = all.dim[b][i];
		io->out[0].dim[b][all.rank] = 2;
	}
	return true;
}

/* view_as_complex of the two operands stacked on a last dim: one dtype, one
 * shape (stack does not broadcast). */
static bool infer_stacked_complex(struct infer_io *io)
{
	const struct value *a = io->in[0], *b = io->in[1];
	if (!io_same_dtype(io))
		return false;
	if (a->rank != b->rank)
		return io_fail(io, "stack needs one shape: ranks %u and %u", a->rank, b->rank);
	FOR_BIND(io, k) for (unsigned d = 0; d < a->rank; d++) if (a->dim[k][d] != b->dim[k][d]) return io_fail(
		io, "stack needs one shape: dim %u is %d and %d (binding %u)", d, (int)a->dim[k][d], (int)b->dim[k][d], k);
	io->nout = 1;
	io_out_like(io, 0, a, (enum dtype)a->dtype);
	return true;
}

/* cross(x, y, dim) of the first 3 elements along dim (x.narrow(dim, 0, 3)):
 * one dtype and rank, at least 3 along dim in both at every binding; the
 * other dims broadcast. */
static bool infer_cross(struct infer_io *io)
{
	const struct value *a = io->in[0], *b = io->in[1];
	int d = io_dim(io->attr[0], a->rank);
	if (!io_same_dtype(io))
		return false;
	if (a->rank != b->rank)
		return io_fail(io, "operands of ranks %u and %u", a->rank, b->rank);
	if (d < 0 || !a->rank)
		return io_fail(io, "dim %lld out of range", (long long)io->attr[0]);
	struct value a3 = *a, b3 = *b;
	FOR_BIND(io, k)
	{
		if (a->dim[k][d] < 3 || b->dim[k][d] < 3)
			return io_fail(io, "dim %d has sizes %d and %d, not 3 or more (binding %u)", d, (int)a->dim[k][d],
				       (int)b->dim[k][d], k);
		a3.dim[k][d] = b3.dim[k][d] = 3;
	}
	io->nout = 1;
	io_out_rank(io, 0, 0, (enum dtype)a->dtype);
	return io_broadcast(io, &a3, &b3, &io->out[0]);
}

static enum dtype partner_dtype(struct chooser *c, enum dtype self, unsigned mask)
{
	/* Mostly the same dtype; sometimes another, to exercise promotion. */
	return rng_chance(c->rng, 80) ? self : pick_dtype(c, mask);
}

static bool choose_partners(struct chooser *c, struct op_choice *ch, unsigned n, unsigned mask)
{
	enum dtype self = (enum dtype)c->g->v[ch->in[0]].dtype;
	for (unsigned i = 1; i < n; i++) {
		int p = pick_broadcast_partner(c, &c->g->v[ch->in[0]], partner_dtype(c, self, mask));
		if (p < 0)
			return false;
		ch->in[i] = (uint16_t)p;
	}
	ch->nin = (uint8_t)n;
	return true;
}

static bool choose_any(struct chooser *c, struct op_choice *ch) { return choose_partners(c, ch, 2, DTM_NUM); }
/* A float partner, sometimes of another float dtype: float-only ops promote. */
static bool choose_float(struct chooser *c, struct op_choice *ch) { return choose_partners(c, ch, 2, DTM_FLOAT); }
static bool choose_same_dtype(struct chooser *c, struct op_choice *ch)
{
	/* A partner of input 0's own dtype. */
	int p = pick_broadcast_partner(c, &c->g->v[ch->in[0]], (enum dtype)c->g->v[ch->in[0]].dtype);
	if (p < 0)
		return false;
	ch->in[1] = (uint16_t)p;
	ch->nin = 2;
	return true;
}
/* Input 1: the operand r asks for. */
static bool take_second(struct chooser *c, struct op_choice *ch, const struct tensor_req *r)
{
	int p = c->operand(c, r);
	ch->in[1] = (uint16_t)p;
	ch->nin = 2;
	return p >= 0;
}
/* A divisor for infer_div_rounding: mostly input 0's dtype; an integer one
 * for an integer dividend drawn from [1, 8], or [-8, -1] when the dividend's
 * bounds are small. */
static bool choose_divisor(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	enum dtype dt = partner_dtype(c, (enum dtype)x->dtype, DTM_NUM);
	struct tensor_req r = req_broadcast(c, x, dt);
	if (!dtype_is_float(dt) && !dtype_is_float(x->dtype)) {
		bool neg = x->lo >= -G_INT_BOUND && rng_chance(c->rng, 30);
		r.lo = neg ? -8 : 1;
		r.hi = neg ? -1 : 8;
	}
	return take_second(c, ch, &r);
}
/* A shift amount in [0, 7]: below every integer dtype's width. */
static bool choose_shift(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	struct tensor_req r = req_broadcast(c, x, (enum dtype)x->dtype);
	r.lo = 0;
	r.hi = 7;
	return take_second(c, ch, &r);
}
/* A partner of input 0's dtype and shape. */
static bool choose_same_shape(struct chooser *c, struct op_choice *ch)
{
	struct tensor_req r = req_like(&c->g->v[ch->in[0]]);
	return take_second(c, ch, &r);
}
/* A dim of size 3 or more at every binding, and a partner of input 0's
 * shape. */
static bool choose_cross(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int64_t dims[G_MAX_RANK];
	unsigned n = 0;
	for (unsigned d = 0; d < x->rank; d++) {
		bool three = true;
		for (unsigned b = 0; b < c->g->nbind; b++)
			three = three && x->dim[b][d] >= 3;
		if (three)
			dims[n++] = (int64_t)d - x->rank;
	}
	if (!n)
		return false;
	ch->nattr = 1;
	ch->attr[0] = pick_of(c, dims, n);
	return choose_same_shape(c, ch);
}
static bool choose_div_rounding(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = rng_chance(c->rng, 50);
	return choose_divisor(c, ch);
}
static bool choose_ternary(struct chooser *c, struct op_choice *ch)
{
	enum dtype self = (enum dtype)c->g->v[ch->in[0]].dtype;
	for (unsigned i = 1; i < 3; i++) {
		int p = pick_broadcast_partner(c, &c->g->v[ch->in[0]], self);
		if (p < 0)
			return false;
		ch->in[i] = (uint16_t)p;
	}
	ch->nin = 3;
	return true;
}
static bool choose_bitwise(struct chooser *c, struct op_choice *ch)
{
	return choose_partners(c, ch, 2, DTM(c->g->v[ch->in[0]].dtype));
}
static bool choose_where(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int cond = pick_broadcast_partner(c, x, DT_BOOL);
	int y = cond < 0 ? -1 : pick_broadcast_partner(c, x, partner_dtype(c, (enum dtype)x->dtype, DTM_NUM));
	if (y < 0)
		return false;
	ch->in[1] = (uint16_t)cond;
	ch->in[2] = (uint16_t)y;
	ch->nin = 3;
	return true;
}

/* torch.where(cond, x, t): the other branch a 0-dim tensor of x's dtype (a
 * graph value, an input, a parameter), where where_scalar takes a number. */
static bool infer_where_tensor_fill(struct infer_io *io)
{
	if (io->in[2]->rank != 0 || io->in[2]->dtype != io->in[0]->dtype)
		return io_fail(io, "the other branch must be a 0-dim tensor of input 0's dtype");
	return infer_where(io);
}
static bool choose_where_tensor_fill(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int cond = pick_broadcast_partner(c, x, DT_BOOL), t = cond < 0 ? -1 : pick_0dim_like(c, x);
	ch->in[1] = (uint16_t)cond;
	ch->in[2] = (uint16_t)t;
	ch->nin = 3;
	return t >= 0;
}

/* x * t.cpu(): a CPU 0-dim tensor as an operand of an op on the graph's
 * device (torch takes CPU scalars beside CUDA tensors); t is 0-dim of x's dtype. */
static bool infer_mul_cpu_0dim(struct infer_io *io)
{
	if (io->in[1]->rank != 0 || io->in[1]->dtype != io->in[0]->dtype)
		return io_fail(io, "the CPU operand must be a 0-dim tensor of input 0's dtype");
	return infer_arith(io);
}

#define B_GRAD(nm, spelling, dt, inf, ch_, nograd_, ...) \
	{.name = nm, .family = FAM_BINARY, .nin_min = 2, .nin_max = 2, .rank_max = G_MAX_RANK, .dtypes = dt, \
	 .nograd = nograd_, .weight = 4, .py = spelling, .infer = inf, .choose = ch_, __VA_ARGS__}
#define B(nm, spelling, dt, inf, ch_, ...) B_GRAD(nm, spelling, dt, inf, ch_, 0, __VA_ARGS__)

#define CROSS_ARGS "@0.narrow(#0, 0, 3), @1.narrow(#0, 0, 3), dim=#0"

static const char *const rounding_modes[] = {"trunc", "floor", NULL};

const struct op_def ops_binary[] = {
	B("add", "torch.add(@0, @1)", DTM_ALL | DTM_COMPLEX, infer_arith, choose_any),
	B("sub", "torch.sub(@0, @1)", DTM_NUM | DTM_COMPLEX, infer_arith_nobool, choose_any),
	B("mul", "torch.mul(@0, @1)", DTM_ALL | DTM_COMPLEX, infer_arith, choose_any),
	B("div", "torch.div(@0, @1)", DTM_NUM | DTM_COMPLEX, infer_div, choose_any),
	B("maximum", "torch.maximum(@0, @1)", DTM_NUM, infer_arith, choose_any),
	B("minimum", "torch.minimum(@0, @1)", DTM_NUM, infer_arith, choose_any),
	B("pow", "torch.pow(@0, @1)", DTM_FLOAT, infer_arith_float, choose_float),
	B("atan2", "torch.atan2(@0, @1)", DTM_FLOAT, infer_arith_float, choose_float),
	B("fmod", "torch.fmod(@0, @1)", DTM_FLOAT, infer_arith_float, choose_float, .step = 1),
	B("remainder", "torch.remainder(@0, @1)", DTM_FLOAT, infer_arith_float, choose_float, .step = 1),
	B_GRAD("floor_divide", "torch.floor_divide(@0, @1)", DTM_NUM, infer_div_rounding, choose_divisor, 3, .step = 1),
	{.name = "div_rounding", .family = FAM_BINARY, .nin_min = 2, .nin_max = 2, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_NUM, .weight = 3, .step = 1, .attrs = "rounding_mode$", .strs = rounding_modes,
	 .py = "torch.div(@0, @1, rounding_mode=#0)", .infer = infer_div_rounding, .choose = choose_div_rounding},
	B("hypot", "torch.hypot(@0, @1)", DTM_F32_F64, infer_arith_float, choose_float),
	B("copysign", "torch.copysign(@0, @1)", DTM_FLOAT, infer_arith_float, choose_float, .step = 1),
	B("fmax", "torch.fmax(@0, @1)", DTM_NUM, infer_arith, choose_any),
	B("fmin", "torch.fmin(@0, @1)", DTM_NUM, infer_arith, choose_any),
	B("clamp_min_tensor", "torch.clamp_min(@0, @1)", DTM_NUM, infer_arith, choose_any),
	B("clamp_max_tensor", "torch.clamp_max(@0, @1)", DTM_NUM, infer_arith, choose_any),
	B("rsub", "torch.rsub(@0, @1)", DTM_NUM, infer_arith_nobool, choose_any),
	B("true_divide", "torch.true_divide(@0, @1)", DTM_NUM, infer_div, choose_any),
	B("float_power", "torch.float_power(@0, @1)", DTM_NUM, infer_float_power, choose_any),
	B("logaddexp", "torch.logaddexp(@0, @1)", DTM_FLOAT, infer_arith_float, choose_float),
	B("logaddexp2", "torch.logaddexp2(@0, @1)", DTM_FLOAT, infer_arith_float, choose_float),
	B("ldexp", "torch.ldexp(@0, @1)", DTM_FLOAT, infer_arith_float, choose_float),
	B("nextafter", "torch.nextafter(@0, @1)", DTM_FLOAT, infer_one_dtype, choose_same_dtype),
	B_GRAD("heaviside", "torch.heaviside(@0, @1)", DTM_NUM, infer_one_dtype, choose_same_dtype, 3, .step = 1,
	       .same_dtype = 1),
	B("gcd", "torch.gcd(@0, @1)", DTM_INTS, infer_one_int_dtype, choose_same_dtype),
	B("lcm", "torch.lcm(@0, @1)", DTM_INTS, infer_lcm, choose_same_dtype),
	B("eq", "torch.eq(@0, @1)", DTM_ALL, infer_compare, choose_any),
	B("ne", "torch.ne(@0, @1)", DTM_ALL, infer_compare, choose_any),
	B("lt", "torch.lt(@0, @1)", DTM_NUM, infer_compare, choose_any),
	B("le", "torch.le(@0, @1)", DTM_NUM, infer_compare, choose_any),
	B("gt", "torch.gt(@0, @1)", DTM_NUM, infer_compare, choose_any),
	B("ge", "torch.ge(@0, @1)", DTM_NUM, infer_compare, choose_any),
	B("logical_and", "torch.logical_and(@0, @1)", DTM_ALL, infer_compare, choose_any),
	B("logical_or", "torch.logical_or(@0, @1)", DTM_ALL, infer_compare, choose_any),
	B("logical_xor", "torch.logical_xor(@0, @1)", DTM_ALL, infer_compare, choose_any),
	B("bitwise_and", "torch.bitwise_and(@0, @1)", DTM_INT | DTM(DT_BOOL), infer_bitwise, choose_bitwise),
	B("bitwise_or", "torch.bitwise_or(@0, @1)", DTM_INT | DTM(DT_BOOL), infer_bitwise, choose_bitwise),
	B("bitwise_xor", "torch.bitwise_xor(@0, @1)", DTM_INT | DTM(DT_BOOL), infer_bitwise, choose_bitwise),
	B("bitwise_left_shift", "torch.bitwise_left_shift(@0, @1)", DTM_INTS, infer_shift, choose_shift),
	B("bitwise_right_shift", "torch.bitwise_right_shift(@0, @1)", DTM_INTS, infer_shift, choose_shift),
	B("complex", "torch.view_as_real(torch.complex(@0, @1))", DTM_F32_F64, infer_to_complex, choose_same_dtype),
	B("polar", "torch.view_as_real(torch.polar(@0.abs(), @1))", DTM_F32_F64, infer_to_complex, choose_same_dtype),
	/* |re + i im|, a complex tensor built from a real one's memory */
	B("view_as_complex_abs", "torch.view_as_complex(torch.stack((@0, @1), -1)).abs()", DTM_F32_F64,
	  infer_stacked_complex, choose_same_shape, .layout = LAYOUT_FRESH),
	/* a view of the complex result's odd elements */
	B("imag", "torch.imag(torch.complex(@0, @1))", DTM_F32_F64, infer_one_dtype, choose_same_dtype,
	  .layout = LAYOUT_STRIDED),
	{.name = "cross", .family = FAM_BINARY, .nin_min = 2, .nin_max = 2, .rank_min = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_NUM, .weight = 1, .same_dtype = 1, .attrs = "dim", .py = "torch.cross(" CROSS_ARGS ")", .infer = infer_cross,
	 .choose = choose_cross},
	{.name = "linalg_cross", .family = FAM_BINARY, .nin_min = 2, .nin_max = 2, .rank_min = 1,
	 .rank_max = G_MAX_RANK, .dtypes = DTM_NUM, .weight = 1, .same_dtype = 1, .attrs = "dim",
	 .py = "torch.linalg.cross(" CROSS_ARGS ")",
	 .infer = infer_cross, .choose = choose_cross},
	{.name = "where", .family = FAM_BINARY, .nin_min = 3, .nin_max = 3, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_ALL, .weight = 4, .py = "torch.where(@1, @0, @2)", .infer = infer_where,
	 .choose = choose_where},
	/* mixed devices: graphs for a GPU only (on a CPU .cpu() moves nothing) */
	{.name = "mul_cpu_0dim", .family = FAM_BINARY, .nin_min = 2, .nin_max = 2, .rank_max = G_MAX_RANK,
	 .dtypes_gpu = DTM_NUM, .weight = 1, .py = "@0 * @1.cpu()", .infer = infer_mul_cpu_0dim,
	 .choose = choose_0dim_operand},
	{.name = "where_tensor_fill", .family = FAM_BINARY, .nin_min = 3, .nin_max = 3, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_ALL, .weight = 2, .py = "torch.where(@1, @0, @2)", .infer = infer_where_tensor_fill,
	 .choose = choose_where_tensor_fill},
	{.name = "lerp", .family = FAM_BINARY, .nin_min = 3, .nin_max = 3, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .weight = 2, .same_dtype = 1, .py = "torch.lerp(@0, @1, @2)", .infer = infer_ternary_float,
	 .choose = choose_ternary},
	{.name = "addcmul", .family = FAM_BINARY, .nin_min = 3, .nin_max = 3, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .weight = 2, .py = "torch.addcmul(@0, @1, @2, value=0.5)",
	 .infer = infer_ternary_float, .choose = choose_ternary},
	{.name = "addcdiv", .family = FAM_BINARY, .nin_min = 3, .nin_max = 3, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .weight = 2, .py = "torch.addcdiv(@0, @1, @2, value=0.5)",
	 .infer = infer_ternary_float, .choose = choose_ternary},
};
FAMILY_COUNT(binary);
