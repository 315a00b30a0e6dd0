/* Mutators of types: dims (sizes), dynamic (which dims are symbolic), dtype,
 * and leaf (a leaf's memory layout, fill, or whether it is module state). */
#include <string.h>
#include "../graph/op.h"
#include "mutkit.h"

#define SYM_TRIES 8      /* draws for a symbol value distinct across bindings */
#define SMALL_SYMVAL 16  /* most symbol values stay small: tensors stay cheap */

/* A leaf dim, by entry and dim index. */
struct dim_ref {
	uint16_t entry;
	uint8_t d;
};

/* Leaf dims that are static (want_sym 0) or symbolic (want_sym 1); inputs
 * only when inputs_only. */
static unsigned leaf_dims(const struct recipe *rc, int want_sym, int inputs_only, struct dim_ref *out)
{
	unsigned n = 0;
	for (unsigned i = 0; i < rc->n; i++) {
		const struct recipe_leaf *l = &rc->e[i].leaf;
		if (rc->e[i].is_node || (inputs_only && l->kind != VK_INPUT))
			continue;
		for (unsigned d = 0; d < l->rank; d++)
			if ((l->ld[d].sym >= 0) == want_sym)
				out[n++] = (struct dim_ref){(uint16_t)i, (uint8_t)d};
	}
	return n;
}

static struct leaf_dim *dim_at(struct recipe *rc, struct dim_ref r) { return &rc->e[r.entry].leaf.ld[r.d]; }

/* A value for symbol s at binding b, distinct from its other bindings. */
static int draw_symval(struct recipe *rc, struct rng *r, unsigned s, unsigned b, int32_t near, int32_t hi)
{
	for (unsigned t = 0; t < SYM_TRIES; t++) {
		int32_t v = (int32_t)(rng_chance(r, 50) ? near + rng_range(r, -3, 3) : rng_range(r, G_MIN_SYMVAL, hi));
		int ok = v >= G_MIN_SYMVAL && v <= G_MAX_SYMVAL;
		for (unsigned c = 0; c < rc->nbind; c++)
			ok &= c == b || rc->sym[c][s] != v;
		if (ok && v != rc->sym[b][s]) {
			rc->sym[b][s] = v;
			return 0;
		}
	}
	return -1;
}

static int32_t resized(struct rng *r, int32_t old)
{
	int32_t v = old;
	while (v == old) {
		switch (rng_below(r, 5)) {
		case 0: v = old + 1; break;
		case 1: v = old > 1 ? old - 1 : 2; break;
		case 2: v = old * 2 <= G_MAX_DIM ? old * 2 : 1; break;
		case 3: v = old > 1 ? old / 2 : 3; break;
		default: v = (int32_t)rng_range(r, 1, 16);
		}
	}
	return v;
}

/* A symbol's value at one binding, or a static leaf dim's size (often every
 * static leaf dim of that size, so that operands that had to agree still do). */
int mut_dims(struct mut_ctx *m)
{
	struct recipe *rc = &m->rc;
	static _Thread_local struct dim_ref ds[G_MAX_VALUES * G_MAX_RANK];
	unsigned n = leaf_dims(rc, 0, 0, ds);
	if (rc->nsym && (!n || rng_chance(m->r, 50))) {
		unsigned s = (unsigned)rng_below(m->r, rc->nsym), b = (unsigned)rng_below(m->r, rc->nbind);
		if (draw_symval(rc, m->r, s, b, rc->sym[b][s], SMALL_SYMVAL))
			return -1;
		return mut_finish(m);
	}
	if (!n)
		return -1;
	struct dim_ref pick = ds[rng_below(m->r, n)];
	int16_t old = dim_at(rc, pick)->add, now = (int16_t)resized(m->r, old);
	int every = rng_chance(m->r, 50);
	for (unsigned i = 0; i < n; i++)
		if ((every && dim_at(rc, ds[i])->add == old) || (ds[i].entry == pick.entry && ds[i].d == pick.d))
			dim_at(rc, ds[i])->add = now;
	return mut_finish(m);
}

/* A static input dim becomes symbolic (a new symbol whose binding-0 value is
 * its size, or an existing one offset to it); binding 0 keeps every shape. */
