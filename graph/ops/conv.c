/* Convolutions: the nn.Conv1d/2d/3d and nn.ConvTranspose1d/2d/3d modules
 * (with padding modes and padding='same'), and F.conv*d / F.conv_transpose*d
 * whose weight and bias are operands.
 *
 * torch's rules (2.6): the input is (N, C, *spatial) or unbatched (C, *spatial)
 * with C == in_channels; groups divides both channel counts. Per spatial dim L:
 *   conv:       out = (L + 2p - d(k-1) - 1) / s + 1, the numerator >= 0;
 *   transposed: out = (L-1)s - 2p + d(k-1) + output_padding + 1 >= 1, with
 *               output_padding < max(s, d);
 *   'same':     out = L (stride 1); the module pads d(k-1) split left-low.
 * A non-zeros padding_mode pads with F.pad first: reflect needs each width
 * < L, circular <= L. Channels must be static (the module is built once);
 * spatial dims may be dynamic, so every rule is checked at every binding. */
#include <string.h>
#include "../opkit.h"
#include "families.h"

enum conv_mode { CM_ZEROS, CM_REFLECT, CM_REPLICATE, CM_CIRCULAR, CM_COUNT };
static const char *const conv_modes[] = {"zeros", "reflect", "replicate", "circular", NULL};

/* How an op spells its convolution: which attribute holds which parameter. */
enum conv_form { CF_MOD, CF_MODE, CF_SAME, CF_TMOD, CF_FUNC, CF_TFUNC };
enum { S_CIN, S_COUT, S_K, S_STRIDE, S_PAD, S_OUTPAD, S_DIL, S_GROUPS, S_BIAS, S_MODE, S_COUNT };

/* Attribute index of each parameter per form (-1: not an attribute). The
 * functional forms take channels and kernel from the weight operand. */
static const int8_t conv_slots[][S_COUNT] = {
	[CF_MOD] = {0, 1, 2, 3, 4, -1, 5, 6, 7, -1},
	[CF_MODE] = {0, 1, 2, 3, 4, -1, 5, 6, 7, 8},
	[CF_SAME] = {0, 1, 2, -1, -1, -1, 3, 4, 5, 6},
	[CF_TMOD] = {0, 1, 2, 3, 4, 5, 8, 6, 7, -1},
	[CF_FUNC] = {-1, -1, -1, 0, 1, -1, 2, 3, -1, -1},
	[CF_TFUNC] = {-1, -1, -1, 0, 1, 2, 4, 3, -1, -1},
};
static const int64_t conv_defaults[S_COUNT] = {[S_STRIDE] = 1, [S_DIL] = 1, [S_GROUPS] = 1, [S_BIAS] = 1};

#define CONV_MAX_CH 1024
#define CONV_MAX_K 16
#define CONV_MAX_STRIDE 8
#define CONV_MAX_DIL 8
#define CONV_MAX_PAD 64
#define CONV_OUT_BUDGET 16384 /* chooser: output elements at any binding */
#define CONV_W_BUDGET 4096    /* chooser: weight elements */

struct conv_p {
	int64_t v[S_COUNT];
	int64_t k[3]; /* per spatial dim: the functional weight may be non-square */
};

static bool is_transposed(enum conv_form f) { return f == CF_TMOD || f == CF_TFUNC; }
static bool is_functional(enum conv_form f) { return f == CF_FUNC || f == CF_TFUNC; }

static unsigned form_nattr(enum conv_form f)
{
	unsigned n = 0;
	for (unsigned s = 0; s < S_COUNT; s++)
		if (conv_slots[f][s] >= (int)n)
			n = (unsigned)conv_slots[f][s] + 1;
	return n;
}

/* The weight and bias operands of a functional conv give channels and kernel. */
static bool decode_weight(struct infer_io *io, enum conv_form f, unsigned nd, struct conv_p *cp)
{
	const struct value *w = io->in[1], *bias = io->in[2];
	if (io->nin != 3)
		return io_fail(io, "functional conv takes input, weight, bias");
	if (w->rank != nd + 2 || bias->rank != 1)
		return io_fail(io, "weight must be %u-D and bias 1-D, got %u-D and %u-D", nd + 2, w->rank, bias->rank);
	if (!io_same_dtype(io))
		return false;
	for (unsigned d = 0; d < w->rank; d++)
		if (!io_dim_static(io, w, d))
			return io_fail(io, "weight dim %u is dynamic", d);
	if (!io_dim_static(io, bias, 0))
		return io_fail(io, "bias is dynamic");
	int64_t g = cp->v[S_GROUPS], w0 = w->dim[0][0], w1 = w->dim[0][1];
	if (g < 1 || w0 % g)
		return io_fail(io, "weight dim 0 (%lld) not divisible by groups %lld", (long long)w0, (long long)g);
	cp->v[S_CIN] = is_transposed(f) ? w0 : w1 * g;
	cp->v[S_COUT] = is_transposed(f) ? w1 * g : w0;
	for (unsigned i = 0; i < nd; i++)
		cp->k[i] = w->dim[0][2 + i];
	if (bias->dim[0][0] != cp->v[S_COUT])
		return io_fail(io, "bias has %d elements, out_channels is %lld", (int)bias->dim[0][0],
			       (long long)cp->v[S_COUT]);
	return true;
}

