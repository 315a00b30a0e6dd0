/* The matmul family's einsum ops: one op per fixed equation, with one
 * generic rule and chooser that read the equation. */
#include "matmul_kit.h"

/* ---- einsum with a fixed equation ----
 * Equations (from the table, never from bytes) use letters a-z, at most one
 * "..." per term (anywhere in it), and one "->". Equal labels need equal
 * sizes (torch also broadcasts labels of size 1; we do not). The ellipsis
 * dims of the operands broadcast as torch does: right-aligned, each pair
 * equal or one of them 1; a result without "..." sums them out. */

/* One term: the labels before the ellipsis, whether it has one, those after. */
struct ein_term {
	const char *pre, *post;
	unsigned npre, npost;
	bool ell;
};

struct ein {
	int32_t size[G_MAX_BIND][26];
	uint32_t seen;    /* bit l: label l has a size */
	struct value ell; /* the ellipsis dims, broadcast over the operands read so far */
	bool has_ell;     /* choosers: an operand had an ellipsis */
};

/* The term at *p, which moves past it (to the ',' or "->" or the end). */
static struct ein_term ein_term(const char **p)
{
	struct ein_term t = {*p, NULL, (unsigned)strcspn(*p, ".,-"), 0, false};
	*p += t.npre;
	t.ell = !strncmp(*p, "...", 3);
	if (t.ell)
		*p += 3;
	t.post = *p;
	t.npost = (unsigned)strcspn(*p, ",-");
	*p += t.npost;
	return t;
}

/* How many of v's dims the term's ellipsis covers; -1 when v's rank does not fit the term. */
static int ein_ell_rank(const struct ein_term *t, const struct value *v)
{
	unsigned n = t->npre + t->npost;
	return v->rank < n || (!t->ell && v->rank != n) ? -1 : (int)(v->rank - n);
}

/* Label lab takes v's dim d; false (with io set) when it had another size. */
static bool ein_label(struct infer_io *io, struct ein *e, char lab, const struct value *v, unsigned d, unsigned k)
{
	unsigned l = (unsigned)(lab - 'a');
	FOR_BIND(io, b) {
		if (e->seen >> l & 1 && e->size[b][l] != v->dim[b][d])
			return io_fail(io, "label %c: %d vs %d (input %u, binding %u)", lab, (int)e->size[b][l],
				       (int)v->dim[b][d], k, b);
		e->size[b][l] = v->dim[b][d];
	}
	e->seen |= 1u << l;
	return true;
}

/* Reads operand k (v, under term t) into e. */
static bool ein_read(struct infer_io *io, struct ein *e, const struct value *v, const struct ein_term *t, unsigned k)
{
	int ne = ein_ell_rank(t, v);
	if (ne < 0)
		return io_fail(io, "input %u is %u-D, the equation wants %s%u", k, v->rank, t->ell ? ">= " : "",
			       t->npre + t->npost);
	for (unsigned i = 0; i < t->npre; i++)
		if (!ein_label(io, e, t->pre[i], v, i, k))
			return false;
	for (unsigned i = 0; i < t->npost; i++)
		if (!ein_label(io, e, t->post[i], v, t->npre + (unsigned)ne + i, k))
			return false;
	if (!t->ell)
		return true;
	struct value mine, prev = e->ell;
	memset(&mine, 0, sizeof mine);
	for (unsigned d = 0; d < (unsigned)ne; d++)
		push_dim(&mine, v, t->npre + d);
	return io_broadcast(io, &prev, &mine, &e->ell);
}

static void push_label(struct value *s, const struct ein *e, char lab)
{
	for (unsigned b = 0; b < G_MAX_BIND; b++)
		s->dim[b][s->rank] = e->size[b][lab - 'a'];
	s->rank++;
}

/* Fills s with term t's shape: its labels' sizes around the ellipsis dims ell. */
static void ein_shape(const struct ein *e, const struct ein_term *t, const struct value *ell, struct value *s)
{
	memset(s, 0, sizeof *s);
	for (unsigned i = 0; i < t->npre; i++)
		push_label(s, e, t->pre[i]);
	for (unsigned d = 0; t->ell && d < ell->rank; d++)
		push_dim(s, ell, d);
	for (unsigned i = 0; i < t->npost; i++)
		push_label(s, e, t->post[i]);
}

