/* The IR: a DAG of tensor values and operator nodes, valid by construction.
 *
 * Values are numbered in creation order. A value is a leaf (a graph input, or
 * a parameter owned by the module) or one output of a node; a node's inputs
 * are always earlier values, so the value order is a topological order.
 *
 * Dynamic dimensions: the graph has nsym symbols, each bound to a concrete
 * size at each of nbind bindings. A leaf dimension is either static or
 * mul*symbol+add; every value carries its concrete shape at every binding, and
 * an op is added only if its shape rule holds at all of them. */
#ifndef PT2FUZZ_GRAPH_H
#define PT2FUZZ_GRAPH_H
#include <stddef.h>
#include <stdint.h>
#include "dtype.h"

#define G_MAX_RANK 6
#define G_MAX_BIND 3
#define G_MAX_SYM 4
#define G_MAX_IN 4
#define G_MAX_OUT 4
#define G_MAX_ATTR 12
#define G_MAX_NODES 128  /* room for several components of a dozen ops (mutators/gen.h) */
#define G_MAX_VALUES 512
#define G_MAX_DIM 1024        /* any one dimension */
#define G_MAX_DIM_GPU 16384   /* the same in a graph made for a GPU (TARGET_GPU) */
#define G_MAX_NUMEL (1 << 16) /* any one tensor, at any binding */
#define G_MAX_NUMEL_GPU (1 << 20) /* the same in a graph made for a GPU (TARGET_GPU) */
#define G_MIN_SYMVAL 2        /* a dynamic size of 0 or 1 is specialized by Dynamo */
#define G_MAX_SYMVAL 64
#define G_INT_BOUND 1000000   /* |lo|, |hi| of integer leaves */
#define G_MAX_GRADS 16        /* leaves marked requires-grad (their gradients are extra outputs) */
#define G_MAX_RETURNS 64      /* forward()'s outputs and the leaves it writes in place: what a worker's
                               * reply carries, besides the gradients (harness/result.h) */

/* A buffer is module state that is not a parameter (register_buffer). */
enum value_kind { VK_INPUT, VK_PARAM, VK_NODE, VK_BUFFER, VK_COUNT };

/* How make_inputs fills a leaf. RANGE and PERM draw integers in [lo, hi];
 * CONST is every element lo/1000 (a float); SPECIAL mixes +-0, +-inf, NaN,
 * denormals and huge values into normal draws. */
enum fill { FILL_NORMAL, FILL_POSITIVE, FILL_RANGE, FILL_PERM, FILL_CONST, FILL_SPECIAL, FILL_COUNT };

/* Whether a leaf of this fill keeps lo and hi (the rest keep the dtype's whole range): its row's (fills.c). */
int fill_has_bounds(unsigned fill);

/* How make_inputs lays a graph input out in memory (its values are the same):
 * contiguous; channels_last (rank 4) and channels_last_3d (rank 5); the last
 * two dims transposed; every dim permuted (reversed); a view at a storage
 * offset; dim 0 expanded from size 1 (stride 0: its rows are equal); every
 * other element of the last dim (stride 2). SAME and VIEW alias another
 * input, its partner (graph_input_partner): SAME passes the partner's very
 * tensor again, VIEW another view of the partner's memory (x[...]); their
 * own values are drawn and dropped, so the other inputs' draws stay put.
 * NUMBER is no tensor: a rank-0 float64, int64 or bool input passed to
 * forward() as a Python float, int or bool (its drawn value, .item(), a new
 * one at each binding); only an op that takes a Python number (op_def.number)
 * reads it, in place of its number attribute. */
enum input_layout {
	IL_CONTIGUOUS, IL_CHANNELS_LAST, IL_CHANNELS_LAST_3D, IL_TRANSPOSED, IL_PERMUTED, IL_OFFSET, IL_EXPANDED,
	IL_STRIDED, IL_SAME, IL_VIEW, IL_NUMBER, IL_COUNT
};
/* The layouts a tensor input may take (drawn by the generator and the mutators): all but NUMBER. */
#define IL_TENSOR_COUNT IL_NUMBER

