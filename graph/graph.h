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
#define G_MAX_NODES 48
#define G_MAX_VALUES 160
#define G_MAX_DIM 1024        /* any one dimension */
#define G_MAX_NUMEL (1 << 16) /* any one tensor, at any binding */
#define G_MIN_SYMVAL 2        /* a dynamic size of 0 or 1 is specialized by Dynamo */
#define G_MAX_SYMVAL 64
#define G_INT_BOUND 1000000   /* |lo|, |hi| of integer leaves */
#define G_MAX_GRADS 16        /* leaves marked requires-grad (their gradients are extra outputs) */

enum value_kind { VK_INPUT, VK_PARAM, VK_NODE, VK_COUNT };

/* How make_inputs fills a leaf. */
enum fill { FILL_NORMAL, FILL_POSITIVE, FILL_RANGE, FILL_PERM, FILL_COUNT };

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

struct graph {
	uint8_t nbind, nsym;
	/* 0: a valid graph. Else the constraint (graph/broken.h) that the last
	 * node breaks on purpose: eager must raise there (a near-invalid graph). */
	uint8_t broken;
	uint32_t seed;   /* seeds make_inputs and the module's parameters */
	int32_t sym[G_MAX_BIND][G_MAX_SYM];
	uint16_t nvalues, nnodes;
	struct value v[G_MAX_VALUES];
	struct node n[G_MAX_NODES];
};

/* Starts an empty graph with nbind bindings of nsym symbols (values set
 * by graph_set_sym). Returns -1 with a reason when the counts are out of range. */
int graph_init(struct graph *g, unsigned nbind, unsigned nsym, uint32_t seed, char *why, size_t n);
int graph_set_sym(struct graph *g, unsigned sym, const int32_t *vals, char *why, size_t n);

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

/* Marks value id as an output of forward(); only node values can be. */
int graph_set_output(struct graph *g, unsigned id, int on, char *why, size_t n);

/* Marks every node value that no node reads as an output (and nothing else). */
void graph_mark_sinks(struct graph *g);

/* Why leaf id cannot require grad, or 0 when it can: float inputs and params
 * only, and none whose values reach an input that eager has no derivative
 * for (op_def.nograd: its backward would raise). */
int graph_grad_refused(const struct graph *g, unsigned id, char *why, size_t n);
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
unsigned graph_noutputs(const struct graph *g);
unsigned graph_users(const struct graph *g, unsigned id); /* how many node inputs read id */
uint64_t graph_hash(const struct graph *g);            /* of its binary encoding */

#endif
