/* Activations: pointwise nonlinearities with scalar parameters, PReLU with a
 * learned weight, and the softmax family along one dim (glu halves it).
 *
 * Dtypes (torch 2.6 CPU, checked against CUDA's dispatch): most are float
 * only; relu, relu6, hardtanh and threshold also take integers (clamp-like
 * kernels); sigmoid, tanh, softsign and tanhshrink promote integers to
 * float32. Scalar parameters are thousandths; for integer inputs they must
 * be integral so the kernels compare integers with integers. */
#include "../opkit.h"
#include "families.h"

/* How integer outputs are bounded, given the input's [lo, hi]. */
enum act_bound { AB_NONE, AB_RELU, AB_RELU6, AB_CLAMP, AB_THRESHOLD };

struct act_attr {
	int64_t lo, hi;   /* accepted range (thousandths, or a string index) */
	int64_t pick[6];  /* what the chooser draws from */
	uint8_t npick;
};

struct act_spec {
	uint8_t nattr;
	uint8_t to_float; /* integer inputs give float32 */
	uint8_t bound;    /* enum act_bound */
	uint8_t ordered;  /* 1: attr 0 < attr 1 (hardtanh); 2: attr 0 <= attr 1 (rrelu) */
	struct act_attr a[2];
};

static int64_t clamp64(int64_t x, int64_t lo, int64_t hi) { return x < lo ? lo : x > hi ? hi : x; }

static bool act_rule(struct infer_io *io, const struct act_spec *s)
{
	const struct value *x = io->in[0];
	bool isint = !dtype_is_float(x->dtype);
	for (unsigned i = 0; i < s->nattr; i++) {
		if (!io_attr_range(io, i, s->a[i].lo, s->a[i].hi))
			return false;
		if (isint && !s->to_float && io->attr[i] % 1000)
			return io_fail(io, "attribute %u = %lld/1000 must be integral for an integer input", i,
				       (long long)io->attr[i]);
	}
	if (s->ordered && (s->ordered == 1 ? io->attr[0] >= io->attr[1] : io->attr[0] > io->attr[1]))
		return io_fail(io, "attribute 0 (%lld) must be below attribute 1 (%lld)", (long long)io->attr[0],
			       (long long)io->attr[1]);
	io->nout = 1;
	io_out_like(io, 0, x, isint && s->to_float ? DT_FLOAT32 : (enum dtype)x->dtype);
	if (!isint || s->to_float)
		return true;
	/* Integer results stay within a known range: later index ops rely on it. */
	struct value *o = &io->out[0];
	int64_t lo = x->lo, hi = x->hi;
	switch (s->bound) {
	case AB_RELU: lo = lo < 0 ? 0 : lo; hi = hi < 0 ? 0 : hi; break;
	case AB_RELU6: lo = clamp64(lo, 0, 6); hi = clamp64(hi, 0, 6); break;
	case AB_CLAMP:
		lo = clamp64(lo, io->attr[0] / 1000, io->attr[1] / 1000);
		hi = clamp64(hi, io->attr[0] / 1000, io->attr[1] / 1000);
		break;
	case AB_THRESHOLD: { /* x > t keeps x, else the replacement value */
		int64_t v = io->attr[1] / 1000;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		break;
	}
	default: break;
	}
	o->lo = lo;
	o->hi = hi;
	return true;
}

static bool act_choose(struct chooser *c, struct op_choice *ch, const struct act_spec *s)
{
	bool isint = !dtype_is_float(c->g->v[ch->in[0]].dtype) && !s->to_float;
	ch->nattr = s->nattr;
	for (unsigned i = 0; i < s->nattr; i++) {
		const struct act_attr *a = &s->a[i];
		int64_t v = pick_edge_or(c, a->lo, a->hi, a->pick, a->npick);
		if (isint)
			v -= v % 1000; /* integral for integer inputs */
		ch->attr[i] = v;
	}
	if (s->ordered && ch->attr[0] >= ch->attr[1]) { /* make the pair ordered */
		int64_t t = ch->attr[0];
		ch->attr[0] = ch->attr[1];
		ch->attr[1] = t;
		if (ch->attr[0] == ch->attr[1] && s->ordered == 1)
			ch->attr[1] += 1000;
	}
	return true;
}

