/* Indexing: gather/take/index_select and advanced indexing reads, scatter
 * and index_add/copy/fill/put writes, masked_fill/masked_scatter.
 *
 * Index tensors are int64 with known bounds (value.lo/hi) inside [0, size)
 * at every binding, so the smallest size over the bindings bounds them. Ops
 * that write without accumulating (scatter with a tensor source, index_copy,
 * index_put without accumulate) need distinct indices, or the result depends
 * on the write order: their index must be a FILL_PERM leaf (globally
 * distinct values). */
#include "families.h"
#include "index_ops.h"
#include "misc_ops.h"

/* Input i is an int64 index with values in [0, n), distinct when asked. */
static bool index_ok(struct infer_io *io, unsigned i, int64_t n, bool distinct)
{
	const struct value *v = io->in[i];
	if (v->dtype != DT_INT64)
		return io_fail(io, "index input %u must be int64", i);
	if (v->lo < 0 || v->hi >= n)
		return io_fail(io, "index input %u may hold values outside [0, %lld)", i, (long long)n);
	if (distinct && (v->kind == VK_NODE || v->fill != FILL_PERM))
		return io_fail(io, "index input %u must hold distinct values (a perm leaf)", i);
	return true;
}

/* A fill value (thousandths) the dtype of input 0 can hold exactly. */
static bool value_ok(struct infer_io *io, int64_t v)
{
	enum dtype dt = (enum dtype)io->in[0]->dtype;
	if (v < -100000 || v > 100000 || (dt == DT_BOOL && v != 0 && v != 1000) || (!dtype_is_float(dt) && v % 1000))
		return io_fail(io, "fill value %lld/1000 does not suit %s", (long long)v, dtype_info(dt)->name);
	return true;
}

/* Integer outputs: bounds of input 0 widened by input `src` (if >= 0) and a value. */
static void bounds_from(struct infer_io *io, int src, const int64_t *milli)
{
	struct value *o = &io->out[0];
	o->lo = io->in[0]->lo;
	o->hi = io->in[0]->hi;
	if (src >= 0) {
		o->lo = io->in[src]->lo < o->lo ? io->in[src]->lo : o->lo;
		o->hi = io->in[src]->hi > o->hi ? io->in[src]->hi : o->hi;
	}
	if (milli) {
		o->lo = *milli / 1000 < o->lo ? *milli / 1000 : o->lo;
		o->hi = *milli / 1000 > o->hi ? *milli / 1000 : o->hi;
	}
}

/* Whether v broadcasts to target's shape (the result being target's shape). */
static bool broadcasts_to(struct infer_io *io, const struct value *v, const struct value *t, const char *what)
{
	if (v->rank > t->rank)
		return io_fail(io, "%s has more dims than its target", what);
	FOR_BIND(io, b) for (unsigned i = 0; i < v->rank; i++) {
		int32_t s = v->dim[b][i], ts = t->dim[b][i + t->rank - v->rank];
		if (s != ts && s != 1)
			return io_fail(io, "%s does not broadcast to its target at dim %u (binding %u)", what, i, b);
	}
	return true;
}

static int index_dim(struct infer_io *io, unsigned i)
{
	int d = io->in[0]->rank ? io_dim(io->attr[i], io->in[0]->rank) : -1;
	if (d < 0)
		io_fail(io, "dim %lld out of range", (long long)io->attr[i]);
	return d;
}

/* gather / scatter family: index of x's rank, index.size(k) <= x.size(k) for
 * k != d, and <= src.size(k) for every k (src = input `src` or -1). */
static bool along_dim_rule(struct infer_io *io, int src, bool distinct, bool scatter)
{
	const struct value *x = io->in[0], *idx = io->in[1];
	int d = index_dim(io, 0);
	if (d < 0 || !index_ok(io, 1, io_dim_min(io, x, (unsigned)d), distinct))
		return false;
	if (idx->rank != x->rank || (src >= 0 && (io->in[src]->rank != x->rank || io->in[src]->dtype != x->dtype)))
		return io_fail(io, "index and source need input 0's rank (and the source its dtype)");
	FOR_BIND(io, b) for (unsigned k = 0; k < x->rank; k++)
		if (((int)k != d && idx->dim[b][k] > x->dim[b][k]) || (src >= 0 && idx->dim[b][k] > io->in[src]->dim[b][k]))
			return io_fail(io, "index dim %u too large (binding %u)", k, b);
	io->nout = 1;
	if (scatter) { /* x's shape */
		io_out_like(io, 0, x, (enum dtype)x->dtype);
	} else {
		io_out_like(io, 0, idx, (enum dtype)x->dtype);
		bounds_from(io, -1, NULL);
	}
	return true;
}

