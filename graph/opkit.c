#include "opkit.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "real.h"

bool io_fail(struct infer_io *io, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(io->why, sizeof io->why, fmt, ap);
	va_end(ap);
	return false;
}

void io_out_rank(struct infer_io *io, unsigned k, unsigned rank, enum dtype dt)
{
	struct value *o = &io->out[k];
	memset(o, 0, sizeof *o);
	o->dtype = (uint8_t)dt;
	o->rank = (uint8_t)rank;
	o->lo = INT64_MIN;
	o->hi = INT64_MAX;
	if (dt == DT_BOOL) {
		o->lo = 0;
		o->hi = 1;
	}
}

void io_out_like(struct infer_io *io, unsigned k, const struct value *src, enum dtype dt)
{
	io_out_rank(io, k, src->rank, dt);
	memcpy(io->out[k].dim, src->dim, sizeof src->dim);
}

int io_dim(int64_t d, unsigned rank)
{
	int64_t r = rank ? rank : 1;
	if (d < -r || d >= r)
		return -1;
	return (int)(d < 0 ? d + r : d);
}

bool io_broadcast(struct infer_io *io, const struct value *a, const struct value *b, struct value *out)
{
	unsigned r = a->rank > b->rank ? a->rank : b->rank;
	out->rank = (uint8_t)r;
	FOR_BIND(io, bi) {
		for (unsigned i = 0; i < r; i++) {
			int ia = (int)i - (int)(r - a->rank), ib = (int)i - (int)(r - b->rank);
			int32_t da = ia >= 0 ? a->dim[bi][ia] : 1, db = ib >= 0 ? b->dim[bi][ib] : 1;
			if (da != db && da != 1 && db != 1)
				return io_fail(io, "shapes not broadcastable at dim %u (%d vs %d, binding %u)", i,
					       (int)da, (int)db, bi);
			out->dim[bi][i] = da == 1 ? db : da;
		}
	}
	return true;
}

bool io_dim_static(const struct infer_io *io, const struct value *v, unsigned d)
{
	FOR_BIND(io, b) if (v->dim[b][d] != v->dim[0][d]) return false;
	return true;
}

int32_t io_dim_min(const struct infer_io *io, const struct value *v, unsigned d)
{
	int32_t m = v->dim[0][d];
	FOR_BIND(io, b) if (v->dim[b][d] < m) m = v->dim[b][d];
	return m;
}

bool io_same_dtype(struct infer_io *io)
{
	for (unsigned i = 1; i < io->nin; i++)
		if (io->in[i]->dtype != io->in[0]->dtype)
			return io_fail(io, "input %u is %s, input 0 is %s", i, dtype_info(io->in[i]->dtype)->name,
				       dtype_info(io->in[0]->dtype)->name);
	return true;
}

bool io_attr_range(struct infer_io *io, unsigned i, int64_t lo, int64_t hi)
{
	if (i >= io->nattr || io->attr[i] < lo || io->attr[i] > hi)
		return io_fail(io, "attribute %u = %lld not in [%lld, %lld]", i,
			       i < io->nattr ? (long long)io->attr[i] : 0LL, (long long)lo, (long long)hi);
	return true;
}

bool io_in_range(struct infer_io *io, const char *what, int64_t v, int64_t lo, int64_t hi)
{
	if (v < lo || v > hi)
		return io_fail(io, "%s %lld not in [%lld, %lld]", what, (long long)v, (long long)lo, (long long)hi);
	return true;
}

bool io_real_fits(struct infer_io *io, unsigned at, enum dtype dt)
{
	double x = real_value(io->attr[at]);
	if (isfinite(x) && fabs(x) > dtype_info(dt)->fmax)
		return io_fail(io, "attribute %u = %g overflows %s", at, x, dtype_info(dt)->name);
	return true;
}

enum dtype io_result_dtype(const struct infer_io *io)
{
	enum dtype dts[G_MAX_IN];
	int zero[G_MAX_IN];
	for (unsigned i = 0; i < io->nin; i++) {
		dts[i] = (enum dtype)io->in[i]->dtype;
		zero[i] = io->in[i]->rank == 0;
	}
	return dtype_result(dts, zero, (int)io->nin);
}

struct tensor_req req_like(const struct value *v)
{
	struct tensor_req r;
	memset(&r, 0, sizeof r);
	r.dtype = v->dtype;
	r.rank = v->rank;
	r.fill = v->dtype == DT_BOOL || !dtype_is_inexact(v->dtype) ? FILL_RANGE : FILL_NORMAL;
	r.lo = v->dtype == DT_BOOL ? 0 : -8;
	r.hi = v->dtype == DT_BOOL ? 1 : 8;
	memcpy(r.dim, v->dim, sizeof r.dim);
	return r;
}

