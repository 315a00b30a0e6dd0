/* Losses of torch.nn.functional. Attribute 0 of every loss is its
 * reduction: 'none' keeps the elementwise (or per-sample) shape, 'mean' and
 * 'sum' (and kl_div's 'batchmean') give a 0-d loss.
 *
 * Each loss is a spec: what its inputs 1 and 2 are (a kind of values and a
 * shape relation to input 0), how its 'none' shape follows, and the ranges
 * of its further attributes. One rule and one chooser read the spec.
 * - Float operands have input 0's dtype, but for the losses that promote
 *   (`promote`: mse, l1, smooth_l1, kl_div, poisson_nll, forward and
 *   backward), whose target may be another float dtype and the loss their
 *   promoted one. BCE raises on a mix, and huber_loss's backward does.
 * - 0/1 targets are bool or integer values bounded in [0, 1], spelled
 *   @k.to(@0.dtype), or (@k * 2 - 1).to(@0.dtype) for -1/1 targets: BCE
 *   raises on targets outside [0, 1], integer bounds survive every mutation
 *   (a float leaf's fill does not), and @0.dtype follows fp64 mode's cast.
 * - Class targets are int64 (torch takes int64 or uint8 only) bounded in
 *   [0, C - 1] at every binding (IndexError past it); multilabel_margin_loss's
 *   label lists in [-1, C - 1] (a -1 ends a sample's labels).
 * - gaussian_nll_loss raises on a negative var: only positive leaves.
 * binary_cross_entropy reads torch.sigmoid(torch.nan_to_num(input 0)): it
 * raises unless every input lies in [0, 1], and NaN does not.
 *
 * Dtypes (torch 2.15 CPU): every float dtype; multi_margin_loss float32
 * and float64 only (no half kernel on CPU), as multilabel_margin_loss. Eager autograd has no
 * derivative for the class weights (cross_entropy, nll_loss,
 * multi_margin_loss) nor BCE's weight and pos_weight: `nograd`.
 * Left out: the `weight=` of mse/l1/huber (a recent addition that older
 * torch, which the project also runs, may lack; unchecked). */
#include <string.h>
#include "../opkit.h"
#include "families.h"

#define MILLI_MAX 5000 /* margins, beta, delta: at most 5 */

enum kind { K_NONE, K_FLOAT, K_FLOAT_POS, K_POSITIVE_LEAF, K_BINARY, K_CLASS, K_LABELS };
/* K_FLOAT_POS: a float the chooser draws positive (kl_div's and poisson's
 * targets, weights) but the rule need not: torch does not check. */

enum rel {
	R_SAME,     /* input 0's shape */
	R_BCAST,    /* broadcasts with input 0 (and the inputs before it) */
	R_INTO,     /* broadcasts into input 0's shape without growing it */
	R_NO_LAST,  /* input 0's shape without its last dim (cosine's target) */
	R_NO_CLASS, /* input 0's shape without its class dim (class targets) */
	R_CLASSES,  /* 1-D, one per class (class weights) */
	R_VAR       /* gaussian_nll_loss's var: input 0's shape, without its last dim, or one dim 1 */
};

/* The 'none' shape: the broadcast of the inputs, input 0's without its
 * class dim, or the broadcast without dim rank(input 0) - 1 (if any). */
enum out { O_BCAST, O_NO_CLASS, O_NO_LAST };

struct loss_attr {
	int64_t lo, hi;
	int64_t pick[4];
	uint8_t npick;
};

struct loss_spec {
	struct {
		uint8_t kind, rel;
	} in[2];             /* inputs 1 and 2 */
	uint8_t out;         /* enum out */
	uint8_t same_rank;   /* every input of input 0's rank (margin_ranking, triplet) */
	uint8_t promote;     /* input 1 may be of another float dtype: the loss is of the promoted one */
	uint8_t nred;        /* reductions to choose from */
	uint8_t nattr;       /* after the reduction */
	struct loss_attr a[3];
};

/* ---- shapes ---- */

/* The class dim: 0 of a 1-D input, else 1 ([N, C, d1, ...]). */
static unsigned class_dim(const struct value *x) { return x->rank == 1 ? 0 : 1; }

