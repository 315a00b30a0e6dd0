/* Reductions: over one dim, over a list of dims, or over the whole tensor.
 *
 * Attribute layout: an optional leading "extra" (correction, unbiased, a
 * norm's order or a quantile's q), then either `dim keepdim?` (one dim) or `keepdim? dim[]`
 * (a list: last, as the mini-language wants), or nothing (full reduction).
 *
 * torch's rules (2.6 CPU, checked with the validity bench): a list of dims
 * must hold no duplicate (after wrapping); a 0-d input reduces over dim 0 or
 * -1 and stays 0-d even with keepdim; sum/prod of int or bool give int64;
 * mean/var/std/norm/logsumexp need floating input; argmax/argmin/median
 * have no bool kernel; max/min/amax/amin/aminmax/all/any take every dtype
 * (all/any of uint8 give uint8). */
#include "../opkit.h"
#include "families.h"

enum red_dims { RD_ONE, RD_LIST, RD_ALL };
enum red_out {
	RO_SAME,    /* the input's dtype and value range */
	RO_SUM,     /* int/bool promote to int64 */
	RO_BOOL,    /* all/any */
	RO_INDEX,   /* int64 position in the reduced elements (tie-broken) */
	RO_COUNT,   /* int64 in [0, reduced numel] */
	RO_VAL_IDX, /* values (like RO_SAME) and their indices */
	RO_PAIR,    /* two outputs like RO_SAME: aminmax, var_mean */
	RO_HASH     /* int64, any value: hash_tensor's uint64 read as int64 */
};
enum red_extra {
	RX_NONE,
	RX_CORR,    /* correction or unbiased: 0 or 1 */
	RX_ORD,     /* p of a norm */
	RX_QUANTILE /* q of a quantile, in [0, 1] */
};

struct red_kind {
	uint8_t dims;  /* enum red_dims */
	uint8_t keep;  /* has a keepdim attribute */
	uint8_t out;   /* enum red_out */
	uint8_t extra; /* enum red_extra: attribute 0 when present */
};

/* Norm orders the chooser uses; the rule accepts any p in [0.5, 4]. */
static const int64_t norm_orders[] = {1000, 2000, 3000, 1500};
/* Quantiles: the ends, the median and quartiles, and one between points. */
static const int64_t quantiles[] = {0, 250, 500, 750, 1000, 330};

/* The reduced dims as a bit mask (bit 0 for a 0-d input) and keepdim. */
static bool red_dims_of(struct infer_io *io, const struct red_kind *k, unsigned *mask, bool *keep)
{
	const struct value *x = io->in[0];
	unsigned at = k->extra != RX_NONE;
	*mask = 0;
	*keep = false;
	if (k->dims == RD_ALL) {
		*mask = x->rank ? (1u << x->rank) - 1 : 1;
		return true;
	}
	if (k->dims == RD_ONE) {
		int d = io_dim(io->attr[at], x->rank);
		if (d < 0)
			return io_fail(io, "dim %lld out of range for a %u-D input", (long long)io->attr[at], x->rank);
		*mask = 1u << d;
		*keep = k->keep && io->attr[at + 1];
		return true;
	}
	*keep = k->keep && io->attr[at];
	unsigned c = at + k->keep, n = (unsigned)io->attr[c];
	if (n < 1)
		return io_fail(io, "empty dim list (torch would reduce everything)");
	for (unsigned i = 0; i < n; i++) {
		int d = io_dim(io->attr[c + 1 + i], x->rank);
		if (d < 0)
			return io_fail(io, "dim %lld out of range for a %u-D input", (long long)io->attr[c + 1 + i],
				       x->rank);
		if (*mask & (1u << d))
			return io_fail(io, "dim %d appears twice in the dim list", d);
		*mask |= 1u << d;
	}
	return true;
}

static bool red_extra_ok(struct infer_io *io, const struct red_kind *k)
{
	if (k->extra == RX_CORR)
		return io_attr_range(io, 0, 0, 1);
	if (k->extra == RX_ORD)
		return io_attr_range(io, 0, 500, 4000);
	if (k->extra == RX_QUANTILE)
		return io_attr_range(io, 0, 0, 1000);
	return true;
}

