#include "graph.h"
#include <string.h>
#include "fail.h"
#include "op.h"

int graph_init(struct graph *g, unsigned nbind, unsigned nsym, uint32_t seed, char *why, size_t n)
{
	memset(g, 0, offsetof(struct graph, v));
	if (nbind < 1 || nbind > G_MAX_BIND)
		return fail(why, n, "bindings %u not in [1, %d]", nbind, G_MAX_BIND);
	if (nsym > G_MAX_SYM)
		return fail(why, n, "symbols %u exceed %d", nsym, G_MAX_SYM);
	if ((nsym == 0) != (nbind == 1))
		return fail(why, n, "%u bindings with %u symbols: a graph with dynamic symbols needs 2-3 bindings, "
			    "one without needs 1", nbind, nsym);
	g->nbind = (uint8_t)nbind;
	g->nsym = (uint8_t)nsym;
	g->seed = seed;
	for (unsigned b = 0; b < nbind; b++)
		for (unsigned s = 0; s < nsym; s++)
			g->sym[b][s] = (int32_t)(G_MIN_SYMVAL + s + b); /* distinct placeholders */
	return 0;
}

int graph_set_sym(struct graph *g, unsigned sym, const int32_t *vals, char *why, size_t n)
{
	if (sym >= g->nsym)
		return fail(why, n, "symbol s%u not declared", sym);
	for (unsigned b = 0; b < g->nbind; b++) {
		if (vals[b] < G_MIN_SYMVAL || vals[b] > G_MAX_SYMVAL)
			return fail(why, n, "s%u = %d at binding %u not in [%d, %d]", sym, (int)vals[b], b,
				    G_MIN_SYMVAL, G_MAX_SYMVAL);
		for (unsigned c = 0; c < b; c++)
			if (vals[c] == vals[b])
				return fail(why, n, "s%u has the same value %d at bindings %u and %u", sym,
					    (int)vals[b], c, b);
	}
	for (unsigned b = 0; b < g->nbind; b++)
		g->sym[b][sym] = vals[b];
	return 0;
}

int64_t value_numel(const struct value *v, unsigned b)
{
	int64_t x = 1;
	for (unsigned d = 0; d < v->rank; d++)
		x *= v->dim[b][d];
	return x;
}

int value_is_leaf(const struct value *v) { return v->kind != VK_NODE; }

int32_t value_dim_min(const struct graph *g, const struct value *v, unsigned d)
{
	int32_t m = v->dim[0][d];
	for (unsigned b = 1; b < g->nbind; b++)
		if (v->dim[b][d] < m)
			m = v->dim[b][d];
	return m;
}

int value_same_shape(const struct graph *g, const struct value *a, const struct value *b)
{
	if (a->rank != b->rank)
		return 0;
	for (unsigned i = 0; i < g->nbind; i++)
		for (unsigned d = 0; d < a->rank; d++)
			if (a->dim[i][d] != b->dim[i][d])
				return 0;
	return 1;
}

/* Checks sizes and element counts of a value at every binding, and sets its
 * dynamic bits. */
static int check_shape(const struct graph *g, struct value *v, char *why, size_t n)
{
	if (v->rank > G_MAX_RANK)
		return fail(why, n, "rank %u exceeds %d", v->rank, G_MAX_RANK);
	if (v->dtype >= DT_COUNT)
		return fail(why, n, "dtype %u unknown", v->dtype);
	v->dyn = 0;
	for (unsigned b = 0; b < g->nbind; b++) {
		int64_t numel = 1;
		for (unsigned d = 0; d < v->rank; d++) {
			int32_t x = v->dim[b][d];
			if (x < 1 || x > G_MAX_DIM)
				return fail(why, n, "dim %u = %d at binding %u not in [1, %d]", d, (int)x, b, G_MAX_DIM);
			numel *= x;
			if (numel > G_MAX_NUMEL)
				return fail(why, n, "more than %d elements at binding %u", G_MAX_NUMEL, b);
			if (x != v->dim[0][d])
				v->dyn |= (uint8_t)(1u << d);
		}
	}
	for (unsigned b = g->nbind; b < G_MAX_BIND; b++)
		memcpy(v->dim[b], v->dim[0], sizeof v->dim[b]);
	return 0;
}

