/* torch.fft: the transforms over one dim (attribute `dim`), the last two
 * (the *2 forms) or every dim (the *n forms), and fftshift/ifftshift.
 *
 * The graph's values are real, so a complex result is read through
 * torch.view_as_real (a trailing dim of 2: real and imaginary parts, which
 * the oracle compares like any float values), and the transforms that take
 * a complex spectrum (irfft, hfft and their 2-D and n-D forms) take the
 * rfft of input 0 and give back its length (n=, s=): a real result of input
 * 0's shape. rfft and ihfft halve the last transformed dim (n // 2 + 1).
 *
 * The *_complex rows transform a complex64 or complex128 input: fft, ifft and
 * their 2-D and n-D forms keep it complex; irfft and hfft take it as the
 * half spectrum and return 2 (n - 1) real points (n >= 2).
 *
 * Dtypes: float32 and float64 (CUDA's half kernels need power-of-two sizes).
 * A transform over an inner dim may return strides of its own choosing:
 * LAYOUT_STRIDED. */
#include "../opkit.h"
#include "families.h"

enum fft_dims { FD_ONE, FD_LAST_TWO, FD_ALL };

struct fft_spec {
	uint8_t dims;     /* enum fft_dims */
	uint8_t half;     /* the last transformed dim becomes n // 2 + 1 */
	uint8_t complex;  /* a complex result, read through view_as_real */
	uint8_t c2r;      /* a complex input's real result: the last transformed dim becomes 2 (n - 1) */
};

static const char *const norms[] = {"backward", "ortho", "forward", NULL};

/* Attributes: [dim,] norm. */
static bool fft_rule(struct infer_io *io, const struct fft_spec *s)
{
	const struct value *x = io->in[0];
	unsigned norm = s->dims == FD_ONE ? 1 : 0;
	int last = (int)x->rank - 1;
	if (s->dims == FD_ONE && (last = io_dim(io->attr[0], x->rank)) < 0)
		return io_fail(io, "dim %lld out of range", (long long)io->attr[0]);
	if (!io_attr_range(io, norm, 0, 2))
		return false;
	if (s->c2r && io_dim_min(io, x, (unsigned)last) < 2)
		return io_fail(io, "dim %d of size %d: a real result of 2 (n - 1) = 0 points", last, io_dim_min(io, x, (unsigned)last));
	io->nout = 1;
	io_out_rank(io, 0, x->rank + s->complex, s->c2r ? dtype_part_type(x->dtype) : (enum dtype)x->dtype);
	FOR_BIND(io, b)
	{
		for (unsigned i = 0; i < x->rank; i++)
			io->out[0].dim[b][i] = x->dim[b][i];
		if (s->half)
			io->out[0].dim[b][last] = x->dim[b][last] / 2 + 1;
		if (s->c2r)
			io->out[0].dim[b][last] = 2 * (x->dim[b][last] - 1);
		if (s->complex)
			io->out[0].dim[b][x->rank] = 2;
	}
	return true;
}

static bool fft_choose(struct chooser *c, struct op_choice *ch, const struct fft_spec *s)
{
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = 0;
	if (s->dims == FD_ONE)
		ch->attr[ch->nattr++] = rng_chance(c->rng, 60) ? -1 : pick_dim(c, x->rank);
	ch->attr[ch->nattr++] = rng_range(c->rng, 0, 2);
	return true;
}

#define FFT_FNS(tag, ...) \
	static const struct fft_spec spec_##tag = __VA_ARGS__; \
	static bool infer_##tag(struct infer_io *io) { return fft_rule(io, &spec_##tag); } \
	static bool choose_##tag(struct chooser *c, struct op_choice *ch) { return fft_choose(c, ch, &spec_##tag); }
FFT_FNS(one_complex, {FD_ONE, 0, 1})
FFT_FNS(one_half, {FD_ONE, 1, 1})
FFT_FNS(one_real, {FD_ONE, 0, 0})
FFT_FNS(two_complex, {FD_LAST_TWO, 0, 1})
FFT_FNS(two_half, {FD_LAST_TWO, 1, 1})
FFT_FNS(two_real, {FD_LAST_TWO, 0, 0})
FFT_FNS(all_complex, {FD_ALL, 0, 1})
FFT_FNS(all_half, {FD_ALL, 1, 1})
FFT_FNS(all_real, {FD_ALL, 0, 0})
FFT_FNS(one_c2c, {FD_ONE, 0, 0, 0})
FFT_FNS(one_c2r, {FD_ONE, 0, 0, 1})
FFT_FNS(two_c2c, {FD_LAST_TWO, 0, 0, 0})
FFT_FNS(all_c2c, {FD_ALL, 0, 0, 0})

