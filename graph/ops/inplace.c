/* In-place ops: Tensor methods and functional forms that write input 0 and
 * return it (x.add_(y), F.relu(x, inplace=True), x.index_put_(...)), and
 * assignments (x[a:b] = y). Most entries name the out-of-place op (`base`)
 * whose shape rule and chooser they share; the graph core adds what writing
 * in place needs (graph.c, check_inplace and graph_commit_node): a target
 * whose elements do not overlap (but for fill_ and zero_, which eager defines
 * there), no other operand sharing its memory, a result of its shape and of a
 * type it can hold (eager raises at the last two: the near-invalid graphs of
 * overlap_write and inplace_result). An integer target is written when what
 * it writes keeps the bounds of every value sharing its memory (a computed
 * integer is unbounded; a leaf's index range is kept). A target may be a
 * view of a graph input, a parameter or a buffer: the write then reaches it,
 * and the oracle compares that leaf after the call (graph_leaf_written). */
#include <string.h>
#include "../opkit.h"
#include "families.h"

/* x.copy_(src): src broadcasts to x and is cast to x's dtype. */
static bool infer_copy(struct infer_io *io)
{
	io->nout = 1;
	io_out_rank(io, 0, 0, (enum dtype)io->in[0]->dtype);
	return io_broadcast(io, io->in[0], io->in[1], &io->out[0]);
}

static bool choose_copy(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int src = pick_broadcast_partner(c, x, pick_dtype(c, DTM_EVERY));
	ch->in[1] = (uint16_t)src;
	ch->nin = 2;
	return src >= 0;
}

/* x.fill_(value), x.zero_(). */
static bool infer_same_shape(struct infer_io *io)
{
	io->nout = 1;
	io_out_like(io, 0, io->in[0], (enum dtype)io->in[0]->dtype);
	return true;
}

static bool choose_fill(struct chooser *c, struct op_choice *ch)
{
	static const int64_t values[] = {0, 1000, -1000, 2500, -500, 1};
	ch->nattr = 1;
	ch->attr[0] = pick_of(c, values, NELEM(values));
	return true;
}

/* x.fill_(t): t a 0-dim tensor of x's dtype (a graph value, an input, a parameter). */
static bool infer_fill_tensor(struct infer_io *io)
{
	if (io->in[1]->rank != 0 || io->in[1]->dtype != io->in[0]->dtype)
		return io_fail(io, "the fill must be a 0-dim tensor of input 0's dtype");
	return infer_same_shape(io);
}

/* x[start:stop] = y along dim 0: a slice within dim 0 at every binding; y
 * broadcasts to the slice (and is cast to x's dtype). */
static bool infer_slice_assign(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int64_t start = io->attr[0], stop = io->attr[1];
	if (x->rank < 1 || start < 0 || stop <= start || stop > io_dim_min(io, x, 0))
		return io_fail(io, "slice [%lld:%lld] not within dim 0 at every binding", (long long)start,
			       (long long)stop);
	struct value part = *x;
	FOR_BIND(io, b)
	part.dim[b][0] = (int32_t)(stop - start);
	io->nout = 1;
	io_out_rank(io, 0, 0, (enum dtype)x->dtype);
	if (!io_broadcast(io, &part, io->in[1], &io->out[0]) || !value_same_shape(io->g, &io->out[0], &part))
		return io_fail(io, "the value does not broadcast to the slice");
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	return true;
}

static bool choose_slice_assign(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int64_t size = value_dim_min(c->g, x, 0);
	if (x->rank < 1 || size < 1)
		return false;
	int64_t start = rng_range(c->rng, 0, size - 1), stop = rng_range(c->rng, start + 1, size);
	struct value part = *x;
	for (unsigned b = 0; b < G_MAX_BIND; b++)
		part.dim[b][0] = (int32_t)(stop - start);
	int y = pick_broadcast_partner(c, &part, rng_chance(c->rng, 80) ? (enum dtype)x->dtype : pick_dtype(c, DTM_ALL));
	ch->nattr = 2;
	ch->attr[0] = start;
	ch->attr[1] = stop;
	ch->in[1] = (uint16_t)y;
	ch->nin = 2;
	return y >= 0;
}

/* x[..., i] = y: one index of the last dim (within it at every binding); y
 * broadcasts to the rest. */