/* v without dim d (v itself when 0-d). */
static void drop_dim(const struct value *v, unsigned d, struct value *s)
{
	memset(s, 0, sizeof *s);
	s->rank = v->rank ? v->rank - 1 : 0;
	for (unsigned b = 0; b < G_MAX_BIND; b++)
		for (unsigned k = 0; k < s->rank; k++)
			s->dim[b][k] = v->dim[b][k + (k >= d)];
}

/* v (input i, or what it broadcasts to) has shape s at every binding. */
static bool same_dims(struct infer_io *io, unsigned i, const struct value *v, const struct value *s)
{
	if (v->rank != s->rank)
		return io_fail(io, "input %u: %u-D, needs %u-D", i, v->rank, s->rank);
	FOR_BIND(io, b) for (unsigned d = 0; d < s->rank; d++) if (v->dim[b][d] != s->dim[b][d])
		return io_fail(io, "input %u: dim %u is %d, needs %d (binding %u)", i, d, (int)v->dim[b][d],
			       (int)s->dim[b][d], b);
	return true;
}

/* A class weight's shape: one element per class of x. */
static void classes_shape(const struct value *x, struct value *s)
{
	memset(s, 0, sizeof *s);
	s->rank = 1;
	for (unsigned b = 0; b < G_MAX_BIND; b++)
		s->dim[b][0] = x->dim[b][class_dim(x)];
}

/* torch's check of var against input x, at every binding: equal shapes, or
 * var.size() == x.size()[:-1], or x's rank with the sizes of var where they
 * differ summing to 1 (one dim, where var is 1). */
static bool var_shape(struct infer_io *io, const struct value *x, const struct value *v)
{
	FOR_BIND(io, b) {
		int64_t off = 0;
		bool short_ok = v->rank + 1 == x->rank;
		for (unsigned d = 0; d < v->rank && d < x->rank; d++) {
			off += v->dim[b][d] != x->dim[b][d] ? v->dim[b][d] : 0;
			short_ok &= v->dim[b][d] == x->dim[b][d];
		}
		if (!(v->rank == x->rank && off <= 1) && !short_ok)
			return io_fail(io, "var is of incorrect size (binding %u)", b);
	}
	return true;
}

static bool shape_ok(struct infer_io *io, unsigned i, enum rel r, struct value *acc)
{
	const struct value *x = io->in[0], *v = io->in[i];
	struct value s;
	switch (r) {
	case R_SAME: return same_dims(io, i, v, x);
	case R_BCAST: s = *acc; return io_broadcast(io, &s, v, acc);
	case R_INTO: return io_broadcast(io, x, v, &s) && same_dims(io, i, &s, x);
	case R_NO_LAST: drop_dim(x, x->rank - 1, &s); return same_dims(io, i, v, &s);
	case R_NO_CLASS: drop_dim(x, class_dim(x), &s); return same_dims(io, i, v, &s);
	case R_CLASSES: classes_shape(x, &s); return same_dims(io, i, v, &s);
	default: return var_shape(io, x, v);
	}
}

/* ---- values ---- */

static bool value_ok(struct infer_io *io, unsigned i, enum kind k, bool promote)
{
	const struct value *x = io->in[0], *v = io->in[i];
	if (k == K_BINARY) {
		if (dtype_is_float(v->dtype) || v->lo < 0 || v->hi > 1)
			return io_fail(io, "input %u must hold only 0 and 1 (bool, or an integer in [0, 1])", i);
		return true;
	}
	if (k == K_CLASS || k == K_LABELS) {
		int32_t n = io_dim_min(io, x, class_dim(x)), lo = k == K_LABELS ? -1 : 0;
		if (v->dtype != DT_INT64 || v->lo < lo || v->hi > n - 1)
			return io_fail(io, "class targets must be int64 in [%d, %d], are %s in [%lld, %lld]", lo, n - 1,
				       dtype_info(v->dtype)->name, (long long)v->lo, (long long)v->hi);
		return true;
	}
	if (v->dtype != x->dtype && !(promote && i == 1 && dtype_is_float(v->dtype)))
		return io_fail(io, "input %u is %s, input 0 %s", i, dtype_info(v->dtype)->name,
			       dtype_info(x->dtype)->name);
	if (k == K_POSITIVE_LEAF && (v->kind == VK_NODE || v->fill != FILL_POSITIVE))
		return io_fail(io, "input %u must be a positive leaf (torch raises on a negative var)", i);
	return true;
}

