/* F.interpolate, nn.Upsample and grid sampling for the misc family (table:
 * misc.c). The interpolation mode is a string attribute; it fixes the input
 * rank (linear 3-D, bilinear/bicubic 4-D, trilinear 5-D, the others 3-D to
 * 5-D) and whether align_corners may be given at all. */
#include <math.h>
#include "misc_ops.h"

enum interp_mode { IM_NEAREST, IM_LINEAR, IM_BILINEAR, IM_BICUBIC, IM_TRILINEAR, IM_NEAREST_EXACT, IM_AREA, IM_COUNT };
const char *const misc_interp_modes[] = {"nearest", "linear", "bilinear", "bicubic", "trilinear",
					   "nearest-exact", "area", NULL};
/* Input rank each mode takes: 0 = any of 3..5. */
static const uint8_t mode_rank[IM_COUNT] = {0, 3, 4, 4, 5, 0, 0};

static bool mode_fits(int64_t m, unsigned rank, bool corners)
{
	bool linear = m == IM_LINEAR || m == IM_BILINEAR || m == IM_BICUBIC || m == IM_TRILINEAR;
	if (m < 0 || m >= IM_COUNT || (corners && !linear))
		return false;
	return mode_rank[m] ? mode_rank[m] == rank : rank >= 3 && rank <= 5;
}

/* Attribute layout per op: mode at 0; then `corners` (align_corners given,
 * at 1 or 2) and antialias; then a size list at `list` or a scale at
 * `scale`. The deprecated F.upsample_nearest and F.upsample_bilinear fix the
 * mode (`fixed`, an interp_mode) and take a size list or a scale at 0. */
struct interp_form {
	int8_t corners, antialias, list, scale; /* attribute index, or -1 */
	int8_t fixed;                           /* the mode, or -1: attribute 0 */
};

static bool interp_rule(struct infer_io *io, const struct interp_form *f)
{
	const struct value *x = io->in[0];
	unsigned ns = x->rank - 2;
	int64_t m = f->fixed >= 0 ? f->fixed : io->attr[0];
	if (!mode_fits(m, x->rank, f->corners >= 0))
		return io_fail(io, "mode '%s' does not take a %u-D input%s",
			       m >= 0 && m < IM_COUNT ? misc_interp_modes[m] : "?", x->rank,
			       f->corners >= 0 ? " with align_corners" : "");
	if (f->antialias >= 0 && io->attr[f->antialias] &&
	    ((m != IM_BILINEAR && m != IM_BICUBIC) || !(DTM(x->dtype) & DTM_F32_F64)))
		return io_fail(io, "antialias needs bilinear/bicubic on float32/float64");
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	if (f->list >= 0) {
		if (io->attr[f->list] != ns)
			return io_fail(io, "%lld sizes for %u spatial dims", (long long)io->attr[f->list], ns);
		for (unsigned i = 0; i < ns; i++) {
			int64_t s = io->attr[f->list + 1 + i];
			if (s < 1 || s > G_MAX_DIM)
				return io_fail(io, "size %lld out of range", (long long)s);
			FOR_BIND(io, b) io->out[0].dim[b][2 + i] = (int32_t)s;
		}
		return true;
	}
	if (!io_attr_range(io, f->scale, 1, 8000))
		return false;
	/* torch computes floor(double(size) * scale) with scale the Python float
	 * of the printed decimal, i.e. the double nearest to attr/1000. */
	double scale = (double)io->attr[f->scale] / 1000.0;
	for (unsigned i = 0; i < ns; i++)
		FOR_BIND(io, b) {
			double o = floor((double)x->dim[b][2 + i] * scale);
			if (o < 1 || o > G_MAX_DIM)
				return io_fail(io, "scaled dim %u would be %g (binding %u)", 2 + i, o, b);
			io->out[0].dim[b][2 + i] = (int32_t)o;
		}
	return true;
}