#define ACT_FNS(tag, ...) \
	static const struct act_spec spec_##tag = __VA_ARGS__; \
	static bool infer_##tag(struct infer_io *io) { return act_rule(io, &spec_##tag); } \
	static bool choose_##tag(struct chooser *c, struct op_choice *ch) { return act_choose(c, ch, &spec_##tag); }

ACT_FNS(plain, {0})
ACT_FNS(promote, {.to_float = 1})
ACT_FNS(relu, {.bound = AB_RELU})
ACT_FNS(relu6, {.bound = AB_RELU6})
ACT_FNS(gelu, {.nattr = 1, .a = {{0, 1, {0, 1}, 2}}})
ACT_FNS(hardtanh, {.nattr = 2, .bound = AB_CLAMP, .ordered = 1,
		   .a = {{-5000, 5000, {-1000, -2000, -500, 0, -3000, 1000}, 6},
			 {-5000, 5000, {1000, 2000, 500, 3000, 0, 5000}, 6}}})
ACT_FNS(slope, {.nattr = 1, .a = {{-3000, 3000, {10, 100, 200, 1000, -500, 2000}, 6}}})
ACT_FNS(alpha, {.nattr = 1, .a = {{1, 100000, {1000, 500, 2000, 100, 1500, 3000}, 6}}})
ACT_FNS(softplus, {.nattr = 2, .a = {{1, 100000, {1000, 500, 2000, 3000}, 4}, {1, 30000, {20000, 1000, 5000, 500}, 4}}})
ACT_FNS(lambd, {.nattr = 1, .a = {{0, 3000, {500, 0, 1000, 250, 2000}, 5}}})
ACT_FNS(threshold, {.nattr = 2, .bound = AB_THRESHOLD,
		    .a = {{-5000, 5000, {0, 500, -1000, 1000, 2000}, 5}, {-5000, 5000, {0, 2000, -1000, 2000, 1500}, 5}}})
ACT_FNS(rrelu, {.nattr = 2, .ordered = 2, .a = {{0, 1000, {125, 100, 0, 300}, 4}, {0, 1000, {333, 300, 500, 1000}, 4}}})

/* ---- softmax family: one dim ---- */

static bool infer_softmax(struct infer_io *io)
{
	if (io_dim(io->attr[0], io->in[0]->rank) < 0)
		return io_fail(io, "dim %lld out of range for rank %u", (long long)io->attr[0], io->in[0]->rank);
	io->nout = 1;
	io_out_like(io, 0, io->in[0], (enum dtype)io->in[0]->dtype);
	return true;
}

/* softmax(x, dim, dtype=): the input is cast to a float dtype first. */
static bool infer_softmax_dtype(struct infer_io *io)
{
	if (!dtype_is_float(io->attr[1]))
		return io_fail(io, "dtype must be floating point");
	if (!infer_softmax(io))
		return false;
	io->out[0].dtype = (uint8_t)io->attr[1];
	return true;
}

static bool choose_dim(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = pick_dim(c, c->g->v[ch->in[0]].rank);
	return true;
}

static bool choose_dim_dtype(struct chooser *c, struct op_choice *ch)
{
	choose_dim(c, ch);
	ch->nattr = 2;
	ch->attr[1] = pick_dtype(c, DTM_FLOAT);
	return true;
}

/* glu halves dim: its size must be even at every binding. */
static bool infer_glu(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int d = x->rank ? io_dim(io->attr[0], x->rank) : -1;
	if (d < 0)
		return io_fail(io, "dim %lld out of range for rank %u", (long long)io->attr[0], x->rank);
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	FOR_BIND(io, b) {
		if (x->dim[b][d] % 2)
			return io_fail(io, "glu dim %d has odd size %d (binding %u)", d, (int)x->dim[b][d], b);
		io->out[0].dim[b][d] = x->dim[b][d] / 2;
	}
	return true;
}

static bool choose_glu(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int64_t even[G_MAX_RANK];
	unsigned n = 0;
	for (unsigned d = 0; d < x->rank; d++) {
		bool ok = true;
		for (unsigned b = 0; b < c->g->nbind; b++)
			ok &= x->dim[b][d] % 2 == 0;
		if (ok)
			even[n++] = d;
	}
	if (!n)
		return false;
	ch->nattr = 1;
	ch->attr[0] = pick_of(c, even, n) - (rng_chance(c->rng, 50) ? x->rank : 0);
	return true;
}

