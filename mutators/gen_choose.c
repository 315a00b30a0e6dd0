/* Running an op's chooser while generating: its primary input (mostly a
 * recent value, so graphs grow deep), and the operands it asks for, reused
 * when an existing value fits or made as fresh leaves. Generation (gen.c)
 * and the constraint breakers (break.c) both build nodes through it. */
#include "gen_choose.h"
#include "rarity.h"
#include <string.h>

int gen_leaf_dim_for(const struct graph *g, const int32_t *sizes, struct leaf_dim *ld)
{
	int same = 1;
	for (unsigned b = 1; b < g->nbind; b++)
		same &= sizes[b] == sizes[0];
	if (same) {
		ld->sym = -1;
		ld->mul = 0;
		ld->add = (int16_t)sizes[0];
		return 0;
	}
	for (unsigned s = 0; s < g->nsym; s++) {
		int32_t ds = g->sym[1][s] - g->sym[0][s], dv = sizes[1] - sizes[0];
		if (ds == 0 || dv % ds)
			continue;
		int32_t mul = dv / ds, add = sizes[0] - mul * g->sym[0][s];
		if (mul < 1 || mul > 8 || add < -G_MAX_DIM || add > G_MAX_DIM)
			continue;
		int ok = 1;
		for (unsigned b = 0; b < g->nbind; b++)
			ok &= mul * g->sym[b][s] + add == sizes[b];
		if (ok) {
			ld->sym = (int8_t)s;
			ld->mul = (int8_t)mul;
			ld->add = (int16_t)add;
			return 0;
		}
	}
	return -1;
}

struct gen_ctx {
	struct chooser c;
	struct graph *g;
	unsigned first; /* operands are reused from values first.. only (the component being built) */
};

static int value_fits(const struct graph *g, const struct value *v, const struct tensor_req *q)
{
	if (v->dtype != q->dtype || v->rank != q->rank || v->datadep ||
	    (v->kind == VK_INPUT && v->layout == IL_NUMBER) != (q->number != 0))
		return 0;
	for (unsigned b = 0; b < g->nbind; b++)
		for (unsigned d = 0; d < q->rank; d++)
			if (v->dim[b][d] != q->dim[b][d])
				return 0;
	if (q->fill == FILL_PERM) /* distinctness is known only of perm leaves */
		return v->kind != VK_NODE && v->fill == FILL_PERM && v->hi <= q->hi;
	if (q->fill == FILL_RANGE)
		return v->lo >= q->lo && v->hi <= q->hi;
	return 1;
}

static int gen_operand(struct chooser *c, const struct tensor_req *q)
{
	struct gen_ctx *x = c->impl;
	struct graph *g = x->g;
	if (q->rank > G_MAX_RANK || q->dtype >= DT_COUNT)
		return -1;
	/* Reuse an existing value half of the time when one fits. */
	if (rng_chance(c->rng, 60)) {
		unsigned cand[G_MAX_VALUES], nc = 0;
		for (unsigned i = x->first; i < g->nvalues; i++)
			if (value_fits(g, &g->v[i], q))
				cand[nc++] = i;
		if (nc)
			return (int)cand[rng_below(c->rng, nc)];
	}
	struct leaf_dim ld[G_MAX_RANK];
	int all_static = 1;
	for (unsigned d = 0; d < q->rank; d++) {
		int32_t sizes[G_MAX_BIND];
		for (unsigned b = 0; b < g->nbind; b++)
			sizes[b] = q->dim[b][d];
		if (gen_leaf_dim_for(g, sizes, &ld[d]))
			return -1;
		all_static &= ld[d].sym < 0;
	}
	enum fill fill = (enum fill)q->fill;
	if (dtype_is_inexact(q->dtype) && fill_has_bounds(fill))
		fill = FILL_NORMAL;
	if (!dtype_is_inexact(q->dtype) && !fill_has_bounds(fill))
		fill = FILL_RANGE;
	int64_t lo = q->lo, hi = q->hi;
	if (!dtype_is_inexact(q->dtype)) { /* within what the dtype holds */
		lo = lo < dtype_info(q->dtype)->min ? dtype_info(q->dtype)->min : lo;
		hi = hi > dtype_info(q->dtype)->max ? dtype_info(q->dtype)->max : hi;
	} else if (fill == FILL_NORMAL) {
		gen_float_fill(c->rng, &fill, &lo);
		hi = lo;
	}
	/* Module state where the op would take it: a parameter (float) or a buffer. */
	enum value_kind kind = VK_INPUT;
	if (q->want_param && all_static && rng_chance(c->rng, 50) && !q->number)
		kind = dtype_is_float(q->dtype) && rng_chance(c->rng, 80) ? VK_PARAM : VK_BUFFER;
	if (q->number && fill == FILL_CONST) /* a number that changes from one binding to the next */
		fill = FILL_NORMAL;
	int id = graph_add_leaf(g, kind, (enum dtype)q->dtype, q->rank, ld, fill, lo, hi, NULL, 0);
	if (id >= 0 && q->number && graph_set_layout(g, (unsigned)id, IL_NUMBER, NULL, 0))
		return -1; /* the leaf stays unread */
	return id;
}