static bool ein_rule(struct infer_io *io, const char *eq)
{
	struct ein e;
	memset(&e, 0, sizeof e);
	if (!float_operands(io))
		return false;
	const char *p = eq;
	unsigned k = 0;
	for (;; k++) {
		struct ein_term t = ein_term(&p);
		if (k >= io->nin)
			return io_fail(io, "%u inputs for a longer equation", io->nin);
		if (!ein_read(io, &e, io->in[k], &t, k))
			return false;
		if (*p != ',')
			break;
		p++;
	}
	if (k + 1 != io->nin)
		return io_fail(io, "%u inputs, the equation has %u operands", io->nin, k + 1);
	p += 2; /* "->" */
	struct ein_term out = ein_term(&p);
	if (out.npre + out.npost + (out.ell ? e.ell.rank : 0) > G_MAX_RANK)
		return io_fail(io, "result rank above %d", G_MAX_RANK);
	io->nout = 1;
	io_out_rank(io, 0, 0, (enum dtype)io->in[0]->dtype);
	ein_shape(&e, &out, &e.ell, &io->out[0]);
	io->out[0].dtype = io->in[0]->dtype;
	io->out[0].lo = INT64_MIN;
	io->out[0].hi = INT64_MAX;
	return true;
}

/* ---- the chooser ---- */

/* A label's size from dim d of x; true when an earlier label of x had another size (e.g. "ii" of a non-square matrix). */
static bool ein_take(struct ein *e, char lab, const struct value *x, unsigned d)
{
	unsigned l = (unsigned)(lab - 'a');
	bool clash = false;
	for (unsigned b = 0; b < G_MAX_BIND; b++) {
		clash |= e->seen >> l & 1 && e->size[b][l] != x->dim[b][d];
		if (!(e->seen >> l & 1))
			e->size[b][l] = x->dim[b][d];
	}
	e->seen |= 1u << l;
	return clash;
}

/* New labels of term t get small sizes. */
static void ein_new_labels(struct chooser *c, struct ein *e, const struct ein_term *t, int64_t *rest)
{
	for (unsigned i = 0; i < t->npre + t->npost; i++) {
		unsigned l = (unsigned)((i < t->npre ? t->pre[i] : t->post[i - t->npre]) - 'a');
		if (e->seen >> l & 1)
			continue;
		int32_t s = pick_free(c, *rest);
		*rest *= s;
		for (unsigned b = 0; b < G_MAX_BIND; b++)
			e->size[b][l] = s;
		e->seen |= 1u << l;
	}
}

/* An operand's ellipsis dims that broadcast with e's: some leading ones
 * dropped, some set to 1, a 1 of e's sometimes given a size (which e's
 * ellipsis takes), sometimes a new leading dim; new dims for the first
 * ellipsis. room: how many dims the operand may still have. */
static void ein_ell_variant(struct chooser *c, struct ein *e, struct value *mine, unsigned room, int64_t *rest)
{
	memset(mine, 0, sizeof *mine);
	if (!e->has_ell) {
		unsigned n = (unsigned)rng_below(c->rng, (room < 2 ? room : 2) + 1u);
		for (unsigned i = 0; i < n; i++) {
			int32_t s = pick_free(c, *rest);
			*rest *= s;
			push_size(&e->ell, s);
		}
		e->has_ell = true;
		*mine = e->ell;
		return;
	}
	unsigned drop = rng_chance(c->rng, 30) ? (unsigned)rng_below(c->rng, e->ell.rank + 1u) : 0;
	if (e->ell.rank < room && rng_chance(c->rng, 15)) {
		struct value wider;
		memset(&wider, 0, sizeof wider);
		int32_t s = pick_free(c, *rest);
		*rest *= s;
		push_size(&wider, s);
		for (unsigned d = 0; d < e->ell.rank; d++)
			push_dim(&wider, &e->ell, d);
		e->ell = wider;
		push_size(mine, s);
		drop = 1; /* the dims below it are all kept */
	} else if (e->ell.rank - drop > room) {
		drop = e->ell.rank - room;
	}
	for (unsigned d = drop; d < e->ell.rank; d++) {
		bool one = true;
		for (unsigned b = 0; b < c->g->nbind; b++)
			one &= e->ell.dim[b][d] == 1;
		if (one && rng_chance(c->rng, 30)) {
			int32_t s = pick_free(c, *rest);
			*rest *= s;
			for (unsigned b = 0; b < G_MAX_BIND; b++)
				e->ell.dim[b][d] = s;
		}
		if (rng_chance(c->rng, 25))
			push_size(mine, 1);
		else
			push_dim(mine, &e->ell, d);
	}
}

