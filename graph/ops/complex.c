/* Complex numbers: complex64 and complex128 made from real tensors
 * (torch.complex, polar, view_as_complex) and read back as real ones
 * (view_as_real, imag). The unary rows real, abs, angle, sgn, conj and
 * conj_physical take complex tensors too.
 *
 * conj's result may carry the conjugate bit, which view_as_real refuses:
 * view_as_real resolves it first. view_as_complex takes a fresh contiguous
 * copy of its input, its last dim split into pairs, so that any layout
 * (transposed, offset, strided) meets its stride rules. */
#include "../opkit.h"
#include "families.h"

/* Input 0's complex type, float32 -> complex64, float64 -> complex128. */
static bool to_complex(struct infer_io *io, enum dtype *out)
{
	int dt = dtype_complex_of(io->in[0]->dtype);
	if (dt < 0)
		return io_fail(io, "%s has no complex type here", dtype_info(io->in[0]->dtype)->name);
	*out = (enum dtype)dt;
	return true;
}

/* complex(re, im), polar(abs, angle): two real tensors of one float type
 * and shape. */
static bool infer_pair(struct infer_io *io)
{
	enum dtype dt = DT_COUNT; /* to_complex sets it where it succeeds */
	if (!io_same_dtype(io) || !to_complex(io, &dt))
		return false;
	struct value out;
	if (!io_broadcast(io, io->in[0], io->in[1], &out))
		return false;
	io->nout = 1;
	io_out_like(io, 0, &out, dt);
	return true;
}

static bool choose_pair(struct chooser *c, struct op_choice *ch)
{
	int p = pick_broadcast_partner(c, &c->g->v[ch->in[0]], (enum dtype)c->g->v[ch->in[0]].dtype);
	if (p < 0)
		return false;
	ch->nattr = 0;
	ch->in[ch->nin++] = p;
	return true;
}

/* view_as_complex: the last dim, even at every binding, halves into pairs. */
static bool infer_view_as_complex(struct infer_io *io)
{
	const struct value *x = io->in[0];
	enum dtype dt = DT_COUNT; /* to_complex sets it where it succeeds */
	if (!to_complex(io, &dt))
		return false;
	unsigned last = x->rank - 1;
	FOR_BIND(io, b) if (x->dim[b][last] % 2 || !x->dim[b][last]) return io_fail(
		io, "last dim %d is not a positive even size (binding %u)", (int)x->dim[b][last], b);
	io->nout = 1;
	io_out_like(io, 0, x, dt);
	FOR_BIND(io, b) io->out[0].dim[b][last] = x->dim[b][last] / 2;
	return true;
}

/* view_as_real: a trailing dim of 2, the real and imaginary parts. */
static bool infer_view_as_real(struct infer_io *io)
{
	const struct value *x = io->in[0];
	io->nout = 1;
	io_out_rank(io, 0, x->rank + 1, dtype_part_type(x->dtype));
	FOR_BIND(io, b)
	{
		for (unsigned d = 0; d < x->rank; d++)
			io->out[0].dim[b][d] = x->dim[b][d];
		io->out[0].dim[b][x->rank] = 2;
	}
	return true;
}

/* imag: x's shape in the type of its parts. */
static bool infer_part(struct infer_io *io)
{
	io->nout = 1;
	io_out_like(io, 0, io->in[0], dtype_part_type(io->in[0]->dtype));
	return true;
}

#define CX(nm, rmax, lay, spelling, rule) \
	{.name = nm, .family = FAM_COMPLEX, .nin_min = 1, .nin_max = 1, .rank_max = rmax, .dtypes = DTM_COMPLEX, \
	 .layout = lay, .weight = 2, .empty_ok = 1, .py = spelling, .infer = rule, .choose = choose_none}
#define CX_PAIR(nm, spelling) \
	{.name = nm, .family = FAM_COMPLEX, .nin_min = 2, .nin_max = 2, .rank_max = G_MAX_RANK, .dtypes = DTM_F32_F64, \
	 .weight = 3, .empty_ok = 1, .py = spelling, .infer = infer_pair, .choose = choose_pair}

const struct op_def ops_complex[] = {
	CX_PAIR("complex_make", "torch.complex(@0, @1)"),
	CX_PAIR("polar_make", "torch.polar(@0, @1)"),
	{.name = "view_as_complex", .family = FAM_COMPLEX, .nin_min = 1, .nin_max = 1, .rank_min = 1,
	 .rank_max = G_MAX_RANK, .dtypes = DTM_F32_F64, .layout = LAYOUT_FRESH, .weight = 3,
	 .py = "torch.view_as_complex(@0.clone(memory_format=torch.contiguous_format).unflatten(-1, (-1, 2)))",
	 .infer = infer_view_as_complex, .choose = choose_none},
	CX("view_as_real", G_MAX_RANK - 1, LAYOUT_VIEW, "torch.view_as_real(@0.resolve_conj())", infer_view_as_real),
	CX("imag_part", G_MAX_RANK, LAYOUT_VIEW, "torch.imag(@0)", infer_part),
};
FAMILY_COUNT(complex);
