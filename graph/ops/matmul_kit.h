/* Shape helpers of the matmul family (matmul.c, matmul_linear.c,
 * matmul_einsum.c): dims pushed one at a time onto a shape, contraction and
 * expand checks, and the choosers' sizing of new dims. */
#ifndef PT2FUZZ_MATMUL_KIT_H
#define PT2FUZZ_MATMUL_KIT_H
#include <string.h>
#include "../opkit.h"

#define OUT_SOFT_NUMEL 8192 /* choosers keep outputs this small (the hard limit is G_MAX_NUMEL) */
#define FREE_DIM_MAX 32     /* a new, uncontracted dim picked by a chooser */

/* ---- shape building, shared by rules and choosers ---- */

static inline void push_dim(struct value *s, const struct value *src, unsigned d)
{
	for (unsigned b = 0; b < G_MAX_BIND; b++)
		s->dim[b][s->rank] = src->dim[b][d];
	s->rank++;
}

static inline void push_size(struct value *s, int32_t n)
{
	for (unsigned b = 0; b < G_MAX_BIND; b++)
		s->dim[b][s->rank] = n;
	s->rank++;
}

static inline int64_t max_numel(const struct graph *g, const struct value *v)
{
	int64_t m = 1;
	for (unsigned b = 0; b < g->nbind; b++) {
		int64_t n = value_numel(v, b);
		m = n > m ? n : m;
	}
	return m;
}

/* Elements of v per index of dim d (the largest over the bindings). */
static inline int64_t numel_without(const struct graph *g, const struct value *v, unsigned d)
{
	int64_t m = 1;
	for (unsigned b = 0; b < g->nbind; b++) {
		int64_t n = value_numel(v, b) / v->dim[b][d];
		m = n > m ? n : m;
	}
	return m;
}

static inline bool dims_equal(struct infer_io *io, const struct value *a, unsigned da, const struct value *b, unsigned db)
{
	FOR_BIND(io, bi) if (a->dim[bi][da] != b->dim[bi][db]) return io_fail(io,
		"contracted sizes differ: %d vs %d (binding %u)", (int)a->dim[bi][da], (int)b->dim[bi][db], bi);
	return true;
}

static inline bool need_rank(struct infer_io *io, unsigned i, unsigned lo, unsigned hi)
{
	if (io->in[i]->rank < lo || io->in[i]->rank > hi)
		return io_fail(io, "input %u is %u-D, needs %u-%u", i, io->in[i]->rank, lo, hi);
	return true;
}

/* All operands of input 0's dtype: a float or complex one, or an integer one for the
 * integer variants (eager multiplies integer matrices on the CPU only). */
static inline bool float_operands(struct infer_io *io)
{
	if (!dtype_is_inexact(io->in[0]->dtype) && !(io->op->cpu_only && dtype_is_int(io->in[0]->dtype)))
		return io_fail(io, "needs a floating dtype");
	return io_same_dtype(io);
}

/* `in` expands to `to` (torch's expand: trailing-aligned, each dim 1 or equal). */
static inline bool expands_to(struct infer_io *io, const struct value *in, const struct value *to)
{
	if (in->rank > to->rank)
		return io_fail(io, "added input is %u-D, result %u-D", in->rank, to->rank);
	unsigned off = to->rank - in->rank;
	FOR_BIND(io, b) for (unsigned d = 0; d < in->rank; d++) {
		int32_t s = in->dim[b][d];
		if (s != 1 && s != to->dim[b][d + off])
			return io_fail(io, "added input dim %u = %d does not expand to %d (binding %u)", d, (int)s,
				       (int)to->dim[b][d + off], b);
	}
	return true;
}

/* A size for a new free dim, keeping the output (rest elements besides it) modest. */
static inline int32_t pick_free(struct chooser *c, int64_t rest)
{
	static const int64_t common[] = {1, 2, 3, 4, 8, 16, 5, 7};
	int64_t lim = OUT_SOFT_NUMEL / (rest < 1 ? 1 : rest);
	lim = lim > FREE_DIM_MAX ? FREE_DIM_MAX : lim < 1 ? 1 : lim;
	int64_t m = rng_chance(c->rng, 50) ? pick_of(c, common, NELEM(common)) : rng_range(c->rng, 1, lim);
	return (int32_t)(m > lim ? lim : m);
}

/* Finds or makes an operand shaped like s (dtype dt); -1 when it cannot. */
static inline int operand_like(struct chooser *c, struct value *s, enum dtype dt)
{
	s->dtype = (uint8_t)dt;
	struct tensor_req r = req_like(s);
	r.want_param = 1; /* weights of a matmul are often module parameters */
	return c->operand(c, &r);
}

static inline bool set_input(struct op_choice *ch, unsigned i, int id)
{
	if (id < 0)
		return false;
	ch->in[i] = (uint16_t)id;
	if (ch->nin < i + 1)
		ch->nin = (uint8_t)(i + 1);
	return true;
}

/* Rules and choosers defined in matmul_linear.c, matmul_attention.c and matmul_einsum.c. */
#define MATMUL_FNS(tag) \
	bool infer_##tag(struct infer_io *io); \
	bool choose_##tag(struct chooser *c, struct op_choice *ch);
MATMUL_FNS(linear)
MATMUL_FNS(linear_w)
MATMUL_FNS(linear_wb)
MATMUL_FNS(bilinear)
MATMUL_FNS(sdpa)
MATMUL_FNS(sdpa_mask)
MATMUL_FNS(ein_mm)
MATMUL_FNS(ein_bmm)
MATMUL_FNS(ein_qk)
MATMUL_FNS(ein_av)
MATMUL_FNS(ein_outer)
MATMUL_FNS(ein_diag)
MATMUL_FNS(ein_trace)
MATMUL_FNS(ein_transpose)
MATMUL_FNS(ein_batch_outer)
MATMUL_FNS(ein_bilinear)
MATMUL_FNS(ein_batched_mm)
MATMUL_FNS(ein_linear)
MATMUL_FNS(ein_batched_dot)
MATMUL_FNS(ein_contract_last)
MATMUL_FNS(ein_mid_mm)
MATMUL_FNS(ein_batched_transpose)
MATMUL_FNS(ein_batched_diag)
MATMUL_FNS(ein_batched_outer)
MATMUL_FNS(ein_sum_ellipsis)
#undef MATMUL_FNS

#endif