static int mark_dynamic(struct mut_ctx *m, struct dim_ref *ds, unsigned n)
{
	struct recipe *rc = &m->rc;
	unsigned k = 0;
	for (unsigned i = 0; i < n; i++) /* sizes a symbol can take at binding 0 */
		if (dim_at(rc, ds[i])->add >= G_MIN_SYMVAL && dim_at(rc, ds[i])->add <= G_MAX_SYMVAL)
			ds[k++] = ds[i];
	if (!k)
		return -1;
	struct dim_ref pick = ds[rng_below(m->r, k)];
	int16_t size = dim_at(rc, pick)->add;
	struct leaf_dim to = {(int8_t)rc->nsym, 1, 0};
	if (rc->nsym && (rc->nsym == G_MAX_SYM || rng_chance(m->r, 40))) {
		unsigned s = (unsigned)rng_below(m->r, rc->nsym);
		to = (struct leaf_dim){(int8_t)s, 1, (int16_t)(size - rc->sym[0][s])};
		for (unsigned b = 0; b < rc->nbind; b++)
			if (rc->sym[b][s] + to.add < G_MIN_SYMVAL)
				return -1;
	} else {
		if (!rc->nsym)
			rc->nbind = (uint8_t)(2 + rng_below(m->r, 2));
		unsigned s = rc->nsym++;
		for (unsigned b = 0; b < G_MAX_BIND; b++)
			rc->sym[b][s] = b ? 0 : size;
		int32_t hi = size * 2 > SMALL_SYMVAL ? size * 2 : SMALL_SYMVAL;
		for (unsigned b = 1; b < rc->nbind; b++)
			if (draw_symval(rc, m->r, s, b, size, hi > G_MAX_SYMVAL ? G_MAX_SYMVAL : hi))
				return -1;
	}
	int every = rng_chance(m->r, 60); /* operands that had to agree keep agreeing */
	for (unsigned i = 0; i < k; i++)
		if ((every && dim_at(rc, ds[i])->add == size) || (ds[i].entry == pick.entry && ds[i].d == pick.d))
			*dim_at(rc, ds[i]) = to;
	return mut_finish(m);
}

/* Symbolic dims of one symbol (mostly all of them) become static at their
 * binding-0 size; a symbol left unused is dropped (mut_tidy). */
static int unmark_dynamic(struct mut_ctx *m, const struct dim_ref *ds, unsigned n)
{
	struct recipe *rc = &m->rc;
	struct dim_ref pick = ds[rng_below(m->r, n)];
	int sym = dim_at(rc, pick)->sym, every = rng_chance(m->r, 70);
	for (unsigned i = 0; i < n; i++) {
		struct leaf_dim *ld = dim_at(rc, ds[i]);
		if ((every && ld->sym == sym) || (ds[i].entry == pick.entry && ds[i].d == pick.d))
			*ld = (struct leaf_dim){-1, 0, (int16_t)(ld->mul * rc->sym[0][ld->sym] + ld->add)};
	}
	return mut_finish(m);
}

int mut_dynamic(struct mut_ctx *m)
{
	static _Thread_local struct dim_ref ds[G_MAX_VALUES * G_MAX_RANK];
	unsigned nsym = leaf_dims(&m->rc, 1, 0, ds);
	if (nsym && rng_chance(m->r, 50))
		return unmark_dynamic(m, ds, nsym);
	unsigned nstatic = leaf_dims(&m->rc, 0, 1, ds);
	if (!mark_dynamic(m, ds, nstatic))
		return 0;
	if (!nsym)
		return -1;
	recipe_from_graph(&m->rc, m->g); /* mark_dynamic may have edited it */
	return unmark_dynamic(m, ds, leaf_dims(&m->rc, 1, 0, ds));
}

static enum dtype pick_from(struct rng *r, const uint8_t *dts, unsigned n, enum dtype not)
{
	enum dtype d;
	do
		d = (enum dtype)dts[rng_below(r, n)];
	while (d == not);
	return d;
}

/* Mostly within its category (float <-> float, int <-> int); parameters stay float. */
static enum dtype new_dtype(struct rng *r, enum dtype old, int param)
{
	static const uint8_t floats[] = {DT_FLOAT32, DT_FLOAT16, DT_BFLOAT16, DT_FLOAT64};
	static const uint8_t nonfloats[] = {DT_INT32, DT_INT64, DT_BOOL, DT_INT8, DT_UINT8, DT_INT16};
	if (dtype_is_complex(old))
		return old == DT_COMPLEX64 ? DT_COMPLEX128 : DT_COMPLEX64;
	if (dtype_is_float(old))
		return param || rng_chance(r, 85) ? pick_from(r, floats, 4, old) : pick_from(r, nonfloats, 6, old);
	if (old != DT_BOOL && rng_chance(r, 70))
		return old == DT_INT32 ? DT_INT64 : DT_INT32;
	return rng_chance(r, 50) ? pick_from(r, floats, 4, old) : pick_from(r, nonfloats, 6, old);
}

/* A leaf entry of m's recipe, tidied first (every leaf left has a user), or -1. */
static int random_leaf(struct mut_ctx *m)
{
	struct recipe *rc = &m->rc;
	mut_tidy(rc);
	unsigned leaves[G_MAX_VALUES], nl = 0;
	for (unsigned i = 0; i < rc->n; i++)
		if (!rc->e[i].is_node)
			leaves[nl++] = i;
	return nl ? (int)leaves[rng_below(m->r, nl)] : -1;
}

