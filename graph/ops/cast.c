/* Casts between the generated dtypes: Tensor.to(dtype), the tensor-method
 * spellings (.float(), .half(), ...), type_as and to(other).
 *
 * Float to integer: converting a NaN, an infinity or an out-of-range float to
 * an integer is undefined behaviour in C, and eager and compiled kernels then
 * disagree for no fault of the compiler: false alarms. So plain casts refuse
 * float -> int, and the *_safe ops reach ints only through
 * nan_to_num -> clamp(-1000, 1000) -> round, which leaves finite integral
 * values that every int type holds. Rounding (not truncation) also keeps
 * computed values that land within an ulp of an integer from flipping between
 * eager and compiled. Float -> bool (x != 0) is well defined and allowed.
 * A cast to the dtype a tensor already has returns the tensor itself: every
 * cast may share its input's memory (`aliases`). */
#include "../opkit.h"
#include "families.h"

#define SAFE_BOUND 1000 /* |value| after the safe path's clamp */


/* Output 0: x's shape in dtype `to`, with integer bounds carried over when
 * they fit the target (a wider range may wrap, so it becomes the target's). */
static bool cast_out(struct infer_io *io, const struct value *x, enum dtype to)
{
	enum dtype from = (enum dtype)x->dtype;
	if (dtype_is_float(from) && to != DT_BOOL && !dtype_is_float(to))
		return io_fail(io, "%s -> %s is undefined for NaN/inf/out-of-range values: use a *_safe cast",
			       dtype_info(from)->name, dtype_info(to)->name);
	io->nout = 1;
	io_out_like(io, 0, x, to);
	struct value *o = &io->out[0];
	if (dtype_is_int(to)) {
		int64_t tlo = dtype_info(to)->min, thi = dtype_info(to)->max;
		bool fits = x->lo >= tlo && x->hi <= thi;
		o->lo = fits ? x->lo : tlo;
		o->hi = fits ? x->hi : thi;
	}
	return true;
}

static bool infer_to_attr(struct infer_io *io) { return cast_out(io, io->in[0], (enum dtype)io->attr[0]); }
static bool infer_to_other(struct infer_io *io) { return cast_out(io, io->in[0], (enum dtype)io->in[1]->dtype); }

#define CAST_FIXED(tag, dt) \
	static bool infer_##tag(struct infer_io *io) { return cast_out(io, io->in[0], dt); }
CAST_FIXED(f32, DT_FLOAT32)
CAST_FIXED(f16, DT_FLOAT16)
CAST_FIXED(bf16, DT_BFLOAT16)
CAST_FIXED(f64, DT_FLOAT64)
CAST_FIXED(i32, DT_INT32)
CAST_FIXED(i64, DT_INT64)
CAST_FIXED(b8, DT_BOOL)
CAST_FIXED(u8, DT_UINT8)
CAST_FIXED(i8, DT_INT8)
CAST_FIXED(i16, DT_INT16)

/* A cast to a complex dtype, read through view_as_real: x's shape and a
 * trailing dim of 2 in the complex dtype's part type. */
static bool complex_out(struct infer_io *io, enum dtype part)
{
	const struct value *x = io->in[0];
	io->nout = 1;
	io_out_rank(io, 0, x->rank + 1, part);
	FOR_BIND(io, b)
	{
		for (unsigned i = 0; i < x->rank; i++)
			io->out[0].dim[b][i] = x->dim[b][i];
		io->out[0].dim[b][x->rank] = 2;
	}
	return true;
}

#define CAST_COMPLEX(tag, part) \
	static bool infer_##tag(struct infer_io *io) { return complex_out(io, part); }
CAST_COMPLEX(c64, DT_FLOAT32)
CAST_COMPLEX(c128, DT_FLOAT64)
CAST_COMPLEX(c32, DT_FLOAT16)

/* Float -> int through the safe path: values in [-1000, 1000]. */
static bool safe_out(struct infer_io *io, enum dtype to)
{
	if (to != DT_INT32 && to != DT_INT64)
		return io_fail(io, "safe cast target must be int32 or int64");
	io->nout = 1;
	io_out_like(io, 0, io->in[0], to);
	io->out[0].lo = -SAFE_BOUND;
	io->out[0].hi = SAFE_BOUND;
	return true;
}

static bool infer_safe_attr(struct infer_io *io) { return safe_out(io, (enum dtype)io->attr[0]); }
static bool infer_safe_int(struct infer_io *io) { return safe_out(io, DT_INT32); }
static bool infer_safe_long(struct infer_io *io) { return safe_out(io, DT_INT64); }