static bool infer_gather(struct infer_io *io) { return along_dim_rule(io, -1, false, false); }
static bool infer_scatter(struct infer_io *io)
{
	if (!along_dim_rule(io, 2, true, true))
		return false;
	bounds_from(io, 2, NULL);
	return true;
}
static bool infer_scatter_value(struct infer_io *io)
{
	if (!value_ok(io, io->attr[1]) || !along_dim_rule(io, -1, false, true))
		return false;
	bounds_from(io, -1, &io->attr[1]);
	return true;
}
/* Accumulating scatters: integer bounds unknown. */
static bool infer_scatter_add(struct infer_io *io) { return along_dim_rule(io, 2, false, true); }
static bool infer_scatter_reduce(struct infer_io *io) { return along_dim_rule(io, 2, false, true); }

/* take_along_dim: index of x's rank; other dims broadcast, dim d is the index's. */
static bool infer_take_along_dim(struct infer_io *io)
{
	const struct value *x = io->in[0], *idx = io->in[1];
	int d = index_dim(io, 0);
	if (d < 0 || !index_ok(io, 1, io_dim_min(io, x, (unsigned)d), false))
		return false;
	if (idx->rank != x->rank)
		return io_fail(io, "index needs input 0's rank");
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	bounds_from(io, -1, NULL);
	FOR_BIND(io, b) for (unsigned k = 0; k < x->rank; k++) {
		int32_t a = x->dim[b][k], i = idx->dim[b][k];
		if ((int)k != d && a != i && a != 1 && i != 1)
			return io_fail(io, "index dim %u does not broadcast (binding %u)", k, b);
		io->out[0].dim[b][k] = (int)k == d || a == 1 ? i : a;
	}
	return true;
}

/* Dim d of x replaced by a 1-D index's length: index_select, and the index
 * plus source shape of index_add/index_copy/index_fill. */
static bool select_rule(struct infer_io *io, bool distinct, struct value *shape)
{
	const struct value *x = io->in[0], *idx = io->in[1];
	int d = index_dim(io, 0);
	if (d < 0 || !index_ok(io, 1, io_dim_min(io, x, (unsigned)d), distinct))
		return false;
	if (idx->rank != 1)
		return io_fail(io, "index must be 1-D");
	*shape = *x;
	FOR_BIND(io, b) shape->dim[b][d] = idx->dim[b][0];
	return true;
}

static bool infer_index_select(struct infer_io *io)
{
	struct value s;
	if (!select_rule(io, false, &s))
		return false;
	io->nout = 1;
	io_out_like(io, 0, &s, (enum dtype)s.dtype);
	bounds_from(io, -1, NULL);
	return true;
}

/* index_add/index_copy: the source has x's shape with dim d of the index's length. */
static bool index_source_rule(struct infer_io *io, bool distinct)
{
	struct value s;
	if (!select_rule(io, distinct, &s))
		return false;
	if (io->in[2]->dtype != io->in[0]->dtype || !value_same_shape(io->g, io->in[2], &s))
		return io_fail(io, "source must have input 0's dtype and its shape with the index's length");
	io->nout = 1;
	io_out_like(io, 0, io->in[0], (enum dtype)io->in[0]->dtype);
	return true;
}
/* index_add's alpha is a small integer: Dynamo rejects a float alpha for integer inputs. */
static bool infer_index_add(struct infer_io *io) { return io_attr_range(io, 1, -4, 4) && index_source_rule(io, false); }
static bool infer_index_copy(struct infer_io *io)
{
	if (!index_source_rule(io, true))
		return false;
	bounds_from(io, 2, NULL);
	return true;
}
static bool infer_index_fill(struct infer_io *io)
{
	struct value s;
	if (!value_ok(io, io->attr[1]) || !select_rule(io, false, &s))
		return false;
	io->nout = 1;
	io_out_like(io, 0, io->in[0], (enum dtype)io->in[0]->dtype);
	bounds_from(io, -1, &io->attr[1]);
	return true;
}

/* Input k is the fill value as a tensor: 0-dim, of input 0's dtype (a graph
 * value, an input or a parameter, where the other fills take a number). */
