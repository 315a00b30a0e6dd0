/* Normalization. Modules (built in __init__, run in eval()): BatchNorm1d/2d/3d,
 * InstanceNorm1d/2d/3d, LayerNorm, GroupNorm, RMSNorm, LocalResponseNorm.
 * Functional forms: F.batch_norm (running stats as inputs), F.layer_norm,
 * F.rms_norm, F.group_norm, F.instance_norm, F.local_response_norm,
 * F.normalize, torch.renorm.
 *
 * A module's feature count is a constant, so the dims it names must be
 * static; the functional forms take dynamic dims ([@] shape lists print
 * x.size(d)). eps is spelled 1e-N from an integer attribute eps_exp.
 * torch raises on statistics over one element: batch statistics (BatchNorm
 * without running stats; GroupNorm always) need more than one value per
 * channel or group, instance statistics more than one spatial element. */
#include "../opkit.h"
#include "families.h"

#define EPS_EXP_MAX 12
#define MILLI_MAX 100000 /* alpha, beta, k, p, maxnorm: at most 100 */

/* ---- rule helpers ---- */

static bool eps_ok(struct infer_io *io, unsigned at) { return io_attr_range(io, at, 1, EPS_EXP_MAX); }

/* Dim d of input 0 is the constant attribute `at` at every binding. */
static bool features_at(struct infer_io *io, unsigned d, unsigned at)
{
	const struct value *x = io->in[0];
	if (!io_attr_range(io, at, 1, G_MAX_DIM))
		return false;
	FOR_BIND(io, b) if (x->dim[b][d] != io->attr[at]) return io_fail(io,
		"dim %u is %d, the module has %lld features (binding %u)", d, (int)x->dim[b][d], (long long)io->attr[at], b);
	return true;
}

/* Product of input 0's dims from `from` on, times `scale`, exceeds 1 at every binding. */
static bool stats_over_many(struct infer_io *io, unsigned from, const int64_t *scale, const char *what)
{
	const struct value *x = io->in[0];
	FOR_BIND(io, b) {
		int64_t n = scale ? scale[b] : 1;
		for (unsigned d = from; d < x->rank; d++)
			n *= x->dim[b][d];
		if (n <= 1)
			return io_fail(io, "one element per %s (binding %u)", what, b);
	}
	return true;
}

static bool out_same(struct infer_io *io)
{
	io->nout = 1;
	io_out_like(io, 0, io->in[0], (enum dtype)io->in[0]->dtype);
	return true;
}

/* A normalized_shape list at attribute `at`: the last k dims of input 0.
 * dyn: items may be -2-d, input 0's size of dim d at run time (d must be
 * the matching dim). */
static bool norm_shape(struct infer_io *io, unsigned at, bool dyn)
{
	const struct value *x = io->in[0];
	if (io->nattr <= at || io->attr[at] < 1 || io->attr[at] > x->rank || io->nattr != at + 1 + io->attr[at])
		return io_fail(io, "normalized_shape must list 1 to %u trailing dims", x->rank);
	unsigned k = (unsigned)io->attr[at];
	for (unsigned i = 0; i < k; i++) {
		unsigned d = x->rank - k + i;
		int64_t s = io->attr[at + 1 + i];
		if (dyn && s == -2 - (int64_t)d)
			continue;
		FOR_BIND(io, b) if (s != x->dim[b][d]) return io_fail(io,
			"normalized_shape[%u] = %lld, dim %u is %d (binding %u)", i, (long long)s, d, (int)x->dim[b][d], b);
	}
	return out_same(io);
}

/* ---- rules ---- */

/* BatchNormNd: attrs num_features eps_exp affine? track_running_stats?; channel dim 1. */
static bool infer_batch_norm(struct infer_io *io)
{
	if (!features_at(io, 1, 0) || !eps_ok(io, 1))
		return false;
	int64_t per[G_MAX_BIND];
	FOR_BIND(io, b) per[b] = io->in[0]->dim[b][0];
	if (!io->attr[3] && !stats_over_many(io, 2, per, "channel"))
		return false;
	return out_same(io);
}

/* F.batch_norm(x, running_mean, running_var[, weight]): each (C,), x's dtype. */
static bool infer_batch_norm_fn(struct infer_io *io)
{
	if (!eps_ok(io, 0) || !io_same_dtype(io))
		return false;
	for (unsigned i = 1; i < io->nin; i++) {
		if (io->in[i]->rank != 1)
			return io_fail(io, "input %u must be 1-D", i);
		FOR_BIND(io, b) if (io->in[i]->dim[b][0] != io->in[0]->dim[b][1]) return io_fail(io,
			"input %u has %d elements, channels %d (binding %u)", i, (int)io->in[i]->dim[b][0],
			(int)io->in[0]->dim[b][1], b);
	}
	return out_same(io);
}