static bool conv_decode(struct infer_io *io, enum conv_form f, unsigned nd, struct conv_p *cp)
{
	if (io->nattr != form_nattr(f))
		return io_fail(io, "%u attributes, want %u", io->nattr, form_nattr(f));
	for (unsigned s = 0; s < S_COUNT; s++)
		cp->v[s] = conv_slots[f][s] >= 0 ? io->attr[conv_slots[f][s]] : conv_defaults[s];
	for (unsigned i = 0; i < nd; i++)
		cp->k[i] = cp->v[S_K];
	return is_functional(f) ? decode_weight(io, f, nd, cp) : true;
}


/* Output size of one spatial dim of size L at binding b; false with a reason
 * when torch rejects it. */
static bool conv_out_size(struct infer_io *io, enum conv_form f, const struct conv_p *cp, int64_t k, int64_t L,
			  unsigned b, int64_t *out)
{
	int64_t s = cp->v[S_STRIDE], p = cp->v[S_PAD], d = cp->v[S_DIL], mode = cp->v[S_MODE];
	int64_t rw = p, span = d * (k - 1);
	if (f == CF_SAME)
		rw = span - span / 2; /* the right width is the larger */
	if (mode == CM_REFLECT && rw >= L)
		return io_fail(io, "reflect padding %lld must be below the size %lld (binding %u)", (long long)rw,
			       (long long)L, b);
	if (mode == CM_CIRCULAR && rw > L)
		return io_fail(io, "circular padding %lld exceeds the size %lld (binding %u)", (long long)rw,
			       (long long)L, b);
	if (f == CF_SAME)
		*out = L;
	else if (is_transposed(f))
		*out = (L - 1) * s - 2 * p + span + cp->v[S_OUTPAD] + 1;
	else if (L + 2 * p - span - 1 < 0)
		return io_fail(io, "kernel span %lld exceeds padded size %lld (binding %u)", (long long)span + 1,
			       (long long)(L + 2 * p), b);
	else
		*out = (L + 2 * p - span - 1) / s + 1;
	if (*out < 1 || *out > G_MAX_DIM)
		return io_fail(io, "output size %lld out of range (binding %u)", (long long)*out, b);
	return true;
}

/* The shape rule shared by every conv: parameters already decoded. */
static bool conv_shape(struct infer_io *io, enum conv_form f, unsigned nd, const struct conv_p *cp)
{
	const struct value *x = io->in[0];
	const int64_t *v = cp->v;
	if (x->rank != nd + 1 && x->rank != nd + 2)
		return io_fail(io, "conv%ud takes a %u-D or %u-D input, got %u-D", nd, nd + 1, nd + 2, x->rank);
	if (!io_in_range(io, "in_channels", v[S_CIN], 1, CONV_MAX_CH) ||
	    !io_in_range(io, "out_channels", v[S_COUT], 1, CONV_MAX_CH) ||
	    !io_in_range(io, "groups", v[S_GROUPS], 1, CONV_MAX_CH) ||
	    !io_in_range(io, "stride", v[S_STRIDE], 1, CONV_MAX_STRIDE) ||
	    !io_in_range(io, "padding", v[S_PAD], 0, CONV_MAX_PAD) ||
	    !io_in_range(io, "dilation", v[S_DIL], 1, CONV_MAX_DIL) ||
	    !io_in_range(io, "padding_mode", v[S_MODE], 0, CM_COUNT - 1))
		return false;
	int64_t opmax = v[S_STRIDE] > v[S_DIL] ? v[S_STRIDE] : v[S_DIL];
	if (!io_in_range(io, "output_padding", v[S_OUTPAD], 0, is_transposed(f) ? opmax - 1 : 0))
		return false;
	for (unsigned i = 0; i < nd; i++)
		if (!io_in_range(io, "kernel_size", cp->k[i], 1, CONV_MAX_K))
			return false;
	if (v[S_CIN] % v[S_GROUPS] || v[S_COUT] % v[S_GROUPS])
		return io_fail(io, "groups %lld must divide in_channels %lld and out_channels %lld",
			       (long long)v[S_GROUPS], (long long)v[S_CIN], (long long)v[S_COUT]);
	unsigned cdim = x->rank - nd - 1;
	if (!io_dim_static(io, x, cdim))
		return io_fail(io, "channel dim %u is dynamic", cdim);
	if (x->dim[0][cdim] != v[S_CIN])
		return io_fail(io, "input has %d channels, in_channels is %lld", (int)x->dim[0][cdim],
			       (long long)v[S_CIN]);
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	FOR_BIND(io, b) {
		io->out[0].dim[b][cdim] = (int32_t)v[S_COUT];
		for (unsigned i = 0; i < nd; i++) {
			int64_t o = 0;
			if (!conv_out_size(io, f, cp, cp->k[i], x->dim[b][cdim + 1 + i], b, &o))
				return false;
			io->out[0].dim[b][cdim + 1 + i] = (int32_t)o;
		}
	}
	return true;
}