static bool infer_select_assign(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (x->rank < 1 || io->attr[0] < 0 || io->attr[0] >= io_dim_min(io, x, x->rank - 1u))
		return io_fail(io, "index %lld not within the last dim at every binding", (long long)io->attr[0]);
	struct value part = *x;
	part.rank = (uint8_t)(x->rank - 1);
	io->nout = 1;
	io_out_rank(io, 0, 0, (enum dtype)x->dtype);
	if (!io_broadcast(io, &part, io->in[1], &io->out[0]) || !value_same_shape(io->g, &io->out[0], &part))
		return io_fail(io, "the value does not broadcast to x[..., i]");
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	return true;
}

static bool choose_select_assign(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	if (x->rank < 1)
		return false;
	struct value part = *x;
	part.rank = (uint8_t)(x->rank - 1);
	int y = pick_broadcast_partner(c, &part, (enum dtype)x->dtype);
	ch->nattr = 1;
	ch->attr[0] = rng_below(c->rng, (uint64_t)value_dim_min(c->g, x, x->rank - 1u));
	ch->in[1] = (uint16_t)y;
	ch->nin = 2;
	return y >= 0;
}

/* Arity, attributes and dtypes are the base op's: they must agree (a unit
 * test checks every entry against its base). */
#define INPLACE(nm, base_, nin, dt, attrs_, spelling) \
	{.name = nm, .family = FAM_INPLACE, .nin_min = nin, .nin_max = nin, .rank_max = G_MAX_RANK, .dtypes = dt, \
	 .weight = 1, .inplace = 1, .base = base_, .attrs = attrs_, .py = spelling, .infer = infer_as_base, \
	 .choose = choose_as_base}