/* ---- the rule ---- */

static bool loss_rule(struct infer_io *io, const struct loss_spec *s)
{
	const struct value *x = io->in[0];
	for (unsigned i = 0; i < s->nattr; i++)
		if (!io_attr_range(io, 1 + i, s->a[i].lo, s->a[i].hi))
			return false;
	struct value acc = *x; /* the broadcast of the inputs so far */
	for (unsigned i = 1; i < io->nin; i++) {
		if (i > 2 || !s->in[i - 1].kind)
			return io_fail(io, "%u inputs, the loss takes %u", io->nin, i);
		if (s->same_rank && io->in[i]->rank != x->rank)
			return io_fail(io, "input %u is %u-D, input 0 %u-D: torch wants one rank", i, io->in[i]->rank,
				       x->rank);
		if (!value_ok(io, i, (enum kind)s->in[i - 1].kind, s->promote) || !shape_ok(io, i, (enum rel)s->in[i - 1].rel, &acc))
			return false;
	}
	struct value none = acc;
	if (s->out == O_NO_CLASS)
		drop_dim(x, class_dim(x), &none);
	else if (s->out == O_NO_LAST && x->rank)
		drop_dim(&acc, x->rank - 1u, &none);
	io->nout = 1;
	io_out_rank(io, 0, io->attr[0] ? 0 : none.rank,
		    s->promote ? dtype_promote((enum dtype)x->dtype, (enum dtype)io->in[1]->dtype) : (enum dtype)x->dtype);
	if (!io->attr[0])
		memcpy(io->out[0].dim, none.dim, sizeof none.dim);
	return true;
}

/* ---- the chooser ---- */

/* The shape of input i under relation r: a tensor request of x's dtype. */
static struct tensor_req shape_req(struct chooser *c, const struct value *x, enum rel r, bool same_rank)
{
	struct value s;
	struct tensor_req q = req_like(x);
	switch (r) {
	case R_SAME: return q;
	case R_BCAST:
	case R_INTO: {
		if (rng_chance(c->rng, 60))
			return q;
		struct tensor_req b = req_broadcast(c, x, (enum dtype)x->dtype);
		return same_rank && b.rank != x->rank ? q : b;
	}
	case R_NO_LAST: drop_dim(x, x->rank - 1, &s); break;
	case R_NO_CLASS: drop_dim(x, class_dim(x), &s); break;
	case R_CLASSES: classes_shape(x, &s); break;
	default: /* var: input 0's shape (mostly), without its last dim, or one dim 1 */
		if (x->rank && rng_chance(c->rng, 20)) {
			drop_dim(x, x->rank - 1, &s);
			break;
		}
		if (x->rank && rng_chance(c->rng, 25)) {
			unsigned d = (unsigned)rng_below(c->rng, x->rank);
			for (unsigned b = 0; b < G_MAX_BIND; b++)
				q.dim[b][d] = 1;
		}
		return q;
	}
	s.dtype = x->dtype;
	return req_like(&s);
}

static int pick_input(struct chooser *c, const struct value *x, enum kind k, enum rel r, bool same_rank,
		      bool promote)
{
	static const uint8_t binary_dtypes[] = {DT_BOOL, DT_INT64, DT_INT32};
	struct tensor_req q = shape_req(c, x, r, same_rank);
	if (promote && rng_chance(c->rng, 25))
		q.dtype = pick_dtype(c, DTM_FLOAT);
	q.want_param = r == R_CLASSES || r == R_INTO;
	switch (k) {
	case K_FLOAT_POS: q.fill = FILL_POSITIVE; break;
	case K_POSITIVE_LEAF: return pick_positive(c, q);
	case K_BINARY:
		q.dtype = binary_dtypes[rng_below(c->rng, NELEM(binary_dtypes))];
		q.fill = FILL_RANGE;
		q.lo = 0;
		q.hi = 1;
		q.want_param = 0;
		break;
	case K_CLASS:
	case K_LABELS:
		q.dtype = DT_INT64;
		q.fill = FILL_RANGE;
		q.lo = k == K_LABELS ? -1 : 0;
		q.hi = value_dim_min(c->g, x, class_dim(x)) - 1;
		break;
	default: break;
	}
	return c->operand(c, &q);
}