static bool conv_rule(struct infer_io *io, enum conv_form f, unsigned nd)
{
	struct conv_p cp;
	return conv_decode(io, f, nd, &cp) && conv_shape(io, f, nd, &cp);
}

/* ---- chooser ---- */


static int64_t pick_groups(struct chooser *c, int64_t C)
{
	if (rng_chance(c->rng, 50))
		return 1;
	if (rng_chance(c->rng, 40))
		return C; /* depthwise */
	int64_t divs[CONV_MAX_CH], n = 0;
	for (int64_t g = 1; g <= C && n < CONV_MAX_CH; g++)
		if (C % g == 0)
			divs[n++] = g;
	return pick_of(c, divs, (unsigned)n);
}

/* Random parameters near what the input allows; `shrink` asks for a small,
 * surely valid window after many rejected tries. */
static void conv_random(struct chooser *c, enum conv_form f, unsigned nd, int64_t C, int64_t lmin, bool shrink,
			struct conv_p *cp)
{
	struct rng *r = c->rng;
	int64_t *v = cp->v;
	memcpy(v, conv_defaults, sizeof cp->v);
	v[S_CIN] = C;
	v[S_GROUPS] = pick_groups(c, C);
	v[S_COUT] = v[S_GROUPS] * rng_range(r, 1, v[S_GROUPS] >= 4 ? 2 : 4);
	v[S_BIAS] = rng_chance(r, 75);
	v[S_STRIDE] = shrink || rng_chance(r, 50) ? 1 : rng_range(r, 2, 3);
	v[S_DIL] = shrink || rng_chance(r, 70) ? 1 : rng_range(r, 2, 3);
	if (f == CF_MODE)
		v[S_MODE] = rng_chance(r, 10) ? CM_ZEROS : rng_range(r, CM_REFLECT, CM_CIRCULAR);
	else if (f == CF_SAME)
		v[S_MODE] = rng_range(r, CM_ZEROS, CM_CIRCULAR);
	int64_t plim = v[S_MODE] == CM_REFLECT ? lmin - 1 : v[S_MODE] == CM_CIRCULAR ? lmin : 3;
	plim = plim > 3 ? 3 : plim;
	if (is_transposed(f)) {
		int64_t k = rng_range(r, 1, shrink ? 2 : 4), span = v[S_DIL] * (k - 1);
		v[S_K] = k;
		v[S_PAD] = rng_chance(r, 40) ? 0 : rng_range(r, 0, span);
		int64_t opmax = (v[S_STRIDE] > v[S_DIL] ? v[S_STRIDE] : v[S_DIL]) - 1;
		v[S_OUTPAD] = rng_chance(r, 70) ? 0 : rng_range(r, 0, opmax);
	} else {
		v[S_PAD] = shrink || plim <= 0 || rng_chance(r, 40) ? 0 : rng_range(r, 1, plim);
		int64_t kmax = (lmin + 2 * v[S_PAD] - 1) / v[S_DIL] + 1;
		kmax = kmax > 5 ? 5 : kmax < 1 ? 1 : kmax;
		v[S_K] = rng_range(r, 1, shrink && kmax > 3 ? 3 : kmax);
	}
	for (unsigned i = 0; i < nd; i++) /* functional convs get a kernel size per dim */
		cp->k[i] = is_functional(f) && rng_chance(r, 30) ? rng_range(r, 1, v[S_K]) : v[S_K];
}