static bool fill_tensor_ok(struct infer_io *io, unsigned k)
{
	if (io->in[k]->rank != 0 || io->in[k]->dtype != io->in[0]->dtype)
		return io_fail(io, "the fill (input %u) must be a 0-dim tensor of input 0's dtype", k);
	return true;
}

static bool infer_index_fill_tensor(struct infer_io *io)
{
	struct value s;
	if (!fill_tensor_ok(io, 2) || !select_rule(io, false, &s))
		return false;
	io->nout = 1;
	io_out_like(io, 0, io->in[0], (enum dtype)io->in[0]->dtype);
	bounds_from(io, 2, NULL);
	return true;
}

/* The smallest numel of input 0 over the bindings. */
static int64_t min_numel(const struct infer_io *io)
{
	int64_t n = value_numel(io->in[0], 0);
	FOR_BIND(io, b) n = value_numel(io->in[0], b) < n ? value_numel(io->in[0], b) : n;
	return n;
}

/* take: indices into the flattened input (bounded by the smallest numel). */
static bool infer_take(struct infer_io *io)
{
	if (!index_ok(io, 1, min_numel(io), false))
		return false;
	io->nout = 1;
	io_out_like(io, 0, io->in[1], (enum dtype)io->in[0]->dtype);
	bounds_from(io, -1, NULL);
	return true;
}

/* x[idx] (pos 0) and x[:, idx] (pos 1): dim pos is replaced by idx's dims. */
static bool adv_index_rule(struct infer_io *io, unsigned pos)
{
	const struct value *x = io->in[0], *idx = io->in[1];
	if (x->rank <= pos || !index_ok(io, 1, io_dim_min(io, x, pos), false))
		return io_fail(io, "advanced index needs dim %u and an index within it", pos);
	unsigned r = x->rank - 1 + idx->rank;
	if (r > G_MAX_RANK)
		return io_fail(io, "result would have %u dims", r);
	io->nout = 1;
	io_out_rank(io, 0, r, (enum dtype)x->dtype);
	bounds_from(io, -1, NULL);
	FOR_BIND(io, b) for (unsigned k = 0, o = 0; k < x->rank; k++) {
		if (k != pos)
			io->out[0].dim[b][o++] = x->dim[b][k];
		else
			for (unsigned j = 0; j < idx->rank; j++)
				io->out[0].dim[b][o++] = idx->dim[b][j];
	}
	return true;
}
static bool infer_index0(struct infer_io *io) { return adv_index_rule(io, 0); }
static bool infer_index1(struct infer_io *io) { return adv_index_rule(io, 1); }

/* masked_fill / masked_scatter: a bool mask that broadcasts to x; the
 * scatter source has x's dtype and at least x's numel at every binding. */
static bool infer_masked(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (io->in[1]->dtype != DT_BOOL || !broadcasts_to(io, io->in[1], x, "mask"))
		return io_fail(io, "mask must be bool and broadcast to input 0");
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	if (io->nin == 2) {
		if (!value_ok(io, io->attr[0]))
			return false;
		bounds_from(io, -1, &io->attr[0]);
		return true;
	}
	if (io->in[2]->dtype != x->dtype)
		return io_fail(io, "source must have input 0's dtype");
	FOR_BIND(io, b) if (value_numel(io->in[2], b) < value_numel(x, b))
		return io_fail(io, "source smaller than input 0 (binding %u)", b);
	bounds_from(io, 2, NULL);
	return true;
}

static bool infer_masked_fill_tensor(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (!fill_tensor_ok(io, 2))
		return false;
	if (io->in[1]->dtype != DT_BOOL || !broadcasts_to(io, io->in[1], x, "mask"))
		return io_fail(io, "mask must be bool and broadcast to input 0");
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	bounds_from(io, 2, NULL);
	return true;
}

/* index_put(x, (i0[, i1]), values, accumulate): 1-D indices of one length k
 * into x's leading dims; values broadcast to (k, rest of x). */
