#include "graph.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "dtype.h"
#include "fail.h"
#include "fills.h"
#include "op.h"
#include "real.h"

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
	g->target = TARGET_ANY;
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

int graph_set_target(struct graph *g, unsigned target, char *why, size_t n)
{
	if (target >= TARGET_COUNT)
		return fail(why, n, "target %u unknown", target);
	if (g->nvalues)
		return fail(why, n, "the target is set before any value");
	g->target = (uint8_t)target;
	return 0;
}

int64_t graph_numel_cap(const struct graph *g) { return g->target == TARGET_GPU ? G_MAX_NUMEL_GPU : G_MAX_NUMEL; }
int32_t graph_dim_cap(const struct graph *g) { return g->target == TARGET_GPU ? G_MAX_DIM_GPU : G_MAX_DIM; }

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
 * dynamic bits. A size may be 0 only where empty tensors are allowed. */
static int check_shape(const struct graph *g, struct value *v, int empty_ok, char *why, size_t n)
{
	int64_t cap = graph_numel_cap(g);
	int32_t dim_cap = graph_dim_cap(g);
	if (v->rank > G_MAX_RANK)
		return fail(why, n, "rank %u exceeds %d", v->rank, G_MAX_RANK);
	if (v->dtype >= DT_COUNT)
		return fail(why, n, "dtype %u unknown", v->dtype);
	v->dyn = 0;
	for (unsigned b = 0; b < g->nbind; b++) {
		int64_t numel = 1;
		for (unsigned d = 0; d < v->rank; d++) {
			int32_t x = v->dim[b][d];
			if (x < !empty_ok || x > dim_cap)
				return fail(why, n, "dim %u = %d at binding %u not in [%d, %d]", d, (int)x, b, !empty_ok,
					    (int)dim_cap);
			numel *= x;
			if (numel > cap)
				return fail(why, n, "more than %lld elements at binding %u", (long long)cap, b);
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
	if (kind != VK_INPUT && kind != VK_PARAM && kind != VK_BUFFER)
		return fail(why, n, "leaf kind %d is not input, param or buffer", (int)kind);
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
	v.root = g->nvalues;
	v.fill = (uint8_t)fill;
	for (unsigned d = 0; d < rank; d++) {
		struct leaf_dim ld = dims[d];
		if (ld.sym < 0) {
			if (ld.add < 0)
				return fail(why, n, "dim %u = %d: a static size is not negative", d, ld.add);
			ld.sym = -1;
			ld.mul = 0;
		} else if (ld.sym >= g->nsym) {
			return fail(why, n, "dim %u uses undeclared symbol s%d", d, ld.sym);
		} else if (ld.mul < 1 || ld.mul > 8) {
			return fail(why, n, "dim %u: multiplier %d not in [1, 8]", d, ld.mul);
		} else if (kind != VK_INPUT) {
			return fail(why, n, "a parameter or buffer cannot have a dynamic dim");
		}
		v.ld[d] = ld;
		for (unsigned b = 0; b < g->nbind; b++) {
			int64_t x = ld.sym < 0 ? ld.add : (int64_t)ld.mul * g->sym[b][ld.sym] + ld.add;
			if (ld.sym >= 0 && x < G_MIN_SYMVAL)
				return fail(why, n, "dynamic dim %u = %lld at binding %u is below %d", d, (long long)x, b,
					    G_MIN_SYMVAL);
			v.dim[b][d] = (int32_t)(x > G_MAX_DIM_GPU ? G_MAX_DIM_GPU + 1 : x < 0 ? 0 : x);
		}
	}
	if (check_shape(g, &v, 1, why, n))
		return -1;
	switch (fill) {
	case FILL_NORMAL:
	case FILL_POSITIVE:
	case FILL_SPECIAL:
		if (!dtype_is_inexact(dt))
			return fail(why, n, "fill normal/positive/special needs a float dtype");
		v.lo = INT64_MIN;
		v.hi = INT64_MAX;
		break;
	case FILL_CONST: /* lo: the value, in thousandths */
		if (!dtype_is_inexact(dt))
			return fail(why, n, "fill const needs a float dtype (an integer one is range V V)");
		if (lo < -1000LL * G_INT_BOUND || lo > 1000LL * G_INT_BOUND || hi != lo)
			return fail(why, n, "const %lld/1000 out of range, or lo != hi", (long long)lo);
		v.lo = v.hi = lo;
		break;
	case FILL_RANGE:
	case FILL_PERM:
		if (dtype_is_inexact(dt) && fill == FILL_PERM)
			return fail(why, n, "fill perm needs an integer dtype");
		if (lo > hi || lo < -G_INT_BOUND || hi > G_INT_BOUND)
			return fail(why, n, "range [%lld, %lld] invalid", (long long)lo, (long long)hi);
		if (!dtype_is_inexact(dt) && (lo < dtype_info(dt)->min || hi > dtype_info(dt)->max))
			return fail(why, n, "range [%lld, %lld] exceeds what %s holds", (long long)lo, (long long)hi,
				    dtype_info(dt)->name);
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

static int leaves_alike(const struct value *a, const struct value *b)
{
	return a->dtype == b->dtype && a->rank == b->rank && a->fill == b->fill && a->lo == b->lo && a->hi == b->hi &&
	       !memcmp(a->ld, b->ld, a->rank * sizeof a->ld[0]);
}

int graph_input_partner(const struct graph *g, unsigned id)
{
	for (unsigned i = id; i-- > 0;)
		if (g->v[i].kind == VK_INPUT && leaves_alike(&g->v[i], &g->v[id]))
			return (int)i;
	return -1;
}

int graph_has_shared_inputs(const struct graph *g)
{
	for (unsigned i = 0; i < g->nvalues; i++)
		if (g->v[i].kind == VK_INPUT && layout_rows[g->v[i].layout].share)
			return 1;
	return 0;
}

int graph_holds_op(const struct graph *g, const char *name)
{
	for (unsigned k = 0; k < g->nnodes; k++)
		if (!strcmp(op_get(g->n[k].op)->name, name))
			return 1;
	return 0;
}

int graph_is_number(const struct graph *g, unsigned id)
{
	return id < g->nvalues && g->v[id].kind == VK_INPUT && g->v[id].layout == IL_NUMBER;
}

int graph_set_layout(struct graph *g, unsigned id, unsigned layout, char *why, size_t n)
{
	if (id >= g->nvalues || g->v[id].kind != VK_INPUT)
		return fail(why, n, "layout of v%u: only graph inputs have one", id);
	if (layout >= IL_COUNT)
		return fail(why, n, "layout %u unknown", layout);
	struct value *v = &g->v[id];
	if (v->rank < layout_rows[layout].rank_min || v->rank > layout_rows[layout].rank_max)
		return fail(why, n, "layout %u does not suit rank %u", layout, v->rank);
	if (graph_users(g, id))
		return fail(why, n, "layout of v%u: set before any node reads it", id);
	int partner = -1;
	if (layout_rows[layout].share && (partner = graph_input_partner(g, id)) < 0)
		return fail(why, n, "layout %s of v%u: no earlier input of its dtype, dims and fill to share", layout_name(layout),
			    id);
	if (partner >= 0 && v->grad)
		return fail(why, n, "layout %s of v%u: an input that requires grad shares no memory", layout_name(layout), id);
	if (layout == IL_NUMBER && ((v->dtype != DT_FLOAT64 && v->dtype != DT_INT64 && v->dtype != DT_BOOL) || v->grad))
		return fail(why, n, "layout number of v%u: a Python float, int or bool (float64, int64, bool) without grad", id);
	v->layout = (uint8_t)layout;
	v->contig = partner >= 0 ? g->v[partner].contig : layout_rows[layout].contig;
	v->overlap = partner >= 0 ? g->v[partner].overlap : layout_rows[layout].overlap;
	v->root = partner >= 0 ? g->v[partner].root : (uint16_t)id;
	return 0;
}

int value_has_empty_dim(const struct graph *g, const struct value *v)
{
	for (unsigned b = 0; b < g->nbind; b++)
		if (v->rank && !value_numel(v, b))
			return 1;
	return 0;
}

/* An in-place node's target (input 0): writable memory, and no other operand
 * sharing its memory (eager refuses partial overlap between what it reads and
 * what it writes). Elements of the target that share memory are the op's
 * rule (graph_inplace_breaks): eager raises there unless it defines the write. */
static int check_inplace(const struct graph *g, const struct op_def *op, const struct op_choice *ch, char *why,
			 size_t n)
{
	const struct value *t = &g->v[ch->in[0]];
	if (graph_ngrads(g))
		return fail(why, n, "%s writes in place: a graph with grad leaves has no in-place ops", op->name);
	if (g->v[t->root].kind != VK_NODE && g->v[t->root].fill == FILL_POSITIVE)
		return fail(why, n, "%s: v%u's values are positive on purpose (a variance): not written", op->name,
			    t->root);
	if (dtype_is_int(t->dtype) && dtype_is_inexact(g->v[t->root].dtype))
		return fail(why, n, "%s: v%u is a dtype view of v%u, which the fp64 reference holds in float64: not written",
			    op->name, ch->in[0], t->root);
	for (unsigned k = 0; k < g->nnodes && dtype_is_inexact(t->dtype); k++)
		if (op_get(g->n[k].op)->reinterprets && g->v[g->n[k].in[0]].root == t->root)
			return fail(why, n, "%s: v%u's bits are read as another dtype (v%u): no float write", op->name,
				    ch->in[0], g->n[k].out0);
	for (unsigned i = 1; i < ch->nin; i++)
		if (g->v[ch->in[i]].root == t->root)
			return fail(why, n, "%s: input %u shares memory with the tensor written", op->name, i);
	return 0;
}

int graph_prepare_node(const struct graph *g, unsigned opid, const struct op_choice *ch, struct infer_io *io, char *why,
		       size_t n)
{
	if (graph_prepare_inputs(g, opid, ch, io, why, n))
		return -1;
	if (!(op_dtypes(io->op, g->target) & DTM(io->in[0]->dtype)))
		return fail(why, n, "%s does not accept %s", io->op->name, dtype_info(io->in[0]->dtype)->name);
	if (io->op->inplace && io->in[0]->overlap && !io->op->overlap_ok)
		return fail(why, n, "%s: v%u has elements that share memory (an expanded view)", io->op->name,
			    ch->in[0]);
	return 0;
}

/* Input 0's elements share memory at every binding: an expanded graph input
 * (dim 0 of stride 0) of two or more rows. The overlap flag is what may
 * overlap (an expand of a dim that stays 1 at some binding does not). */
static int overlaps_surely(const struct infer_io *io)
{
	const struct value *t = io->in[0];
	if (t->kind != VK_INPUT || t->layout != IL_EXPANDED)
		return 0;
	for (unsigned b = 0; b < io->nbind; b++)
		if (t->dim[b][0] < 2)
			return 0;
	return 1;
}

int graph_inplace_breaks(const struct infer_io *io, char *why, size_t n)
{
	if (!io->op->inplace)
		return 0;
	if (overlaps_surely(io) && !io->op->overlap_ok)
		return fail(why, n, "%s writes a view whose elements share memory", io->op->name), 1;
	if (io->nout == 1 && dtype_info(io->out[0].dtype)->cat > dtype_info(io->in[0]->dtype)->cat)
		return fail(why, n, "%s writes in place: result type %s can't be cast to %s", io->op->name,
			    dtype_info(io->out[0].dtype)->name, dtype_info(io->in[0]->dtype)->name),
		       1;
	return 0;
}

/* Whether a write of bounds [lo, hi] (in dtype dt) into root's memory keeps
 * the integer bounds of every value sharing it, which earlier nodes relied on
 * and later ones may: within them for dtype dt, and for another integer dtype
 * (a dtype view reads the bits) only a value bounded by nothing but its type. */
static int write_keeps_bounds(const struct graph *g, unsigned root, enum dtype dt, int64_t lo, int64_t hi)
{
	for (unsigned i = 0; i < g->nvalues; i++) {
		const struct value *v = &g->v[i];
		if (v->root != root || dtype_is_inexact(v->dtype) || v->dtype == DT_BOOL)
			continue;
		if (v->lo <= dtype_info(v->dtype)->min && v->hi >= dtype_info(v->dtype)->max)
			continue; /* bounded by its type alone */
		if (v->dtype != dt || lo < v->lo || hi > v->hi)
			return 0;
	}
	return 1;
}

int graph_prepare_inputs(const struct graph *g, unsigned opid, const struct op_choice *ch, struct infer_io *io,
			 char *why, size_t n)
{
	const struct op_def *op = op_get(opid);
	if (!op)
		return fail(why, n, "op %u unknown", opid);
	if (g->nnodes >= G_MAX_NODES)
		return fail(why, n, "more than %d nodes", G_MAX_NODES);
	if (g->broken)
		return fail(why, n, "nothing may follow the node that breaks a constraint");
	if (ch->nin < op->nin_min || ch->nin > op->nin_max + op->number)
		return fail(why, n, "%s takes %u-%u inputs, got %u", op->name, op->nin_min, op->nin_max + op->number, ch->nin);
	if (op->cpu_only && g->target != TARGET_CPU)
		return fail(why, n, "%s runs on the CPU only: not in a graph for %s", op->name,
			    g->target == TARGET_GPU ? "the GPU" : "any device");
	memset(io, 0, sizeof *io);
	io->g = g;
	io->op = op;
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
		if (!op->empty_ok && value_has_empty_dim(g, io->in[i]))
			return fail(why, n, "%s input %u: v%u is empty, and %s does not take empty tensors", op->name,
				    i, ch->in[i], op->name);
	}
	/* A number input only in the slot after the op's tensors, of an op taking a Python number. */
	int number = op->number && ch->nin > op->nin_max;
	for (unsigned i = 0; i < ch->nin; i++)
		if (graph_is_number(g, ch->in[i]) != (number && i == op->nin_max))
			return fail(why, n, "%s input %u: %s", op->name, i,
				    graph_is_number(g, ch->in[i]) ? "a Python number goes only where the op takes one"
								   : "the op's extra input is a Python number (layout number)");
	if (op->inplace && check_inplace(g, op, ch, why, n))
		return -1;
	if (io->in[0]->rank < op->rank_min || io->in[0]->rank > op->rank_max)
		return fail(why, n, "%s takes rank %u-%u, got %u", op->name, op->rank_min, op->rank_max,
			    io->in[0]->rank);
	/* Attributes: count and kinds. */
	struct attr_spec s;
	op_attr_spec(op, &s);
	unsigned want = s.nscalar - (unsigned)number; /* a number input gives attribute 0 */
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
		    (k == AK_DTYPE && (a < 0 || a >= DT_COUNT)) || (k != AK_REAL && (a < -(1LL << 40) || a > (1LL << 40))))
			return fail(why, n, "%s: attribute %u = %lld out of range", op->name, i, (long long)a);
		/* one NaN: the text form and the program write every NaN alike */
		if (k == AK_REAL && isnan(real_value(a)) && a != real_bits(NAN))
			return fail(why, n, "%s: attribute %u is a NaN other than the canonical one", op->name, i);
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
	const struct value *x = io->in[0];
	if (op->inplace && !g->broken) { /* output 0 is input 0, written: same shape, a result type it can hold
					 * (a broken node's output is a placeholder) */
		struct value *o = &io->out[0];
		if (io->nout != 1 || !value_same_shape(g, o, x))
			return fail(why, n, "%s writes in place: its result must have the shape of input 0", op->name);
		if (graph_inplace_breaks(io, why, n))
			return -1;
		if (dtype_is_int(x->dtype) && !write_keeps_bounds(g, x->root, (enum dtype)x->dtype, o->lo, o->hi))
			return fail(why, n, "%s: writing [%lld, %lld] into v%u breaks the bounds of a value sharing its memory",
				    op->name, (long long)o->lo, (long long)o->hi, ch->in[0]);
		o->dtype = x->dtype;
		o->lo = x->lo; /* what the memory held stays within them */
		o->hi = x->hi;
	}
	/* Outputs that may share input 0's memory: views, and ops that may return it.
	 * A view with one output per input (broadcast_tensors, meshgrid) views input k in output k. */
	int shares = op->inplace || op->layout == LAYOUT_VIEW || op->aliases;
	int per_input = shares && io->nin > 1 && io->nout == io->nin;
	for (unsigned k = 0; k < io->nout; k++) {
		struct value *o = &io->out[k];
		const struct value *src = per_input ? io->in[k] : x;
		char sub[160];
		if (check_shape(g, o, op->empty_ok, sub, sizeof sub) < 0)
			return fail(why, n, "%s output %u: %s", op->name, k, sub);
		o->kind = VK_NODE;
		o->node = (int16_t)g->nnodes;
		o->slot = (uint8_t)k;
		o->out = 0;
		o->grad = 0;
		o->fill = 0;
		int fresh = op->layout == LAYOUT_FRESH || op->layout == LAYOUT_STRIDED;
		o->contig = op->inplace                     ? x->contig
			    : op->layout == LAYOUT_FRESH    ? 1
			    : op->layout == LAYOUT_VIEW || op->layout == LAYOUT_STRIDED ? 0
							    : contig;
		o->root = shares ? src->root : (uint16_t)(g->nvalues + k);
		o->overlap = op->inplace ? x->overlap : !fresh && (o->overlap || (shares && src->overlap));
		o->layout = 0;
		o->tie = (uint8_t)(tie || ((op->tie >> k) & 1));
		o->datadep = op->datadep;
		memset(o->ld, 0, sizeof o->ld);
		if (o->dtype == DT_BOOL) {
			o->lo = 0;
			o->hi = 1;
		} else if (dtype_is_inexact(o->dtype)) {
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

int graph_grad_undefined(const struct graph *g, unsigned id, char *why, size_t n)
{
	uint8_t reach[G_MAX_VALUES];
	grad_reach(g, id, reach);
	for (unsigned k = 0; k < g->nnodes; k++)
		for (unsigned j = 0; j < g->n[k].nin; j++)
			if (reach[g->n[k].in[j]] && op_get(g->n[k].op)->nograd >> j & 1)
				return fail(why, n, "grad v%u: it reaches %s, which has no derivative for it", id,
					    op_get(g->n[k].op)->name);
	return 0;
}

int graph_grad_refused(const struct graph *g, unsigned id, char *why, size_t n)
{
	if (!dtype_is_float(g->v[id].dtype))
		return fail(why, n, "grad v%u: only float leaves have gradients", id);
	if (g->v[id].kind == VK_BUFFER)
		return fail(why, n, "grad v%u: a buffer has no gradient", id);
	if (g->v[id].root != id) /* layout SAME or VIEW */
		return fail(why, n, "grad v%u: it shares another input's memory", id);
	if (graph_is_number(g, id))
		return fail(why, n, "grad v%u: a Python number has no gradient", id);
	if (graph_has_inplace(g)) /* a write may clobber what backward needs */
		return fail(why, n, "grad v%u: the graph writes in place", id);
	return graph_grad_undefined(g, id, why, n);
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

int graph_leaf_written(const struct graph *g, unsigned id, int *tied)
{
	int written = 0, tie = 0;
	for (unsigned k = 0; k < g->nnodes && g->v[id].kind != VK_NODE; k++)
		if (op_get(g->n[k].op)->inplace && g->v[g->n[k].in[0]].root == id) {
			written = 1;
			tie |= g->v[g->n[k].out0].tie;
		}
	if (tied)
		*tied = tie;
	return written;
}

const char *const graph_view_write_words[VK_COUNT] = {
	[VK_INPUT] = "inplace_view:input", [VK_PARAM] = "inplace_view:param", [VK_BUFFER] = "inplace_view:buffer"};
const char *const graph_leaf_write_words[VK_COUNT] = {
	[VK_INPUT] = "inplace:input", [VK_PARAM] = "inplace:param", [VK_BUFFER] = "inplace:buffer"};

/* The kinds of leaf member's in-place nodes write into, one bit each: through
 * a value sharing the leaf's memory (through_view 1) or the leaf itself (0). */
static unsigned leaf_writes(const struct graph *g, const uint8_t *member, int through_view)
{
	unsigned kinds = 0;
	for (unsigned k = 0; k < g->nnodes; k++) {
		unsigned in = g->n[k].in[0], root = g->v[in].root;
		if ((!member || member[k]) && op_get(g->n[k].op)->inplace && (in != root) == through_view &&
		    g->v[root].kind != VK_NODE)
			kinds |= 1u << g->v[root].kind;
	}
	return kinds;
}

unsigned graph_view_writes(const struct graph *g, const uint8_t *member) { return leaf_writes(g, member, 1); }

unsigned graph_direct_writes(const struct graph *g, const uint8_t *member) { return leaf_writes(g, member, 0); }

/* Whether node k writes in place into memory another input shares. */
static int writes_shared_input(const struct graph *g, unsigned k)
{
	unsigned root = g->v[g->n[k].in[0]].root;
	if (!op_get(g->n[k].op)->inplace || g->v[root].kind != VK_INPUT)
		return 0;
	unsigned sharing = 0;
	for (unsigned i = 0; i < g->nvalues; i++)
		sharing += g->v[i].kind == VK_INPUT && g->v[i].root == root;
	return sharing > 1;
}

/* Whether node k's number is its op's neutral value: an attribute that is, or
 * an integer forward() argument that may be (Dynamo specializes 0 and 1). */
static int neutral_number(const struct graph *g, const struct node *nd, const struct op_def *op)
{
	double want = op->neutral == NEUTRAL_ONE ? 1.0 : 0.0;
	if (nd->nin == 1 && nd->nattr) {
		struct attr_spec s;
		op_attr_spec(op, &s);
		return (attr_kind_at(&s, 0) == AK_REAL ? real_value(nd->attr[0]) : (double)nd->attr[0]) == want;
	}
	const struct value *k = nd->nin == 2 && graph_is_number(g, nd->in[1]) ? &g->v[nd->in[1]] : NULL;
	return k && !dtype_is_inexact(k->dtype) && k->lo <= want && want <= k->hi;
}

/* Whether node k returns a leaf's memory unchanged in value and dtype (x * 1,
 * x + 0): an output a compiler may make the leaf. */
static int identity_of_leaf(const struct graph *g, unsigned k)
{
	const struct node *nd = &g->n[k];
	const struct op_def *op = op_get(nd->op);
	if (!op->neutral || !neutral_number(g, nd, op))
		return 0;
	const struct value *in = &g->v[nd->in[0]], *out = &g->v[nd->out0];
	return out->out && out->dtype == in->dtype && g->v[in->root].kind != VK_NODE;
}

const char *graph_op_word(const struct graph *g, unsigned k, char *buf, size_t n)
{
	const struct node *nd = &g->n[k];
	const struct value *x = nd->nin ? &g->v[nd->in[0]] : NULL;
	int tensor = x && !graph_is_number(g, nd->in[0]);
	snprintf(buf, n, "%s%s%s%s%s", op_get(nd->op)->name, x ? "@" : "", x ? dtype_info(x->dtype)->name : "",
		 tensor && !x->rank ? GRAPH_ZERO_DIM_MARK : "", tensor && !x->contig ? GRAPH_STRIDED_MARK : "");
	return buf;
}

unsigned graph_structure_words(const struct graph *g, const uint8_t *member, const char **names, unsigned cap)
{
	unsigned writes = graph_view_writes(g, member), direct = graph_direct_writes(g, member), n = 0;
	for (unsigned kind = 0; kind < VK_COUNT && n < cap; kind++)
		if (writes >> kind & 1)
			names[n++] = graph_view_write_words[kind];
	for (unsigned kind = 0; kind < VK_COUNT && n < cap; kind++)
		if (direct >> kind & 1)
			names[n++] = graph_leaf_write_words[kind];
	for (unsigned k = 0; k < g->nnodes && n < cap; k++)
		if ((!member || member[k]) && writes_shared_input(g, k)) {
			names[n++] = "inplace_shared_input";
			break;
		}
	for (unsigned k = 0; k < g->nnodes && n < cap; k++)
		if ((!member || member[k]) && op_get(g->n[k].op)->inplace && g->v[g->n[k].in[0]].overlap) {
			names[n++] = "inplace_overlap";
			break;
		}
	for (unsigned k = 0, found = 0; k < g->nnodes && n < cap && !found; k++)
		for (unsigned i = 0; (!member || member[k]) && i < g->n[k].nin && !found; i++)
			if (graph_is_number(g, g->n[k].in[i]))
				names[n++] = "number_input", found = 1;
	for (unsigned k = 0; k < g->nnodes && n < cap; k++)
		if ((!member || member[k]) && identity_of_leaf(g, k)) {
			names[n++] = "identity_output";
			break;
		}
	return n;
}

/* An in-place entry is a step when its base op is (floor_ as floor). */
static int op_is_step(const struct op_def *op)
{
	const struct op_def *base = op_base(op);
	return op->step || (base && base->step);
}

int graph_has_step(const struct graph *g, const uint8_t *member)
{
	for (unsigned k = 0; k < g->nnodes; k++) {
		const struct node *nd = &g->n[k];
		if (member && !member[k])
			continue;
		if (op_is_step(op_get(nd->op)))
			return 1;
		int reads_float = 0, writes_int = 0;
		for (unsigned j = 0; j < nd->nin; j++)
			reads_float |= dtype_is_float(g->v[nd->in[j]].dtype);
		for (unsigned j = 0; j < nd->nout; j++)
			writes_int |= !dtype_is_inexact(g->v[nd->out0 + j].dtype);
		if (reads_float && writes_int)
			return 1;
	}
	return 0;
}

int graph_reads_bits(const struct graph *g)
{
	for (unsigned k = 0; k < g->nnodes; k++)
		if (op_get(g->n[k].op)->reinterprets)
			return 1;
	return 0;
}

int graph_has_inplace(const struct graph *g)
{
	for (unsigned k = 0; k < g->nnodes; k++)
		if (op_get(g->n[k].op)->inplace)
			return 1;
	return 0;
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

unsigned graph_nreturns(const struct graph *g)
{
	unsigned k = graph_noutputs(g);
	for (unsigned i = 0; i < g->nvalues; i++)
		k += g->v[i].kind != VK_NODE && graph_leaf_written(g, i, NULL);
	return k;
}

int graph_check_returns(const struct graph *g, char *why, size_t n)
{
	unsigned k = graph_nreturns(g);
	if (k > G_MAX_RETURNS)
		return fail(why, n, "forward() returns %u values (outputs and leaves written in place): at most %d", k,
			    G_MAX_RETURNS);
	return 0;
}