int graph_add_leaf(struct graph *g, enum value_kind kind, enum dtype dt, unsigned rank,
		   const struct leaf_dim *dims, enum fill fill, int64_t lo, int64_t hi, char *why, size_t n)
{
	if (g->nvalues >= G_MAX_VALUES)
		return fail(why, n, "more than %d values", G_MAX_VALUES);
	if (g->broken)
		return fail(why, n, "nothing may follow the node that breaks a constraint");
	if (kind != VK_INPUT && kind != VK_PARAM)
		return fail(why, n, "leaf kind %d is neither input nor param", (int)kind);
	if ((unsigned)dt >= DT_COUNT)
		return fail(why, n, "dtype %d unknown", (int)dt);
	if (rank > G_MAX_RANK)
		return fail(why, n, "rank %u exceeds %d", rank, G_MAX_RANK);
	struct value v;
	memset(&v, 0, sizeof v);
	v.kind = (uint8_t)kind;
	v.dtype = (uint8_t)dt;
	v.rank = (uint8_t)rank;
	v.contig = 1;
	v.node = -1;
	v.fill = (uint8_t)fill;
	for (unsigned d = 0; d < rank; d++) {
		struct leaf_dim ld = dims[d];
		if (ld.sym < 0) {
			ld.sym = -1;
			ld.mul = 0;
		} else if (ld.sym >= g->nsym) {
			return fail(why, n, "dim %u uses undeclared symbol s%d", d, ld.sym);
		} else if (ld.mul < 1 || ld.mul > 8) {
			return fail(why, n, "dim %u: multiplier %d not in [1, 8]", d, ld.mul);
		} else if (kind == VK_PARAM) {
			return fail(why, n, "a parameter cannot have a dynamic dim");
		}
		v.ld[d] = ld;
		for (unsigned b = 0; b < g->nbind; b++) {
			int64_t x = ld.sym < 0 ? ld.add : (int64_t)ld.mul * g->sym[b][ld.sym] + ld.add;
			if (ld.sym >= 0 && x < G_MIN_SYMVAL)
				return fail(why, n, "dynamic dim %u = %lld at binding %u is below %d", d, (long long)x, b,
					    G_MIN_SYMVAL);
			v.dim[b][d] = (int32_t)(x > G_MAX_DIM ? G_MAX_DIM + 1 : x < 0 ? 0 : x);
		}
	}
	if (check_shape(g, &v, why, n))
		return -1;
	switch (fill) {
	case FILL_NORMAL:
	case FILL_POSITIVE:
		if (!dtype_is_float(dt))
			return fail(why, n, "fill normal/positive needs a float dtype");
		v.lo = INT64_MIN;
		v.hi = INT64_MAX;
		break;
	case FILL_RANGE:
	case FILL_PERM:
		if (dtype_is_float(dt) && fill == FILL_PERM)
			return fail(why, n, "fill perm needs an integer dtype");
		if (lo > hi || lo < -G_INT_BOUND || hi > G_INT_BOUND)
			return fail(why, n, "range [%lld, %lld] invalid", (long long)lo, (long long)hi);
		if (dt == DT_BOOL && (lo < 0 || hi > 1))
			return fail(why, n, "bool range must lie in [0, 1]");
		if (fill == FILL_PERM) {
			if (lo != 0)
				return fail(why, n, "fill perm draws from [0, hi]: lo must be 0");
			for (unsigned b = 0; b < g->nbind; b++)
				if (value_numel(&v, b) > hi + 1)
					return fail(why, n, "fill perm: %lld elements but only %lld distinct values",
						    (long long)value_numel(&v, b), (long long)hi + 1);
		}
		v.lo = lo;
		v.hi = hi;
		break;
	default:
		return fail(why, n, "fill %d unknown", (int)fill);
	}
	g->v[g->nvalues] = v;
	return g->nvalues++;
}