static bool loss_choose(struct chooser *c, struct op_choice *ch, const struct loss_spec *s)
{
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = (uint8_t)(1 + s->nattr);
	ch->attr[0] = (int64_t)rng_below(c->rng, s->nred);
	for (unsigned i = 0; i < s->nattr; i++)
		ch->attr[1 + i] = pick_of(c, s->a[i].pick, s->a[i].npick);
	for (unsigned i = 0; i < 2 && s->in[i].kind; i++) {
		int id = pick_input(c, x, (enum kind)s->in[i].kind, (enum rel)s->in[i].rel, s->same_rank,
				    s->promote && i == 0);
		if (id < 0)
			return false;
		ch->in[1 + i] = (uint16_t)id;
		ch->nin = (uint8_t)(2 + i);
	}
	return true;
}

/* ---- the specs ---- */

#define LOSS_FNS(tag, ...) \
	static const struct loss_spec spec_##tag = __VA_ARGS__; \
	static bool infer_##tag(struct infer_io *io) { return loss_rule(io, &spec_##tag); } \
	static bool choose_##tag(struct chooser *c, struct op_choice *ch) { return loss_choose(c, ch, &spec_##tag); }

#define IN1(k, r) .in = {{k, r}}
#define IN2(k1, r1, k2, r2) .in = {{k1, r1}, {k2, r2}}
#define BOOLEAN {0, 1, {0, 1}, 2}
#define MARGIN {-MILLI_MAX, MILLI_MAX, {1000, 0, 500, -500}, 4}
#define MARGIN_POS {1, MILLI_MAX, {1000, 500, 2000, 100}, 4}
#define IGNORE_INDEX {-1000, 1000, {-100, -100, 0, 1}, 4} /* targets in range anyway: any value */
#define SMOOTHING {0, 1000, {0, 100, 250, 1000}, 4}

LOSS_FNS(pair, {IN1(K_FLOAT, R_BCAST), .promote = 1, .nred = 3})
LOSS_FNS(smooth_l1, {IN1(K_FLOAT, R_BCAST), .promote = 1, .nred = 3, .nattr = 1, .a = {{0, MILLI_MAX, {1000, 500, 0, 2000}, 4}}})
LOSS_FNS(huber, {IN1(K_FLOAT, R_BCAST), .nred = 3, .nattr = 1, .a = {{1, MILLI_MAX, {1000, 500, 100, 2000}, 4}}})
LOSS_FNS(kl_div, {IN1(K_FLOAT_POS, R_BCAST), .promote = 1, .nred = 4, .nattr = 1, .a = {BOOLEAN}})
LOSS_FNS(poisson_nll, {IN1(K_FLOAT_POS, R_BCAST), .promote = 1, .nred = 3, .nattr = 2, .a = {BOOLEAN, BOOLEAN}})
LOSS_FNS(gaussian_nll, {IN2(K_FLOAT, R_BCAST, K_POSITIVE_LEAF, R_VAR), .nred = 3, .nattr = 1, .a = {BOOLEAN}})
LOSS_FNS(bce, {IN1(K_BINARY, R_SAME), .nred = 3})
LOSS_FNS(bce_weighted, {IN2(K_BINARY, R_SAME, K_FLOAT_POS, R_INTO), .nred = 3})
LOSS_FNS(hinge, {IN1(K_BINARY, R_BCAST), .nred = 3, .nattr = 1, .a = {MARGIN}})
LOSS_FNS(soft_margin, {IN1(K_BINARY, R_INTO), .nred = 3})
LOSS_FNS(multilabel_soft_margin, {IN1(K_BINARY, R_BCAST), .out = O_NO_LAST, .nred = 3})
LOSS_FNS(margin_ranking, {IN2(K_FLOAT, R_BCAST, K_BINARY, R_BCAST), .same_rank = 1, .nred = 3, .nattr = 1,
			  .a = {MARGIN}})
