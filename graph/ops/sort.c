/* Sorting and selection along one dim: sort, argsort, msort, topk,
 * kthvalue. Values are well defined even with ties; only the indices are
 * tie-broken (marked so the oracle never compares them).
 *
 * torch's rules (2.6 CPU, checked with the validity bench): topk and
 * kthvalue need 1 <= k <= the dim's size (at every binding: k is a constant)
 * and have no bool kernel; sort/argsort/msort take every dtype; a 0-d input
 * acts as a 1-element dim 0. */
#include "../opkit.h"
#include "families.h"

enum sort_out {
	SR_SORT,     /* values and indices, the input's shape */
	SR_VALUES,   /* values only */
	SR_INDICES,  /* indices only (argsort) */
	SR_TOPK,     /* values and indices, dim resized to k */
	SR_TOPK_VAL, /* values only, dim resized to k */
	SR_KTH       /* values and indices, dim removed (or kept as 1) */
};

/* Size of dim d of x at binding b, a 0-d input counting as one element. */
static int32_t size_at(const struct value *x, unsigned b, int d) { return x->rank ? x->dim[b][d] : 1; }

/* Attributes: for SR_TOPK*, SR_KTH `k dim ...`, otherwise `dim ...`; msort
 * has none and works on dim 0. */
static bool sort_rule(struct infer_io *io, enum sort_out kind)
{
	const struct value *x = io->in[0];
	bool has_k = kind == SR_TOPK || kind == SR_TOPK_VAL || kind == SR_KTH;
	unsigned at = has_k;
	int64_t k = has_k ? io->attr[0] : 0;
	int d = io->nattr > at ? io_dim(io->attr[at], x->rank) : 0;
	if (d < 0)
		return io_fail(io, "dim %lld out of range for a %u-D input", (long long)io->attr[at], x->rank);
	int32_t most = 1;
	FOR_BIND(io, b) {
		int32_t s = size_at(x, b, d);
		if (has_k && (k < 1 || k > s))
			return io_fail(io, "k = %lld not in [1, %d] (binding %u)", (long long)k, (int)s, b);
		most = s > most ? s : most;
	}
	enum dtype dt = kind == SR_INDICES ? DT_INT64 : (enum dtype)x->dtype;
	io_out_like(io, 0, x, dt);
	if (kind == SR_TOPK || kind == SR_TOPK_VAL)
		FOR_BIND(io, b) if (x->rank) io->out[0].dim[b][d] = (int32_t)k;
	if (kind == SR_KTH && !io->attr[2] && x->rank) { /* keepdim off: drop dim d */
		io->out[0].rank--;
		FOR_BIND(io, b) {
			for (unsigned i = (unsigned)d; i < io->out[0].rank; i++)
				io->out[0].dim[b][i] = x->dim[b][i + 1];
			io->out[0].dim[b][io->out[0].rank] = 0;
		}
	} else if (kind == SR_KTH) {
		FOR_BIND(io, b) if (x->rank) io->out[0].dim[b][d] = 1;
	}
	if (kind == SR_INDICES) {
		io->out[0].lo = 0;
		io->out[0].hi = most - 1;
	} else { /* values are a selection of the input's */
		io->out[0].lo = x->lo;
		io->out[0].hi = x->hi;
	}
	io->nout = 1;
	if (kind == SR_SORT || kind == SR_TOPK || kind == SR_KTH) {
		io->nout = 2;
		io->out[1] = io->out[0];
		io->out[1].dtype = DT_INT64;
		io->out[1].lo = 0;
		io->out[1].hi = most - 1;
	}
	return true;
}

/* Sorting one element (a 0-d input) is rarely worth a node. */
static bool skip_scalar(struct chooser *c, struct op_choice *ch)
{
	return !c->g->v[ch->in[0]].rank && rng_chance(c->rng, 75);
}

static bool choose_msort(struct chooser *c, struct op_choice *ch) { return !skip_scalar(c, ch); }