/* Targets that x's dtype may be cast to directly. */
static unsigned direct_targets(enum dtype from)
{
	return dtype_is_float(from) ? DTM_FLOAT | DTM(DT_BOOL) : DTM_EVERY;
}

/* A target other than the source, mostly. */
static enum dtype pick_target(struct chooser *c, enum dtype from, unsigned mask)
{
	if (mask & ~DTM(from))
		mask &= ~DTM(from);
	unsigned n = 0, seen[DT_COUNT];
	for (unsigned d = 0; d < DT_COUNT; d++)
		if (mask & DTM(d))
			seen[n++] = d;
	return (enum dtype)seen[rng_below(c->rng, n)];
}

static bool choose_to_attr(struct chooser *c, struct op_choice *ch)
{
	enum dtype from = (enum dtype)c->g->v[ch->in[0]].dtype;
	ch->nattr = 1;
	ch->attr[0] = pick_target(c, from, direct_targets(from));
	return true;
}

static bool choose_safe_attr(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = rng_chance(c->rng, 50) ? DT_INT64 : DT_INT32;
	return true;
}

/* The dtype donor of type_as / to(other): x's shape (so existing values are
 * often reused) or a single element. */
static bool choose_other(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	struct tensor_req r = req_like(x);
	int32_t one = 1;
	if (rng_chance(c->rng, 35))
		r = req_static(DT_FLOAT32, rng_chance(c->rng, 50), &one);
	r.dtype = (uint8_t)pick_target(c, (enum dtype)x->dtype, direct_targets((enum dtype)x->dtype));
	bool isfloat = dtype_is_float(r.dtype);
	r.fill = isfloat ? FILL_NORMAL : FILL_RANGE;
	r.lo = r.dtype == DT_BOOL ? 0 : -8;
	r.hi = r.dtype == DT_BOOL ? 1 : 8;
	r.want_param = 0;
	int o = c->operand(c, &r);
	if (o < 0)
		return false;
	ch->in[1] = (uint16_t)o;
	ch->nin = 2;
	return true;
}

/* The dtypes a float tensor's bits may be read as (Tensor.view(dtype)):
 * integers, and float32 from float64; not bool (not every byte is one). */
#define VIEW_TARGETS (DTM_INTS | DTM(DT_FLOAT32))

/* x.view(dtype): x's bits read as dtype, of an element size no larger; the
 * last dim grows by the ratio, which needs x contiguous. The bits of a
 * computed float differ by an ulp between eager and compiled, and read as an
 * integer that is a mismatch: so x is a graph input's memory (a view of it,
 * not a parameter or buffer: those the fp64 reference upcasts in place) that
 * no float write has reached; float writes into it later are refused, and
 * so are writes through the view (graph.c, check_inplace): the fp64
 * reference reads a copy rounded back to x's dtype, which they would not reach. */
static bool infer_view_dtype(struct infer_io *io)
{
	const struct value *x = io->in[0], *root = &io->g->v[x->root];
	enum dtype to = (enum dtype)io->attr[0];
	int from_bits = dtype_info(x->dtype)->bits, to_bits = dtype_info(to)->bits;
	if (!(DTM(to) & VIEW_TARGETS) || to == x->dtype || to_bits > from_bits)
		return io_fail(io, "%s can't be read as %s here", dtype_info(x->dtype)->name, dtype_info(to)->name);
	if (to_bits < from_bits && (!x->contig || x->rank < 1))
		return io_fail(io, "a view as a smaller dtype needs a contiguous input of rank 1 or more");
	if (root->kind != VK_INPUT)
		return io_fail(io, "v%u: only a graph input's exact bits are read as another dtype", x->root);
	for (unsigned k = 0; k < io->g->nnodes; k++) {
		const struct node *nd = &io->g->n[k];
		if (op_get(nd->op)->inplace && io->g->v[nd->in[0]].root == x->root &&
		    dtype_is_inexact(io->g->v[nd->in[0]].dtype))
			return io_fail(io, "v%u: a float write reached it, its bits are not exact", x->root);
	}
	io->nout = 1;
	io_out_like(io, 0, x, to);
	struct value *o = &io->out[0];
	FOR_BIND(io, b)
	if (x->rank)
		o->dim[b][x->rank - 1] = x->dim[b][x->rank - 1] * (from_bits / to_bits);
	o->lo = dtype_is_inexact(to) ? INT64_MIN : dtype_info(to)->min;
	o->hi = dtype_is_inexact(to) ? INT64_MAX : dtype_info(to)->max;
	return true;
}