/* The device class a graph is made for: sizes, and ops eager supports on one
 * device only. ANY runs everywhere. */
enum graph_target { TARGET_ANY, TARGET_CPU, TARGET_GPU, TARGET_COUNT };

/* Their names ("channels_last"), and back (-1 when unknown): enum_names.c, from the rows of fills.c. */
const char *fill_name(unsigned f);
int fill_find(const char *s);
const char *layout_name(unsigned l);
int layout_find(const char *s);
const char *target_name(unsigned t);
int target_find(const char *s);

/* A leaf dimension: static `add` when sym < 0, else mul*sym[b]+add. */
struct leaf_dim {
	int8_t sym;
	int8_t mul;
	int16_t add;
};

struct value {
	uint8_t kind;    /* enum value_kind */
	uint8_t dtype;   /* enum dtype */
	uint8_t rank;
	uint8_t dyn;     /* bit d: dim d differs across bindings (a dynamic dim) */
	uint8_t contig;  /* known contiguous, so .view() is legal */
	uint8_t tie;     /* depends on tie-broken indices, or a broken node's placeholder: never compared */
	uint8_t datadep; /* its shape depends on the data (dims are upper bounds): read by no node */
	uint8_t out;     /* returned by forward() */
	uint8_t fill;    /* leaves: enum fill */
	uint8_t grad;    /* leaves: requires grad; backward mode compares its gradient */
	uint8_t layout;  /* graph inputs: enum input_layout */
	uint8_t overlap; /* elements may share memory (an expanded view): never written in place */
	uint16_t root;   /* the value whose memory this one may share: itself, or what it views */
	int16_t node;    /* producing node, -1 for leaves */
	uint8_t slot;    /* which output of that node */
	struct leaf_dim ld[G_MAX_RANK]; /* leaves only */
	int64_t lo, hi;  /* integer/bool values lie in [lo, hi] (inclusive) */
	int32_t dim[G_MAX_BIND][G_MAX_RANK];
};

struct node {
	uint16_t op;     /* index in the catalogue (registry order) */
	uint8_t nin, nout, nattr;
	uint16_t in[G_MAX_IN];
	uint16_t out0;   /* outputs are values out0 .. out0+nout-1 */
	int64_t attr[G_MAX_ATTR];
};

/* The compile configuration a graph runs under (graph/compile_config.h):
 * torch.compile's mode, dynamic, fullgraph and backend, and a few settings of
 * the catalogue (config/settings.h). All zero: the default, as graphs had
 * before they carried one. */
#define G_MAX_SETTINGS 6
struct graph_setting {
	uint16_t id;   /* row of the settings' catalogue */
	uint8_t value; /* index into the row's values */
};
struct graph_config {
	uint8_t mode, dynamic, backend; /* enum compile_mode, compile_dynamic, compile_backend (config/compile.h) */
	uint8_t fullgraph;
	uint8_t nsettings;
	struct graph_setting set[G_MAX_SETTINGS]; /* in the catalogue's order, one per row */
};

struct graph {
	uint8_t nbind, nsym;
	/* 0: a valid graph. Else the constraint (graph/broken.h) that the last
	 * node breaks on purpose: eager must raise there (a near-invalid graph). */
	uint8_t broken;
	uint8_t target;  /* enum graph_target */
	uint32_t seed;   /* seeds make_inputs and the module's parameters */
	int32_t sym[G_MAX_BIND][G_MAX_SYM];
	struct graph_config config; /* graph_set_config */
	uint16_t nvalues, nnodes;
	struct value v[G_MAX_VALUES];
	struct node n[G_MAX_NODES];
};

/* Starts an empty graph with nbind bindings of nsym symbols (values set
 * by graph_set_sym). Returns -1 with a reason when the counts are out of range. */
int graph_init(struct graph *g, unsigned nbind, unsigned nsym, uint32_t seed, char *why, size_t n);
int graph_set_sym(struct graph *g, unsigned sym, const int32_t *vals, char *why, size_t n);
/* Sets the device class, before any value exists. */
int graph_set_target(struct graph *g, unsigned target, char *why, size_t n);
/* The element cap of one tensor at one binding, and of one dim, by target. */
int64_t graph_numel_cap(const struct graph *g);
int32_t graph_dim_cap(const struct graph *g);