/* InstanceNormNd (k spatial dims): attrs as BatchNorm; channel dim rank-k-1
 * (0 for an unbatched input). */
static bool instance_norm_rule(struct infer_io *io, unsigned k)
{
	unsigned ch = io->in[0]->rank - k - 1;
	if (!features_at(io, ch, 0) || !eps_ok(io, 1))
		return false;
	if (!io->attr[3] && !stats_over_many(io, ch + 1, NULL, "instance"))
		return false;
	return out_same(io);
}
static bool infer_instance_norm1(struct infer_io *io) { return instance_norm_rule(io, 1); }
static bool infer_instance_norm2(struct infer_io *io) { return instance_norm_rule(io, 2); }
static bool infer_instance_norm3(struct infer_io *io) { return instance_norm_rule(io, 3); }

/* F.instance_norm(x, eps): input statistics over dims 2.. */
static bool infer_instance_norm_fn(struct infer_io *io)
{
	return eps_ok(io, 0) && stats_over_many(io, 2, NULL, "instance") && out_same(io);
}

/* LayerNorm: attrs eps_exp elementwise_affine? bias? normalized_shape[] */
static bool infer_layer_norm(struct infer_io *io) { return eps_ok(io, 0) && norm_shape(io, 3, false); }
/* RMSNorm: attrs eps_exp elementwise_affine? normalized_shape[] */
static bool infer_rms_norm_module(struct infer_io *io) { return eps_ok(io, 0) && norm_shape(io, 2, false); }
/* F.layer_norm / F.rms_norm: attrs eps_exp normalized_shape[@] */
static bool infer_norm_shape_fn(struct infer_io *io) { return eps_ok(io, 0) && norm_shape(io, 1, true); }

/* Group statistics over (N*C/G) * spatial values; G divides C at every binding. */
static bool group_rule(struct infer_io *io, unsigned g_at)
{
	const struct value *x = io->in[0];
	if (!io_attr_range(io, g_at, 1, G_MAX_DIM))
		return false;
	int64_t g = io->attr[g_at], per[G_MAX_BIND];
	FOR_BIND(io, b) {
		if (x->dim[b][1] % g)
			return io_fail(io, "%lld groups do not divide %d channels (binding %u)", (long long)g,
				       (int)x->dim[b][1], b);
		per[b] = (int64_t)x->dim[b][0] * x->dim[b][1] / g;
	}
	return stats_over_many(io, 2, per, "group") && out_same(io);
}
/* GroupNorm: attrs num_groups num_channels eps_exp affine? */
static bool infer_group_norm(struct infer_io *io) { return features_at(io, 1, 1) && eps_ok(io, 2) && group_rule(io, 0); }
/* F.group_norm: attrs num_groups eps_exp */
static bool infer_group_norm_fn(struct infer_io *io) { return eps_ok(io, 1) && group_rule(io, 0); }

/* LocalResponseNorm: attrs size alpha~ beta~ k~. Above 3-D it views x*x
 * as (N, 1, C, H, -1), which needs a contiguous input. */
static bool infer_lrn(struct infer_io *io)
{
	if (!io_attr_range(io, 0, 1, 64) || !io_attr_range(io, 1, 1, MILLI_MAX) || !io_attr_range(io, 2, 1, MILLI_MAX) ||
	    !io_attr_range(io, 3, 1, MILLI_MAX))
		return false;
	if (io->in[0]->rank > 3 && !io->in[0]->contig)
		return io_fail(io, "local_response_norm of a %u-D input needs it contiguous", io->in[0]->rank);
	return out_same(io);
}

/* F.normalize: attrs p~ dim eps_exp */
static bool infer_normalize(struct infer_io *io)
{
	if (!io_attr_range(io, 0, 1, MILLI_MAX) || !eps_ok(io, 2))
		return false;
	if (io_dim(io->attr[1], io->in[0]->rank) < 0)
		return io_fail(io, "dim %lld out of range", (long long)io->attr[1]);
	return out_same(io);
}