#define UNARY_(nm) INPLACE(#nm "_", #nm, 1, DTM_FLOAT, NULL, "@0." #nm "_()")
#define ACT_(nm, attrs_, spelling) INPLACE(nm "_inplace", nm, 1, DTM_FLOAT, attrs_, spelling)
#define BINARY_(nm, dt) INPLACE(#nm "_", #nm, 2, dt, NULL, "@0." #nm "_(@1)")
#define TARGETS (DTM_FLOAT | DTM(DT_BOOL))
#define OWN_(nm, nin, attrs_, spelling, tag, ch_, overlap_ok_) \
	{.name = nm, .family = FAM_INPLACE, .nin_min = nin, .nin_max = nin, .rank_max = G_MAX_RANK, \
	 .dtypes = TARGETS, .weight = 2, .inplace = 1, .overlap_ok = overlap_ok_, .attrs = attrs_, .py = spelling, \
	 .infer = infer_##tag, .choose = ch_}
#define OWN(nm, nin, attrs_, spelling, tag, ch_) OWN_(nm, nin, attrs_, spelling, tag, ch_, 0)

const struct op_def ops_inplace[] = {
	BINARY_(add, TARGETS | DTM_INT), BINARY_(sub, DTM_FLOAT | DTM_INT), BINARY_(mul, TARGETS | DTM_INT),
	BINARY_(div, DTM_NUM), /* an integer target: only near-invalid (true division gives a float) */
	BINARY_(bitwise_and, DTM_INT | DTM(DT_BOOL)), BINARY_(bitwise_or, DTM_INT | DTM(DT_BOOL)),
	BINARY_(bitwise_xor, DTM_INT | DTM(DT_BOOL)),
	INPLACE("clamp_min_", "clamp_min_tensor", 2, DTM_NUM, NULL, "@0.clamp_min_(@1)"),
	INPLACE("clamp_max_", "clamp_max_tensor", 2, DTM_NUM, NULL, "@0.clamp_max_(@1)"),
	BINARY_(pow, DTM_FLOAT), BINARY_(atan2, DTM_FLOAT), BINARY_(fmod, DTM_FLOAT), BINARY_(remainder, DTM_FLOAT),
	BINARY_(hypot, DTM_F32_F64), BINARY_(copysign, DTM_FLOAT), BINARY_(logical_and, TARGETS),
	BINARY_(logical_or, TARGETS), BINARY_(lt, DTM_FLOAT), BINARY_(ge, DTM_FLOAT),
	INPLACE("lerp_", "lerp", 3, DTM_FLOAT, NULL, "@0.lerp_(@1, @2)"),
	INPLACE("addcmul_", "addcmul", 3, DTM_FLOAT, NULL, "@0.addcmul_(@1, @2, value=0.5)"),
	INPLACE("addcdiv_", "addcdiv", 3, DTM_FLOAT, NULL, "@0.addcdiv_(@1, @2, value=0.5)"),
	UNARY_(abs), UNARY_(neg), UNARY_(exp), UNARY_(log), UNARY_(sqrt), UNARY_(sin), UNARY_(tanh),
	UNARY_(sigmoid), UNARY_(floor), UNARY_(round), UNARY_(reciprocal), UNARY_(frac),
	INPLACE("clamp_", "clamp", 1, DTM_FLOAT, "min^ max^", "@0.clamp_(min=#0, max=#1)"),
	INPLACE("pow_scalar_", "pow_scalar", 1, DTM_FLOAT, "exponent^", "@0.pow_(#0)"),
	INPLACE("nan_to_num_", "nan_to_num", 1, DTM_FLOAT, "nan^ posinf^ neginf^",
		"@0.nan_to_num_(nan=#0, posinf=#1, neginf=#2)"),
	INPLACE("relu_", "relu", 1, DTM_FLOAT, NULL, "torch.relu_(@0)"),
	ACT_("relu", NULL, "F.relu(@0, inplace=True)"),
	ACT_("relu6", NULL, "F.relu6(@0, inplace=True)"),
	ACT_("hardtanh", "min_val~ max_val~", "F.hardtanh(@0, #0, #1, inplace=True)"),
	ACT_("leaky_relu", "negative_slope~", "F.leaky_relu(@0, #0, inplace=True)"),
	ACT_("elu", "alpha~", "F.elu(@0, alpha=#0, inplace=True)"),
	ACT_("celu", "alpha~", "F.celu(@0, alpha=#0, inplace=True)"),
	ACT_("selu", NULL, "F.selu(@0, inplace=True)"),
	ACT_("silu", NULL, "F.silu(@0, inplace=True)"),
	ACT_("mish", NULL, "F.mish(@0, inplace=True)"),
	ACT_("hardswish", NULL, "F.hardswish(@0, inplace=True)"),
	ACT_("hardsigmoid", NULL, "F.hardsigmoid(@0, inplace=True)"),
	ACT_("threshold", "threshold~ value~", "F.threshold(@0, #0, #1, inplace=True)"),
	ACT_("rrelu", "lower~ upper~", "F.rrelu(@0, #0, #1, training=False, inplace=True)"),
	INPLACE("index_put_", "index_put", 3, DTM_FLOAT, "accumulate?", "@0.index_put_((@1,), @2, accumulate=#0)"),
	INPLACE("index_put2_", "index_put2", 4, DTM_FLOAT, "accumulate?",
		"@0.index_put_((@1, @2), @3, accumulate=#0)"),
	INPLACE("index_add_", "index_add", 3, DTM_FLOAT, "dim alpha", "@0.index_add_(#0, @1, @2, alpha=#1)"),
	INPLACE("index_copy_", "index_copy", 3, TARGETS, "dim", "@0.index_copy_(#0, @1, @2)"),
	INPLACE("index_fill_", "index_fill", 2, TARGETS, "dim value~", "@0.index_fill_(#0, @1, #1)"),
	INPLACE("masked_fill_", "masked_fill", 2, TARGETS, "value~", "@0.masked_fill_(@1, #0)"),
	INPLACE("masked_fill_tensor_", "masked_fill_tensor", 3, TARGETS, NULL, "@0.masked_fill_(@1, @2)"),
	INPLACE("index_fill_tensor_", "index_fill_tensor", 3, TARGETS, "dim", "@0.index_fill_(#0, @1, @2)"),
	INPLACE("masked_scatter_", "masked_scatter", 3, TARGETS, NULL, "@0.masked_scatter_(@1, @2)"),
	INPLACE("scatter_", "scatter", 3, TARGETS, "dim", "@0.scatter_(#0, @1, @2)"),
	INPLACE("scatter_value_", "scatter_value", 2, TARGETS, "dim value~", "@0.scatter_(#0, @1, #1)"),
	INPLACE("scatter_add_", "scatter_add", 3, DTM_FLOAT, "dim", "@0.scatter_add_(#0, @1, @2)"),
	OWN("copy_", 2, NULL, "@0.copy_(@1)", copy, choose_copy),
	OWN_("fill_", 1, "value~", "@0.fill_(#0)", same_shape, choose_fill, 1),
	OWN("fill_tensor_", 2, NULL, "@0.fill_(@1)", fill_tensor, choose_0dim_operand),
	OWN_("zero_", 1, NULL, "@0.zero_()", same_shape, choose_none, 1),
	OWN("slice_assign", 2, "start stop", "!@0[#0:#1] = @1", slice_assign, choose_slice_assign),
	OWN("select_assign", 2, "index", "!@0[..., #0] = @1", select_assign, choose_select_assign),
};
FAMILY_COUNT(inplace);