/* `dim descending? stable?` */
static bool choose_sort(struct chooser *c, struct op_choice *ch)
{
	if (skip_scalar(c, ch))
		return false;
	ch->nattr = 3;
	ch->attr[0] = pick_dim(c, c->g->v[ch->in[0]].rank);
	ch->attr[1] = rng_chance(c->rng, 50);
	ch->attr[2] = rng_chance(c->rng, 30);
	return true;
}

/* `k dim flag?`: k mostly small, sometimes the whole (smallest) dim. */
static bool choose_k(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	if (skip_scalar(c, ch))
		return false;
	int64_t d = pick_dim(c, x->rank);
	int32_t least = x->rank ? value_dim_min(c->g, x, (unsigned)(d < 0 ? d + x->rank : d)) : 1;
	ch->nattr = 3;
	ch->attr[0] = rng_chance(c->rng, 15) ? least : rng_range(c->rng, 1, least < 4 ? least : 4);
	ch->attr[1] = d;
	ch->attr[2] = rng_chance(c->rng, 50);
	return true;
}

static bool infer_sort(struct infer_io *io) { return sort_rule(io, SR_SORT); }
static bool infer_sort_values(struct infer_io *io) { return sort_rule(io, SR_VALUES); }
static bool infer_argsort(struct infer_io *io) { return sort_rule(io, SR_INDICES); }
static bool infer_topk(struct infer_io *io) { return sort_rule(io, SR_TOPK); }
static bool infer_topk_values(struct infer_io *io) { return sort_rule(io, SR_TOPK_VAL); }
static bool infer_kth(struct infer_io *io) { return sort_rule(io, SR_KTH); }

#define SORT(nm, dt, w, tie_, inf, ch_, attrs_, spelling) \
	{.name = nm, .family = FAM_SORT, .nin_min = 1, .nin_max = 1, .rank_min = 0, .rank_max = G_MAX_RANK, \
	 .dtypes = dt, .layout = LAYOUT_KEEP, .tie = tie_, .weight = w, .attrs = attrs_, .py = spelling, \
	 .infer = inf, .choose = ch_}
#define DTM_SELECT (DTM_NUM | DTM_SMALL) /* topk/kthvalue: no bool kernel */
#define A_SORT "dim descending? stable?"

const struct op_def ops_sort[] = {
	SORT("sort", DTM_EVERY, 3, 2, infer_sort, choose_sort, A_SORT,
	     "torch.sort(@0, dim=#0, descending=#1, stable=#2)"),
	SORT("sort_values", DTM_EVERY, 1, 0, infer_sort_values, choose_sort, A_SORT,
	     "torch.sort(@0, dim=#0, descending=#1, stable=#2).values"),
	SORT("argsort", DTM_EVERY, 3, 1, infer_argsort, choose_sort, A_SORT,
	     "torch.argsort(@0, dim=#0, descending=#1, stable=#2)"),
	SORT("msort", DTM_EVERY, 1, 0, infer_sort_values, choose_msort, NULL, "torch.msort(@0)"),
	SORT("topk", DTM_SELECT, 3, 2, infer_topk, choose_k, "k dim largest?",
	     "torch.topk(@0, #0, dim=#1, largest=#2, sorted=True)"),
	/* sorted=False leaves the order to the kernel: nothing comparable */
	SORT("topk_unsorted", DTM_SELECT, 1, 3, infer_topk, choose_k, "k dim largest?",
	     "torch.topk(@0, #0, dim=#1, largest=#2, sorted=False)"),
	SORT("topk_values", DTM_SELECT, 1, 0, infer_topk_values, choose_k, "k dim largest?",
	     "torch.topk(@0, #0, dim=#1, largest=#2).values"),
	SORT("kthvalue", DTM_SELECT, 3, 2, infer_kth, choose_k, "k dim keepdim?",
	     "torch.kthvalue(@0, #0, dim=#1, keepdim=#2)"),
};
FAMILY_COUNT(sort);
