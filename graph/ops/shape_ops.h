/* The shape family's two files share these: shape.c holds the table and the
 * single-dim ops, shape_lists.c the ops driven by size lists (view, reshape,
 * expand, repeat, tile, unflatten) and slicing. */
#ifndef PT2FUZZ_SHAPE_OPS_H
#define PT2FUZZ_SHAPE_OPS_H
#include "../opkit.h"

/* Integer values keep their bounds through every shape op. */
static inline void keep_bounds(struct infer_io *io, const struct value *x)
{
	for (unsigned k = 0; k < io->nout; k++) {
		io->out[k].lo = x->lo;
		io->out[k].hi = x->hi;
	}
}

static inline void shuffle(struct chooser *c, int64_t *xs, unsigned n)
{
	for (unsigned i = n; i > 1; i--) {
		unsigned j = (unsigned)rng_below(c->rng, i);
		int64_t t = xs[i - 1];
		xs[i - 1] = xs[j];
		xs[j] = t;
	}
}

/* A list attribute at `at` holding at most `max` items. */
static inline bool list_ok(struct infer_io *io, unsigned at, unsigned max)
{
	if (io->nattr <= at || io->attr[at] < 0 || io->attr[at] > max || io->nattr != at + 1 + io->attr[at])
		return io_fail(io, "list attribute malformed or longer than %u", max);
	return true;
}

#define SHAPE_FNS(tag) \
	bool shape_infer_##tag(struct infer_io *io); \
	bool shape_choose_##tag(struct chooser *c, struct op_choice *ch);
SHAPE_FNS(reshape)
SHAPE_FNS(expand)
SHAPE_FNS(repeat)
SHAPE_FNS(tile)
SHAPE_FNS(unflatten)
SHAPE_FNS(sum_to_size)
#undef SHAPE_FNS
bool shape_infer_view(struct infer_io *io);
/* Slicing of dim `which` (0, 1, 2, or -1 for the last). */
bool shape_slice_rule(struct infer_io *io, int which);
bool shape_choose_slice(struct chooser *c, struct op_choice *ch, int which);

#endif
