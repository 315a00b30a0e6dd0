/* Shape ops driven by a list of sizes: view/reshape (a [@] target shape),
 * expand, repeat/tile, unflatten; and Python slicing. A dynamic dim is
 * spelled x.size(k) (entry -2-k), so one list is right at every binding;
 * -1 (once) takes what is left. */
#include "shape_ops.h"

/* One [@] entry at binding b: a size, or input 0's dim k for -2-k; 0 if neither. */
static int64_t entry_size(const struct infer_io *io, int64_t e, unsigned b)
{
	if (e >= 1 && e <= G_MAX_DIM)
		return e;
	if (e <= -2 && -2 - e < io->in[0]->rank)
		return io->in[0]->dim[b][-2 - e];
	return 0;
}

/* Fills o's dims d0.. from the [@] list at `at`: their product must be x's
 * numel (tdim < 0) or x's dim tdim at every binding; one -1 is inferred. */
static bool resolve_shape(struct infer_io *io, unsigned at, int tdim, struct value *o, unsigned d0)
{
	const struct value *x = io->in[0];
	unsigned len = (unsigned)io->attr[at];
	const int64_t *l = io->attr + at + 1;
	FOR_BIND(io, b) {
		int64_t total = tdim < 0 ? value_numel(x, b) : x->dim[b][tdim], prod = 1;
		int hole = -1;
		for (unsigned i = 0; i < len; i++) {
			int64_t s = entry_size(io, l[i], b);
			if (l[i] == -1 && hole < 0) {
				hole = (int)i;
				continue;
			}
			if (!s)
				return io_fail(io, "shape entry %u = %lld is not a size, a dim of input 0 or one -1", i,
					       (long long)l[i]);
			prod *= s;
			o->dim[b][d0 + i] = (int32_t)s;
		}
		if (hole < 0 ? prod != total : total % prod != 0)
			return io_fail(io, "shape of %lld elements does not fit %lld (binding %u)", (long long)prod,
				       (long long)total, b);
		if (hole >= 0) {
			if (total / prod > G_MAX_DIM)
				return io_fail(io, "inferred size %lld too large (binding %u)", (long long)(total / prod), b);
			o->dim[b][d0 + hole] = (int32_t)(total / prod);
		}
	}
	return true;
}

bool shape_infer_reshape(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (!list_ok(io, 0, G_MAX_RANK))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, (unsigned)io->attr[0], (enum dtype)x->dtype);
	keep_bounds(io, x);
	return resolve_shape(io, 0, -1, &io->out[0], 0);
}

/* .view() needs strides compatible with the new shape: we ask for contiguity. */
bool shape_infer_view(struct infer_io *io)
{
	if (!io->in[0]->contig)
		return io_fail(io, "view of a value not known to be contiguous");
	return shape_infer_reshape(io);
}

/* Prime factors of n appended to f (at most cap in all). */
static unsigned factorize(int64_t n, int64_t *f, unsigned nf, unsigned cap)
{
	for (int64_t p = 2; n > 1 && nf < cap; p++)
		while (n % p == 0 && nf < cap) {
			f[nf++] = p;
			n /= p;
		}
	return nf;
}

/* Groups factors into at most `room` sizes (each <= G_MAX_DIM), some into the
 * -1 hole when hole is set; appends the sizes to ent. False if they do not fit. */
static bool group_factors(struct chooser *c, const int64_t *f, unsigned nf, bool hole, unsigned room, int64_t *ent,
			  unsigned *ne)
{
	int64_t grp[G_MAX_RANK];
	unsigned k = nf ? (unsigned)rng_range(c->rng, hole ? 0 : 1, nf < room ? nf : room) : 0;
	if (nf && !k && !hole)
		return false;
	for (unsigned i = 0; i < k; i++)
		grp[i] = 1;
	for (unsigned i = 0; i < nf; i++) {
		unsigned g = (unsigned)rng_below(c->rng, k + hole);
		if (g < k && grp[g] * f[i] <= G_MAX_DIM)
			grp[g] *= f[i];
		else if (!hole)
			return false;
	}
	for (unsigned i = 0; i < k; i++)
		ent[(*ne)++] = grp[i];
	return true;
}

/* A target shape of the same numel at every binding: dynamic dims are kept
 * as x.size(k) or folded into -1, static dims are split into prime factors
 * and regrouped. */
