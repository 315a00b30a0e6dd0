/* The matmul family's einsum ops: one op per fixed equation, with one
 * generic rule and chooser that read the equation. */
#include "matmul_kit.h"

/* ---- einsum with a fixed equation ----
 * Equations (from the table, never from bytes) use letters a-z, an optional
 * leading "..." per operand, and one "->". We require equal sizes for equal
 * labels and identical ellipsis shapes (torch also broadcasts 1s). */

struct ein {
	int32_t size[G_MAX_BIND][26];
	uint32_t seen;     /* bit l: label l has a size */
	struct value ell;  /* the ellipsis dims */
	bool has_ell;
};

/* One operand spec at *p: ellipsis flag, letter count; *p moves past it. */
static unsigned ein_spec(const char **p, bool *ell)
{
	*ell = !strncmp(*p, "...", 3);
	if (*ell)
		*p += 3;
	unsigned n = (unsigned)strcspn(*p, ",-");
	*p += n;
	return n;
}

/* Reads operand v's sizes into e; false (with io set) on a mismatch. */
static bool ein_read(struct infer_io *io, struct ein *e, const struct value *v, const char *lab, unsigned n, bool ell,
		     unsigned k)
{
	if (v->rank < n || (!ell && v->rank != n))
		return io_fail(io, "input %u is %u-D, the equation wants %s%u", k, v->rank, ell ? ">= " : "", n);
	unsigned lead = v->rank - n;
	if (ell && !e->has_ell) {
		for (unsigned d = 0; d < lead; d++)
			push_dim(&e->ell, v, d);
		e->has_ell = true;
	} else if (ell) {
		if (e->ell.rank != lead)
			return io_fail(io, "input %u: ellipsis of %u dims, earlier %u", k, lead, e->ell.rank);
		for (unsigned d = 0; d < lead; d++)
			if (!dims_equal(io, &e->ell, d, v, d))
				return false;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned l = (unsigned)(lab[i] - 'a'), d = lead + i;
		FOR_BIND(io, b) {
			if (e->seen >> l & 1 && e->size[b][l] != v->dim[b][d])
				return io_fail(io, "label %c: %d vs %d (input %u, binding %u)", lab[i], (int)e->size[b][l],
					       (int)v->dim[b][d], k, b);
			e->size[b][l] = v->dim[b][d];
		}
		e->seen |= 1u << l;
	}
	return true;
}

/* Fills s with the shape that spec (lab, n, ell) has under e. */
static void ein_shape(const struct ein *e, const char *lab, unsigned n, bool ell, struct value *s)
{
	memset(s, 0, sizeof *s);
	for (unsigned d = 0; ell && d < e->ell.rank; d++)
		push_dim(s, &e->ell, d);
	for (unsigned i = 0; i < n; i++, s->rank++)
		for (unsigned b = 0; b < G_MAX_BIND; b++)
			s->dim[b][s->rank] = e->size[b][lab[i] - 'a'];
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
		bool ell;
		const char *lab = p + (strncmp(p, "...", 3) ? 0 : 3);
		unsigned n = ein_spec(&p, &ell);
		if (k >= io->nin)
			return io_fail(io, "%u inputs for a longer equation", io->nin);
		if (!ein_read(io, &e, io->in[k], lab, n, ell, k))
			return false;
		if (*p != ',')
			break;
		p++;
	}
	if (k + 1 != io->nin)
		return io_fail(io, "%u inputs, the equation has %u operands", io->nin, k + 1);
	p += 2; /* "->" */
	bool ell = !strncmp(p, "...", 3);
	const char *lab = p + (ell ? 3 : 0);
	unsigned n = (unsigned)strlen(lab);
	if (n + (ell ? e.ell.rank : 0) > G_MAX_RANK)
		return io_fail(io, "result rank above %d", G_MAX_RANK);
	io->nout = 1;
	io_out_rank(io, 0, 0, (enum dtype)io->in[0]->dtype);
	ein_shape(&e, lab, n, ell, &io->out[0]);
	io->out[0].dtype = io->in[0]->dtype;
	io->out[0].lo = INT64_MIN;
	io->out[0].hi = INT64_MAX;
	return true;
}

/* Labels take input 0's sizes (a fresh input 0 when its repeated labels
 * disagree, e.g. "ii" of a non-square matrix); new labels get small sizes. */
static bool ein_choose(struct chooser *c, struct op_choice *ch, const char *eq)
{
	const struct value *x = &c->g->v[ch->in[0]];
	enum dtype dt = (enum dtype)x->dtype;
	struct ein e;
	memset(&e, 0, sizeof e);
	const char *p = eq, *lab0 = p + (strncmp(p, "...", 3) ? 0 : 3);
	bool ell0, fresh0 = false;
	unsigned n0 = ein_spec(&p, &ell0);
	if (x->rank < n0 || (!ell0 && x->rank != n0))
		return false;
	unsigned lead = x->rank - n0;
	for (unsigned d = 0; d < lead; d++)
		push_dim(&e.ell, x, d);
	for (unsigned i = 0; i < n0; i++) {
		unsigned l = (unsigned)(lab0[i] - 'a');
		for (unsigned b = 0; b < G_MAX_BIND; b++) {
			fresh0 |= e.seen >> l & 1 && e.size[b][l] != x->dim[b][lead + i];
			if (!(e.seen >> l & 1))
				e.size[b][l] = x->dim[b][lead + i];
		}
		e.seen |= 1u << l;
	}
	int64_t rest = max_numel(c->g, x);
	for (unsigned k = 1; *p == ','; k++) {
		p++;
		bool ell;
		const char *lab = p + (strncmp(p, "...", 3) ? 0 : 3);
		unsigned n = ein_spec(&p, &ell);
		for (unsigned i = 0; i < n; i++) {
			unsigned l = (unsigned)(lab[i] - 'a');
			if (e.seen >> l & 1)
				continue;
			int32_t s = pick_free(c, rest);
			rest *= s;
			for (unsigned b = 0; b < G_MAX_BIND; b++)
				e.size[b][l] = s;
			e.seen |= 1u << l;
		}
		struct value s;
		ein_shape(&e, lab, n, ell, &s);
		if (k >= G_MAX_IN || !set_input(ch, k, operand_like(c, &s, dt)))
			return false;
	}
	if (fresh0) {
		struct value s;
		ein_shape(&e, lab0, n0, ell0, &s);
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