/* Appends a leaf; returns its value id, or -1 with a reason. */
int graph_add_leaf(struct graph *g, enum value_kind kind, enum dtype dt, unsigned rank,
		   const struct leaf_dim *dims, enum fill fill, int64_t lo, int64_t hi, char *why, size_t n);

/* What a node is before it is added: op, inputs, attributes. */
struct op_choice {
	uint8_t nin, nattr;
	uint16_t in[G_MAX_IN];
	int64_t attr[G_MAX_ATTR];
};

/* Appends a node after checking the op's shape rule at every binding;
 * returns the node index, or -1 with a reason. */
int graph_add_node(struct graph *g, unsigned op, const struct op_choice *ch, char *why, size_t n);

/* Lays graph input id out in memory (enum input_layout) before any node
 * reads it: the layout must suit its rank. */
int graph_set_layout(struct graph *g, unsigned id, unsigned layout, char *why, size_t n);

/* The input whose memory graph input id shares (layout SAME or VIEW): the
 * nearest earlier input described alike (dtype, dims, fill and bounds), or
 * -1 when there is none. */
int graph_input_partner(const struct graph *g, unsigned id);
/* Whether some graph input shares another's memory (SAME or VIEW). */
int graph_has_shared_inputs(const struct graph *g);
/* Whether some node of g is of the catalogue op named name. */
int graph_holds_op(const struct graph *g, const char *name);
/* Whether value id is a graph input passed as a Python number (layout NUMBER). */
int graph_is_number(const struct graph *g, unsigned id);

/* Whether some node writes leaf id in place, directly or through a view:
 * the oracle then compares it after the call like an output, unless a value
 * written into it depends on tie-broken indices (*tied, when not NULL). */
int graph_leaf_written(const struct graph *g, unsigned id, int *tied);
/* Whether any node writes in place (such a graph has no grad leaves). */
int graph_has_inplace(const struct graph *g);
/* The words for what graph_view_writes finds: "inplace_view:input",
 * "inplace_view:param", "inplace_view:buffer" (the known-bug list's words,
 * pipeline/known_bugs.h). */
extern const char *const graph_view_write_words[VK_COUNT];
/* Which leaf kinds a node (of those with member[k] set; NULL: all) writes in
 * place through a view of, as bits 1 << enum value_kind: a structure some
 * bugs need beside their ops, named in op sets by graph_view_write_words. */
unsigned graph_view_writes(const struct graph *g, const uint8_t *member);
/* The words for what graph_direct_writes finds: "inplace:input",
 * "inplace:param", "inplace:buffer". */
extern const char *const graph_leaf_write_words[VK_COUNT];
/* Which leaf kinds a node (as graph_view_writes) writes in place into
 * directly, its input 0 the leaf itself (AOTInductor and a written
 * parameter, docs/findings/behaviour-aoti-parameter-mutation.md). */
unsigned graph_direct_writes(const struct graph *g, const uint8_t *member);
/* Node k's word where a known bug's trigger is looked for (mutators/avoid.h,
 * pipeline/known_bugs.h): its op's name, then "@DTYPE" of its input 0, then
 * what that input is, a mark each: GRAPH_ZERO_DIM_MARK where it is a 0-d
 * tensor (not a Python number), GRAPH_STRIDED_MARK where it is not known
 * contiguous (a transposed, permuted or strided input, a view, LAPACK's
 * column-major result). buf (n bytes), cut to fit. */