/* fftshift(x, dim): a roll, for every dtype. */
static bool infer_shift(struct infer_io *io)
{
	if (io_dim(io->attr[0], io->in[0]->rank) < 0)
		return io_fail(io, "dim %lld out of range", (long long)io->attr[0]);
	io->nout = 1;
	io_out_like(io, 0, io->in[0], (enum dtype)io->in[0]->dtype);
	io->out[0].lo = io->in[0]->lo;
	io->out[0].hi = io->in[0]->hi;
	return true;
}

static bool choose_shift(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = pick_dim(c, c->g->v[ch->in[0]].rank);
	return true;
}

/* stft(x, n_fft) of a 1-D or 2-D x ([B,] L) with a Hann window of n_fft,
 * the default hop n_fft // 4 and reflect padding of n_fft // 2 each side
 * (which needs n_fft // 2 < L): [B,] n_fft // 2 + 1 frequencies by
 * 1 + (L + 2 (n_fft // 2) - n_fft) // hop frames, read through view_as_real.
 * istft of that stft gives back x's shape (length=L). */
#define STFT_MIN 4 /* a hop of at least 1 */
#define STFT_MAX 32
static bool stft_rule(struct infer_io *io, bool inverse)
{
	const struct value *x = io->in[0];
	unsigned r = x->rank;
	int64_t n = io->attr[0];
	if (!io_attr_range(io, 0, STFT_MIN, STFT_MAX))
		return false;
	FOR_BIND(io, b) if (n / 2 >= x->dim[b][r - 1]) return io_fail(
		io, "n_fft %lld pads %lld, not below the length %d (binding %u)", (long long)n, (long long)n / 2,
		(int)x->dim[b][r - 1], b);
	io->nout = 1;
	if (inverse) {
		io_out_like(io, 0, x, (enum dtype)x->dtype);
		return true;
	}
	io_out_rank(io, 0, r + 2, (enum dtype)x->dtype);
	FOR_BIND(io, b)
	{
		int32_t *d = io->out[0].dim[b];
		if (r == 2)
			d[0] = x->dim[b][0];
		d[r - 1] = (int32_t)(n / 2 + 1);
		d[r] = (int32_t)(1 + (x->dim[b][r - 1] + 2 * (n / 2) - n) / (n / 4));
		d[r + 1] = 2;
	}
	return true;
}

static bool infer_stft(struct infer_io *io) { return stft_rule(io, false); }
static bool infer_istft(struct infer_io *io) { return stft_rule(io, true); }

static bool choose_stft(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int64_t hi = 2 * value_trailing_min(c->g, x, 1) - 1;
	ch->nattr = 1;
	ch->attr[0] = rng_range(c->rng, STFT_MIN, hi < STFT_MAX ? hi : STFT_MAX);
	/* even sizes: the compiled istft fails on every odd one, a bug of
	 * torch's own (docs/findings/behaviour-istft-odd-n-fft.md) that no
	 * campaign needs to find again; the rule still takes odd ones */
	ch->attr[0] &= ~(int64_t)1;
	return hi >= STFT_MIN;
}