LOSS_FNS(cosine_embedding, {IN2(K_FLOAT, R_SAME, K_BINARY, R_NO_LAST), .out = O_NO_LAST, .nred = 3, .nattr = 1,
			    .a = {{-1000, 1000, {0, 500, -500, 1000}, 4}}})
LOSS_FNS(triplet, {IN2(K_FLOAT, R_BCAST, K_FLOAT, R_BCAST), .out = O_NO_LAST, .same_rank = 1, .nred = 3, .nattr = 3,
		   .a = {MARGIN_POS, {1000, 3000, {2000, 1000, 1500, 3000}, 4}, BOOLEAN}})
/* distance_function=None: pairwise_distance, so triplet's rule without p */
LOSS_FNS(triplet_dist, {IN2(K_FLOAT, R_BCAST, K_FLOAT, R_BCAST), .out = O_NO_LAST, .same_rank = 1, .nred = 3,
			.nattr = 2, .a = {MARGIN_POS, BOOLEAN}})
LOSS_FNS(cross_entropy, {IN1(K_CLASS, R_NO_CLASS), .out = O_NO_CLASS, .nred = 3, .nattr = 2,
			 .a = {IGNORE_INDEX, SMOOTHING}})
LOSS_FNS(cross_entropy_weighted, {IN2(K_CLASS, R_NO_CLASS, K_FLOAT_POS, R_CLASSES), .out = O_NO_CLASS, .nred = 3,
				  .nattr = 2, .a = {IGNORE_INDEX, SMOOTHING}})
LOSS_FNS(cross_entropy_prob, {IN1(K_FLOAT_POS, R_SAME), .out = O_NO_CLASS, .nred = 3, .nattr = 1, .a = {SMOOTHING}})
LOSS_FNS(nll, {IN1(K_CLASS, R_NO_CLASS), .out = O_NO_CLASS, .nred = 3, .nattr = 1, .a = {IGNORE_INDEX}})
LOSS_FNS(nll_weighted, {IN2(K_CLASS, R_NO_CLASS, K_FLOAT_POS, R_CLASSES), .out = O_NO_CLASS, .nred = 3, .nattr = 1,
			.a = {IGNORE_INDEX}})
LOSS_FNS(multi_margin, {IN1(K_CLASS, R_NO_CLASS), .out = O_NO_CLASS, .nred = 3, .nattr = 2,
			.a = {{1, 2, {1, 2}, 2}, MARGIN}})
LOSS_FNS(multi_margin_weighted, {IN2(K_CLASS, R_NO_CLASS, K_FLOAT_POS, R_CLASSES), .out = O_NO_CLASS, .nred = 3,
				 .nattr = 2, .a = {{1, 2, {1, 2}, 2}, MARGIN}})
LOSS_FNS(multilabel_margin, {IN1(K_LABELS, R_SAME), .out = O_NO_CLASS, .nred = 3})

/* ---- F.linear_cross_entropy(x, w, target) ----
 *
 * cross_entropy of linear(x, w): x [N, in] or [in], w [C, in] of x's
 * dtype, target int64 [N] or 0-d in [0, C - 1] (a larger x makes the class
 * dim another than w's rows: left out). Not a spec: the classes are w's. */
static bool infer_linear_ce(struct infer_io *io)
{
	const struct value *x = io->in[0], *w = io->in[1], *t = io->in[2];
	unsigned last = x->rank - 1u;
	if (!io_attr_range(io, 1, 0, 1000))
		return false;
	if (w->rank != 2 || w->dtype != x->dtype)
		return io_fail(io, "the linear weight must be 2-D of input 0's dtype");
	if (t->dtype != DT_INT64 || t->rank != last)
		return io_fail(io, "the target must be int64 of rank %u", last);
	FOR_BIND(io, b) {
		if (w->dim[b][1] != x->dim[b][last] || (last && t->dim[b][0] != x->dim[b][0]))
			return io_fail(io, "linear weight, input and target sizes disagree (binding %u)", b);
		if (t->lo < 0 || t->hi > w->dim[b][0] - 1)
			return io_fail(io, "class targets must lie in [0, %d], are in [%lld, %lld] (binding %u)",
				       (int)w->dim[b][0] - 1, (long long)t->lo, (long long)t->hi, b);
	}
	io->nout = 1;
	io_out_rank(io, 0, io->attr[0] ? 0 : last, (enum dtype)x->dtype);
	FOR_BIND(io, b) if (!io->attr[0] && last) io->out[0].dim[b][0] = x->dim[b][0];
	return true;
}