static bool red_rule(struct infer_io *io, const struct red_kind *k)
{
	const struct value *x = io->in[0];
	unsigned mask;
	bool keep;
	if (!red_extra_ok(io, k) || !red_dims_of(io, k, &mask, &keep))
		return false;
	enum dtype dt = (enum dtype)x->dtype;
	if (k->out == RO_SUM && !dtype_is_inexact(dt))
		dt = DT_INT64;
	else if (k->out == RO_BOOL) /* all/any of uint8 stay uint8 (0 or 1), for old code's sake */
		dt = dt == DT_UINT8 ? DT_UINT8 : DT_BOOL;
	else if (k->out == RO_INDEX || k->out == RO_COUNT || k->out == RO_HASH)
		dt = DT_INT64;
	unsigned rank = 0;
	for (unsigned d = 0; d < x->rank; d++)
		rank += keep || !(mask & (1u << d));
	io->nout = k->out == RO_VAL_IDX || k->out == RO_PAIR ? 2 : 1;
	io_out_rank(io, 0, rank, dt);
	int64_t most = 1; /* largest reduced numel over the bindings */
	FOR_BIND(io, b) {
		int64_t n = 1;
		for (unsigned d = 0, o = 0; d < x->rank; d++) {
			if (mask & (1u << d))
				n *= x->dim[b][d];
			if (keep || !(mask & (1u << d)))
				io->out[0].dim[b][o++] = mask & (1u << d) ? 1 : x->dim[b][d];
		}
		most = n > most ? n : most;
	}
	if (k->out == RO_SAME || k->out == RO_VAL_IDX || k->out == RO_PAIR) {
		io->out[0].lo = x->lo;
		io->out[0].hi = x->hi;
	} else if (k->out == RO_INDEX || k->out == RO_COUNT || k->out == RO_BOOL) {
		io->out[0].lo = 0;
		io->out[0].hi = k->out == RO_INDEX ? most - 1 : k->out == RO_COUNT ? most : 1;
	}
	if (io->nout == 2) {
		io->out[1] = io->out[0];
		if (k->out == RO_VAL_IDX) {
			io->out[1].dtype = DT_INT64;
			io->out[1].lo = 0;
			io->out[1].hi = most - 1;
		}
	}
	return true;
}

/* Smallest reduced numel over the bindings of the dims in mask. */
static int64_t red_min_numel(const struct graph *g, const struct value *x, unsigned mask)
{
	int64_t least = INT64_MAX;
	for (unsigned b = 0; b < g->nbind; b++) {
		int64_t n = 1;
		for (unsigned d = 0; d < x->rank; d++)
			if (mask & (1u << d))
				n *= x->dim[b][d];
		least = n < least ? n : least;
	}
	return least;
}

static int64_t signed_dim(struct chooser *c, unsigned d, unsigned rank)
{
	unsigned r = rank ? rank : 1;
	return rng_chance(c->rng, 50) ? (int64_t)d - (int64_t)r : (int64_t)d;
}

static bool red_choose(struct chooser *c, struct op_choice *ch, const struct red_kind *k)
{
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned at = k->extra != RX_NONE, r = x->rank, slots = r ? r : 1, mask = 0;
	if (!r && rng_chance(c->rng, 75)) /* reducing a 0-d tensor again is rarely worth a node */
		return false;
	if (k->dims == RD_ALL) {
		mask = r ? (1u << r) - 1 : 0;
		ch->nattr = (uint8_t)at;
	} else if (k->dims == RD_ONE) {
		ch->attr[at] = pick_dim(c, r);
		mask = r ? 1u << (ch->attr[at] < 0 ? ch->attr[at] + r : ch->attr[at]) : 0;
		if (k->keep)
			ch->attr[at + 1] = rng_chance(c->rng, 40);
		ch->nattr = (uint8_t)(at + 1 + k->keep);
	} else {
		/* n distinct dims: a partial shuffle of 0..slots-1. */
		unsigned order[G_MAX_RANK], n = rng_chance(c->rng, 50) ? 1 : (unsigned)rng_range(c->rng, 1, slots);
		for (unsigned d = 0; d < slots; d++)
			order[d] = d;
		unsigned cnt = at + k->keep;
		if (k->keep)
			ch->attr[at] = rng_chance(c->rng, 40);
		ch->attr[cnt] = n;
		for (unsigned i = 0; i < n; i++) {
			unsigned j = i + (unsigned)rng_below(c->rng, slots - i), t = order[i];
			order[i] = order[j];
			order[j] = t;
			ch->attr[cnt + 1 + i] = signed_dim(c, order[i], r);
			mask |= r ? 1u << order[i] : 0;
		}
		ch->nattr = (uint8_t)(cnt + 1 + n);
	}
	if (k->extra == RX_CORR) /* a correction of 1 over one element gives NaN (and a warning) */
		ch->attr[0] = red_min_numel(c->g, x, mask) > 1 && rng_chance(c->rng, 70);
	else if (k->extra == RX_ORD)
		ch->attr[0] = pick_of(c, norm_orders, NELEM(norm_orders));
	else if (k->extra == RX_QUANTILE)
		ch->attr[0] = pick_of(c, quantiles, NELEM(quantiles));
	return true;
}

