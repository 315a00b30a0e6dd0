/* The constraint breakers: one table entry per constraint (its ops and how
 * it breaks a valid choice of them). Whether a choice really breaks is the
 * graph core's call (graph_add_broken_node: the op's rule must reject it at
 * every binding); whether eager then raises is measured against torch
 * (bench/validity --break NAME, tests/integration/test_break.sh). */
#include "break.h"
#include "avoid.h"
#include <string.h>
#include "../graph/opkit.h"
#include "gen_choose.h"
#include "recipe.h"
#include "mutkit.h"

#define INDEX_PAST G_MAX_NUMEL /* past every dim and every numel an index can refer to */

struct break_ctx {
	struct graph *g;
	struct rng *r;
	unsigned op;
	struct value valid; /* output 0 of the valid choice */
};

/* Input i becomes a value of `like`'s shape (dim d one larger at every
 * binding when d >= 0) in dtype dt: reused when one fits, else a fresh leaf. */
static bool replace_input(struct break_ctx *b, struct op_choice *ch, unsigned i, const struct value *like,
			  enum dtype dt, int d)
{
	struct tensor_req q = req_like(like);
	q.dtype = (uint8_t)dt;
	q.fill = dtype_is_inexact(dt) ? FILL_NORMAL : FILL_RANGE;
	q.lo = dt == DT_BOOL ? 0 : -8;
	q.hi = dt == DT_BOOL ? 1 : 8;
	for (unsigned s = 0; d >= 0 && s < G_MAX_BIND; s++)
		q.dim[s][d]++;
	int id = gen_operand_for(b->g, b->r, &q);
	if (id < 0)
		return false;
	ch->in[i] = (uint16_t)id;
	return true;
}

/* Largest size of dim d of v over the bindings. */
static int32_t dim_max(const struct graph *g, const struct value *v, unsigned d)
{
	int32_t m = v->dim[0][d];
	for (unsigned s = 1; s < g->nbind; s++)
		m = v->dim[s][d] > m ? v->dim[s][d] : m;
	return m;
}

static int op_is(const struct break_ctx *b, const char *const *names)
{
	for (; *names; names++)
		if (!strcmp(op_get(b->op)->name, *names))
			return 1;
	return 0;
}

/* ---- the breakers ---- */

/* mm(float32, float64): the second operand in another float dtype. */
static bool break_operand_dtype(struct break_ctx *b, struct op_choice *ch)
{
	enum dtype first = (enum dtype)b->g->v[ch->in[0]].dtype;
	return replace_input(b, ch, 1, &b->g->v[ch->in[1]], first == DT_FLOAT64 ? DT_FLOAT32 : DT_FLOAT64, -1);
}

/* The second operand's contracted dim one larger: its last dim for the ops
 * below (and 1-D operands), else its second to last. */
static bool break_inner_dim(struct break_ctx *b, struct op_choice *ch)
{
	static const char *const last[] = {"mv", "dot", "addmv", "linear_fn", "linear_fn_bias", "inner", NULL};
	unsigned rank = b->g->v[ch->in[1]].rank;
	int d = (int)rank - (op_is(b, last) ? 1 : 2);
	return rank && replace_input(b, ch, 1, &b->g->v[ch->in[1]], (enum dtype)b->g->v[ch->in[1]].dtype, d < 0 ? 0 : d);
}

/* Ops whose broadcasting operand is not input 1: where's y, the bias of the
 * matrix products (added to their result), lerp's weight and addcmul's second. */
static const char *const broadcast_third[] = {"where", "addmm", "baddbmm", "addbmm", "addmv", "addr", "lerp",
					      "addcmul", "addcdiv", NULL};

/* The broadcasting operand takes the valid result's shape with one dim (of
 * size > 1 at every binding) one larger: neither equal nor 1, so it cannot
 * broadcast with the rest. */