bool shape_choose_reshape(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int64_t fac[24], ent[G_MAX_RANK];
	unsigned nf = 0, ne = 0;
	bool hole = false;
	for (unsigned d = 0; d < x->rank; d++) {
		bool dyn = x->dyn >> d & 1;
		if (dyn && rng_chance(c->rng, 40)) {
			hole = true;
		} else if (dyn || rng_chance(c->rng, 15)) {
			if (ne >= G_MAX_RANK)
				return false;
			ent[ne++] = -2 - (int64_t)d;
		} else {
			nf = factorize(x->dim[0][d], fac, nf, NELEM(fac));
		}
	}
	hole |= rng_chance(c->rng, 25);
	shuffle(c, fac, nf);
	if (ne + hole > G_MAX_RANK || !group_factors(c, fac, nf, hole, G_MAX_RANK - ne - hole, ent, &ne))
		return false;
	if (hole)
		ent[ne++] = -1;
	if (ne < G_MAX_RANK && rng_chance(c->rng, 10))
		ent[ne++] = 1;
	shuffle(c, ent, ne);
	ch->nattr = (uint8_t)(1 + ne);
	ch->attr[0] = ne;
	for (unsigned i = 0; i < ne; i++)
		ch->attr[1 + i] = ent[i];
	return true;
}

/* x.expand(sizes): new leading dims need a size; an existing dim keeps (-1 or
 * its own size) or, when it is 1, grows to any size. */
bool shape_infer_expand(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (!list_ok(io, 0, G_MAX_RANK) || io->attr[0] < x->rank)
		return io_fail(io, "expand needs %u to %d sizes", x->rank, G_MAX_RANK);
	unsigned len = (unsigned)io->attr[0], lead = len - x->rank;
	io->nout = 1;
	io_out_rank(io, 0, len, (enum dtype)x->dtype);
	keep_bounds(io, x);
	FOR_BIND(io, b) for (unsigned i = 0; i < len; i++) {
		int64_t e = io->attr[1 + i], s = entry_size(io, e, b), have = i < lead ? 0 : x->dim[b][i - lead];
		if (e == -1 && have)
			s = have;
		if (!s || (have && s != have && have != 1))
			return io_fail(io, "cannot expand dim %u (size %lld) to entry %lld (binding %u)", i, (long long)have,
				       (long long)e, b);
		io->out[0].dim[b][i] = (int32_t)s;
		io->out[0].overlap |= s > 1 && have <= 1; /* stride 0 over more than one element */
	}
	return true;
}

static int64_t any_dim_ref(struct chooser *c, const struct value *x, int64_t dflt)
{
	return x->rank ? -2 - (int64_t)rng_below(c->rng, x->rank) : dflt;
}

bool shape_choose_expand(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned lead = (unsigned)rng_below(c->rng, 3);
	if (x->rank + lead > G_MAX_RANK)
		lead = G_MAX_RANK - x->rank;
	ch->nattr = (uint8_t)(1 + x->rank + lead);
	ch->attr[0] = x->rank + lead;
	for (unsigned i = 0; i < lead; i++)
		ch->attr[1 + i] = rng_chance(c->rng, 30) ? any_dim_ref(c, x, 2) : rng_range(c->rng, 1, 4);
	for (unsigned d = 0; d < x->rank; d++) {
		int64_t *e = &ch->attr[1 + lead + d];
		bool one = value_dim_min(c->g, x, d) == 1 && !(x->dyn >> d & 1);
		if (one && rng_chance(c->rng, 70))
			*e = rng_chance(c->rng, 40) ? any_dim_ref(c, x, 3) : rng_range(c->rng, 2, 5);
		else
			*e = rng_chance(c->rng, 50) ? -1 : rng_chance(c->rng, 50) || (x->dyn >> d & 1) ? -2 - (int64_t)d
													: x->dim[0][d];
	}
	return true;
}

/* repeat: one count per dim (leading extra counts add dims); tile pads the
 * counts with leading ones when there are fewer than dims. */