static int64_t weight_numel(const struct conv_p *cp, unsigned nd)
{
	int64_t n = cp->v[S_COUT] * (cp->v[S_CIN] / cp->v[S_GROUPS]);
	for (unsigned i = 0; i < nd; i++)
		n *= cp->k[i];
	return n;
}

/* Weight (and bias) operands of a functional conv, shaped by cp. */
static bool conv_operands(struct chooser *c, struct op_choice *ch, enum conv_form f, unsigned nd,
			  const struct conv_p *cp, enum dtype dt)
{
	int32_t wd[G_MAX_RANK] = {0};
	int64_t g = cp->v[S_GROUPS];
	wd[0] = (int32_t)(is_transposed(f) ? cp->v[S_CIN] : cp->v[S_COUT]);
	wd[1] = (int32_t)(is_transposed(f) ? cp->v[S_COUT] / g : cp->v[S_CIN] / g);
	for (unsigned i = 0; i < nd; i++)
		wd[2 + i] = (int32_t)cp->k[i];
	int32_t bd[1] = {(int32_t)cp->v[S_COUT]};
	struct tensor_req wq = req_static(dt, nd + 2, wd), bq = req_static(dt, 1, bd);
	int w = c->operand(c, &wq);
	int b = w < 0 ? -1 : c->operand(c, &bq);
	if (b < 0)
		return false;
	ch->nin = 3;
	ch->in[1] = (uint16_t)w;
	ch->in[2] = (uint16_t)b;
	return true;
}

static bool choose_conv(struct chooser *c, struct op_choice *ch, enum conv_form f, unsigned nd)
{
	const struct graph *g = c->g;
	const struct value *x = &g->v[ch->in[0]];
	if (x->rank != nd + 1 && x->rank != nd + 2)
		return false;
	unsigned cdim = x->rank - nd - 1;
	if ((x->dyn >> cdim) & 1)
		return false;
	int64_t C = x->dim[0][cdim], lmin = value_trailing_min(g, x, nd);
	struct infer_io io;
	memset(&io, 0, sizeof io);
	io.g = g;
	io.nbind = g->nbind;
	io.nin = 1;
	io.in[0] = x;
	for (unsigned t = 0; t < 24; t++) {
		struct conv_p cp;
		conv_random(c, f, nd, C, lmin, t >= 12, &cp);
		if (weight_numel(&cp, nd) > CONV_W_BUDGET || !conv_shape(&io, f, nd, &cp))
			continue;
		bool small = true;
		FOR_BIND(&io, b) small &= value_numel(&io.out[0], b) <= CONV_OUT_BUDGET;
		if (!small)
			continue;
		ch->nattr = (uint8_t)form_nattr(f);
		for (unsigned s = 0; s < S_COUNT; s++)
			if (conv_slots[f][s] >= 0)
				ch->attr[conv_slots[f][s]] = cp.v[s];
		return is_functional(f) ? conv_operands(c, ch, f, nd, &cp, (enum dtype)x->dtype) : true;
	}
	return false;
}

#define CONV_FNS(tag, form, nd) \
	static bool infer_##tag(struct infer_io *io) { return conv_rule(io, form, nd); } \
	static bool choose_##tag(struct chooser *c, struct op_choice *ch) { return choose_conv(c, ch, form, nd); }
CONV_FNS(conv1, CF_MOD, 1)
CONV_FNS(conv2, CF_MOD, 2)
CONV_FNS(conv3, CF_MOD, 3)
CONV_FNS(mode1, CF_MODE, 1)
CONV_FNS(mode2, CF_MODE, 2)
CONV_FNS(mode3, CF_MODE, 3)
CONV_FNS(same1, CF_SAME, 1)
CONV_FNS(same2, CF_SAME, 2)
CONV_FNS(same3, CF_SAME, 3)
CONV_FNS(tmod1, CF_TMOD, 1)
CONV_FNS(tmod2, CF_TMOD, 2)
CONV_FNS(tmod3, CF_TMOD, 3)
CONV_FNS(func1, CF_FUNC, 1)
CONV_FNS(func2, CF_FUNC, 2)
CONV_FNS(func3, CF_FUNC, 3)
CONV_FNS(tfunc1, CF_TFUNC, 1)
CONV_FNS(tfunc2, CF_TFUNC, 2)
CONV_FNS(tfunc3, CF_TFUNC, 3)