static bool break_broadcast(struct break_ctx *b, struct op_choice *ch)
{
	unsigned i = op_is(b, broadcast_third) ? 2 : 1, dims[G_MAX_RANK], n = 0;
	for (unsigned d = 0; d < b->valid.rank; d++)
		if (value_dim_min(b->g, &b->valid, d) > 1)
			dims[n++] = d;
	if (!n || i >= ch->nin)
		return false;
	return replace_input(b, ch, i, &b->valid, (enum dtype)b->g->v[ch->in[i]].dtype, (int)dims[rng_below(b->r, n)]);
}

/* An int64 value of like's shape with values in [lo, hi] (reused or a fresh leaf); -1 if none. */
static int index_leaf(struct break_ctx *b, const struct value *like, int64_t lo, int64_t hi)
{
	struct tensor_req q = req_like(like);
	q.dtype = DT_INT64;
	q.fill = FILL_RANGE;
	q.lo = lo;
	q.hi = hi;
	return gen_operand_for(b->g, b->r, &q);
}

/* Whether input i holding only the value `at` breaks the op's rule at every
 * binding (the graph is left as it was). */
static bool index_breaks_at(struct break_ctx *b, const struct op_choice *ch, unsigned i, int64_t at)
{
	uint16_t nv = b->g->nvalues;
	struct op_choice t = *ch;
	int id = index_leaf(b, &b->g->v[ch->in[i]], at, at);
	t.in[i] = (uint16_t)id;
	bool breaks = id >= 0 && graph_choice_breaks(b->g, b->op, &t, NULL, 0) == 1;
	b->g->nvalues = nv;
	return breaks;
}

/* The index input (the int64 one whose values the rule bounds) drawn from
 * [k, k + 3], k the smallest value past the dim it indexes at every binding:
 * the edge, where an off-by-one in a bounds check would show. */
static bool break_index_range(struct break_ctx *b, struct op_choice *ch)
{
	for (unsigned i = 0; i < ch->nin; i++) {
		if (b->g->v[ch->in[i]].dtype != DT_INT64 || !index_breaks_at(b, ch, i, INDEX_PAST))
			continue;
		int64_t lo = 0, hi = INDEX_PAST; /* the rule holds at lo, breaks at hi */
		while (hi - lo > 1) {
			int64_t mid = lo + (hi - lo) / 2;
			if (index_breaks_at(b, ch, i, mid))
				hi = mid;
			else
				lo = mid;
		}
		int id = index_leaf(b, &b->g->v[ch->in[i]], hi, hi + rng_range(b->r, 0, 3));
		ch->in[i] = (uint16_t)id;
		return id >= 0;
	}
	return false;
}

/* One entry of the target shape changed: the -1 hole becomes one more than
 * the size it stood for, a size grows by one, an `@k` (input 0's dim k)
 * becomes one more than that dim's largest size. The element count then
 * differs at every binding. An empty list (a scalar) asks for two elements. */
static bool break_reshape_numel(struct break_ctx *b, struct op_choice *ch)
{
	int64_t *items = ch->attr + 1, n = ch->attr[0];
	if (!n) {
		ch->attr[0] = 1;
		ch->attr[1] = 2;
		ch->nattr = 2;
		return true;
	}
	unsigned k = (unsigned)rng_below(b->r, (uint64_t)n);
	for (unsigned j = 0; j < n; j++)
		k = items[j] == -1 ? j : k;
	if (items[k] == -1)
		items[k] = dim_max(b->g, &b->valid, k) + 1;
	else if (items[k] <= -2)
		items[k] = dim_max(b->g, &b->g->v[ch->in[0]], (unsigned)(-items[k] - 2)) + 1;
	else
		items[k]++;
	return true;
}