static bool infer_index_put(struct infer_io *io)
{
	const struct value *x = io->in[0];
	unsigned n = io->nin - 2; /* index tensors */
	const struct value *vals = io->in[io->nin - 1];
	struct value t;
	if (x->rank < n || vals->dtype != x->dtype)
		return io_fail(io, "index_put needs %u dims and values of input 0's dtype", n);
	for (unsigned i = 0; i < n; i++) {
		/* without accumulate, distinct first indices make distinct positions */
		if (!index_ok(io, 1 + i, io_dim_min(io, x, i), !io->attr[0] && i == 0))
			return false;
		if (io->in[1 + i]->rank != 1 || !value_same_shape(io->g, io->in[1 + i], io->in[1]))
			return io_fail(io, "indices must be 1-D of one length");
	}
	t = *x;
	t.rank = (uint8_t)(x->rank - n + 1);
	FOR_BIND(io, b) {
		t.dim[b][0] = io->in[1]->dim[b][0];
		for (unsigned k = n; k < x->rank; k++)
			t.dim[b][k - n + 1] = x->dim[b][k];
	}
	if (!broadcasts_to(io, vals, &t, "values"))
		return false;
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	if (!io->attr[0])
		bounds_from(io, (int)io->nin - 1, NULL);
	return true;
}

static const char *const reduce_names[] = {"sum", "prod", "mean", "amax", "amin", NULL};

/* slice_scatter(x, src, dim, start, end, step): x with x[start:end:step]
 * along dim replaced by src, which has x's shape but the slice's length
 * there. Conservative: 0 <= start < end <= the dim's smallest size (no
 * wrapping or clamping, so the length is the same at every binding), and
 * src of x's dtype. */
static bool infer_slice_scatter(struct infer_io *io)
{
	const struct value *x = io->in[0], *src = io->in[1];
	int d = io_dim(io->attr[0], x->rank);
	int64_t start = io->attr[1], end = io->attr[2], step = io->attr[3];
	if (d < 0 || !x->rank || start < 0 || end <= start || end > io_dim_min(io, x, (unsigned)d) || step < 1 ||
	    step > G_MAX_DIM)
		return io_fail(io, "slice_scatter of dim %lld, %lld:%lld:%lld out of range", (long long)io->attr[0],
			       (long long)start, (long long)end, (long long)step);
	if (src->dtype != x->dtype || src->rank != x->rank)
		return io_fail(io, "slice_scatter source must have the input's dtype and rank");
	int64_t len = (end - start + step - 1) / step;
	FOR_BIND(io, b)
	for (unsigned i = 0; i < x->rank; i++)
		if (src->dim[b][i] != ((int)i == d ? len : x->dim[b][i]))
			return io_fail(io, "slice_scatter source dim %u is %d, the slice's is %lld (binding %u)", i,
				       (int)src->dim[b][i], (long long)((int)i == d ? len : x->dim[b][i]), b);
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	bounds_from(io, 1, NULL);
	return true;
}

/* index_reduce(x, dim, index, source, reduce, include_self): index_add's
 * shapes. mean, amax and amin stay within the values' bounds; prod does not. */
static const char *const index_reduce_names[] = {"prod", "mean", "amax", "amin", NULL};
static bool infer_index_reduce(struct infer_io *io)
{
	if (!index_source_rule(io, false))
		return false;
	if (io->attr[1])
		bounds_from(io, 2, NULL);
	return true;
}

/* put(x, index, source, accumulate): indices into the flattened x (distinct
 * without accumulate), a source of x's dtype with as many elements. */
static bool infer_put(struct infer_io *io)
{
	const struct value *x = io->in[0], *src = io->in[2];
	if (!index_ok(io, 1, min_numel(io), !io->attr[0]))
		return false;
	if (src->dtype != x->dtype)
		return io_fail(io, "put source must have input 0's dtype");
	FOR_BIND(io, b) if (value_numel(src, b) != value_numel(io->in[1], b))
		return io_fail(io, "put source of %lld elements for %lld indices (binding %u)",
			       (long long)value_numel(src, b), (long long)value_numel(io->in[1], b), b);
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	if (!io->attr[0])
		bounds_from(io, 2, NULL);
	return true;
}

/* select_scatter(x, src, dim, index): x with x.select(dim, index) replaced
 * by src, of that shape and x's dtype. */
static bool infer_select_scatter(struct infer_io *io)
{
	const struct value *x = io->in[0], *src = io->in[1];
	int d = index_dim(io, 0);
	if (d < 0)
		return false;
	int64_t mn = io_dim_min(io, x, (unsigned)d);
	if (io->attr[1] < -mn || io->attr[1] >= mn)
		return io_fail(io, "select_scatter index %lld out of range", (long long)io->attr[1]);
	if (src->dtype != x->dtype || src->rank + 1u != x->rank)
		return io_fail(io, "select_scatter source must have the input's dtype and one dim less");
	FOR_BIND(io, b) for (unsigned i = 0, j = 0; i < x->rank; i++)
		if ((int)i != d && src->dim[b][j++] != x->dim[b][i])
			return io_fail(io, "select_scatter source dim %u differs (binding %u)", j - 1, b);
	io->nout = 1;
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	bounds_from(io, 1, NULL);
	return true;
}