static bool choose_interp(struct chooser *c, struct op_choice *ch, const struct interp_form *f)
{
	static const int64_t scales[] = {2000, 500, 1500, 2500, 3000, 750, 1250, 700, 1100, 1300, 3300};
	const struct value *x = &c->g->v[ch->in[0]];
	int64_t m = f->fixed;
	if (m < 0) {
		int64_t ok[IM_COUNT];
		unsigned n = 0;
		for (unsigned k = 0; k < IM_COUNT; k++)
			if (mode_fits(k, x->rank, f->corners >= 0))
				ok[n++] = k;
		if (!n)
			return false;
		ch->attr[0] = m = pick_of(c, ok, n);
	} else if (!mode_fits(m, x->rank, false)) {
		return false;
	}
	if (f->corners >= 0)
		ch->attr[f->corners] = rng_chance(c->rng, 50);
	if (f->antialias >= 0)
		ch->attr[f->antialias] = (m == IM_BILINEAR || m == IM_BICUBIC) &&
					 (DTM(x->dtype) & DTM_F32_F64) && rng_chance(c->rng, 50);
	unsigned ns = x->rank - 2u;
	if (f->list < 0) { /* a scale that leaves every spatial dim in [1, 256] */
		int32_t lo = G_MAX_DIM, hi = 1;
		for (unsigned i = 0; i < ns; i++)
			for (unsigned b = 0; b < c->g->nbind; b++) {
				lo = x->dim[b][2 + i] < lo ? x->dim[b][2 + i] : lo;
				hi = x->dim[b][2 + i] > hi ? x->dim[b][2 + i] : hi;
			}
		/* at the edges: the smallest scale that leaves the smallest dim one
		 * element, and the largest that leaves the largest 256 */
		int64_t edges[2] = {(1000 + lo - 1) / lo, 256000 / hi};
		for (unsigned t = 0; t < 8; t++) {
			int64_t *sc = &ch->attr[f->scale];
			*sc = rng_chance(c->rng, PICK_EDGE_PCT) ? pick_of(c, edges, 2) : pick_of(c, scales, NELEM(scales));
			if (lo * *sc >= 1000 && hi * *sc <= 256000 && *sc <= 8000)
				break;
		}
		ch->nattr = (uint8_t)(1 + (f->corners > f->scale ? f->corners : f->scale));
		return true;
	}
	ch->attr[f->list] = ns;
	for (unsigned i = 0; i < ns; i++) {
		int64_t s = value_dim_min(c->g, x, 2 + i), hi = s * 2 < 16 ? s * 2 : 16, lo = s / 2 > 1 ? s / 2 : 1;
		ch->attr[f->list + 1 + i] = rng_range(c->rng, lo < hi ? lo : hi, hi);
	}
	ch->nattr = (uint8_t)(f->list + 1 + ns);
	return true;
}

