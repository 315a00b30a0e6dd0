/* Binary ops with broadcasting, comparisons, logical/bitwise ops, where,
 * and the three-operand elementwise ops (lerp, addcmul, addcdiv). */
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

/* True division: integer operands give float32. */
static bool infer_div(struct infer_io *io)
{
	if (!infer_arith(io))
		return false;
	if (!dtype_is_float(io->out[0].dtype))
		io->out[0].dtype = DT_FLOAT32;
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
static bool choose_float(struct chooser *c, struct op_choice *ch)
{
	/* Float partners only: same dtype. */
	int p = pick_broadcast_partner(c, &c->g->v[ch->in[0]], (enum dtype)c->g->v[ch->in[0]].dtype);
	if (p < 0)
		return false;
	ch->in[1] = (uint16_t)p;
	ch->nin = 2;
	return true;
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

#define B_GRAD(nm, spelling, dt, inf, ch_, nograd_) \
	{.name = nm, .family = FAM_BINARY, .nin_min = 2, .nin_max = 2, .rank_max = G_MAX_RANK, .dtypes = dt, \
	 .nograd = nograd_, .weight = 4, .py = spelling, .infer = inf, .choose = ch_}
#define B(nm, spelling, dt, inf, ch_) B_GRAD(nm, spelling, dt, inf, ch_, 0)

const struct op_def ops_binary[] = {
	B("add", "torch.add(@0, @1)", DTM_ALL, infer_arith, choose_any),
	B("sub", "torch.sub(@0, @1)", DTM_NUM, infer_arith_nobool, choose_any),
	B("mul", "torch.mul(@0, @1)", DTM_ALL, infer_arith, choose_any),
	B("div", "torch.div(@0, @1)", DTM_NUM, infer_div, choose_any),
	B("maximum", "torch.maximum(@0, @1)", DTM_NUM, infer_arith, choose_any),
	B("minimum", "torch.minimum(@0, @1)", DTM_NUM, infer_arith, choose_any),
	B("pow", "torch.pow(@0, @1)", DTM_FLOAT, infer_arith_float, choose_float),
	B("atan2", "torch.atan2(@0, @1)", DTM_FLOAT, infer_arith_float, choose_float),
	B("fmod", "torch.fmod(@0, @1)", DTM_FLOAT, infer_arith_float, choose_float),
	B("remainder", "torch.remainder(@0, @1)", DTM_FLOAT, infer_arith_float, choose_float),
	B_GRAD("floor_divide", "torch.floor_divide(@0, @1)", DTM_FLOAT, infer_arith_float, choose_float, 3),
	B("hypot", "torch.hypot(@0, @1)", DTM_F32_F64, infer_arith_float, choose_float),
	B("copysign", "torch.copysign(@0, @1)", DTM_FLOAT, infer_arith_float, choose_float),
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
	{.name = "where", .family = FAM_BINARY, .nin_min = 3, .nin_max = 3, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_ALL, .weight = 4, .py = "torch.where(@1, @0, @2)", .infer = infer_where,
	 .choose = choose_where},
	{.name = "lerp", .family = FAM_BINARY, .nin_min = 3, .nin_max = 3, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .weight = 2, .py = "torch.lerp(@0, @1, @2)", .infer = infer_ternary_float,
	 .choose = choose_ternary},
	{.name = "addcmul", .family = FAM_BINARY, .nin_min = 3, .nin_max = 3, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .weight = 2, .py = "torch.addcmul(@0, @1, @2, value=0.5)",
	 .infer = infer_ternary_float, .choose = choose_ternary},
	{.name = "addcdiv", .family = FAM_BINARY, .nin_min = 3, .nin_max = 3, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .weight = 2, .py = "torch.addcdiv(@0, @1, @2, value=0.5)",
	 .infer = infer_ternary_float, .choose = choose_ternary},
};
FAMILY_COUNT(binary);