static bool choose_linear_ce(struct chooser *c, struct op_choice *ch)
{
	static const int64_t smoothing[] = {0, 100, 250, 1000};
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned last = x->rank - 1u;
	int32_t classes = (int32_t)rng_range(c->rng, 2, 8);
	struct tensor_req w = req_like(x), t = req_like(x);
	w.rank = 2;
	t.rank = (uint8_t)last;
	t.dtype = DT_INT64;
	t.fill = FILL_RANGE;
	t.lo = 0;
	t.hi = classes - 1;
	for (unsigned b = 0; b < G_MAX_BIND; b++) {
		w.dim[b][0] = classes;
		w.dim[b][1] = x->dim[b][last];
		t.dim[b][0] = last ? x->dim[b][0] : 0;
	}
	int wi = c->operand(c, &w), ti = wi < 0 ? -1 : c->operand(c, &t);
	if (ti < 0)
		return false;
	ch->in[1] = (uint16_t)wi;
	ch->in[2] = (uint16_t)ti;
	ch->nin = 3;
	ch->nattr = 2;
	ch->attr[0] = (int64_t)rng_below(c->rng, 3);
	ch->attr[1] = pick_of(c, smoothing, NELEM(smoothing));
	return true;
}

/* ---- F.ctc_loss(log_softmax(x), targets, input_lengths, target_lengths) ----
 *
 * x [T, N, C] (float32/float64: no half kernel), targets int64 [N, S] in
 * [1, C - 1] (0 is the blank); every input length T and every target length
 * S (spelled from the shapes). zero_infinity=True: a path too short for its
 * labels gives 0, not inf and NaN gradients. */
static bool infer_ctc(struct infer_io *io)
{
	const struct value *x = io->in[0], *t = io->in[1];
	if (t->dtype != DT_INT64 || t->rank != 2)
		return io_fail(io, "targets must be 2-D int64");
	FOR_BIND(io, b) {
		if (t->dim[b][0] != x->dim[b][1])
			return io_fail(io, "%d target rows for a batch of %d (binding %u)", (int)t->dim[b][0],
				       (int)x->dim[b][1], b);
		if (t->lo < 1 || t->hi > x->dim[b][2] - 1)
			return io_fail(io, "labels must lie in [1, %d], are in [%lld, %lld] (binding %u)",
				       (int)x->dim[b][2] - 1, (long long)t->lo, (long long)t->hi, b);
	}
	io->nout = 1;
	io_out_rank(io, 0, io->attr[0] ? 0 : 1, (enum dtype)x->dtype);
	FOR_BIND(io, b) io->out[0].dim[b][0] = io->attr[0] ? 0 : x->dim[b][1];
	return true;
}

static bool choose_ctc(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int32_t classes = value_dim_min(c->g, x, 2), steps = value_dim_min(c->g, x, 0);
	if (classes < 2)
		return false;
	struct tensor_req t = req_like(x);
	int32_t len = (int32_t)rng_range(c->rng, 1, steps < 6 ? steps : 6);
	t.rank = 2;
	t.dtype = DT_INT64;
	t.fill = FILL_RANGE;
	t.lo = 1;
	t.hi = classes - 1;
	for (unsigned b = 0; b < G_MAX_BIND; b++) {
		t.dim[b][0] = x->dim[b][1];
		t.dim[b][1] = len;
	}
	int id = c->operand(c, &t);
	if (id < 0)
		return false;
	ch->in[1] = (uint16_t)id;
	ch->nin = 2;
	ch->nattr = 1;
	ch->attr[0] = (int64_t)rng_below(c->rng, 3);
	return true;
}

/* ---- the table ---- */

static const char *const reductions[] = {"none", "mean", "sum", NULL};
static const char *const kl_reductions[] = {"none", "mean", "sum", "batchmean", NULL};