static bool repeat_rule(struct infer_io *io, bool tile)
{
	const struct value *x = io->in[0];
	if (!list_ok(io, 0, G_MAX_RANK) || io->attr[0] < (tile ? 1 : x->rank))
		return io_fail(io, "repeat counts: need %u to %d", tile ? 1 : x->rank, G_MAX_RANK);
	unsigned len = (unsigned)io->attr[0], r = len > x->rank ? len : x->rank;
	io->nout = 1;
	io_out_rank(io, 0, r, (enum dtype)x->dtype);
	keep_bounds(io, x);
	FOR_BIND(io, b) for (unsigned i = 0; i < r; i++) {
		int64_t rep = i + len >= r ? io->attr[1 + i + len - r] : 1, s = i + x->rank >= r ? x->dim[b][i + x->rank - r] : 1;
		if (rep < 1 || rep > G_MAX_DIM || rep * s > G_MAX_DIM)
			return io_fail(io, "repeat count %lld of dim %u invalid (binding %u)", (long long)rep, i, b);
		io->out[0].dim[b][i] = (int32_t)(rep * s);
	}
	return true;
}
bool shape_infer_repeat(struct infer_io *io) { return repeat_rule(io, false); }
bool shape_infer_tile(struct infer_io *io) { return repeat_rule(io, true); }

bool shape_choose_repeat(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned len = x->rank + (x->rank < G_MAX_RANK && (!x->rank || rng_chance(c->rng, 30)));
	ch->nattr = (uint8_t)(1 + len);
	ch->attr[0] = len;
	for (unsigned i = 0; i < len; i++)
		ch->attr[1 + i] = rng_chance(c->rng, 35) ? rng_range(c->rng, 2, 3) : 1;
	return true;
}

bool shape_choose_tile(struct chooser *c, struct op_choice *ch)
{
	if (!shape_choose_repeat(c, ch))
		return false;
	if (ch->attr[0] > 1 && rng_chance(c->rng, 30)) { /* fewer counts than dims: drop the first */
		for (unsigned i = 1; i + 1u < ch->nattr; i++)
			ch->attr[i] = ch->attr[i + 1];
		ch->nattr--;
		ch->attr[0]--;
	}
	return true;
}

/* unflatten(dim, sizes): the [@] sizes multiply to the dim's size. */
bool shape_infer_unflatten(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int d = io_dim(io->attr[0], x->rank);
	if (d < 0 || !x->rank || !list_ok(io, 1, G_MAX_RANK + 1u - x->rank) || io->attr[1] < 1)
		return io_fail(io, "unflatten dim or sizes invalid");
	unsigned n = (unsigned)io->attr[1];
	io->nout = 1;
	io_out_rank(io, 0, x->rank - 1 + n, (enum dtype)x->dtype);
	keep_bounds(io, x);
	FOR_BIND(io, b) for (unsigned i = 0, o = 0; i < x->rank; i++) {
		if ((int)i == d)
			o += n;
		else
			io->out[0].dim[b][o++] = x->dim[b][i];
	}
	return resolve_shape(io, 1, d, &io->out[0], (unsigned)d);
}

static int64_t gcd64(int64_t a, int64_t b) { return b ? gcd64(b, a % b) : a; }

bool shape_choose_unflatten(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	if (!x->rank || x->rank >= G_MAX_RANK)
		return false;
	unsigned d = (unsigned)rng_below(c->rng, x->rank), ne = 0;
	int64_t g = x->dim[0][d], fac[12], ent[G_MAX_RANK];
	for (unsigned b = 1; b < c->g->nbind; b++)
		g = gcd64(g, x->dim[b][d]);
	bool dyn = x->dyn >> d & 1, hole = dyn || rng_chance(c->rng, 40);
	if (dyn && rng_chance(c->rng, 30)) {
		ent[ne++] = -2 - (int64_t)d; /* (x.size(d), 1) */
		ent[ne++] = 1;
		hole = false;
	} else {
		unsigned nf = factorize(g, fac, 0, NELEM(fac));
		shuffle(c, fac, nf);
		unsigned room = G_MAX_RANK - x->rank + 1 - hole;
		if (!group_factors(c, fac, nf, hole, room < 3 ? room : 3, ent, &ne))
			return false;
		if (hole)
			ent[ne++] = -1;
		if (ne < 2 && ne + x->rank < G_MAX_RANK + 1u)
			ent[ne++] = 1;
	}
	shuffle(c, ent, ne);
	ch->nattr = (uint8_t)(2 + ne);
	ch->attr[0] = rng_chance(c->rng, 30) ? (int64_t)d - x->rank : d;
	ch->attr[1] = ne;
	for (unsigned i = 0; i < ne; i++)
		ch->attr[2 + i] = ent[i];
	return true;
}

/* Python slicing start:end:step of one dim (0, 1, 2, or the last for -1),
 * with Python's clamping at each binding; every binding keeps >= 1 element. */