int graph_prepare_node(const struct graph *g, unsigned opid, const struct op_choice *ch, struct infer_io *io, char *why,
		       size_t n)
{
	const struct op_def *op = op_get(opid);
	if (!op)
		return fail(why, n, "op %u unknown", opid);
	if (g->nnodes >= G_MAX_NODES)
		return fail(why, n, "more than %d nodes", G_MAX_NODES);
	if (g->broken)
		return fail(why, n, "nothing may follow the node that breaks a constraint");
	if (ch->nin < op->nin_min || ch->nin > op->nin_max)
		return fail(why, n, "%s takes %u-%u inputs, got %u", op->name, op->nin_min, op->nin_max, ch->nin);
	memset(io, 0, sizeof *io);
	io->g = g;
	io->nbind = g->nbind;
	io->nin = ch->nin;
	io->nattr = ch->nattr;
	io->attr = ch->attr;
	for (unsigned i = 0; i < ch->nin; i++) {
		if (ch->in[i] >= g->nvalues)
			return fail(why, n, "%s input %u refers to value %u, not yet defined", op->name, i, ch->in[i]);
		io->in[i] = &g->v[ch->in[i]];
		if (io->in[i]->datadep)
			return fail(why, n, "%s input %u: v%u has a data-dependent shape (an output only)", op->name, i,
				    ch->in[i]);
	}
	if (!(op->dtypes & DTM(io->in[0]->dtype)))
		return fail(why, n, "%s does not accept %s", op->name, dtype_info(io->in[0]->dtype)->name);
	if (io->in[0]->rank < op->rank_min || io->in[0]->rank > op->rank_max)
		return fail(why, n, "%s takes rank %u-%u, got %u", op->name, op->rank_min, op->rank_max,
			    io->in[0]->rank);
	/* Attributes: count and kinds. */
	struct attr_spec s;
	op_attr_spec(op, &s);
	unsigned want = s.nscalar;
	if (s.list >= 0) {
		if (ch->nattr <= s.nscalar)
			return fail(why, n, "%s: list attribute %s missing", op->name, s.name[s.nscalar]);
		int64_t len = ch->attr[s.nscalar];
		if (len < 0 || len > G_MAX_ATTR - 1 - (int64_t)s.nscalar)
			return fail(why, n, "%s: list length %lld out of range", op->name, (long long)len);
		want += 1 + (unsigned)len;
	}
	if (ch->nattr != want)
		return fail(why, n, "%s takes %u attributes, got %u", op->name, want, ch->nattr);
	for (unsigned i = 0; i < ch->nattr; i++) {
		int64_t a = ch->attr[i];
		enum attr_kind k = attr_kind_at(&s, i);
		if (s.list >= 0 && i == s.nscalar)
			continue; /* the count */
		if ((k == AK_BOOL && (a < 0 || a > 1)) || (k == AK_STR && (a < 0 || a >= (int64_t)s.nstrs)) ||
		    (k == AK_DTYPE && (a < 0 || a >= DT_COUNT)) || a < -(1LL << 40) || a > (1LL << 40))
			return fail(why, n, "%s: attribute %u = %lld out of range", op->name, i, (long long)a);
	}
	return 0;
}

int graph_commit_node(struct graph *g, unsigned opid, const struct op_choice *ch, struct infer_io *io, char *why,
		      size_t n)
{
	const struct op_def *op = op_get(opid);
	if (io->nout < 1 || io->nout > G_MAX_OUT)
		return fail(why, n, "%s: %u outputs", op->name, io->nout);
	if (g->nvalues + io->nout > G_MAX_VALUES)
		return fail(why, n, "more than %d values", G_MAX_VALUES);
	uint8_t contig = 1, tie = 0;
	for (unsigned i = 0; i < ch->nin; i++) {
		contig &= io->in[i]->contig;
		tie |= io->in[i]->tie;
	}
	for (unsigned k = 0; k < io->nout; k++) {
		struct value *o = &io->out[k];
		char sub[160];
		if (check_shape(g, o, sub, sizeof sub) < 0)
			return fail(why, n, "%s output %u: %s", op->name, k, sub);
		o->kind = VK_NODE;
		o->node = (int16_t)g->nnodes;
		o->slot = (uint8_t)k;
		o->out = 0;
		o->grad = 0;
		o->fill = 0;
		o->contig = op->layout == LAYOUT_FRESH ? 1 : op->layout == LAYOUT_VIEW ? 0 : contig;
		o->tie = (uint8_t)(tie || ((op->tie >> k) & 1));
		o->datadep = op->datadep;
		memset(o->ld, 0, sizeof o->ld);
		if (o->dtype == DT_BOOL) {
			o->lo = 0;
			o->hi = 1;
		} else if (dtype_is_float(o->dtype)) {
			o->lo = INT64_MIN;
			o->hi = INT64_MAX;
		}
	}
	struct node *nd = &g->n[g->nnodes];
	memset(nd, 0, sizeof *nd);
	nd->op = (uint16_t)opid;
	nd->nin = ch->nin;
	nd->nout = (uint8_t)io->nout;
	nd->nattr = ch->nattr;
	memcpy(nd->in, ch->in, sizeof nd->in);
	memcpy(nd->attr, ch->attr, sizeof nd->attr);
	nd->out0 = g->nvalues;
	for (unsigned k = 0; k < io->nout; k++)
		g->v[g->nvalues++] = io->out[k];
	return g->nnodes++;
}