struct tensor_req req_static(enum dtype dt, unsigned rank, const int32_t *dims)
{
	struct tensor_req r;
	memset(&r, 0, sizeof r);
	r.dtype = (uint8_t)dt;
	r.rank = (uint8_t)rank;
	r.fill = dt == DT_BOOL || !dtype_is_inexact(dt) ? FILL_RANGE : FILL_NORMAL;
	r.lo = dt == DT_BOOL ? 0 : -8;
	r.hi = dt == DT_BOOL ? 1 : 8;
	r.want_param = dtype_is_float(dt);
	for (unsigned b = 0; b < G_MAX_BIND; b++)
		for (unsigned d = 0; d < rank; d++)
			r.dim[b][d] = dims[d];
	return r;
}

int64_t value_trailing_min(const struct graph *g, const struct value *x, unsigned nd)
{
	int64_t m = G_MAX_DIM;
	for (unsigned i = 0; i < nd; i++) {
		int32_t s = value_dim_min(g, x, x->rank - nd + i);
		m = s < m ? s : m;
	}
	return m;
}

int64_t pick_dim(struct chooser *c, unsigned rank)
{
	int64_t d = (int64_t)rng_below(c->rng, rank ? rank : 1);
	return rng_chance(c->rng, 50) ? d - (rank ? rank : 1) : d;
}

int64_t pick_of(struct chooser *c, const int64_t *xs, unsigned n) { return xs[rng_below(c->rng, n)]; }

int64_t pick_edge_or(struct chooser *c, int64_t lo, int64_t hi, const int64_t *typical, unsigned n)
{
	if (rng_chance(c->rng, PICK_EDGE_PCT))
		return rng_chance(c->rng, 50) ? lo : hi;
	return pick_of(c, typical, n);
}

struct tensor_req req_broadcast(struct chooser *c, const struct value *v, enum dtype dt)
{
	unsigned drop = rng_chance(c->rng, 30) ? (unsigned)rng_below(c->rng, v->rank + 1u) : 0;
	int32_t none[G_MAX_RANK] = {0};
	struct tensor_req r = req_static(dt, v->rank - drop, none);
	for (unsigned d = 0; d < r.rank; d++) {
		int ones = rng_chance(c->rng, 25);
		for (unsigned b = 0; b < G_MAX_BIND; b++)
			r.dim[b][d] = ones ? 1 : v->dim[b][d + drop];
	}
	return r;
}

int pick_broadcast_partner(struct chooser *c, const struct value *v, enum dtype dt)
{
	struct tensor_req r = req_broadcast(c, v, dt);
	return c->operand(c, &r);
}

int pick_positive(struct chooser *c, struct tensor_req r)
{
	r.fill = FILL_POSITIVE;
	int id = c->operand(c, &r);
	for (unsigned t = 0; id >= 0 && t < 8 && c->g->v[id].fill != FILL_POSITIVE; t++)
		id = c->operand(c, &r);
	return id >= 0 && c->g->v[id].fill == FILL_POSITIVE ? id : -1;
}

enum dtype pick_dtype(struct chooser *c, unsigned mask)
{
	if ((mask & DTM_F32) && rng_chance(c->rng, 60))
		return DT_FLOAT32;
	unsigned n = 0, seen[DT_COUNT];
	for (unsigned d = 0; d < DT_COUNT; d++)
		if (mask & DTM(d))
			seen[n++] = d;
	return n ? (enum dtype)seen[rng_below(c->rng, n)] : DT_FLOAT32;
}

int pick_0dim_like(struct chooser *c, const struct value *x)
{
	struct tensor_req q = req_static((enum dtype)x->dtype, 0, NULL);
	return c->operand(c, &q);
}

bool choose_0dim_operand(struct chooser *c, struct op_choice *ch)
{
	int t = pick_0dim_like(c, &c->g->v[ch->in[0]]);
	ch->in[1] = (uint16_t)t;
	ch->nin = 2;
	return t >= 0;
}

bool choose_none(struct chooser *c, struct op_choice *ch)
{
	(void)c;
	(void)ch;
	return true;
}

bool infer_as_base(struct infer_io *io)
{
	const struct op_def *b = op_base(io->op);
	return b ? b->infer(io) : io_fail(io, "%s: base op %s unknown", io->op->name, io->op->base);
}

bool choose_as_base(struct chooser *c, struct op_choice *ch)
{
	const struct op_def *b = op_base(c->op);
	return b && b->choose(c, ch);
}