/* One width of one padded dim set to that dim's largest size. */
static bool break_reflect_pad(struct break_ctx *b, struct op_choice *ch)
{
	const struct value *x = &b->g->v[ch->in[0]];
	unsigned w = (unsigned)rng_below(b->r, (uint64_t)ch->attr[0]);
	unsigned d = x->rank - 1 - w / 2; /* widths go last dim first, in (left, right) pairs */
	ch->attr[1 + w] = dim_max(b->g, x, d);
	return true;
}

/* Input 0 in an integer dtype, for ops whose kernels are floating-point only. */
static bool break_unsupported_dtype(struct break_ctx *b, struct op_choice *ch)
{
	return replace_input(b, ch, 0, &b->g->v[ch->in[0]], rng_chance(b->r, 70) ? DT_INT64 : DT_INT32, -1);
}

/* Values outside an attribute's domain, by its name: a dim past the rank on
 * either side, a zero alpha (celu divides by it), a zero window or stride, a
 * padding past half the window, zero chunks. */
static unsigned bad_values(const char *attr, unsigned rank, int64_t *v)
{
	static const char *const dims[] = {"dim", "dim0", "dim1", "start_dim", "end_dim", NULL};
	for (const char *const *d = dims; *d; d++)
		if (!strcmp(attr, *d)) {
			v[0] = (int64_t)rank + 1;
			v[1] = -(int64_t)rank - 2;
			return 2;
		}
	static const struct {
		const char *attr;
		int64_t bad;
	} fixed[] = {{"alpha", 0}, {"kernel_size", 0}, {"stride", 0}, {"padding", 64}, {"chunks", 0}};
	for (unsigned i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (!strcmp(attr, fixed[i].attr)) {
			v[0] = fixed[i].bad;
			return 1;
		}
	return 0;
}

/* One attribute set outside its domain: the first (from a random start)
 * whose bad value the op's rule rejects at every binding. */
static bool break_attr_domain(struct break_ctx *b, struct op_choice *ch)
{
	struct attr_spec s;
	op_attr_spec(op_get(b->op), &s);
	unsigned start = s.nscalar ? (unsigned)rng_below(b->r, s.nscalar) : 0;
	for (unsigned k = 0; k < s.nscalar; k++) {
		unsigned i = (start + k) % s.nscalar;
		int64_t v[2];
		unsigned nv = bad_values(s.name[i], b->g->v[ch->in[0]].rank, v);
		for (unsigned j = 0; j < nv; j++) {
			struct op_choice t = *ch;
			t.attr[i] = v[j];
			if (graph_choice_breaks(b->g, b->op, &t, NULL, 0) == 1) {
				*ch = t;
				return true;
			}
		}
	}
	return false;
}

/* An int64 input the rule bounds below by 0 (indices, classes, repeats)
 * drawn from [-4, -1]. */
static bool break_value_domain(struct break_ctx *b, struct op_choice *ch)
{
	for (unsigned i = 0; i < ch->nin; i++) {
		if (b->g->v[ch->in[i]].dtype != DT_INT64 || !index_breaks_at(b, ch, i, -1))
			continue;
		int id = index_leaf(b, &b->g->v[ch->in[i]], -4, -1);
		ch->in[i] = (uint16_t)id;
		return id >= 0;
	}
	return false;
}

/* The target becomes a fresh graph input of its dtype and shape laid out
 * expanded (dim 0 of stride 0), dim 0 of size 2 or more at every binding, so
 * that its rows share memory. */
static bool break_overlap_write(struct break_ctx *b, struct op_choice *ch)
{
	const struct value *x = &b->g->v[ch->in[0]];
	if (!x->rank || value_dim_min(b->g, x, 0) < 2)
		return false;
	struct tensor_req q = req_like(x);
	for (unsigned t = 0; t < 8; t++) {
		uint16_t nv = b->g->nvalues;
		int id = gen_operand_for(b->g, b->r, &q);
		if (id == nv && b->g->v[id].kind == VK_INPUT && !graph_set_layout(b->g, (unsigned)id, IL_EXPANDED, NULL, 0)) {
			ch->in[0] = (uint16_t)id;
			return true;
		}
		b->g->nvalues = nv;
	}
	return false;
}

/* The target becomes an integer tensor of its shape: the float operand (or
 * true division) gives a float result that it can't hold. */
static bool break_inplace_result(struct break_ctx *b, struct op_choice *ch)
{
	return replace_input(b, ch, 0, &b->g->v[ch->in[0]], rng_chance(b->r, 70) ? DT_INT64 : DT_INT32, -1);
}

static const char *const dtype_ops[] = {"mm", "bmm", "matmul", "matmul_op", "mv", "dot", "addmm", "baddbmm",
					 "addbmm", "addmv", "linear_fn", "linear_fn_bias", NULL};
static const char *const inner_ops[] = {"mm", "bmm", "matmul", "matmul_op", "mv", "dot", "addmm", "baddbmm",
					 "addbmm", "addmv", "linear_fn", "linear_fn_bias", "inner", NULL};
static const char *const broadcast_ops[] = {
	"add", "sub", "mul", "div", "maximum", "minimum", "pow", "atan2", "fmod", "remainder", "floor_divide",
	"hypot", "copysign", "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
	"bitwise_and", "bitwise_or", "bitwise_xor", "where", "lerp", "addcmul", "addcdiv", "addmm", "baddbmm",
	"addbmm", "addmv", "addr", NULL};
static const char *const unsupported_dtype_ops[] = {
	"softmax", "log_softmax", "softmin", "gelu", "silu", "mish", "elu", "celu", "selu", "hardswish", "logsigmoid",
	"softplus", "mean_dims", "var", "std", "layer_norm_fn", "group_norm_fn", "adaptive_avg_pool1d",
	"adaptive_avg_pool2d", "adaptive_avg_pool3d", "functional_conv1d", "functional_conv2d", NULL};
static const char *const attr_domain_ops[] = {"celu", "softmax", "log_softmax", "softmin", "cumsum", "cumprod",
					      "transpose", "argmax", "sum", "flatten", "max_pool1d", "max_pool2d",
					      "avg_pool1d", "avg_pool2d", "chunk", NULL};
static const char *const value_domain_ops[] = {"gather",     "index_select", "embedding", "embedding_fn", "one_hot",
					       "scatter_add", "index_add",   "bernoulli_p", NULL};
/* Not take_along_dim: from torch 2.15 its CPU kernel, like CUDA's, does not
 * check the index, so eager need not raise. */
static const char *const index_ops[] = {"gather", "index_select", "take", "index_tensor", "index_tensor1",
					"scatter_add", "index_add", "index_fill", "embedding", "embedding_fn",
					"one_hot", NULL};
static const char *const reshape_ops[] = {"view", "reshape", NULL};
/* Not add_, mul_, relu_ and other in-place ops: compiled mode writes an
 * expanded view of theirs without raising (only ops that reach copy_'s meta
 * check raise). Not slice_assign: a slice of one row does not overlap. */
static const char *const overlap_ops[] = {"copy_", "clamp_", NULL};
/* Not mul_: compiled mode multiplies an integer tensor by a float one in
 * place without raising. */
static const char *const inplace_result_ops[] = {"add_", "sub_", "div_", NULL};
static const char *const reflect_ops[] = {"pad_reflect", "reflection_pad1d", "reflection_pad2d", "reflection_pad3d",
					  NULL};

static const struct breaker {
	const char *const *ops;
	bool (*apply)(struct break_ctx *b, struct op_choice *ch);
} breakers[C_COUNT] = {
	[C_OPERAND_DTYPE] = {dtype_ops, break_operand_dtype},
	[C_INNER_DIM] = {inner_ops, break_inner_dim},
	[C_BROADCAST] = {broadcast_ops, break_broadcast},
	[C_INDEX_RANGE] = {index_ops, break_index_range},
	[C_RESHAPE_NUMEL] = {reshape_ops, break_reshape_numel},
	[C_REFLECT_PAD] = {reflect_ops, break_reflect_pad},
	[C_UNSUPPORTED_DTYPE] = {unsupported_dtype_ops, break_unsupported_dtype},
	[C_ATTR_DOMAIN] = {attr_domain_ops, break_attr_domain},
	[C_VALUE_DOMAIN] = {value_domain_ops, break_value_domain},
	[C_OVERLAP_WRITE] = {overlap_ops, break_overlap_write},
	[C_INPLACE_RESULT] = {inplace_result_ops, break_inplace_result},
};

const char *const *breaker_ops(unsigned constraint)
{
	return constraint > C_NONE && constraint < C_COUNT ? breakers[constraint].ops : NULL;
}

/* A valid choice of op on a primary input of g, broken by br; the node's
 * index, or -1 (the caller rolls g back). */
static int break_with(struct graph *g, struct rng *r, unsigned constraint, unsigned op)
{
	struct break_ctx b = {g, r, op, {0}};
	struct op_choice ch;
	memset(&ch, 0, sizeof ch);
	int p = gen_pick_primary(g, r, op, 0);
	if (p < 0)
		return -1;
	ch.nin = 1;
	ch.in[0] = (uint16_t)p;
	uint16_t nv, nn;
	if (gen_choose(g, r, op, 0, &ch))
		return -1;
	nv = g->nvalues;
	nn = g->nnodes;
	int k = graph_add_node(g, op, &ch, NULL, 0); /* breakers start from a valid choice */
	if (k < 0)
		return -1;
	b.valid = g->v[g->n[k].out0];
	g->nvalues = nv;
	g->nnodes = nn;
	if (!breakers[constraint].apply(&b, &ch))
		return -1;
	return graph_add_broken_node(g, op, &ch, constraint, NULL, 0);
}

/* g rebuilt through its recipe without its last entry when drop_last, and
 * without leaves that no node reads (outputs: the sinks). 0, or -1. */
static int rebuild(struct graph *g, int drop_last)
{
	static _Thread_local struct recipe rc;
	static _Thread_local struct graph out;
	recipe_from_graph(&rc, g);
	if (drop_last)
		recipe_remove(&rc, rc.n - 1u);
	mut_tidy(&rc);
	if (recipe_build(&rc, &out, NULL, NULL, 0))
		return -1;
	*g = out;
	return 0;
}

int break_graph(struct graph *g, struct rng *r, unsigned constraint, unsigned attempts)
{
	if (g->broken || constraint >= C_COUNT)
		return -1;
	for (unsigned t = 0; t < attempts; t++) {
		unsigned c = constraint ? constraint : 1 + (unsigned)rng_below(r, C_COUNT - 1);
		unsigned nops = 0;
		while (breakers[c].ops[nops])
			nops++;
		const char *name = breakers[c].ops[rng_below(r, nops)];
		int op = op_find(name);
		if (avoid_break(name, c)) /* a known bug's broken node */
			continue;
		uint16_t nv = g->nvalues, nn = g->nnodes;
		int k = op >= 0 ? break_with(g, r, c, (unsigned)op) : -1;
		if (k >= 0) {
			/* Operands the breaker replaced are dead leaves now (kept should
			 * the rebuild fail: g is valid either way). */
			if (rebuild(g, 0))
				graph_mark_sinks(g);
			return g->nnodes - 1;
		}
		g->nvalues = nv;
		g->nnodes = nn;
	}
	return -1;
}

int break_mend(struct graph *g) { return g->broken ? rebuild(g, 1) : 0; }

/* The `break` mutator: g (mended first when broken) with a new broken node. */
int mut_break(struct mut_ctx *m)
{
	m->out = *m->g;
	return break_mend(&m->out) || break_graph(&m->out, m->r, C_NONE, BREAK_ATTEMPTS) < 0 ? -1 : 0;
}