void gen_float_fill(struct rng *r, enum fill *fill, int64_t *value)
{
	static const int64_t consts[] = {0, 1000, -1000, 1500, 2000, 500, -2500, 100000, 1}; /* thousandths */
	unsigned pick = (unsigned)rng_below(r, 100);
	if (pick < 4) {
		*fill = FILL_CONST;
		*value = consts[rng_below(r, sizeof consts / sizeof consts[0])];
	} else if (pick < 8) {
		*fill = FILL_SPECIAL;
	}
}

static enum dtype random_dtype(struct rng *r, unsigned mask)
{
	/* Mostly float32; the rest spread over what the op accepts. */
	static const uint8_t weights[DT_COUNT] = {
		[DT_FLOAT32] = 60, [DT_FLOAT16] = 8, [DT_BFLOAT16] = 8, [DT_FLOAT64] = 6, [DT_INT32] = 5,
		[DT_INT64] = 8,    [DT_BOOL] = 5,    [DT_INT8] = 3,     [DT_UINT8] = 3,   [DT_INT16] = 2,
		[DT_COMPLEX64] = 4, [DT_COMPLEX128] = 2,
	};
	unsigned total = 0;
	for (unsigned d = 0; d < DT_COUNT; d++)
		total += mask & DTM(d) ? weights[d] : 0;
	uint64_t pick = rng_below(r, total);
	for (unsigned d = 0; d < DT_COUNT; d++) {
		if (!(mask & DTM(d)))
			continue;
		if (pick < weights[d])
			return (enum dtype)d;
		pick -= weights[d];
	}
	return DT_FLOAT32;
}

/* Now and then an input that shares an earlier input's memory (layout SAME
 * or VIEW): a copy of that input's description, of a dtype and rank the
 * caller takes; -1 when no earlier input suits. */
static int shared_input(struct graph *g, struct rng *r, unsigned dtypes, unsigned rank_min, unsigned rank_max,
			int empty_ok)
{
	unsigned cand[G_MAX_VALUES], nc = 0;
	for (unsigned i = 0; i < g->nvalues; i++) {
		const struct value *v = &g->v[i];
		if (v->kind == VK_INPUT && !v->grad && (DTM(v->dtype) & dtypes) && v->rank >= rank_min &&
		    v->rank <= rank_max && (empty_ok || !value_has_empty_dim(g, v)))
			cand[nc++] = i;
	}
	if (!nc)
		return -1;
	const struct value *p = &g->v[cand[rng_below(r, nc)]];
	struct leaf_dim ld[G_MAX_RANK];
	memcpy(ld, p->ld, sizeof ld);
	int id = graph_add_leaf(g, VK_INPUT, (enum dtype)p->dtype, p->rank, ld, (enum fill)p->fill, p->lo, p->hi, NULL, 0);
	if (id >= 0)
		graph_set_layout(g, (unsigned)id, rng_chance(r, 50) ? IL_SAME : IL_VIEW, NULL, 0);
	return id;
}