static int reads_entry(const struct recipe *rc, unsigned i, unsigned entry)
{
	for (unsigned j = 0; rc->e[i].is_node && j < rc->e[i].node.nin; j++)
		if (rc->e[i].node.in[j].entry == entry)
			return 1;
	return 0;
}

/* A leaf's dtype; consumers that reject the new one read a cast back to the
 * old dtype, placed right after the leaf (sometimes all of them do). */
int mut_dtype(struct mut_ctx *m)
{
	struct recipe *rc = &m->rc;
	int e = random_leaf(m); /* every leaf left has a user; entry numbers stay put below */
	if (e < 0)
		return -1;
	struct recipe_leaf *l = &rc->e[e].leaf;
	enum dtype old = (enum dtype)l->dtype, now = new_dtype(m->r, old, l->kind == VK_PARAM);
	l->dtype = (uint8_t)now;
	if (dtype_is_inexact(old) != dtype_is_inexact(now))
		l->fill = dtype_is_inexact(now) ? FILL_NORMAL : FILL_RANGE;
	mut_leaf_fill(l, dtype_is_inexact(old) ? -8 : l->lo, dtype_is_inexact(old) ? 8 : l->hi);
	/* Casts from float to int go through the safe path (plain ones refuse). */
	int safe = dtype_is_inexact(now) && !dtype_is_inexact(old) && old != DT_BOOL;
	struct recipe_entry cast;
	memset(&cast, 0, sizeof cast);
	cast.is_node = 1;
	cast.node = (struct recipe_node){(uint16_t)op_find(safe ? "to_int_safe" : "to_dtype"), 1, 1,
					 {{(uint16_t)e, 0}}, {old}};
	int always = rng_chance(m->r, 20), have_cast = 0;
	unsigned bad = 0, at = e + 1;
	if (!always && !recipe_build(rc, &m->out, &bad, NULL, 0))
		return 0;
	for (unsigned t = 0; t < G_MAX_IN * G_MAX_NODES; t++) {
		if (!have_cast) {
			if (recipe_insert(rc, at, &cast, 1))
				return -1;
			have_cast = 1;
			bad += bad >= at;
		} else if (bad <= at) {
			return -1; /* the cast itself, or before it */
		}
		if (!always && reads_entry(rc, bad, e))
			recipe_redirect(rc, bad, bad + 1, e, -1, (struct recipe_ref){(uint16_t)at, 0});
		else if (!recipe_redirect(rc, at + 1, rc->n, e, -1, (struct recipe_ref){(uint16_t)at, 0}))
			return -1; /* nothing reads the leaf any more: the failure lies elsewhere */
		if (!recipe_build(rc, &m->out, &bad, NULL, 0))
			return 0;
		always = 0;
	}
	return -1;
}

/* A leaf's memory layout (graph inputs), its fill (floats: normal, positive,
 * a constant, special values), or its kind (an input becomes module state,
 * module state an input; static leaves only). The rebuild refuses what the
 * leaf's users cannot take, as for every mutator. */
int mut_leaf(struct mut_ctx *m)
{
	static const uint8_t float_fills[] = {FILL_NORMAL, FILL_POSITIVE, FILL_CONST, FILL_SPECIAL};
	static const int64_t consts[] = {0, 1000, -1000, 500, 2500, 100000};
	struct recipe *rc = &m->rc;
	int e = random_leaf(m);
	if (e < 0)
		return -1;
	struct recipe_leaf *l = &rc->e[e].leaf;
	unsigned what = (unsigned)rng_below(m->r, 3);
	int is_static = 1;
	for (unsigned d = 0; d < l->rank; d++)
		is_static &= l->ld[d].sym < 0;
	if (what == 0 && l->kind == VK_INPUT) {
		l->layout = (uint8_t)rng_below(m->r, IL_TENSOR_COUNT); /* one that does not suit the rank is dropped */
	} else if (what == 1 && dtype_is_inexact(l->dtype)) {
		unsigned f = (unsigned)rng_below(m->r, 4);
		l->fill = float_fills[f] == l->fill ? float_fills[(f + 1) % 4] : float_fills[f];
		l->lo = l->hi = l->fill == FILL_CONST ? consts[rng_below(m->r, 6)] : 0;
	} else if (what == 2 && is_static && !dtype_is_complex(l->dtype)) {
		/* not complex: Module.to(float64), the fp64 run's, drops a complex leaf's imaginary parts */
		l->kind = l->kind != VK_INPUT ? VK_INPUT : dtype_is_float(l->dtype) && rng_chance(m->r, 50) ? VK_PARAM : VK_BUFFER;
		l->layout = 0;
	} else {
		return -1;
	}
	return recipe_build(rc, &m->out, NULL, NULL, 0);
}