#define FFT(nm, rmin, attrs_, spelling, tag) \
	{.name = nm, .family = FAM_FFT, .nin_min = 1, .nin_max = 1, .rank_min = rmin, .rank_max = G_MAX_RANK - 1, \
	 .dtypes = DTM_F32_F64, .layout = LAYOUT_STRIDED, .weight = 1, .attrs = attrs_, .strs = norms, .py = spelling, \
	 .infer = infer_##tag, .choose = choose_##tag}
#define FFT1(nm, spelling, tag) FFT(nm, 1, "dim norm$", spelling, tag)
#define FFT2(nm, spelling, tag) FFT(nm, 2, "norm$", spelling, tag)
#define FFTN(nm, spelling, tag) FFT(nm, 1, "norm$", spelling, tag)
/* transforms of complex input: complex results as they are, or a real one */
#define FFT_C(nm, rmin, attrs_, spelling, tag) \
	{.name = nm, .family = FAM_FFT, .nin_min = 1, .nin_max = 1, .rank_min = rmin, .rank_max = G_MAX_RANK - 1, \
	 .dtypes = DTM_COMPLEX, .layout = LAYOUT_STRIDED, .weight = 1, .attrs = attrs_, .strs = norms, .py = spelling, \
	 .infer = infer_##tag, .choose = choose_##tag}
#define AS_REAL(call) "torch.view_as_real(" call ")"
/* the inverse transforms of real input return a lazily conjugated view */
#define AS_REAL_RESOLVED(call) "torch.view_as_real(" call ".resolve_conj())"

#define HANN "window=torch.hann_window(#0, dtype=@0.dtype, device=@0.device)"
#define STFT "torch.stft(@0, #0, " HANN ", return_complex=True)"
#define STFT_ROW(nm, spelling, tag) \
	{.name = nm, .family = FAM_FFT, .nin_min = 1, .nin_max = 1, .rank_min = 1, .rank_max = 2, \
	 .dtypes = DTM_F32_F64, .layout = LAYOUT_STRIDED, .weight = 1, .attrs = "n_fft", .py = spelling, \
	 .infer = infer_##tag, .choose = choose_stft}

const struct op_def ops_fft[] = {
	STFT_ROW("stft", AS_REAL(STFT), stft),
	STFT_ROW("istft", "torch.istft(" STFT ", #0, " HANN ", length=@0.shape[-1])", istft),
	FFT1("fft_fft", AS_REAL("torch.fft.fft(@0, dim=#0, norm=#1)"), one_complex),
	FFT1("fft_ifft", AS_REAL_RESOLVED("torch.fft.ifft(@0, dim=#0, norm=#1)"), one_complex),
	FFT1("fft_rfft", AS_REAL("torch.fft.rfft(@0, dim=#0, norm=#1)"), one_half),
	FFT1("fft_ihfft", AS_REAL_RESOLVED("torch.fft.ihfft(@0, dim=#0, norm=#1)"), one_half),
	FFT1("fft_irfft", "torch.fft.irfft(torch.fft.rfft(@0, dim=#0), n=@0.shape[#0], dim=#0, norm=#1)", one_real),
	FFT1("fft_hfft", "torch.fft.hfft(torch.fft.rfft(@0, dim=#0), n=@0.shape[#0], dim=#0, norm=#1)", one_real),
	FFT2("fft_fft2", AS_REAL("torch.fft.fft2(@0, norm=#0)"), two_complex),
	FFT2("fft_ifft2", AS_REAL_RESOLVED("torch.fft.ifft2(@0, norm=#0)"), two_complex),
	FFT2("fft_rfft2", AS_REAL("torch.fft.rfft2(@0, norm=#0)"), two_half),
	FFT2("fft_ihfft2", AS_REAL_RESOLVED("torch.fft.ihfft2(@0, norm=#0)"), two_half),
	FFT2("fft_irfft2", "torch.fft.irfft2(torch.fft.rfft2(@0), s=@0.shape[-2:], norm=#0)", two_real),
	FFT2("fft_hfft2", "torch.fft.hfft2(torch.fft.rfft2(@0), s=@0.shape[-2:], norm=#0)", two_real),
	FFTN("fft_fftn", AS_REAL("torch.fft.fftn(@0, norm=#0)"), all_complex),
	FFTN("fft_ifftn", AS_REAL_RESOLVED("torch.fft.ifftn(@0, norm=#0)"), all_complex),
	FFTN("fft_rfftn", AS_REAL("torch.fft.rfftn(@0, norm=#0)"), all_half),
	FFTN("fft_ihfftn", AS_REAL_RESOLVED("torch.fft.ihfftn(@0, norm=#0)"), all_half),
	FFTN("fft_irfftn", "torch.fft.irfftn(torch.fft.rfftn(@0), s=@0.shape, norm=#0)", all_real),
	FFTN("fft_hfftn", "torch.fft.hfftn(torch.fft.rfftn(@0), s=@0.shape, norm=#0)", all_real),
	FFT_C("fft_fft_complex", 1, "dim norm$", "torch.fft.fft(@0, dim=#0, norm=#1)", one_c2c),
	FFT_C("fft_ifft_complex", 1, "dim norm$", "torch.fft.ifft(@0, dim=#0, norm=#1)", one_c2c),
	FFT_C("fft_irfft_complex", 1, "dim norm$", "torch.fft.irfft(@0, dim=#0, norm=#1)", one_c2r),
	FFT_C("fft_hfft_complex", 1, "dim norm$", "torch.fft.hfft(@0, dim=#0, norm=#1)", one_c2r),
	FFT_C("fft_fft2_complex", 2, "norm$", "torch.fft.fft2(@0, norm=#0)", two_c2c),
	FFT_C("fft_ifft2_complex", 2, "norm$", "torch.fft.ifft2(@0, norm=#0)", two_c2c),
	FFT_C("fft_fftn_complex", 1, "norm$", "torch.fft.fftn(@0, norm=#0)", all_c2c),
	FFT_C("fft_ifftn_complex", 1, "norm$", "torch.fft.ifftn(@0, norm=#0)", all_c2c),
	{.name = "fft_fftshift", .family = FAM_FFT, .nin_min = 1, .nin_max = 1, .rank_min = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_EVERY | DTM_COMPLEX, .layout = LAYOUT_FRESH, .weight = 1, .attrs = "dim", .py = "torch.fft.fftshift(@0, dim=#0)",
	 .infer = infer_shift, .choose = choose_shift},
	{.name = "fft_ifftshift", .family = FAM_FFT, .nin_min = 1, .nin_max = 1, .rank_min = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_EVERY | DTM_COMPLEX, .layout = LAYOUT_FRESH, .weight = 1, .attrs = "dim",
	 .py = "torch.fft.ifftshift(@0, dim=#0)", .infer = infer_shift, .choose = choose_shift},
};
FAMILY_COUNT(fft);