/* diagonal_scatter(x, src, offset, dim1, dim2): x with that diagonal
 * replaced by src, of the diagonal's shape and x's dtype. */
static bool infer_diagonal_scatter(struct infer_io *io)
{
	if (!misc_infer_diagonal(io))
		return false;
	const struct value *x = io->in[0], *src = io->in[1];
	if (src->dtype != x->dtype || !value_same_shape(io->g, src, &io->out[0]))
		return io_fail(io, "diagonal_scatter source must have the diagonal's shape and the input's dtype");
	io_out_like(io, 0, x, (enum dtype)x->dtype);
	bounds_from(io, 1, NULL);
	return true;
}

/* unravel_index(indices, shape): one int64 tensor of the indices' shape per
 * size of shape (1 to G_MAX_OUT sizes); each within its size when the
 * indices lie in [0, numel of shape). */
static bool infer_unravel_index(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int64_t len = io->attr[0], prod = 1;
	if (len < 1 || len > G_MAX_OUT || io->nattr != 1 + len)
		return io_fail(io, "unravel_index needs 1 to %d sizes", G_MAX_OUT);
	for (int64_t k = 0; k < len; k++) {
		if (io->attr[1 + k] < 1 || io->attr[1 + k] > G_MAX_DIM)
			return io_fail(io, "unravel_index size %lld invalid", (long long)io->attr[1 + k]);
		prod *= io->attr[1 + k];
	}
	io->nout = (unsigned)len;
	for (unsigned k = 0; k < len; k++) {
		io_out_like(io, k, x, DT_INT64);
		if (x->lo >= 0 && x->hi < prod) {
			io->out[k].lo = 0;
			io->out[k].hi = io->attr[1 + k] - 1;
		}
	}
	return true;
}