int graph_add_node(struct graph *g, unsigned opid, const struct op_choice *ch, char *why, size_t n)
{
	struct infer_io io;
	if (graph_prepare_node(g, opid, ch, &io, why, n))
		return -1;
	if (!op_get(opid)->infer(&io))
		return fail(why, n, "%s: %s", op_get(opid)->name, io.why[0] ? io.why : "shape rule failed");
	return graph_commit_node(g, opid, ch, &io, why, n);
}

int graph_set_output(struct graph *g, unsigned id, int on, char *why, size_t n)
{
	if (id >= g->nvalues)
		return fail(why, n, "output v%u not defined", id);
	if (g->v[id].kind != VK_NODE)
		return fail(why, n, "output v%u is a leaf, not a node value", id);
	g->v[id].out = on ? 1 : 0;
	return 0;
}

/* reach[v] = 1 for every value computed from value id (and id itself). */
static void grad_reach(const struct graph *g, unsigned id, uint8_t *reach)
{
	memset(reach, 0, g->nvalues);
	reach[id] = 1;
	for (unsigned k = 0; k < g->nnodes; k++) {
		const struct node *nd = &g->n[k];
		int hit = 0;
		for (unsigned j = 0; j < nd->nin; j++)
			hit |= reach[nd->in[j]];
		for (unsigned j = 0; j < nd->nout; j++)
			reach[nd->out0 + j] = (uint8_t)hit;
	}
}

int graph_grad_refused(const struct graph *g, unsigned id, char *why, size_t n)
{
	if (!dtype_is_float(g->v[id].dtype))
		return fail(why, n, "grad v%u: only float leaves have gradients", id);
	uint8_t reach[G_MAX_VALUES];
	grad_reach(g, id, reach);
	for (unsigned k = 0; k < g->nnodes; k++)
		for (unsigned j = 0; j < g->n[k].nin; j++)
			if (reach[g->n[k].in[j]] && op_get(g->n[k].op)->nograd >> j & 1)
				return fail(why, n, "grad v%u: it reaches %s, which has no derivative for it", id,
					    op_get(g->n[k].op)->name);
	return 0;
}

int graph_set_grad(struct graph *g, unsigned id, int on, char *why, size_t n)
{
	if (id >= g->nvalues || g->v[id].kind == VK_NODE)
		return fail(why, n, "grad v%u is not a leaf", id);
	if (on && graph_grad_refused(g, id, why, n))
		return -1;
	if (on && !g->v[id].grad && graph_ngrads(g) >= G_MAX_GRADS)
		return fail(why, n, "more than %d grad leaves", G_MAX_GRADS);
	g->v[id].grad = on ? 1 : 0;
	return 0;
}

unsigned graph_ngrads(const struct graph *g)
{
	unsigned k = 0;
	for (unsigned i = 0; i < g->nvalues; i++)
		k += g->v[i].grad;
	return k;
}

int graph_grad_compared(const struct graph *g, unsigned id)
{
	uint8_t reach[G_MAX_VALUES];
	grad_reach(g, id, reach);
	/* a tie op with a float output (the values of max/sort/topk): ties route their gradient */
	for (unsigned k = 0; k < g->nnodes; k++)
		for (unsigned j = 0; j < g->n[k].nout; j++)
			if (reach[g->n[k].out0 + j] && op_get(g->n[k].op)->tie &&
			    dtype_is_float(g->v[g->n[k].out0 + j].dtype))
				return 0;
	return 1;
}

unsigned graph_noutputs(const struct graph *g)
{
	unsigned k = 0;
	for (unsigned i = 0; i < g->nvalues; i++)
		k += g->v[i].out;
	return k;
}

unsigned graph_users(const struct graph *g, unsigned id)
{
	unsigned k = 0;
	for (unsigned i = 0; i < g->nnodes; i++)
		for (unsigned j = 0; j < g->n[i].nin; j++)
			k += g->n[i].in[j] == id;
	return k;
}

void graph_mark_sinks(struct graph *g)
{
	for (unsigned i = 0; i < g->nvalues; i++)
		g->v[i].out = g->v[i].kind == VK_NODE && graph_users(g, i) == 0;
}