/* recompute_scale_factor (a bool) ends the scale forms; the chooser sets it. */
#define INTERP_FNS(tag, fixed_, corners_, antialias_, list_, scale_, nrecompute) \
	static const struct interp_form form_##tag = {corners_, antialias_, list_, scale_, fixed_}; \
	bool misc_infer_##tag(struct infer_io *io) { return interp_rule(io, &form_##tag); } \
	bool misc_choose_##tag(struct chooser *c, struct op_choice *ch) \
	{ \
		if (!choose_interp(c, ch, &form_##tag)) \
			return false; \
		if (nrecompute) \
			ch->attr[ch->nattr++] = rng_chance(c->rng, 40); \
		return true; \
	}
INTERP_FNS(interp_size, -1, -1, -1, 1, -1, 0)
INTERP_FNS(interp_scale, -1, -1, -1, -1, 1, 1)
INTERP_FNS(interp_size_ac, -1, 1, 2, 3, -1, 0)
INTERP_FNS(interp_scale_ac, -1, 2, -1, -1, 1, 1)
INTERP_FNS(upsample, -1, -1, -1, -1, 1, 0)
INTERP_FNS(upsample_nearest, IM_NEAREST, -1, -1, 0, -1, 0)
INTERP_FNS(upsample_bilinear, IM_BILINEAR, -1, -1, -1, 0, 0)


/* grid_sample(x, grid) and torch.grid_sampler_2d/3d: x [N, C, *in] and a
 * grid [N, *out, k] of x's rank, k its number of spatial dims (2 or 3),
 * give [N, C, *out]. The grid is spelled torch.tanh(torch.nan_to_num(@1)):
 * coordinates in [-1, 1], never NaN. Modes by torch's numbers (grid_sampler's
 * interpolation_mode, and F.grid_sample's strs in that order): bilinear 0,
 * bicubic 2 (4-D only); nearest (1) is left out, as a coordinate that
 * compiled code rounds otherwise picks another pixel. Padding modes zeros,
 * border, reflection are 0..2, after `pad_base` (the strs' index of 'zeros'). */
const char *const misc_grid_modes[] = {"bilinear", "nearest", "bicubic", "zeros", "border", "reflection", NULL};
enum { GM_BILINEAR = 0, GM_BICUBIC = 2 };

static bool grid_rule(struct infer_io *io, int64_t pad_base)
{
	const struct value *x = io->in[0], *g = io->in[1];
	unsigned ns = x->rank - 2u;
	if (!io_same_dtype(io) || !io_attr_range(io, 1, pad_base, pad_base + 2))
		return false;
	if (io->attr[0] != GM_BILINEAR && !(io->attr[0] == GM_BICUBIC && ns == 2))
		return io_fail(io, "interpolation mode %lld on a %u-D input", (long long)io->attr[0], x->rank);
	if (g->rank != x->rank)
		return io_fail(io, "grid is %u-D, input %u-D", g->rank, x->rank);
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	FOR_BIND(io, b) {
		if (g->dim[b][0] != x->dim[b][0] || g->dim[b][x->rank - 1] != (int32_t)ns)
			return io_fail(io, "grid must be [%d, ..., %u] (binding %u)", (int)x->dim[b][0], ns, b);
		for (unsigned i = 0; i < ns; i++)
			io->out[0].dim[b][2 + i] = g->dim[b][1 + i];
	}
	return true;
}

static bool choose_grid(struct chooser *c, struct op_choice *ch, int64_t pad_base)
{
	const struct value *x = &c->g->v[ch->in[0]];
	unsigned ns = x->rank - 2u;
	struct tensor_req r = req_like(x);
	int32_t sizes[3];
	for (unsigned i = 0; i < ns; i++)
		sizes[i] = (int32_t)rng_range(c->rng, 1, 6);
	for (unsigned b = 0; b < c->g->nbind; b++) {
		for (unsigned i = 0; i < ns; i++)
			r.dim[b][1 + i] = sizes[i];
		r.dim[b][x->rank - 1] = (int32_t)ns;
	}
	int id = c->operand(c, &r);
	if (id < 0)
		return false;
	ch->in[1] = (uint16_t)id;
	ch->nin = 2;
	ch->nattr = 3;
	ch->attr[0] = ns == 2 && rng_chance(c->rng, 40) ? GM_BICUBIC : GM_BILINEAR;
	ch->attr[1] = pad_base + rng_range(c->rng, 0, 2);
	ch->attr[2] = rng_chance(c->rng, 50);
	return true;
}

bool misc_infer_grid_sample(struct infer_io *io) { return grid_rule(io, 3); }
bool misc_choose_grid_sample(struct chooser *c, struct op_choice *ch) { return choose_grid(c, ch, 3); }
bool misc_infer_grid_sampler(struct infer_io *io) { return grid_rule(io, 0); }
bool misc_choose_grid_sampler(struct chooser *c, struct op_choice *ch) { return choose_grid(c, ch, 0); }