#define A_CONV "in_channels out_channels kernel_size stride padding dilation groups bias?"
#define A_TCONV "in_channels out_channels kernel_size stride padding output_padding groups bias? dilation"
#define CONV(nm, tag, nd, nin, dt, w, attrs_, py_, ctor_) \
	{.name = nm, .family = FAM_CONV, .nin_min = nin, .nin_max = nin, .rank_min = nd + 1, .rank_max = nd + 2, \
	 .dtypes = dt, .layout = LAYOUT_KEEP, .weight = w, .attrs = attrs_, .py = py_, .ctor = ctor_, \
	 .strs = conv_modes, .infer = infer_##tag, .choose = choose_##tag}
#define MCONV(nm, tag, nd, w, cls) \
	CONV(nm, tag, nd, 1, DTM_FLOAT, w, A_CONV, NULL, \
	     "torch.nn." cls "(#0, #1, #2, stride=#3, padding=#4, dilation=#5, groups=#6, bias=#7, dtype=#T)")
#define PCONV(nm, tag, nd, cls) \
	CONV(nm, tag, nd, 1, DTM_FLOAT, 1, A_CONV " padding_mode$", NULL, \
	     "torch.nn." cls "(#0, #1, #2, stride=#3, padding=#4, dilation=#5, groups=#6, bias=#7, " \
	     "padding_mode=#8, dtype=#T)")
#define SCONV(nm, tag, nd, cls) \
	CONV(nm, tag, nd, 1, DTM_FLOAT, 1, "in_channels out_channels kernel_size dilation groups bias? padding_mode$", \
	     NULL, \
	     "torch.nn." cls "(#0, #1, #2, padding='same', dilation=#3, groups=#4, bias=#5, padding_mode=#6, " \
	     "dtype=#T)")
#define TCONV(nm, tag, nd, w, cls) \
	CONV(nm, tag, nd, 1, DTM_FLOAT, w, A_TCONV, NULL, \
	     "torch.nn." cls "(#0, #1, #2, stride=#3, padding=#4, output_padding=#5, groups=#6, bias=#7, " \
	     "dilation=#8, dtype=#T)")
#define FCONV(nm, tag, nd, w, fn) \
	CONV(nm, tag, nd, 3, DTM_FLOAT, w, "stride padding dilation groups", \
	     "torch.nn.functional." fn "(@0, @1, @2, stride=#0, padding=#1, dilation=#2, groups=#3)", NULL)
#define FTCONV(nm, tag, nd, w, fn) \
	CONV(nm, tag, nd, 3, DTM_FLOAT, w, "stride padding output_padding groups dilation", \
	     "torch.nn.functional." fn "(@0, @1, @2, stride=#0, padding=#1, output_padding=#2, groups=#3, " \
	     "dilation=#4)", NULL)

const struct op_def ops_conv[] = {
	MCONV("conv1d", conv1, 1, 3, "Conv1d"),
	MCONV("conv2d", conv2, 2, 4, "Conv2d"),
	MCONV("conv3d", conv3, 3, 2, "Conv3d"),
	PCONV("conv1d_padding_mode", mode1, 1, "Conv1d"),
	PCONV("conv2d_padding_mode", mode2, 2, "Conv2d"),
	PCONV("conv3d_padding_mode", mode3, 3, "Conv3d"),
	SCONV("conv1d_same", same1, 1, "Conv1d"),
	SCONV("conv2d_same", same2, 2, "Conv2d"),
	SCONV("conv3d_same", same3, 3, "Conv3d"),
	TCONV("conv_transpose1d", tmod1, 1, 2, "ConvTranspose1d"),
	TCONV("conv_transpose2d", tmod2, 2, 2, "ConvTranspose2d"),
	TCONV("conv_transpose3d", tmod3, 3, 1, "ConvTranspose3d"),
	FCONV("functional_conv1d", func1, 1, 1, "conv1d"),
	FCONV("functional_conv2d", func2, 2, 2, "conv2d"),
	FCONV("functional_conv3d", func3, 3, 1, "conv3d"),
	FTCONV("functional_conv_transpose1d", tfunc1, 1, 1, "conv_transpose1d"),
	FTCONV("functional_conv_transpose2d", tfunc2, 2, 1, "conv_transpose2d"),
	FTCONV("functional_conv_transpose3d", tfunc3, 3, 1, "conv_transpose3d"),
};
FAMILY_COUNT(conv);