/* Labels take input 0's sizes (a fresh input 0 when its repeated labels
 * disagree); new labels get small sizes; ellipses broadcast with input 0's. */
static bool ein_choose(struct chooser *c, struct op_choice *ch, const char *eq)
{
	const struct value *x = &c->g->v[ch->in[0]];
	enum dtype dt = (enum dtype)x->dtype;
	struct ein e;
	memset(&e, 0, sizeof e);
	const char *p = eq;
	struct ein_term t0 = ein_term(&p);
	int ne = ein_ell_rank(&t0, x);
	if (ne < 0)
		return false;
	bool fresh0 = false;
	for (unsigned i = 0; i < t0.npre; i++)
		fresh0 |= ein_take(&e, t0.pre[i], x, i);
	for (unsigned i = 0; i < t0.npost; i++)
		fresh0 |= ein_take(&e, t0.post[i], x, t0.npre + (unsigned)ne + i);
	struct value ell0;
	memset(&ell0, 0, sizeof ell0);
	for (unsigned d = 0; d < (unsigned)ne; d++)
		push_dim(&ell0, x, t0.npre + d);
	e.ell = ell0;
	e.has_ell = t0.ell;
	int64_t rest = max_numel(c->g, x);
	for (unsigned k = 1; *p == ','; k++) {
		p++;
		struct ein_term t = ein_term(&p);
		ein_new_labels(c, &e, &t, &rest);
		struct value mine, s;
		memset(&mine, 0, sizeof mine);
		if (t.ell)
			ein_ell_variant(c, &e, &mine, G_MAX_RANK - t.npre - t.npost, &rest);
		ein_shape(&e, &t, &mine, &s);
		if (k >= G_MAX_IN || !set_input(ch, k, operand_like(c, &s, dt)))
			return false;
	}
	if (fresh0) {
		struct value s;
		ein_shape(&e, &t0, &ell0, &s);
		int id = operand_like(c, &s, dt);
		if (id < 0)
			return false;
		ch->in[0] = (uint16_t)id;
	}
	return true;
}

#define EIN_FNS(tag, eq) \
	bool infer_##tag(struct infer_io *io) { return ein_rule(io, eq); } \
	bool choose_##tag(struct chooser *c, struct op_choice *ch) { return ein_choose(c, ch, eq); }
EIN_FNS(ein_mm, "ij,jk->ik")
EIN_FNS(ein_bmm, "bij,bjk->bik")
EIN_FNS(ein_qk, "bhqd,bhkd->bhqk")
EIN_FNS(ein_av, "bhqk,bhkd->bhqd")
EIN_FNS(ein_outer, "i,j->ij")
EIN_FNS(ein_diag, "ii->i")
EIN_FNS(ein_trace, "ii->")
EIN_FNS(ein_transpose, "ij->ji")
EIN_FNS(ein_batch_outer, "bi,bj->bij")
EIN_FNS(ein_bilinear, "bn,anm,bm->ba")
EIN_FNS(ein_batched_mm, "...ij,...jk->...ik")
EIN_FNS(ein_linear, "...i,oi->...o")
EIN_FNS(ein_batched_dot, "...i,...i->...")
EIN_FNS(ein_contract_last, "b...d,d->b...")
EIN_FNS(ein_mid_mm, "i...j,j...k->i...k")
EIN_FNS(ein_batched_transpose, "...ij->...ji")
EIN_FNS(ein_batched_diag, "...ii->...i")
EIN_FNS(ein_batched_outer, "...i,...j->...ij")
EIN_FNS(ein_sum_ellipsis, "b...->b")