#define IX(nm, n, rmin, dt, w, attrs_, spelling, tag, ...) \
	{.name = nm, .family = FAM_INDEX, .nin_min = n, .nin_max = n, .rank_min = rmin, .rank_max = G_MAX_RANK, \
	 .dtypes = dt, .layout = LAYOUT_FRESH, .weight = w, .attrs = attrs_, .py = spelling, .infer = infer_##tag, \
	 .choose = index_choose_##tag, __VA_ARGS__}
/* x with one of its views replaced by input 1: a copy that keeps x's layout. */
#define SCATTER_VIEW(nm, rmin, attrs_, spelling, tag) \
	{.name = nm, .family = FAM_INDEX, .nin_min = 2, .nin_max = 2, .rank_min = rmin, .rank_max = G_MAX_RANK, \
	 .dtypes = DTM_EVERY, .layout = LAYOUT_KEEP, .weight = 1, .attrs = attrs_, .py = spelling, \
	 .infer = infer_##tag, .choose = index_choose_##tag}
#define infer_masked_fill infer_masked
#define infer_masked_scatter infer_masked
#define infer_index_put2 infer_index_put

const struct op_def ops_index[] = {
	IX("gather", 2, 1, DTM_ALL, 3, "dim", "torch.gather(@0, #0, @1)", gather),
	IX("take_along_dim", 2, 1, DTM_ALL, 2, "dim", "torch.take_along_dim(@0, @1, dim=#0)", take_along_dim),
	IX("index_select", 2, 1, DTM_ALL, 3, "dim", "torch.index_select(@0, #0, @1)", index_select),
	IX("take", 2, 0, DTM_ALL, 1, NULL, "torch.take(@0, @1)", take),
	IX("index_tensor", 2, 1, DTM_ALL, 2, NULL, "@0[@1]", index0),
	IX("index_tensor1", 2, 2, DTM_ALL, 1, NULL, "@0[:, @1]", index1),
	/* a CPU index into a tensor on the graph's device: graphs for a GPU only */
	IX("index_cpu_index", 2, 1, 0, 1, NULL, "@0[@1.cpu()]", index0, .dtypes_gpu = DTM_ALL),
	IX("scatter", 3, 1, DTM_ALL, 2, "dim", "torch.scatter(@0, #0, @1, @2)", scatter, .same_dtype = 1),
	IX("scatter_value", 2, 1, DTM_ALL, 2, "dim value~", "torch.scatter(@0, #0, @1, #1)", scatter_value),
	IX("scatter_add", 3, 1, DTM_NUM, 2, "dim", "torch.scatter_add(@0, #0, @1, @2)", scatter_add, .same_dtype = 1),
	{.name = "scatter_reduce", .family = FAM_INDEX, .nin_min = 3, .nin_max = 3, .rank_min = 1,
	 .rank_max = G_MAX_RANK, .dtypes = DTM_NUM, .layout = LAYOUT_FRESH, .weight = 2,
	 .attrs = "dim reduce$ include_self?", .strs = reduce_names, .same_dtype = 1,
	 .py = "torch.scatter_reduce(@0, #0, @1, @2, reduce=#1, include_self=#2)", .infer = infer_scatter_reduce,
	 .choose = index_choose_scatter_reduce},
	IX("index_add", 3, 1, DTM_NUM, 2, "dim alpha", "torch.index_add(@0, #0, @1, @2, alpha=#1)", index_add, .same_dtype = 1),
	IX("index_copy", 3, 1, DTM_ALL, 1, "dim", "torch.index_copy(@0, #0, @1, @2)", index_copy, .same_dtype = 1),
	IX("index_fill", 2, 1, DTM_ALL, 1, "dim value~", "torch.index_fill(@0, #0, @1, #1)", index_fill),
	IX("masked_fill", 2, 0, DTM_ALL, 3, "value~", "torch.masked_fill(@0, @1, #0)", masked_fill),
	IX("masked_scatter", 3, 0, DTM_ALL, 1, NULL, "torch.masked_scatter(@0, @1, @2)", masked_scatter, .same_dtype = 1),
	/* the fill a 0-dim tensor (a graph value, an input, a parameter) */
	IX("index_fill_tensor", 3, 1, DTM_ALL, 1, "dim", "torch.index_fill(@0, #0, @1, @2)", index_fill_tensor),
	IX("masked_fill_tensor", 3, 0, DTM_ALL, 2, NULL, "torch.masked_fill(@0, @1, @2)", masked_fill_tensor),
	IX("index_put", 3, 1, DTM_NUM, 2, "accumulate?", "torch.index_put(@0, (@1,), @2, accumulate=#0)", index_put, .same_dtype = 1),
	IX("index_put2", 4, 2, DTM_NUM, 1, "accumulate?", "torch.index_put(@0, (@1, @2), @3, accumulate=#0)",
	   index_put2, .same_dtype = 1),
	/* a copy that keeps x's layout */
	{.name = "slice_scatter", .family = FAM_INDEX, .nin_min = 2, .nin_max = 2, .rank_min = 1,
	 .rank_max = G_MAX_RANK, .dtypes = DTM_EVERY, .layout = LAYOUT_KEEP, .weight = 1,
	 .attrs = "dim start end step", .py = "torch.slice_scatter(@0, @1, dim=#0, start=#1, end=#2, step=#3)",
	 .infer = infer_slice_scatter, .choose = index_choose_slice_scatter},
	IX("index_reduce", 3, 1, DTM_NUM, 1, "dim reduce$ include_self?",
	   "torch.index_reduce(@0, #0, @1, @2, #1, include_self=#2)", index_reduce, .strs = index_reduce_names,
	   .same_dtype = 1),
	IX("put", 3, 0, DTM_NUM, 1, "accumulate?", "torch.put(@0, @1, @2, accumulate=#0)", put, .same_dtype = 1),
	SCATTER_VIEW("select_scatter", 1, "dim index", "torch.select_scatter(@0, @1, #0, #1)", select_scatter),
	SCATTER_VIEW("diagonal_scatter", 2, "offset dim1 dim2", "torch.diagonal_scatter(@0, @1, #0, #1, #2)",
		     diagonal_scatter),
	/* the outputs are strided views of one fresh tensor: counted as views of the input (no writes) */
	{.name = "unravel_index", .family = FAM_INDEX, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_INTS, .layout = LAYOUT_VIEW, .tuple = 1, .weight = 1, .attrs = "shape[]",
	 .py = "torch.unravel_index(@0, #0)", .infer = infer_unravel_index, .choose = index_choose_unravel_index},
};
FAMILY_COUNT(index);