int gen_random_input(struct graph *g, struct rng *r, unsigned dtypes, unsigned rank_min, unsigned rank_max, int empty_ok)
{
	int shared = rng_chance(r, 4) ? shared_input(g, r, dtypes ? dtypes : DTM_ALL, rank_min, rank_max, empty_ok) : -1;
	if (shared >= 0)
		return shared;
	static const uint8_t rank_w[G_MAX_RANK + 1] = {2, 12, 26, 26, 22, 9, 3};
	unsigned total = 0, rank = rank_min;
	for (unsigned k = rank_min; k <= rank_max && k <= G_MAX_RANK; k++)
		total += rank_w[k];
	uint64_t pick = rng_below(r, total);
	for (unsigned k = rank_min; k <= rank_max && k <= G_MAX_RANK; k++) {
		if (pick < rank_w[k]) {
			rank = k;
			break;
		}
		pick -= rank_w[k];
	}
	enum dtype dt = random_dtype(r, dtypes ? dtypes : DTM_ALL);
	struct leaf_dim ld[G_MAX_RANK];
	/* A graph for a GPU has room for large tensors: some inputs use it. */
	int large = g->target == TARGET_GPU && rng_chance(r, 20);
	int64_t numel = 1, budget = large ? G_MAX_NUMEL_GPU / 4 : 4096, most = large ? 256 : 12;
	int any_dyn = 0, all_static = 1;
	for (unsigned d = 0; d < rank; d++) {
		memset(&ld[d], 0, sizeof ld[d]);
		ld[d].sym = -1;
		int64_t left = budget / numel;
		if (g->nsym && rng_chance(r, any_dyn ? 25 : 45)) {
			ld[d].sym = (int8_t)rng_below(r, g->nsym);
			ld[d].mul = 1;
			ld[d].add = (int16_t)(rng_chance(r, 20) ? rng_range(r, 1, 3) : 0);
			int32_t mx = 0;
			for (unsigned b = 0; b < g->nbind; b++)
				if (g->sym[b][ld[d].sym] + ld[d].add > mx)
					mx = g->sym[b][ld[d].sym] + ld[d].add;
			if (mx <= left) {
				numel *= mx;
				any_dyn = 1;
				all_static = 0;
				continue;
			}
			ld[d].sym = -1;
			ld[d].mul = 0;
		}
		int64_t hi = left < most ? left : most;
		int64_t x = rng_chance(r, 10) ? 1 : rng_range(r, 2, hi < 2 ? 2 : hi);
		if (x > left)
			x = 1;
		ld[d].add = (int16_t)x;
		numel *= x;
	}
	if (empty_ok && rank && rng_chance(r, 3)) { /* an empty tensor: a static dim of size 0 */
		unsigned d = (unsigned)rng_below(r, rank);
		if (ld[d].sym < 0)
			ld[d].add = 0;
	}
	enum fill fill = FILL_NORMAL;
	int64_t lo = 0, hi = 1;
	if (!dtype_is_inexact(dt)) {
		fill = FILL_RANGE;
		if (dt != DT_BOOL) {
			lo = dtype_info(dt)->min < 0 ? -8 : 0;
			hi = dtype_info(dt)->min < 0 ? 8 : 16;
		}
	} else if (rng_chance(r, 10)) {
		fill = FILL_POSITIVE;
	} else {
		gen_float_fill(r, &fill, &lo);
		hi = lo;
	}
	/* Now and then module state instead of an input (a target for in-place writes). */
	enum value_kind kind = VK_INPUT;
	if (all_static && !dtype_is_complex(dt) && rng_chance(r, 8)) /* complex leaves: inputs only (Module.to) */
		kind = dtype_is_float(dt) && rng_chance(r, 50) ? VK_PARAM : VK_BUFFER;
	int id = graph_add_leaf(g, kind, dt, rank, ld, fill, lo, hi, NULL, 0);
	if (id >= 0 && kind == VK_INPUT && rng_chance(r, 12))
		graph_set_layout(g, (unsigned)id, (unsigned)rng_range(r, 1, IL_TENSOR_COUNT - 1), NULL, 0); /* kept where it suits the rank */
	return id;
}

/* Candidate k of nc by the rarity of the pair it would make with op, the
 * three most recent weighing three times more (graphs still grow deep). */
static unsigned pick_rare_pair(const struct graph *g, struct rng *r, unsigned opid, const unsigned *cand, unsigned nc)
{
	unsigned w[G_MAX_VALUES], total = 0;
	for (unsigned k = 0; k < nc; k++) {
		w[k] = rarity_of_pair(rarity_producer(g, cand[k]), opid) * (k + 3 >= nc ? 3 : 1);
		total += w[k];
	}
	uint64_t pick = rng_below(r, total);
	for (unsigned k = 0; k < nc; k++) {
		if (pick < w[k])
			return cand[k];
		pick -= w[k];
	}
	return cand[nc - 1];
}

int gen_pick_primary(struct graph *g, struct rng *r, unsigned opid, unsigned first)
{
	const struct op_def *op = op_get(opid);
	unsigned cand[G_MAX_VALUES], nc = 0, dtypes = op_dtypes(op, g->target);
	for (unsigned i = first; i < g->nvalues; i++) {
		const struct value *v = &g->v[i];
		if ((dtypes & DTM(v->dtype)) && v->rank >= op->rank_min && v->rank <= op->rank_max && !v->datadep &&
		    (op->empty_ok || !value_has_empty_dim(g, v)))
			cand[nc++] = i;
	}
	if (nc && !rng_chance(r, 8)) {
		if (rarity_pairs_on())
			return (int)pick_rare_pair(g, r, opid, cand, nc);
		if (rng_chance(r, 70))
			return (int)cand[nc - 1 - rng_below(r, nc < 3 ? nc : 3)];
		return (int)cand[rng_below(r, nc)];
	}
	return gen_random_input(g, r, dtypes, op->rank_min, op->rank_max, op->empty_ok);
}

int gen_choose(struct graph *g, struct rng *r, unsigned opid, unsigned first, struct op_choice *ch)
{
	struct gen_ctx x = {{g, op_get(opid), r, gen_operand, NULL}, g, first};
	x.c.impl = &x;
	return op_get(opid)->choose(&x.c, ch) ? 0 : -1;
}

int gen_operand_for(struct graph *g, struct rng *r, const struct tensor_req *q)
{
	struct gen_ctx x = {{g, NULL, r, gen_operand, NULL}, g, 0};
	x.c.impl = &x;
	return gen_operand(&x.c, q);
}

int gen_choose_node(struct graph *g, struct rng *r, unsigned opid, unsigned first, struct op_choice *ch)
{
	if (gen_choose(g, r, opid, first, ch))
		return -1;
	return graph_add_node(g, opid, ch, NULL, 0);
}