/* One infer/choose pair per kind of reduction: the op entry carries no parameters. */
#define RED_FNS(tag, dims_, keep_, out_, extra_) \
	static const struct red_kind rk_##tag = {dims_, keep_, out_, extra_}; \
	static bool infer_##tag(struct infer_io *io) { return red_rule(io, &rk_##tag); } \
	static bool choose_##tag(struct chooser *c, struct op_choice *ch) { return red_choose(c, ch, &rk_##tag); }
RED_FNS(one_same, RD_ONE, 1, RO_SAME, RX_NONE)
RED_FNS(one_sum, RD_ONE, 1, RO_SUM, RX_NONE)
RED_FNS(one_index, RD_ONE, 1, RO_INDEX, RX_NONE)
RED_FNS(one_val_idx, RD_ONE, 1, RO_VAL_IDX, RX_NONE)
RED_FNS(one_pair, RD_ONE, 1, RO_PAIR, RX_NONE)
RED_FNS(one_corr, RD_ONE, 1, RO_SAME, RX_CORR)
RED_FNS(one_quantile, RD_ONE, 1, RO_SAME, RX_QUANTILE)
RED_FNS(list_same, RD_LIST, 1, RO_SAME, RX_NONE)
RED_FNS(list_sum, RD_LIST, 1, RO_SUM, RX_NONE)
RED_FNS(list_bool, RD_LIST, 1, RO_BOOL, RX_NONE)
RED_FNS(list_count, RD_LIST, 0, RO_COUNT, RX_NONE)
RED_FNS(list_corr, RD_LIST, 1, RO_SAME, RX_CORR)
RED_FNS(list_corr_pair, RD_LIST, 1, RO_PAIR, RX_CORR)
RED_FNS(list_ord, RD_LIST, 1, RO_SAME, RX_ORD)
RED_FNS(list_hash, RD_LIST, 1, RO_HASH, RX_NONE)
RED_FNS(all_same, RD_ALL, 0, RO_SAME, RX_NONE)
RED_FNS(all_sum, RD_ALL, 0, RO_SUM, RX_NONE)
RED_FNS(all_bool, RD_ALL, 0, RO_BOOL, RX_NONE)
RED_FNS(all_index, RD_ALL, 0, RO_INDEX, RX_NONE)
RED_FNS(all_count, RD_ALL, 0, RO_COUNT, RX_NONE)
RED_FNS(all_pair, RD_ALL, 0, RO_PAIR, RX_NONE)
RED_FNS(all_corr, RD_ALL, 0, RO_SAME, RX_CORR)

/* cov(x, correction=) and corrcoef(x): x's rows are variables and its
 * last dim the observations; [vars, vars], or 0-d for one variable.
 * At least `least` observations at every binding: more than the
 * correction takes, two for corrcoef, so no 0/0. Integers give float32. */
static bool stat_rule(struct infer_io *io, int64_t least)
{
	const struct value *x = io->in[0];
	FOR_BIND(io, b) if (x->dim[b][x->rank - 1] < least) return io_fail(
		io, "%d observations (binding %u), fewer than %lld", (int)x->dim[b][x->rank - 1], b, (long long)least);
	bool one = x->rank == 1; /* one variable, which torch also makes of a [1, N] x */
	if (!one) {
		one = true;
		FOR_BIND(io, b) one = one && x->dim[b][0] == 1;
		FOR_BIND(io, b) if (one != (x->dim[b][0] == 1)) return io_fail(io, "one variable at some bindings only");
	}
	io->nout = 1;
	io_out_rank(io, 0, one ? 0 : 2, dtype_is_float(x->dtype) ? (enum dtype)x->dtype : DT_FLOAT32);
	if (!one)
		FOR_BIND(io, b) io->out[0].dim[b][0] = io->out[0].dim[b][1] = x->dim[b][0];
	return true;
}

static bool infer_cov(struct infer_io *io) { return io_attr_range(io, 0, 0, 1) && stat_rule(io, io->attr[0] + 1); }
static bool infer_corrcoef(struct infer_io *io) { return stat_rule(io, 2); }

static bool choose_cov(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = rng_chance(c->rng, 70);
	return true;
}

#define A_ONE "dim keepdim?"
#define A_LIST "keepdim? dim[]"
#define A_CORR_LIST "correction keepdim? dim[]"
#define A_ORD_LIST "ord~ keepdim? dim[]"
#define DTM_NOBOOL (DTM_NUM | DTM_SMALL) /* argmax/argmin/median: no bool kernel */