/* Softmax2d: softmax over dim -3 of a 3-D or 4-D input. */
static bool infer_same(struct infer_io *io)
{
	io->nout = 1;
	io_out_like(io, 0, io->in[0], (enum dtype)io->in[0]->dtype);
	return true;
}

/* ---- PReLU: one weight, or one per channel (dim 1) ---- */

static bool prelu_channels_ok(struct infer_io *io, int64_t n)
{
	const struct value *x = io->in[0];
	if (n == 1)
		return true;
	if (x->rank < 2)
		return io_fail(io, "%lld PReLU weights need a channel dim (rank >= 2), got rank %u", (long long)n,
			       x->rank);
	FOR_BIND(io, b) if (x->dim[b][1] != n)
		return io_fail(io, "%lld PReLU weights for %d channels (binding %u)", (long long)n, (int)x->dim[b][1], b);
	return true;
}

static bool infer_prelu(struct infer_io *io)
{
	return io_attr_range(io, 0, 1, G_MAX_DIM) && io_attr_range(io, 1, -3000, 3000) &&
	       prelu_channels_ok(io, io->attr[0]) && infer_same(io);
}

/* A per-channel count when dim 1 is static, else one weight. */
static int64_t prelu_count(struct chooser *c, const struct value *x)
{
	if (x->rank >= 2 && !(x->dyn & 2) && rng_chance(c->rng, 60))
		return x->dim[0][1];
	return 1;
}

static bool choose_prelu(struct chooser *c, struct op_choice *ch)
{
	static const int64_t inits[] = {250, 100, 0, 500, -250, 1000};
	ch->nattr = 2;
	ch->attr[0] = prelu_count(c, &c->g->v[ch->in[0]]);
	ch->attr[1] = pick_of(c, inits, NELEM(inits));
	return true;
}

/* F.prelu(x, weight): a 1-D weight of x's dtype. */
static bool infer_prelu_fn(struct infer_io *io)
{
	const struct value *w = io->in[1];
	if (w->dtype != io->in[0]->dtype)
		return io_fail(io, "weight is %s, input %s", dtype_info(w->dtype)->name, dtype_info(io->in[0]->dtype)->name);
	if (w->rank != 1)
		return io_fail(io, "weight must be 1-D, got rank %u", w->rank);
	if (!io_dim_static(io, w, 0))
		return io_fail(io, "weight size must be static");
	return prelu_channels_ok(io, w->dim[0][0]) && infer_same(io);
}

static bool choose_prelu_fn(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int32_t n = (int32_t)prelu_count(c, x);
	struct tensor_req r = req_static((enum dtype)x->dtype, 1, &n);
	int w = c->operand(c, &r);
	if (w < 0)
		return false;
	ch->in[1] = (uint16_t)w;
	ch->nin = 2;
	return true;
}

static const char *const gelu_modes[] = {"none", "tanh", NULL};