/* torch.renorm: attrs p~ dim maxnorm~ */
static bool infer_renorm(struct infer_io *io)
{
	if (!io_attr_range(io, 0, 1, MILLI_MAX) || !io_attr_range(io, 2, 1, MILLI_MAX))
		return false;
	if (io_dim(io->attr[1], io->in[0]->rank) < 0)
		return io_fail(io, "dim %lld out of range", (long long)io->attr[1]);
	return out_same(io);
}

/* ---- choosers ---- */

static int64_t pick_eps(struct chooser *c)
{
	static const int64_t e[] = {5, 5, 5, 6, 3, 12, 8};
	return pick_of(c, e, NELEM(e));
}

static bool is_static(const struct value *x, unsigned d) { return !(x->dyn >> d & 1); }

/* Module with num_features on dim chan: attrs num_features eps_exp affine? track_running_stats?;
 * without running stats, statistics need more than one element. */
static bool choose_features(struct chooser *c, struct op_choice *ch, unsigned chan, bool batch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	if (!is_static(x, chan))
		return false;
	bool many = true;
	for (unsigned b = 0; b < c->g->nbind; b++) {
		int64_t n = value_numel(x, b) / x->dim[b][chan];
		for (unsigned d = 0; !batch && d < chan; d++)
			n /= x->dim[b][d]; /* instance stats: the spatial dims only */
		many &= n > 1;
	}
	ch->nattr = 4;
	ch->attr[0] = x->dim[0][chan];
	ch->attr[1] = pick_eps(c);
	ch->attr[2] = rng_chance(c->rng, 70);
	ch->attr[3] = !many || rng_chance(c->rng, batch ? 75 : 30);
	return true;
}
static bool choose_batch_norm(struct chooser *c, struct op_choice *ch) { return choose_features(c, ch, 1, true); }
#define IN_CHOOSE(k) \
	static bool choose_instance_norm##k(struct chooser *c, struct op_choice *ch) \
	{ return choose_features(c, ch, c->g->v[ch->in[0]].rank - k - 1, false); }
IN_CHOOSE(1)
IN_CHOOSE(2)
IN_CHOOSE(3)

/* Running stats (and a weight) of C elements each; the variance positive. */
static bool choose_batch_norm_inputs(struct chooser *c, struct op_choice *ch, unsigned nin)
{
	const struct value *x = &c->g->v[ch->in[0]];
	struct tensor_req r = req_like(x);
	r.rank = 1;
	for (unsigned b = 0; b < G_MAX_BIND; b++)
		r.dim[b][0] = x->dim[b][1];
	r.want_param = 1;
	for (unsigned i = 1; i < nin; i++) {
		/* A negative variance would give NaNs: only positive leaves. */
		int id = i == 2 ? pick_positive(c, r) : c->operand(c, &r);
		if (id < 0)
			return false;
		ch->in[i] = (uint16_t)id;
	}
	ch->nin = (uint8_t)nin;
	ch->nattr = 1;
	ch->attr[0] = pick_eps(c);
	return true;
}
static bool choose_batch_norm_fn(struct chooser *c, struct op_choice *ch) { return choose_batch_norm_inputs(c, ch, 3); }
static bool choose_batch_norm_fn_weight(struct chooser *c, struct op_choice *ch)
{
	return choose_batch_norm_inputs(c, ch, 4);
}

/* normalized_shape: the last k <= 3 dims (static ones only when !dyn) at
 * attribute `at`; dyn lists name dims by size(d), always for dynamic ones. */
static bool choose_norm_shape(struct chooser *c, struct op_choice *ch, unsigned at, bool dyn)
{
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned kmax = 0;
	while (kmax < x->rank && kmax < 3 && (dyn || is_static(x, x->rank - 1 - kmax)))
		kmax++;
	if (!kmax)
		return false;
	unsigned k = (unsigned)rng_range(c->rng, 1, kmax);
	ch->attr[at] = k;
	for (unsigned i = 0; i < k; i++) {
		unsigned d = x->rank - k + i;
		bool by_size = dyn && (!is_static(x, d) || rng_chance(c->rng, 50));
		ch->attr[at + 1 + i] = by_size ? -2 - (int64_t)d : x->dim[0][d];
	}
	ch->nattr = (uint8_t)(at + 1 + k);
	ch->attr[0] = pick_eps(c);
	for (unsigned i = 1; i < at; i++)
		ch->attr[i] = rng_chance(c->rng, 70); /* elementwise_affine, bias */
	return true;
}
static bool choose_layer_norm(struct chooser *c, struct op_choice *ch) { return choose_norm_shape(c, ch, 3, false); }
static bool choose_rms_norm_module(struct chooser *c, struct op_choice *ch) { return choose_norm_shape(c, ch, 2, false); }
static bool choose_norm_shape_fn(struct chooser *c, struct op_choice *ch) { return choose_norm_shape(c, ch, 1, true); }