#define GRAPH_ZERO_DIM_MARK "@0d"
#define GRAPH_STRIDED_MARK "@strided"
const char *graph_op_word(const struct graph *g, unsigned k, char *buf, size_t n);
/* The most words graph_structure_words gives. */
#define GRAPH_STRUCTURE_WORDS (2 * VK_COUNT + 4)
/* The structures some bugs need beside their ops, as the known-bug list's
 * words, into names (at most cap): graph_view_writes' and graph_direct_writes'
 * words, and
 * "inplace_shared_input" where a node (of those with member[k] set; NULL: all)
 * writes in place into memory that two inputs share (layouts SAME and VIEW),
 * "inplace_overlap" where one writes in place into memory whose elements
 * overlap (fill_ of an expanded view), "number_input" where one reads a
 * Python number (layout NUMBER), and "identity_output" where a graph output
 * is a leaf (or a view of one) under an identity (x * 1, x + 0: op_def.neutral)
 * in its own dtype.
 * How many. */
unsigned graph_structure_words(const struct graph *g, const uint8_t *member, const char **names, unsigned cap);
/* Whether some node of member's (NULL: every node) makes a value that jumps
 * as its float inputs move: a step op (op_def.step) or a node that reads a
 * float and writes an int or bool (a comparison, argmax, a cast). The oracle
 * only excuses differences as ill-conditioning (docs/oracle.md, "Nudged
 * inputs") in outputs whose component has none. */
int graph_has_step(const struct graph *g, const uint8_t *member);

/* Whether some node reads a float's bits as another dtype (op_def.reinterprets:
 * a dtype view): its ints move with every ulp of the float. */
int graph_reads_bits(const struct graph *g);

/* Marks value id as an output of forward(); only node values can be. */
int graph_set_output(struct graph *g, unsigned id, int on, char *why, size_t n);

/* Marks every node value that no node reads as an output (and nothing else). */
void graph_mark_sinks(struct graph *g);
/* What forward() returns: its outputs and the leaves it writes in place
 * (compared after the call). A graph may return at most G_MAX_RETURNS:
 * graph_check_returns gives the reason when it returns more. */
unsigned graph_nreturns(const struct graph *g);
int graph_check_returns(const struct graph *g, char *why, size_t n);

/* Why leaf id cannot require grad, or 0 when it can: float inputs and params
 * only, and none whose values reach an input that eager has no derivative
 * for (op_def.nograd: its backward would raise). */
int graph_grad_refused(const struct graph *g, unsigned id, char *why, size_t n);
/* Why leaf id's values reach an input eager has no derivative for (op_def.nograd: a loss
 * weight, running statistics), or 0. */
int graph_grad_undefined(const struct graph *g, unsigned id, char *why, size_t n);
/* Marks leaf id as requiring grad (or not): where graph_grad_refused allows,
 * at most G_MAX_GRADS. */
int graph_set_grad(struct graph *g, unsigned id, int on, char *why, size_t n);
unsigned graph_ngrads(const struct graph *g);
/* Whether backward mode compares leaf id's gradient: not when it flows
 * through the values of an op that picks among ties (max/sort/topk/... with
 * indices), where ties legitimately route the gradient to different elements;
 * argmax and other index-only ops carry no gradient and do not count. */
int graph_grad_compared(const struct graph *g, unsigned id);

/* Shape helpers shared by the whole project. */
int64_t value_numel(const struct value *v, unsigned b);
int value_is_leaf(const struct value *v);
int32_t value_dim_min(const struct graph *g, const struct value *v, unsigned d);
int value_same_shape(const struct graph *g, const struct value *a, const struct value *b);
int value_has_empty_dim(const struct graph *g, const struct value *v); /* a size 0 at some binding */
unsigned graph_noutputs(const struct graph *g);
unsigned graph_users(const struct graph *g, unsigned id); /* how many node inputs read id */
/* How many weakly-connected components g's nodes form (two nodes are joined
 * when one reads the other's output or both read the same value): components.c. */
unsigned graph_node_components(const struct graph *g);

/* Marks in member[k] (room for g->nnodes) the nodes of value's component;
 * their count (0 for a leaf no node reads). */
unsigned graph_component_nodes(const struct graph *g, unsigned value, uint8_t *member);
/* Each node's component in comp[k] (room for g->nnodes), numbered from 0 in
 * the order of their first nodes; the count. */
unsigned graph_node_component_ids(const struct graph *g, uint8_t *comp);
uint64_t graph_hash(const struct graph *g);            /* of its binary encoding */

#endif