#define ACT(nm, tag, dt, attrs_, spelling, ...) \
	{.name = nm, .family = FAM_ACTIVATION, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK, .dtypes = dt, \
	 .layout = LAYOUT_KEEP, .weight = 1, .empty_ok = 1, .attrs = attrs_, .py = spelling, .infer = infer_##tag, \
	 .choose = choose_##tag, __VA_ARGS__}
#define ACTF(nm, tag, attrs_, spelling, ...) ACT(nm, tag, DTM_FLOAT, attrs_, spelling, __VA_ARGS__)
#define SOFTMAX(nm, spelling) \
	{.name = nm, .family = FAM_ACTIVATION, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK, \
	 .dtypes = DTM_FLOAT, .layout = LAYOUT_FRESH, .weight = 2, .attrs = "dim", .py = spelling, \
	 .infer = infer_softmax, .choose = choose_dim}

const struct op_def ops_activation[] = {
	{.name = "relu", .family = FAM_ACTIVATION, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_NUM, .layout = LAYOUT_KEEP, .weight = 3, .py = "torch.relu(@0)", .infer = infer_relu,
	 .choose = choose_relu},
	{.name = "relu_module", .family = FAM_ACTIVATION, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_NUM, .layout = LAYOUT_KEEP, .weight = 1, .ctor = "torch.nn.ReLU()", .infer = infer_relu,
	 .choose = choose_relu},
	ACT("relu6", relu6, DTM_NUM, NULL, "F.relu6(@0)"),
	{.name = "gelu", .family = FAM_ACTIVATION, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .layout = LAYOUT_KEEP, .weight = 2, .attrs = "approximate$", .strs = gelu_modes,
	 .py = "F.gelu(@0, approximate=#0)", .infer = infer_gelu, .choose = choose_gelu},
	ACTF("silu", plain, NULL, "F.silu(@0)"),
	ACT("hardtanh", hardtanh, DTM_NUM, "min_val~ max_val~", "F.hardtanh(@0, #0, #1)"),
	ACTF("leaky_relu", slope, "negative_slope~", "F.leaky_relu(@0, #0)"),
	ACTF("elu", alpha, "alpha~", "F.elu(@0, alpha=#0)"),
	ACTF("selu", plain, NULL, "F.selu(@0)"),
	ACTF("celu", alpha, "alpha~", "F.celu(@0, alpha=#0)"),
	ACTF("softplus", softplus, "beta~ threshold~", "F.softplus(@0, beta=#0, threshold=#1)"),
	ACTF("mish", plain, NULL, "F.mish(@0)"),
	ACTF("hardswish", plain, NULL, "F.hardswish(@0)"),
	ACTF("hardsigmoid", plain, NULL, "F.hardsigmoid(@0)"),
	ACT("sigmoid", promote, DTM_ALL, NULL, "torch.sigmoid(@0)"),
	ACT("tanh", promote, DTM_ALL, NULL, "torch.tanh(@0)"),
	ACTF("logsigmoid", plain, NULL, "F.logsigmoid(@0)"),
	ACT("softsign", promote, DTM_NUM, NULL, "F.softsign(@0)"),
	ACT("tanhshrink", promote, DTM_NUM, NULL, "F.tanhshrink(@0)"),
	ACTF("hardshrink", lambd, "lambd~", "F.hardshrink(@0, #0)", .step = 1),
	ACTF("softshrink", lambd, "lambd~", "F.softshrink(@0, #0)"),
	ACT("threshold", threshold, DTM_NUM, "threshold~ value~", "F.threshold(@0, #0, #1)", .step = 1),
	/* Eval mode: the slope is the mean of lower and upper, no randomness. */
	ACTF("rrelu", rrelu, "lower~ upper~", "F.rrelu(@0, #0, #1, training=False)"),
	{.name = "prelu", .family = FAM_ACTIVATION, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .layout = LAYOUT_KEEP, .weight = 2, .attrs = "num_parameters init~",
	 .ctor = "torch.nn.PReLU(#0, #1, dtype=#T)", .infer = infer_prelu, .choose = choose_prelu},
	{.name = "prelu_fn", .family = FAM_ACTIVATION, .nin_min = 2, .nin_max = 2, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .layout = LAYOUT_KEEP, .weight = 1, .same_dtype = 1, .py = "F.prelu(@0, @1)",
	 .infer = infer_prelu_fn,
	 .choose = choose_prelu_fn},
	SOFTMAX("softmax", "F.softmax(@0, dim=#0)"),
	SOFTMAX("log_softmax", "F.log_softmax(@0, dim=#0)"),
	SOFTMAX("softmin", "F.softmin(@0, dim=#0)"),
	{.name = "softmax_dtype", .family = FAM_ACTIVATION, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_ALL, .layout = LAYOUT_FRESH, .weight = 1, .attrs = "dim dtype%",
	 .py = "torch.softmax(@0, #0, dtype=#1)", .infer = infer_softmax_dtype, .choose = choose_dim_dtype},
	{.name = "log_softmax_dtype", .family = FAM_ACTIVATION, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_ALL, .layout = LAYOUT_FRESH, .weight = 1, .attrs = "dim dtype%",
	 .py = "F.log_softmax(@0, dim=#0, dtype=#1)", .infer = infer_softmax_dtype, .choose = choose_dim_dtype},
	{.name = "softmax2d", .family = FAM_ACTIVATION, .nin_min = 1, .nin_max = 1, .rank_min = 3, .rank_max = 4,
	 .dtypes = DTM_FLOAT, .layout = LAYOUT_FRESH, .weight = 1, .ctor = "torch.nn.Softmax2d()",
	 .infer = infer_same, .choose = choose_none},
	{.name = "glu", .family = FAM_ACTIVATION, .nin_min = 1, .nin_max = 1, .rank_min = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_FLOAT, .layout = LAYOUT_FRESH, .weight = 2, .attrs = "dim", .py = "F.glu(@0, #0)",
	 .infer = infer_glu, .choose = choose_glu},
};
FAMILY_COUNT(activation);