bool shape_slice_rule(struct infer_io *io, int which)
{
	const struct value *x = io->in[0];
	int d = which < 0 ? (int)x->rank - 1 : which;
	int64_t st = io->attr[0], en = io->attr[1], step = io->attr[2];
	if (d < 0 || d >= (int)x->rank || step < 1 || step > G_MAX_DIM || st < -4096 || st > 4096 || en < -4096 ||
	    en > 4096)
		return io_fail(io, "slice of dim %d with step %lld invalid", d, (long long)step);
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	keep_bounds(io, x);
	FOR_BIND(io, b) {
		int64_t s = x->dim[b][d];
		int64_t a = st < 0 ? (st + s < 0 ? 0 : st + s) : (st > s ? s : st);
		int64_t e = en < 0 ? (en + s < 0 ? 0 : en + s) : (en > s ? s : en);
		if (e <= a)
			return io_fail(io, "slice %lld:%lld of dim %d (size %lld) is empty (binding %u)", (long long)st,
				       (long long)en, d, (long long)s, b);
		io->out[0].dim[b][d] = (int32_t)((e - a + step - 1) / step);
	}
	return true;
}

bool shape_choose_slice(struct chooser *c, struct op_choice *ch, int which)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int d = which < 0 ? (int)x->rank - 1 : which;
	if (d < 0 || d >= (int)x->rank)
		return false;
	int64_t mn = value_dim_min(c->g, x, (unsigned)d), st = rng_range(c->rng, 0, mn - 1);
	ch->nattr = 3;
	ch->attr[0] = st;
	ch->attr[1] = rng_range(c->rng, st + 1, mn);
	ch->attr[2] = rng_chance(c->rng, 50) ? 1 : rng_range(c->rng, 2, 3);
	switch (rng_below(c->rng, 4)) {
	case 0: /* from the end: -k: */
		ch->attr[0] = -rng_range(c->rng, 1, mn);
		ch->attr[1] = G_MAX_DIM;
		break;
	case 1: /* up to -k */
		ch->attr[0] = 0;
		ch->attr[1] = mn > 1 ? -rng_range(c->rng, 1, mn - 1) : G_MAX_DIM;
		break;
	case 2: /* to the end, past the size */
		ch->attr[1] = G_MAX_DIM;
		break;
	}
	return true;
}

/* x.sum_to_size(sizes): each size is x's (aligned to the right) or 1, which
 * sums that dim; leading dims of x beyond the list are summed away. Sizes
 * equal to x's return x itself, of its dtype; a sum promotes integers and
 * bool to int64. Equal or not must hold at every binding alike. */
bool shape_infer_sum_to_size(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (!list_ok(io, 0, x->rank))
		return false;
	unsigned len = (unsigned)io->attr[0], lead = x->rank - len, same = 0;
	struct value o = *x;
	o.rank = (uint8_t)len;
	FOR_BIND(io, b) {
		bool eq = !lead;
		for (unsigned i = 0; i < len; i++) {
			int64_t s = entry_size(io, io->attr[1 + i], b), have = x->dim[b][lead + i];
			if (s != have && s != 1)
				return io_fail(io, "size entry %u = %lld neither dim %u (%lld) nor 1 (binding %u)", i,
					       (long long)io->attr[1 + i], lead + i, (long long)have, b);
			eq &= s == have;
			o.dim[b][i] = (int32_t)s;
		}
		same += eq;
	}
	if (same && same != io->nbind)
		return io_fail(io, "sum_to_size sums at some bindings only");
	enum dtype dt = (enum dtype)x->dtype;
	io->nout = 1;
	io_out_like(io, 0, &o, same || dtype_is_inexact(dt) ? dt : DT_INT64);
	if (same)
		keep_bounds(io, x);
	return true;
}

/* Mostly x's own dims kept (as x.size(k) when dynamic), some set to 1, a few
 * leading ones dropped. */
bool shape_choose_sum_to_size(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned drop = x->rank && rng_chance(c->rng, 30) ? (unsigned)rng_range(c->rng, 1, x->rank) : 0;
	ch->attr[0] = x->rank - drop;
	for (unsigned d = drop; d < x->rank; d++)
		ch->attr[1 + d - drop] = rng_chance(c->rng, 40) ? 1 : x->dyn >> d & 1 ? -2 - (int64_t)d : x->dim[0][d];
	ch->nattr = (uint8_t)(1 + ch->attr[0]);
	return true;
}
