/* Scans along one dim: cumsum, cumprod, cummax/cummin (values and
 * tie-broken indices) and logcumsumexp, whose output has the input's shape;
 * and differences and integrals along one dim (diff, the trapezoid rules).
 *
 * torch's rules (2.6 CPU, checked with the validity bench): cumsum/cumprod
 * of int or bool give int64 unless a dtype is passed; logcumsumexp needs
 * floating input; cummax/cummin take every dtype; a 0-d input scans dim 0
 * or -1. */
#include "../opkit.h"
#include "families.h"

enum scan_out { SO_SAME, SO_SUM /* int/bool promote to int64 */, SO_VAL_IDX, SO_DTYPE /* attribute 1 */ };

static bool scan_rule(struct infer_io *io, enum scan_out kind)
{
	const struct value *x = io->in[0];
	int d = io_dim(io->attr[0], x->rank);
	if (d < 0)
		return io_fail(io, "dim %lld out of range for a %u-D input", (long long)io->attr[0], x->rank);
	enum dtype dt = (enum dtype)x->dtype;
	if (kind == SO_SUM && !dtype_is_float(dt))
		dt = DT_INT64;
	if (kind == SO_DTYPE) {
		dt = (enum dtype)io->attr[1];
		if (dt == DT_BOOL || (dtype_is_float(x->dtype) && !dtype_is_float(dt)))
			return io_fail(io, "cumsum to %s from %s not generated", dtype_info(dt)->name,
				       dtype_info(x->dtype)->name);
	}
	io->nout = kind == SO_VAL_IDX ? 2 : 1;
	io_out_like(io, 0, x, dt);
	if (kind == SO_SAME || kind == SO_VAL_IDX) { /* running max/min stay within the input's range */
		io->out[0].lo = x->lo;
		io->out[0].hi = x->hi;
	}
	if (kind == SO_VAL_IDX) {
		int32_t most = 1;
		if (x->rank)
			FOR_BIND(io, b) most = x->dim[b][d] > most ? x->dim[b][d] : most;
		io_out_like(io, 1, x, DT_INT64);
		io->out[1].lo = 0;
		io->out[1].hi = most - 1;
	}
	return true;
}

static bool choose_scan(struct chooser *c, struct op_choice *ch)
{
	if (!c->g->v[ch->in[0]].rank && rng_chance(c->rng, 75)) /* a scan of one element is rarely worth a node */
		return false;
	ch->nattr = 1;
	ch->attr[0] = pick_dim(c, c->g->v[ch->in[0]].rank);
	return true;
}

/* cumsum(dtype=): float input to float32/float64, int/bool to int64 or float32. */
static bool choose_scan_dtype(struct chooser *c, struct op_choice *ch)
{
	static const int64_t from_float[] = {DT_FLOAT32, DT_FLOAT64}, from_int[] = {DT_INT64, DT_FLOAT32};
	if (!choose_scan(c, ch))
		return false;
	ch->nattr = 2;
	ch->attr[1] = dtype_is_float(c->g->v[ch->in[0]].dtype) ? pick_of(c, from_float, 2) : pick_of(c, from_int, 2);
	return true;
}

static bool infer_scan_same(struct infer_io *io) { return scan_rule(io, SO_SAME); }
static bool infer_scan_sum(struct infer_io *io) { return scan_rule(io, SO_SUM); }
static bool infer_scan_val_idx(struct infer_io *io) { return scan_rule(io, SO_VAL_IDX); }
static bool infer_scan_dtype(struct infer_io *io) { return scan_rule(io, SO_DTYPE); }

/* Differences and integrals along dim (attribute 0): diff's n-th
 * difference (attribute 1) is n shorter there, cumulative_trapezoid one
 * shorter, trapezoid (and trapz) drops the dim, gradient keeps it (its
 * edge_order, attribute 1, needs one more element than the order). Every
 * size along it exceeds what is taken away. Integer input gives gradient
 * float32. */
enum along { AL_DIFF, AL_CUMULATIVE, AL_DROP, AL_GRADIENT };