/* A group count dividing the channels at every binding. */
static int64_t pick_groups(struct chooser *c, const struct value *x)
{
	int64_t cands[64];
	unsigned n = 0;
	int32_t cmin = value_dim_min(c->g, x, 1);
	for (int64_t g = 1; g <= cmin && n < NELEM(cands); g++) {
		bool ok = true;
		for (unsigned b = 0; b < c->g->nbind; b++)
			ok &= x->dim[b][1] % g == 0;
		if (ok)
			cands[n++] = g;
	}
	return pick_of(c, cands, n);
}

static bool choose_group_norm(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	if (!is_static(x, 1))
		return false;
	ch->nattr = 4;
	ch->attr[0] = pick_groups(c, x);
	ch->attr[1] = x->dim[0][1];
	ch->attr[2] = pick_eps(c);
	ch->attr[3] = rng_chance(c->rng, 70);
	return true;
}

static bool choose_group_norm_fn(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 2;
	ch->attr[0] = pick_groups(c, &c->g->v[ch->in[0]]);
	ch->attr[1] = pick_eps(c);
	return true;
}

static bool choose_eps(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = pick_eps(c);
	return true;
}

static bool choose_lrn(struct chooser *c, struct op_choice *ch)
{
	static const int64_t size[] = {1, 2, 3, 5, 7}, alpha[] = {1, 10, 100, 1000}, beta[] = {750, 500, 1000, 2000},
			     k[] = {1000, 2000, 500};
	ch->nattr = 4;
	ch->attr[0] = pick_of(c, size, NELEM(size));
	ch->attr[1] = pick_of(c, alpha, NELEM(alpha));
	ch->attr[2] = pick_of(c, beta, NELEM(beta));
	ch->attr[3] = pick_of(c, k, NELEM(k));
	return true;
}

/* normalize (p dim eps_exp) and renorm (p dim maxnorm): a p-norm along one dim. */
static bool choose_pnorm(struct chooser *c, struct op_choice *ch, bool renorm)
{
	static const int64_t p[] = {2000, 2000, 1000, 3000, 1500, 500}, maxnorm[] = {1000, 500, 5000};
	ch->nattr = 3;
	ch->attr[0] = pick_of(c, p, NELEM(p));
	ch->attr[1] = pick_dim(c, c->g->v[ch->in[0]].rank);
	ch->attr[2] = renorm ? pick_of(c, maxnorm, NELEM(maxnorm)) : pick_eps(c);
	return true;
}
static bool choose_normalize(struct chooser *c, struct op_choice *ch) { return choose_pnorm(c, ch, false); }
static bool choose_renorm(struct chooser *c, struct op_choice *ch) { return choose_pnorm(c, ch, true); }

/* ---- the table ---- */

#define NORM_GRAD(nm, nin, rmin, rmax, dt, w, attrs_, spelling, ctor_, inf, chs, nograd_) \
	{.name = nm, .family = FAM_NORM, .nin_min = nin, .nin_max = nin, .rank_min = rmin, .rank_max = rmax, \
	 .dtypes = dt, .layout = LAYOUT_KEEP, .nograd = nograd_, .weight = w, .attrs = attrs_, .py = spelling, \
	 .ctor = ctor_, .infer = inf, .choose = chs}
#define NORM(nm, nin, rmin, rmax, dt, w, attrs_, spelling, ctor_, inf, chs) \
	NORM_GRAD(nm, nin, rmin, rmax, dt, w, attrs_, spelling, ctor_, inf, chs, 0)
#define FEATURES_ATTRS "num_features eps_exp affine? track_running_stats?"
#define FEATURES_CTOR(cls) "torch.nn." cls "(#0, eps=1e-#1, affine=#2, track_running_stats=#3, dtype=#T)"
#define BN(nm, cls, rmin, rmax) \
	NORM(nm, 1, rmin, rmax, DTM_FLOAT, 2, FEATURES_ATTRS, NULL, FEATURES_CTOR(cls), infer_batch_norm, \
	     choose_batch_norm)
