/* F.scaled_dot_product_attention: softmax(q k^T * scale + mask) v, the op
 * Inductor lowers to its flash, memory-efficient, cuDNN or math kernels (and
 * its attention patterns rewrite into). q is [..., L, E], k [..., S, E],
 * v [..., S, Ev], the optional additive mask broadcasts to [..., L, S]; the
 * result is [..., L, Ev]. Batch dims are equal: the fused kernels take no
 * broadcasting there. A float mask, not a boolean one: a boolean mask may
 * hide a whole row, whose result the kernels legitimately disagree on. The
 * mask has at least two dims: a 0-D one raises in eager, a 1-D one on the
 * CPU with 4-D queries. */
#include "matmul_kit.h"

#define SCALE_MAX 4000 /* in 1/1000: the scale attribute's domain */

/* Checks q, k, v (and the mask, inputs 3) and fills the output. */
static bool attention_rule(struct infer_io *io, bool mask)
{
	const struct value *q = io->in[0], *k = io->in[1], *v = io->in[2];
	unsigned r = q->rank;
	if (!float_operands(io) || !need_rank(io, 1, r, r) || !need_rank(io, 2, r, r))
		return false;
	for (unsigned d = 0; d + 2 < r; d++)
		if (!dims_equal(io, q, d, k, d) || !dims_equal(io, q, d, v, d))
			return false;
	if (!dims_equal(io, q, r - 1, k, r - 1) || !dims_equal(io, k, r - 2, v, r - 2))
		return false;
	struct value scores;
	memset(&scores, 0, sizeof scores);
	for (unsigned d = 0; d + 1 < r; d++)
		push_dim(&scores, q, d);
	push_dim(&scores, k, r - 2);
	if (mask && io->in[3]->rank < 2)
		return io_fail(io, "a %u-D mask (SDPA's CPU kernel for 4-D queries reads its last two dims)", io->in[3]->rank);
	if (mask && !expands_to(io, io->in[3], &scores))
		return false;
	io->nout = 1;
	io_out_rank(io, 0, 0, (enum dtype)q->dtype);
	for (unsigned d = 0; d + 1 < r; d++)
		push_dim(&io->out[0], q, d);
	push_dim(&io->out[0], v, r - 1);
	return true;
}

/* attrs: is_causal */
bool infer_sdpa(struct infer_io *io) { return io_attr_range(io, 0, 0, 1) && attention_rule(io, false); }

/* attrs: scale (1/1000, > 0) */
bool infer_sdpa_mask(struct infer_io *io) { return io_attr_range(io, 0, 1, SCALE_MAX) && attention_rule(io, true); }

/* k and v shaped from q: its batch dims and E per binding (a dynamic dim
 * stays dynamic), a new S shared by k and v, a new Ev. */
static bool choose_kv(struct chooser *c, struct op_choice *ch, struct value *scores)
{
	const struct value *q = &c->g->v[ch->in[0]];
	enum dtype dt = (enum dtype)q->dtype;
	unsigned r = q->rank;
	int64_t rows = numel_without(c->g, q, r - 1); /* the scores and the result keep modest */
	int32_t s = pick_free(c, rows), ev = pick_free(c, rows);
	struct value k, v;
	memset(&k, 0, sizeof k);
	memset(&v, 0, sizeof v);
	memset(scores, 0, sizeof *scores);
	for (unsigned d = 0; d + 2 < r; d++) {
		push_dim(&k, q, d);
		push_dim(&v, q, d);
	}
	for (unsigned d = 0; d + 1 < r; d++)
		push_dim(scores, q, d);
	push_size(&k, s);
	push_dim(&k, q, r - 1);
	push_size(&v, s);
	push_size(&v, ev);
	push_size(scores, s);
	return set_input(ch, 1, operand_like(c, &k, dt)) && set_input(ch, 2, operand_like(c, &v, dt));
}

bool choose_sdpa(struct chooser *c, struct op_choice *ch)
{
	struct value scores;
	ch->nattr = 1;
	ch->attr[0] = rng_chance(c->rng, 50);
	return choose_kv(c, ch, &scores);
}

bool choose_sdpa_mask(struct chooser *c, struct op_choice *ch)
{
	static const int64_t scales[] = {125, 250, 500, 1000, 2000};
	struct value scores;
	ch->nattr = 1;
	ch->attr[0] = pick_edge_or(c, 1, SCALE_MAX, scales, NELEM(scales));
	return choose_kv(c, ch, &scores) &&
	       set_input(ch, 3, pick_broadcast_partner(c, &scores, (enum dtype)c->g->v[ch->in[0]].dtype));
}
