/* Rearrangements of the misc family (table: misc.c). Integer values keep
 * their bounds; tril/triu/diag_embed add zeros to them. */
#include "misc_ops.h"

/* ---- rearrangements ---- */

/* Output like x; tril/triu/diag_embed add zeros to the values. */
static void out_same(struct infer_io *io, bool zeros)
{
	const struct value *x = io->in[0];
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	io->out[0].lo = zeros && x->lo > 0 ? 0 : x->lo;
	io->out[0].hi = zeros && x->hi < 0 ? 0 : x->hi;
}

/* pixel_shuffle (up) moves factor^2 channels into H and W; unshuffle reverses it. */
static bool shuffle_rule(struct infer_io *io, bool up)
{
	const struct value *x = io->in[0];
	unsigned c = x->rank - 3;
	if (!io_attr_range(io, 0, 1, 16))
		return false;
	int32_t f = (int32_t)io->attr[0];
	out_same(io, false);
	FOR_BIND(io, b) {
		int32_t *o = io->out[0].dim[b];
		const int32_t *i = x->dim[b];
		if (up ? i[c] % (f * f) : i[c + 1] % f || i[c + 2] % f)
			return io_fail(io, "factor %d does not divide %s (binding %u)", (int)f, up ? "the channels" : "H and W", b);
		o[c] = up ? i[c] / (f * f) : i[c] * f * f;
		o[c + 1] = up ? i[c + 1] * f : i[c + 1] / f;
		o[c + 2] = up ? i[c + 2] * f : i[c + 2] / f;
	}
	return true;
}
bool misc_infer_pixel_shuffle(struct infer_io *io) { return shuffle_rule(io, true); }
bool misc_infer_pixel_unshuffle(struct infer_io *io) { return shuffle_rule(io, false); }

static bool choose_shuffle(struct chooser *c, struct op_choice *ch, bool up)
{
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned d = x->rank - 3;
	int64_t ok[4] = {1};
	unsigned n = 1;
	for (int32_t f = 2; f <= 4; f++) {
		bool fits = true;
		for (unsigned b = 0; b < c->g->nbind; b++)
			fits &= up ? x->dim[b][d] % (f * f) == 0 : x->dim[b][d + 1] % f == 0 && x->dim[b][d + 2] % f == 0;
		if (fits)
			ok[n++] = f;
	}
	if (n == 1 && rng_chance(c->rng, 70))
		return false; /* factor 1 only now and then */
	ch->nattr = 1;
	ch->attr[0] = n > 1 ? pick_of(c, ok + 1, n - 1) : 1;
	return true;
}
bool misc_choose_pixel_shuffle(struct chooser *c, struct op_choice *ch) { return choose_shuffle(c, ch, true); }
bool misc_choose_pixel_unshuffle(struct chooser *c, struct op_choice *ch) { return choose_shuffle(c, ch, false); }

bool misc_infer_tri(struct infer_io *io)
{
	if (!io_attr_range(io, 0, -G_MAX_DIM, G_MAX_DIM))
		return false;
	out_same(io, true);
	return true;
}

bool misc_choose_tri(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = rng_range(c->rng, -3, 3);
	return true;
}

/* Distinct dims, each in range, in attrs[0..n). */
static bool dims_ok(struct infer_io *io, const int64_t *dims, unsigned n, unsigned rank, int *out)
{
	for (unsigned i = 0; i < n; i++) {
		out[i] = io_dim(dims[i], rank);
		if (out[i] < 0 || !rank)
			return io_fail(io, "dim %lld out of range for rank %u", (long long)dims[i], rank);
		for (unsigned j = 0; j < i; j++)
			if (out[j] == out[i])
				return io_fail(io, "dim %d repeated", out[i]);
	}
	return true;
}

/* k distinct dims of a rank-r tensor into dims[0..k). */
static void pick_dims(struct chooser *c, unsigned r, unsigned k, int64_t *dims)
{
	unsigned perm[G_MAX_RANK];
	for (unsigned i = 0; i < r; i++)
		perm[i] = i;
	for (unsigned i = 0; i < k; i++) {
		unsigned j = i + (unsigned)rng_below(c->rng, r - i), t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
		dims[i] = perm[i] - (rng_chance(c->rng, 30) ? r : 0);
	}
}

bool misc_infer_flip(struct infer_io *io)
{
	int d[G_MAX_RANK];
	if (io->attr[0] < 1 || !dims_ok(io, io->attr + 1, (unsigned)io->attr[0], io->in[0]->rank, d))
		return io_fail(io, "flip needs 1 to rank distinct dims%s%s", io->why[0] ? ": " : "", io->why);
	out_same(io, false);
	return true;
}

bool misc_choose_flip(struct chooser *c, struct op_choice *ch)
{
	unsigned r = c->g->v[ch->in[0]].rank, k = (unsigned)rng_range(c->rng, 1, r);
	ch->nattr = (uint8_t)(1 + k);
	ch->attr[0] = k;
	pick_dims(c, r, k, ch->attr + 1);
	return true;
}

