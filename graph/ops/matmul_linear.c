/* The matmul family's layers: nn.Linear, F.linear (weight, optional bias)
 * and nn.Bilinear, whose features lie on the last dim. Module features are
 * constants, so those inputs need a static last dim. */
#include "matmul_kit.h"

/* The last dim of input i is static and equals attribute `at`. */
static bool features(struct infer_io *io, unsigned i, unsigned at)
{
	const struct value *v = io->in[i];
	if (!io_attr_range(io, at, 1, G_MAX_DIM))
		return false;
	FOR_BIND(io, b) if (v->dim[b][v->rank - 1] != io->attr[at]) return io_fail(io,
		"input %u has %d features, the module %lld (binding %u)", i, (int)v->dim[b][v->rank - 1],
		(long long)io->attr[at], b);
	return true;
}

/* Output: input 0 with its last dim replaced by `n`. */
static void out_features(struct infer_io *io, int32_t n)
{
	const struct value *x = io->in[0];
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	for (unsigned b = 0; b < G_MAX_BIND; b++)
		io->out[0].dim[b][x->rank - 1] = n;
}

/* attrs: in_features out_features bias? */
bool infer_linear(struct infer_io *io)
{
	if (!features(io, 0, 0) || !io_attr_range(io, 1, 1, G_MAX_DIM))
		return false;
	out_features(io, (int32_t)io->attr[1]);
	return true;
}

bool choose_linear(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	if (x->dyn >> (x->rank - 1) & 1)
		return false; /* the module's in_features is a constant */
	ch->nattr = 3;
	ch->attr[0] = x->dim[0][x->rank - 1];
	ch->attr[1] = pick_free(c, numel_without(c->g, x, x->rank - 1));
	ch->attr[2] = rng_chance(c->rng, 75);
	return true;
}

/* F.linear(x, weight (out, in)[, bias expanding to (out,)]). */
static bool linear_fn_rule(struct infer_io *io)
{
	const struct value *x = io->in[0], *w = io->in[1];
	if (!float_operands(io) || !need_rank(io, 1, 2, 2) || !dims_equal(io, x, x->rank - 1, w, 1))
		return false;
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	FOR_BIND(io, b) io->out[0].dim[b][x->rank - 1] = w->dim[b][0];
	return io->nin < 3 || (need_rank(io, 2, 0, 1) && expands_to(io, io->in[2], &io->out[0]));
}

static bool choose_linear_fn(struct chooser *c, struct op_choice *ch, bool bias)
{
	const struct value *x = &c->g->v[ch->in[0]];
	enum dtype dt = (enum dtype)x->dtype;
	struct value w, bv;
	memset(&w, 0, sizeof w);
	memset(&bv, 0, sizeof bv);
	push_size(&w, pick_free(c, numel_without(c->g, x, x->rank - 1)));
	push_dim(&w, x, x->rank - 1);
	if (!set_input(ch, 1, operand_like(c, &w, dt)))
		return false;
	if (!bias)
		return true;
	if (!rng_chance(c->rng, 10))
		push_dim(&bv, &w, 0);
	return set_input(ch, 2, operand_like(c, &bv, dt));
}
bool choose_linear_w(struct chooser *c, struct op_choice *ch) { return choose_linear_fn(c, ch, false); }
bool choose_linear_wb(struct chooser *c, struct op_choice *ch) { return choose_linear_fn(c, ch, true); }
bool infer_linear_w(struct infer_io *io) { return linear_fn_rule(io); }
bool infer_linear_wb(struct infer_io *io) { return linear_fn_rule(io); }

/* nn.Bilinear(in1, in2, out): both inputs share their leading dims exactly. */
bool infer_bilinear(struct infer_io *io)
{
	const struct value *a = io->in[0], *b = io->in[1];
	if (!float_operands(io) || !need_rank(io, 1, a->rank, a->rank) || !features(io, 0, 0) || !features(io, 1, 1) ||
	    !io_attr_range(io, 2, 1, G_MAX_DIM))
		return false;
	for (unsigned d = 0; d + 1 < a->rank; d++)
		if (!dims_equal(io, a, d, b, d))
			return false;
	out_features(io, (int32_t)io->attr[2]);
	return true;
}

bool choose_bilinear(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	if (x->dyn >> (x->rank - 1) & 1 || x->dim[0][x->rank - 1] > 128)
		return false; /* static in1_features; its weight is out*in1*in2 */
	int64_t rest = numel_without(c->g, x, x->rank - 1);
	struct value b;
	memset(&b, 0, sizeof b);
	for (unsigned d = 0; d + 1 < x->rank; d++)
		push_dim(&b, x, d);
	push_size(&b, pick_free(c, rest));
	ch->nattr = 4;
	ch->attr[0] = x->dim[0][x->rank - 1];
	ch->attr[1] = b.dim[0][x->rank - 1];
	ch->attr[2] = pick_free(c, rest);
	ch->attr[3] = rng_chance(c->rng, 75);
	return set_input(ch, 1, operand_like(c, &b, (enum dtype)x->dtype));
}