#define RED_GRAD(nm, tag, dt, w, tie_, attrs_, spelling, nograd_) \
	{.name = nm, .family = FAM_REDUCE, .nin_min = 1, .nin_max = 1, .rank_min = 0, .rank_max = G_MAX_RANK, \
	 .dtypes = dt, .layout = LAYOUT_KEEP, .tie = tie_, .nograd = nograd_, .weight = w, .attrs = attrs_, .py = spelling, \
	 .infer = infer_##tag, .choose = choose_##tag}
#define RED(nm, tag, dt, w, tie_, attrs_, spelling) RED_GRAD(nm, tag, dt, w, tie_, attrs_, spelling, 0)

const struct op_def ops_reduce[] = {
	/* one dim */
	RED("mean", one_same, DTM_FLOAT | DTM_COMPLEX, 2, 0, A_ONE, "torch.mean(@0, dim=#0, keepdim=#1)"),
	RED("sum", one_sum, DTM_EVERY | DTM_COMPLEX, 2, 0, A_ONE, "torch.sum(@0, dim=#0, keepdim=#1)"),
	RED("prod", one_sum, DTM_EVERY | DTM_COMPLEX, 1, 0, A_ONE, "torch.prod(@0, dim=#0, keepdim=#1)"),
	RED("argmax", one_index, DTM_NOBOOL, 1, 1, A_ONE, "torch.argmax(@0, dim=#0, keepdim=#1)"),
	RED("argmin", one_index, DTM_NOBOOL, 1, 1, A_ONE, "torch.argmin(@0, dim=#0, keepdim=#1)"),
	RED("max_dim", one_val_idx, DTM_EVERY, 2, 2, A_ONE, "torch.max(@0, dim=#0, keepdim=#1)"),
	RED("min_dim", one_val_idx, DTM_EVERY, 1, 2, A_ONE, "torch.min(@0, dim=#0, keepdim=#1)"),
	RED("median_dim", one_val_idx, DTM_NOBOOL, 1, 2, A_ONE, "torch.median(@0, dim=#0, keepdim=#1)"),
	RED("nanmedian_dim", one_val_idx, DTM_NOBOOL, 1, 2, A_ONE, "torch.nanmedian(@0, dim=#0, keepdim=#1)"),
	RED_GRAD("aminmax", one_pair, DTM_EVERY, 1, 0, A_ONE, "torch.aminmax(@0, dim=#0, keepdim=#1)", 1),
	RED("mode_dim", one_val_idx, DTM_NOBOOL, 1, 2, A_ONE, "torch.mode(@0, dim=#0, keepdim=#1)"),
	RED("quantile", one_quantile, DTM_F32_F64, 1, 0, "q~ dim keepdim?", "torch.quantile(@0, #0, dim=#1, keepdim=#2)"),
	RED("nanquantile", one_quantile, DTM_F32_F64, 1, 0, "q~ dim keepdim?",
	    "torch.nanquantile(@0, #0, dim=#1, keepdim=#2)"),
	RED("std_unbiased", one_corr, DTM_FLOAT, 1, 0, "unbiased? dim keepdim?", "@0.std(#1, unbiased=#0, keepdim=#2)"),
	/* a list of dims */
	RED("sum_dims", list_sum, DTM_EVERY, 1, 0, A_LIST, "torch.sum(@0, dim=#1, keepdim=#0)"),
	RED("mean_dims", list_same, DTM_FLOAT, 1, 0, A_LIST, "@0.mean(dim=#1, keepdim=#0)"),
	RED("amax", list_same, DTM_EVERY, 2, 0, A_LIST, "torch.amax(@0, dim=#1, keepdim=#0)"),
	RED("amin", list_same, DTM_EVERY, 1, 0, A_LIST, "torch.amin(@0, dim=#1, keepdim=#0)"),
	RED("var", list_corr, DTM_FLOAT, 1, 0, A_CORR_LIST, "torch.var(@0, dim=#2, correction=#0, keepdim=#1)"),
	RED("std", list_corr, DTM_FLOAT, 1, 0, A_CORR_LIST, "torch.std(@0, dim=#2, correction=#0, keepdim=#1)"),
	RED("var_mean", list_corr_pair, DTM_FLOAT, 1, 0, A_CORR_LIST,
	    "torch.var_mean(@0, dim=#2, correction=#0, keepdim=#1)"),
	RED("std_mean", list_corr_pair, DTM_FLOAT, 1, 0, A_CORR_LIST,
	    "torch.std_mean(@0, dim=#2, correction=#0, keepdim=#1)"),
	RED("norm", list_ord, DTM_FLOAT, 1, 0, A_ORD_LIST, "torch.linalg.vector_norm(@0, ord=#0, dim=#2, keepdim=#1)"),
	RED("norm_inf", list_same, DTM_FLOAT, 1, 0, A_LIST,
	    "torch.linalg.vector_norm(@0, ord=float('inf'), dim=#1, keepdim=#0)"),
	RED("norm_p", list_ord, DTM_FLOAT, 1, 0, A_ORD_LIST, "torch.norm(@0, p=#0, dim=#2, keepdim=#1)"),
	RED("logsumexp", list_same, DTM_FLOAT, 1, 0, A_LIST, "torch.logsumexp(@0, dim=#1, keepdim=#0)"),
	RED("all", list_bool, DTM_EVERY, 1, 0, A_LIST, "torch.all(@0, dim=#1, keepdim=#0)"),
	RED("any", list_bool, DTM_EVERY, 1, 0, A_LIST, "torch.any(@0, dim=#1, keepdim=#0)"),
	RED("nansum", list_sum, DTM_FLOAT, 1, 0, A_LIST, "torch.nansum(@0, dim=#1, keepdim=#0)"),
	RED("nanmean", list_same, DTM_FLOAT, 1, 0, A_LIST, "torch.nanmean(@0, dim=#1, keepdim=#0)"),
	RED("count_nonzero", list_count, DTM_EVERY, 1, 0, "dim[]", "torch.count_nonzero(@0, dim=#0)"),
	/* integers only: a hash turns any last-bit difference of a float into a wholly different value */
	RED("hash_tensor", list_hash, DTM_INTS | DTM(DT_BOOL), 1, 0, A_LIST,
	    "torch.hash_tensor(@0, dim=#1, keepdim=#0).view(torch.int64)"),
	/* everything, to a 0-d tensor */
	RED("sum_all", all_sum, DTM_EVERY, 1, 0, NULL, "torch.sum(@0)"),
	RED("mean_all", all_same, DTM_FLOAT, 1, 0, NULL, "@0.mean()"),
	RED("prod_all", all_sum, DTM_EVERY, 1, 0, NULL, "torch.prod(@0)"),
	RED("max_all", all_same, DTM_EVERY, 1, 0, NULL, "torch.max(@0)"),
	RED("min_all", all_same, DTM_EVERY, 1, 0, NULL, "torch.min(@0)"),
	RED("argmax_all", all_index, DTM_NOBOOL, 1, 1, NULL, "torch.argmax(@0)"),
	RED("argmin_all", all_index, DTM_NOBOOL, 1, 1, NULL, "torch.argmin(@0)"),
	RED("all_all", all_bool, DTM_EVERY, 1, 0, NULL, "torch.all(@0)"),
	RED("any_all", all_bool, DTM_EVERY, 1, 0, NULL, "torch.any(@0)"),
	RED("count_nonzero_all", all_count, DTM_EVERY, 1, 0, NULL, "torch.count_nonzero(@0)"),
	RED("norm_all", all_same, DTM_FLOAT, 1, 0, NULL, "torch.linalg.vector_norm(@0)"),
	RED("var_all", all_corr, DTM_FLOAT, 1, 0, "correction", "torch.var(@0, correction=#0)"),
	RED("std_all", all_corr, DTM_FLOAT, 1, 0, "correction", "torch.std(@0, correction=#0)"),
	RED("median_all", all_same, DTM_NOBOOL, 1, 0, NULL, "torch.median(@0)"),
	RED_GRAD("aminmax_all", all_pair, DTM_EVERY, 1, 0, NULL, "torch.aminmax(@0)", 1),
	/* statistics of rows of observations */
	{.name = "cov", .family = FAM_REDUCE, .nin_min = 1, .nin_max = 1, .rank_min = 1, .rank_max = 2,
	 .dtypes = DTM_NUM, .layout = LAYOUT_FRESH, .weight = 1, .attrs = "correction",
	 .py = "torch.cov(@0, correction=#0)", .infer = infer_cov, .choose = choose_cov},
	{.name = "corrcoef", .family = FAM_REDUCE, .nin_min = 1, .nin_max = 1, .rank_min = 1, .rank_max = 2,
	 .dtypes = DTM_NUM, .layout = LAYOUT_FRESH, .weight = 1, .py = "torch.corrcoef(@0)", .infer = infer_corrcoef,
	 .choose = choose_none},
};
FAMILY_COUNT(reduce);