/* roll: nshift shifts (attrs 0..), then as many dims. */
static bool roll_rule(struct infer_io *io, unsigned nshift)
{
	int d[2];
	for (unsigned i = 0; i < nshift; i++)
		if (!io_attr_range(io, i, -100000, 100000))
			return false;
	if (io->nattr > nshift && !dims_ok(io, io->attr + nshift, nshift, io->in[0]->rank, d))
		return false;
	out_same(io, false);
	return true;
}
bool misc_infer_roll(struct infer_io *io) { return roll_rule(io, 1); }
bool misc_infer_roll2(struct infer_io *io) { return roll_rule(io, 2); }
bool misc_infer_roll_flat(struct infer_io *io) { return roll_rule(io, 1); }

static bool roll_choose(struct chooser *c, struct op_choice *ch, unsigned nshift, bool with_dims)
{
	unsigned r = c->g->v[ch->in[0]].rank;
	for (unsigned i = 0; i < nshift; i++)
		ch->attr[i] = rng_range(c->rng, -5, 5);
	if (with_dims)
		pick_dims(c, r, nshift, ch->attr + nshift);
	ch->nattr = (uint8_t)(with_dims ? 2 * nshift : nshift);
	return true;
}
bool misc_choose_roll(struct chooser *c, struct op_choice *ch) { return roll_choose(c, ch, 1, true); }
bool misc_choose_roll2(struct chooser *c, struct op_choice *ch) { return roll_choose(c, ch, 2, true); }
bool misc_choose_roll_flat(struct chooser *c, struct op_choice *ch) { return roll_choose(c, ch, 1, false); }

/* rot90(k, (d0, d1)): odd k swaps the two dims. */
bool misc_infer_rot90(struct infer_io *io)
{
	int d[2];
	if (!io_attr_range(io, 0, -100, 100) || !dims_ok(io, io->attr + 1, 2, io->in[0]->rank, d))
		return false;
	out_same(io, false);
	if (io->attr[0] % 2)
		FOR_BIND(io, b) {
			io->out[0].dim[b][d[0]] = io->in[0]->dim[b][d[1]];
			io->out[0].dim[b][d[1]] = io->in[0]->dim[b][d[0]];
		}
	return true;
}

bool misc_choose_rot90(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 3;
	ch->attr[0] = rng_range(c->rng, -3, 4);
	pick_dims(c, c->g->v[ch->in[0]].rank, 2, ch->attr + 1);
	return true;
}

/* diagonal(offset, d1, d2): drops d1 and d2, appends the diagonal's length. */
bool misc_infer_diagonal(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int d[2];
	int64_t off = io->attr[0];
	if (!io_attr_range(io, 0, -G_MAX_DIM, G_MAX_DIM) || !dims_ok(io, io->attr + 1, 2, x->rank, d))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, x->rank - 1, (enum dtype)x->dtype);
	io->out[0].lo = x->lo;
	io->out[0].hi = x->hi;
	FOR_BIND(io, b) {
		int64_t s1 = x->dim[b][d[0]], s2 = x->dim[b][d[1]];
		int64_t len = off >= 0 ? (s1 < s2 - off ? s1 : s2 - off) : (s1 + off < s2 ? s1 + off : s2);
		if (len < 1)
			return io_fail(io, "diagonal %lld of a %lldx%lld slice is empty (binding %u)", (long long)off,
				       (long long)s1, (long long)s2, b);
		for (unsigned i = 0, j = 0; i < x->rank; i++)
			if ((int)i != d[0] && (int)i != d[1])
				io->out[0].dim[b][j++] = x->dim[b][i];
		io->out[0].dim[b][x->rank - 2] = (int32_t)len;
	}
	return true;
}

/* diag_embed(offset, d1, d2): the last dim n becomes an (n+|offset|)^2 plane at d1, d2. */
bool misc_infer_diag_embed(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int d[2];
	int64_t off = io->attr[0];
	if (!io_attr_range(io, 0, -64, 64) || !dims_ok(io, io->attr + 1, 2, x->rank + 1, d))
		return false;
	out_same(io, true);
	io->out[0].rank = x->rank + 1;
	FOR_BIND(io, b) {
		int32_t n = x->dim[b][x->rank - 1] + (int32_t)(off < 0 ? -off : off);
		for (unsigned i = 0, j = 0; i <= x->rank; i++)
			io->out[0].dim[b][i] = (int)i == d[0] || (int)i == d[1] ? n : x->dim[b][j++];
	}
	return true;
}

static bool choose_diag(struct chooser *c, struct op_choice *ch, unsigned rank)
{
	ch->nattr = 3;
	ch->attr[0] = rng_chance(c->rng, 50) ? 0 : rng_range(c->rng, -2, 2);
	pick_dims(c, rank, 2, ch->attr + 1);
	return true;
}
bool misc_choose_diagonal(struct chooser *c, struct op_choice *ch) { return choose_diag(c, ch, c->g->v[ch->in[0]].rank); }
bool misc_choose_diag_embed(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	return value_dim_min(c->g, x, x->rank - 1) <= 24 && choose_diag(c, ch, x->rank + 1u);
}