/* Only a graph input's memory is read (the rule): other inputs cost no try. */
static bool choose_view_dtype(struct chooser *c, struct op_choice *ch)
{
	if (c->g->v[c->g->v[ch->in[0]].root].kind != VK_INPUT)
		return false;
	ch->nattr = 1;
	ch->attr[0] = pick_dtype(c, VIEW_TARGETS & ~DTM(c->g->v[ch->in[0]].dtype));
	return true;
}

#define CAST(nm, dt, w, attrs_, spelling, tag, ch_) \
	{.name = nm, .family = FAM_CAST, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK, .dtypes = dt, \
	 .layout = LAYOUT_KEEP, .weight = w, .empty_ok = 1, .aliases = 1, .attrs = attrs_, .py = spelling, \
	 .infer = infer_##tag, .choose = ch_}
#define METHOD(nm, dt, method, tag) CAST(nm, dt, 1, NULL, "@0." method "()", tag, choose_none)
#define COMPLEX(nm, method, tag) \
	{.name = nm, .family = FAM_CAST, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK - 1, .dtypes = DTM_EVERY, \
	 .weight = 1, .empty_ok = 1, .py = "torch.view_as_real(@0." method "())", .infer = infer_##tag, \
	 .choose = choose_none}
#define SAFE_PATH "torch.nan_to_num(@0).clamp(-1000, 1000).round()"
#define CAST2(nm, spelling) \
	{.name = nm, .family = FAM_CAST, .nin_min = 2, .nin_max = 2, .rank_max = G_MAX_RANK, .dtypes = DTM_EVERY, \
	 .layout = LAYOUT_KEEP, .weight = 2, .aliases = 1, .py = spelling, .infer = infer_to_other, .choose = choose_other}

const struct op_def ops_cast[] = {
	CAST("to_dtype", DTM_EVERY, 4, "dtype%", "@0.to(#0)", to_attr, choose_to_attr),
	CAST("to_int_safe", DTM_FLOAT, 2, "dtype%", SAFE_PATH ".to(#0)", safe_attr, choose_safe_attr),
	CAST("int_safe", DTM_FLOAT, 1, NULL, SAFE_PATH ".int()", safe_int, choose_none),
	CAST("long_safe", DTM_FLOAT, 1, NULL, SAFE_PATH ".long()", safe_long, choose_none),
	METHOD("to_float", DTM_EVERY & ~DTM_F32, "float", f32),
	METHOD("to_half", DTM_EVERY & ~DTM(DT_FLOAT16), "half", f16),
	METHOD("to_bfloat16", DTM_EVERY & ~DTM(DT_BFLOAT16), "bfloat16", bf16),
	METHOD("to_double", DTM_EVERY & ~DTM(DT_FLOAT64), "double", f64),
	METHOD("to_int", (DTM_INTS & ~DTM(DT_INT32)) | DTM(DT_BOOL), "int", i32),
	METHOD("to_long", (DTM_INTS & ~DTM(DT_INT64)) | DTM(DT_BOOL), "long", i64),
	METHOD("to_bool", DTM_NUM | DTM_SMALL, "bool", b8),
	METHOD("to_byte", (DTM_INTS & ~DTM(DT_UINT8)) | DTM(DT_BOOL), "byte", u8),
	METHOD("to_char", (DTM_INTS & ~DTM(DT_INT8)) | DTM(DT_BOOL), "char", i8),
	METHOD("to_short", (DTM_INTS & ~DTM(DT_INT16)) | DTM(DT_BOOL), "short", i16),
	COMPLEX("to_cfloat", "cfloat", c64),
	COMPLEX("to_cdouble", "cdouble", c128),
	COMPLEX("to_chalf", "chalf", c32),
	CAST2("type_as", "@0.type_as(@1)"),
	CAST2("to_other", "@0.to(@1)"),
	/* In the fp64 reference x is float64: .to(#T) rounds it back to the
	 * graph's dtype (exact: the rule reads only unwritten inputs), a copy
	 * there and x itself elsewhere. */
	{.name = "view_dtype", .family = FAM_CAST, .nin_min = 1, .nin_max = 1, .rank_min = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_F32_F64, .layout = LAYOUT_VIEW, .weight = 6, .step = 1, .reinterprets = 1, .attrs = "dtype%",
	 .py = "@0.to(#T).view(#0)", .infer = infer_view_dtype, .choose = choose_view_dtype},
};
FAMILY_COUNT(cast);