static bool along_rule(struct infer_io *io, enum along kind)
{
	const struct value *x = io->in[0];
	int d = io_dim(io->attr[0], x->rank);
	bool ordered = kind == AL_DIFF || kind == AL_GRADIENT; /* attribute 1: n or edge_order */
	int64_t least = ordered ? io->attr[1] : kind == AL_CUMULATIVE, shrink = kind == AL_GRADIENT ? 0 : least;
	if (d < 0 || !x->rank)
		return io_fail(io, "dim %lld out of range for a %u-D input", (long long)io->attr[0], x->rank);
	if (ordered && !io_attr_range(io, 1, 1, 2))
		return false;
	FOR_BIND(io, b) if (x->dim[b][d] <= least) return io_fail(
		io, "dim %d of size %d (binding %u) is too short", d, (int)x->dim[b][d], b);
	enum dtype dt = kind == AL_GRADIENT && !dtype_is_float(x->dtype) ? DT_FLOAT32 : (enum dtype)x->dtype;
	io->nout = 1;
	io_out_rank(io, 0, x->rank - (kind == AL_DROP), dt);
	FOR_BIND(io, b) for (unsigned i = 0, j = 0; i < x->rank; i++)
	{
		if ((int)i != d)
			io->out[0].dim[b][j++] = x->dim[b][i];
		else if (kind != AL_DROP)
			io->out[0].dim[b][j++] = (int32_t)(x->dim[b][i] - shrink);
	}
	return true;
}

static bool infer_diff(struct infer_io *io) { return along_rule(io, AL_DIFF); }
static bool infer_cumulative_trapezoid(struct infer_io *io) { return along_rule(io, AL_CUMULATIVE); }
static bool infer_trapezoid(struct infer_io *io) { return along_rule(io, AL_DROP); }
static bool infer_gradient(struct infer_io *io) { return along_rule(io, AL_GRADIENT); }

static bool choose_diff(struct chooser *c, struct op_choice *ch)
{
	if (!choose_scan(c, ch))
		return false;
	ch->nattr = 2;
	ch->attr[1] = rng_range(c->rng, 1, 2);
	return true;
}

#define SCAN(nm, dt, w, tie_, inf, ch_, attrs_, spelling) \
	{.name = nm, .family = FAM_CUMULATIVE, .nin_min = 1, .nin_max = 1, .rank_min = 0, .rank_max = G_MAX_RANK, \
	 .dtypes = dt, .layout = LAYOUT_KEEP, .tie = tie_, .weight = w, .attrs = attrs_, .py = spelling, \
	 .infer = inf, .choose = ch_}

const struct op_def ops_cumulative[] = {
	SCAN("cumsum", DTM_EVERY, 3, 0, infer_scan_sum, choose_scan, "dim", "torch.cumsum(@0, dim=#0)"),
	SCAN("cumprod", DTM_EVERY, 2, 0, infer_scan_sum, choose_scan, "dim", "torch.cumprod(@0, dim=#0)"),
	SCAN("cummax", DTM_EVERY, 3, 2, infer_scan_val_idx, choose_scan, "dim", "torch.cummax(@0, dim=#0)"),
	SCAN("cummin", DTM_EVERY, 2, 2, infer_scan_val_idx, choose_scan, "dim", "torch.cummin(@0, dim=#0)"),
	SCAN("logcumsumexp", DTM_FLOAT, 3, 0, infer_scan_same, choose_scan, "dim", "torch.logcumsumexp(@0, dim=#0)"),
	SCAN("cumsum_dtype", DTM_EVERY, 1, 0, infer_scan_dtype, choose_scan_dtype, "dim dtype%",
	     "@0.cumsum(#0, dtype=#1)"),
	SCAN("diff", DTM_NUM, 1, 0, infer_diff, choose_diff, "dim n", "torch.diff(@0, n=#1, dim=#0)"),
	SCAN("cumulative_trapezoid", DTM_FLOAT, 1, 0, infer_cumulative_trapezoid, choose_scan, "dim",
	     "torch.cumulative_trapezoid(@0, dim=#0)"),
	SCAN("trapezoid", DTM_FLOAT, 1, 0, infer_trapezoid, choose_scan, "dim", "torch.trapezoid(@0, dim=#0)"),
	SCAN("trapz", DTM_FLOAT, 1, 0, infer_trapezoid, choose_scan, "dim", "torch.trapz(@0, dim=#0)"),
	SCAN("gradient", DTM_NUM, 1, 0, infer_gradient, choose_diff, "dim edge_order",
	     "torch.gradient(@0, dim=#0, edge_order=#1)[0]"),
};
FAMILY_COUNT(cumulative);