#define IN(nm, cls, k) \
	NORM(nm, 1, k + 1, k + 2, DTM_FLOAT, 1, FEATURES_ATTRS, NULL, FEATURES_CTOR(cls), infer_instance_norm##k, \
	     choose_instance_norm##k)
#define SHAPE_FN(nm, fn) \
	NORM(nm, 1, 1, G_MAX_RANK, DTM_FLOAT, 2, "eps_exp normalized_shape[@]", \
	     "torch.nn.functional." fn "(@0, #1, eps=1e-#0)", NULL, infer_norm_shape_fn, choose_norm_shape_fn)
#define LRN_ARGS "#0, alpha=#1, beta=#2, k=#3)"

const struct op_def ops_norm[] = {
	BN("batch_norm1d", "BatchNorm1d", 2, 3),
	BN("batch_norm2d", "BatchNorm2d", 4, 4),
	BN("batch_norm3d", "BatchNorm3d", 5, 5),
	/* the running statistics (inputs 1, 2) take no gradient */
	NORM_GRAD("batch_norm_fn", 3, 2, G_MAX_RANK, DTM_FLOAT, 2, "eps_exp",
		  "torch.nn.functional.batch_norm(@0, @1, @2, training=False, eps=1e-#0)", NULL, infer_batch_norm_fn,
		  choose_batch_norm_fn, 6),
	NORM_GRAD("batch_norm_fn_weight", 4, 2, G_MAX_RANK, DTM_FLOAT, 1, "eps_exp",
		  "torch.nn.functional.batch_norm(@0, @1, @2, @3, training=False, eps=1e-#0)", NULL, infer_batch_norm_fn,
		  choose_batch_norm_fn_weight, 6),
	IN("instance_norm1d", "InstanceNorm1d", 1),
	IN("instance_norm2d", "InstanceNorm2d", 2),
	IN("instance_norm3d", "InstanceNorm3d", 3),
	NORM("instance_norm_fn", 1, 3, G_MAX_RANK, DTM_FLOAT, 1, "eps_exp", "torch.nn.functional.instance_norm(@0, eps=1e-#0)",
	     NULL, infer_instance_norm_fn, choose_eps),
	NORM("layer_norm", 1, 1, G_MAX_RANK, DTM_FLOAT, 3, "eps_exp elementwise_affine? bias? normalized_shape[]", NULL,
	     "torch.nn.LayerNorm(#3, eps=1e-#0, elementwise_affine=#1, bias=#2, dtype=#T)", infer_layer_norm,
	     choose_layer_norm),
	SHAPE_FN("layer_norm_fn", "layer_norm"),
	SHAPE_FN("rms_norm", "rms_norm"),
	NORM("rms_norm_module", 1, 1, G_MAX_RANK, DTM_FLOAT, 1, "eps_exp elementwise_affine? normalized_shape[]", NULL,
	     "torch.nn.RMSNorm(#2, eps=1e-#0, elementwise_affine=#1, dtype=#T)", infer_rms_norm_module,
	     choose_rms_norm_module),
	NORM("group_norm", 1, 2, G_MAX_RANK, DTM_FLOAT, 2, "num_groups num_channels eps_exp affine?", NULL,
	     "torch.nn.GroupNorm(#0, #1, eps=1e-#2, affine=#3, dtype=#T)", infer_group_norm, choose_group_norm),
	NORM("group_norm_fn", 1, 2, G_MAX_RANK, DTM_FLOAT, 1, "num_groups eps_exp",
	     "torch.nn.functional.group_norm(@0, #0, eps=1e-#1)", NULL, infer_group_norm_fn, choose_group_norm_fn),
	/* CPU has no float16/bfloat16 local_response_norm (its avg_pool3d). */
	NORM("local_response_norm", 1, 3, G_MAX_RANK, DTM_F32_F64, 1, "size alpha~ beta~ k~", NULL,
	     "torch.nn.LocalResponseNorm(" LRN_ARGS, infer_lrn, choose_lrn),
	NORM("local_response_norm_fn", 1, 3, G_MAX_RANK, DTM_F32_F64, 1, "size alpha~ beta~ k~",
	     "torch.nn.functional.local_response_norm(@0, " LRN_ARGS, NULL, infer_lrn, choose_lrn),
	NORM("normalize", 1, 0, G_MAX_RANK, DTM_FLOAT, 2, "p~ dim eps_exp",
	     "torch.nn.functional.normalize(@0, p=#0, dim=#1, eps=1e-#2)", NULL, infer_normalize, choose_normalize),
	NORM("renorm", 1, 2, G_MAX_RANK, DTM_FLOAT, 1, "p~ dim maxnorm~", "torch.renorm(@0, #0, #1, #2)", NULL,
	     infer_renorm, choose_renorm),
};
FAMILY_COUNT(norm);
