/* Near-invalid graphs: a valid graph whose last node breaks exactly one
 * named constraint of its op on purpose, so that eager mode must raise there
 * and compiled mode must raise an error of the same type. This is the
 * vocabulary of constraints (the breakers that build such nodes live in
 * mutators/break.c), and graph_add_broken_node, which appends the node. */
#ifndef PT2FUZZ_BROKEN_H
#define PT2FUZZ_BROKEN_H
#include "graph.h"

enum constraint {
	C_NONE,          /* a valid graph */
	C_OPERAND_DTYPE, /* an operand of another float dtype than input 0 (mm: float32 @ float64) */
	C_INNER_DIM,     /* the contracted dims of a matrix product differ by one */
	C_BROADCAST,     /* an operand whose shape does not broadcast with input 0's */
	C_INDEX_RANGE,   /* index values at or past the size of what they index */
	C_RESHAPE_NUMEL, /* a reshape/view whose element count differs from the input's */
	C_REFLECT_PAD,   /* a reflect pad width at least the size of the dim it pads */
	C_UNSUPPORTED_DTYPE, /* input 0 of a dtype the op has no kernel for (int64 into softmax) */
	C_ATTR_DOMAIN,   /* an attribute outside its domain (celu alpha 0, a dim out of range, stride 0) */
	C_VALUE_DOMAIN,  /* input values outside the op's domain (negative indices, repeats, classes) */
	C_OVERLAP_WRITE, /* an in-place write into a view whose elements share memory (expand) */
	C_INPLACE_RESULT, /* an in-place op whose result type its target can't hold (int.div_) */
	C_COUNT
};

/* "inner_dim"; NULL for C_NONE and out of range. */
const char *constraint_name(unsigned c);

/* One line saying what breaking it means (for reports). */
const char *constraint_about(unsigned c);

/* The constraint named s, or -1. */
int constraint_find(const char *s);

/* 1 when op's rule rejects ch at every binding of g taken alone (so eager
 * raises whatever the binding) — its shape rule, its dtypes for input 0, or
 * for an in-place op its target (graph_inplace_breaks) —
 * 0 with a reason when the rule holds at some binding, -1 with a reason when
 * ch is malformed (arity, attribute kinds, undefined inputs: not a node at
 * all). */
int graph_choice_breaks(const struct graph *g, unsigned op, const struct op_choice *ch, char *why, size_t n);

/* Appends the node that makes g near-invalid: a choice the op's shape rule
 * rejects at every binding, breaking `constraint`. Its one output is a
 * placeholder (rank 0, never compared); nothing may follow it. Returns the
 * node index, or -1 with a reason (also when the rule holds). */
int graph_add_broken_node(struct graph *g, unsigned op, const struct op_choice *ch, unsigned constraint, char *why,
			  size_t n);

/* 0 unless g is near-invalid and its broken node's value is not an output. */
int graph_check_broken_output(const struct graph *g, char *why, size_t n);

#endif