#define LOSS_AS(nm, tag, nin, rmin, rmax, dt, nograd_, w, red, attrs_, spelling, ...) \
	{.name = nm, .family = FAM_LOSS, .nin_min = nin, .nin_max = nin, .rank_min = rmin, .rank_max = rmax, \
	 .dtypes = dt, .layout = LAYOUT_FRESH, .nograd = nograd_, .weight = w, .attrs = "reduction$" attrs_, \
	 .strs = red, .py = spelling, .infer = infer_##tag, .choose = choose_##tag, __VA_ARGS__}
#define LOSS(nm, tag, nin, rmin, rmax, nograd_, w, attrs_, spelling, ...) \
	LOSS_AS(nm, tag, nin, rmin, rmax, DTM_FLOAT, nograd_, w, reductions, attrs_, spelling, __VA_ARGS__)
#define BINARY_TARGET(k) "@" #k ".to(@0.dtype)"
#define SIGN_TARGET(k) "(@" #k " * 2 - 1).to(@0.dtype)"
#define BCE_INPUT "torch.sigmoid(torch.nan_to_num(@0))"
#define WEIGHT 4 /* nograd: input 2, a weight */

const struct op_def ops_loss[] = {
	LOSS("mse_loss", pair, 2, 0, G_MAX_RANK, 0, 2, "", "F.mse_loss(@0, @1, reduction=#0)"),
	LOSS("l1_loss", pair, 2, 0, G_MAX_RANK, 0, 2, "", "F.l1_loss(@0, @1, reduction=#0)"),
	LOSS("smooth_l1_loss", smooth_l1, 2, 0, G_MAX_RANK, 0, 2, " beta~",
	     "F.smooth_l1_loss(@0, @1, reduction=#0, beta=#1)"),
	LOSS("huber_loss", huber, 2, 0, G_MAX_RANK, 0, 2, " delta~", "F.huber_loss(@0, @1, reduction=#0, delta=#1)"),
	LOSS_AS("kl_div", kl_div, 2, 0, G_MAX_RANK, DTM_FLOAT, 0, 2, kl_reductions, " log_target?",
		"F.kl_div(@0, @1, reduction=#0, log_target=#1)"),
	LOSS("poisson_nll_loss", poisson_nll, 2, 0, G_MAX_RANK, 0, 2, " log_input? full?",
	     "F.poisson_nll_loss(@0, @1, log_input=#1, full=#2, reduction=#0)"),
	LOSS("gaussian_nll_loss", gaussian_nll, 3, 0, G_MAX_RANK, 0, 2, " full?",
	     "F.gaussian_nll_loss(@0, @1, @2, full=#1, reduction=#0)"),
	LOSS("binary_cross_entropy", bce, 2, 0, G_MAX_RANK, 0, 2, "",
	     "F.binary_cross_entropy(" BCE_INPUT ", " BINARY_TARGET(1) ", reduction=#0)"),
	LOSS("binary_cross_entropy_weight", bce_weighted, 3, 0, G_MAX_RANK, WEIGHT, 1, "",
	     "F.binary_cross_entropy(" BCE_INPUT ", " BINARY_TARGET(1) ", weight=@2, reduction=#0)"),
	LOSS("binary_cross_entropy_with_logits", bce, 2, 0, G_MAX_RANK, 0, 2, "",
	     "F.binary_cross_entropy_with_logits(@0, " BINARY_TARGET(1) ", reduction=#0)"),
	LOSS("bce_with_logits_pos_weight", bce_weighted, 3, 0, G_MAX_RANK, WEIGHT, 1, "",
	     "F.binary_cross_entropy_with_logits(@0, " BINARY_TARGET(1) ", reduction=#0, pos_weight=@2)"),
	LOSS("hinge_embedding_loss", hinge, 2, 0, G_MAX_RANK, 0, 2, " margin~",
	     "F.hinge_embedding_loss(@0, " SIGN_TARGET(1) ", margin=#1, reduction=#0)"),
	LOSS("soft_margin_loss", soft_margin, 2, 0, G_MAX_RANK, 0, 2, "",
	     "F.soft_margin_loss(@0, " SIGN_TARGET(1) ", reduction=#0)"),
	LOSS("multilabel_soft_margin_loss", multilabel_soft_margin, 2, 1, G_MAX_RANK, 0, 2, "",
	     "F.multilabel_soft_margin_loss(@0, " BINARY_TARGET(1) ", reduction=#0)"),
	LOSS("margin_ranking_loss", margin_ranking, 3, 0, G_MAX_RANK, 0, 2, " margin~",
	     "F.margin_ranking_loss(@0, @1, " SIGN_TARGET(2) ", margin=#1, reduction=#0)"),
	LOSS("cosine_embedding_loss", cosine_embedding, 3, 1, 2, 0, 2, " margin~",
	     "F.cosine_embedding_loss(@0, @1, " SIGN_TARGET(2) ", margin=#1, reduction=#0)"),
	LOSS("triplet_margin_loss", triplet, 3, 0, G_MAX_RANK, 0, 2, " margin~ p~ swap?",
	     "F.triplet_margin_loss(@0, @1, @2, margin=#1, p=#2, swap=#3, reduction=#0)"),
	LOSS("triplet_margin_with_distance_loss", triplet_dist, 3, 0, G_MAX_RANK, 0, 1, " margin~ swap?",
	     "F.triplet_margin_with_distance_loss(@0, @1, @2, margin=#1, swap=#2, reduction=#0)"),
	LOSS("cross_entropy", cross_entropy, 2, 1, G_MAX_RANK, 0, 3, " ignore_index label_smoothing~",
	     "F.cross_entropy(@0, @1, ignore_index=#1, label_smoothing=#2, reduction=#0)"),
	LOSS("cross_entropy_weight", cross_entropy_weighted, 3, 1, G_MAX_RANK, WEIGHT, 1,
	     " ignore_index label_smoothing~",
	     "F.cross_entropy(@0, @1, weight=@2, ignore_index=#1, label_smoothing=#2, reduction=#0)"),
	LOSS("cross_entropy_prob", cross_entropy_prob, 2, 1, G_MAX_RANK, 0, 2, " label_smoothing~",
	     "F.cross_entropy(@0, @1, label_smoothing=#1, reduction=#0)"),
	LOSS("linear_cross_entropy", linear_ce, 3, 1, 2, 0, 1, " label_smoothing~",
	     "F.linear_cross_entropy(@0, @1, @2, reduction=#0, label_smoothing=#1)", .since = "2.15"), /* not in 2.11 */
	LOSS("nll_loss", nll, 2, 1, G_MAX_RANK, 0, 2, " ignore_index",
	     "F.nll_loss(@0, @1, ignore_index=#1, reduction=#0)"),
	LOSS("nll_loss_weight", nll_weighted, 3, 1, G_MAX_RANK, WEIGHT, 1, " ignore_index",
	     "F.nll_loss(@0, @1, weight=@2, ignore_index=#1, reduction=#0)"),
	/* the classic pairing: log-probabilities over the class dim (1: rank >= 2 only) */
	LOSS("nll_loss_log_softmax", nll, 2, 2, G_MAX_RANK, 0, 2, " ignore_index",
	     "F.nll_loss(F.log_softmax(@0, 1), @1, ignore_index=#1, reduction=#0)"),
	LOSS_AS("multi_margin_loss", multi_margin, 2, 1, 2, DTM_F32_F64, 0, 2, reductions, " p margin~",
		"F.multi_margin_loss(@0, @1, p=#1, margin=#2, reduction=#0)"),
	LOSS_AS("multi_margin_loss_weight", multi_margin_weighted, 3, 1, 2, DTM_F32_F64, WEIGHT, 1, reductions,
		" p margin~", "F.multi_margin_loss(@0, @1, p=#1, margin=#2, weight=@2, reduction=#0)"),
	LOSS_AS("ctc_loss", ctc, 2, 3, 3, DTM_F32_F64, 0, 1, reductions, "",
		"F.ctc_loss(F.log_softmax(@0, 2), @1, torch.full((@0.size(1),), @0.size(0), dtype=torch.long), "
		"torch.full((@1.size(0),), @1.size(1), dtype=torch.long), reduction=#0, zero_infinity=True)"),
	/* [C] or [N, C] with label lists of the same shape */
	LOSS_AS("multilabel_margin_loss", multilabel_margin, 2, 1, 2, DTM_F32_F64, 0, 1, reductions, "",
		"F.multilabel_margin_loss(@0, @1, reduction=#0)"),
};
FAMILY_COUNT(loss);
