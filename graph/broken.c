/* The broken node of a near-invalid graph, and the constraints' names. */
#include "broken.h"
#include <string.h>
#include "fail.h"
#include "op.h"

static const struct {
	const char *name, *about;
} constraints[C_COUNT] = {
	[C_OPERAND_DTYPE] = {"operand_dtype", "an operand has another floating dtype than the first one"},
	[C_INNER_DIM] = {"inner_dim", "the contracted dims of a matrix product differ by one"},
	[C_BROADCAST] = {"broadcast", "an operand's shape does not broadcast with the first one's"},
	[C_INDEX_RANGE] = {"index_range", "index values lie at or past the size of what they index"},
	[C_RESHAPE_NUMEL] = {"reshape_numel", "the target shape's element count differs from the input's"},
	[C_REFLECT_PAD] = {"reflect_pad", "a reflect pad width is at least the size of the dim it pads"},
	[C_UNSUPPORTED_DTYPE] = {"unsupported_dtype", "the first input has a dtype the op has no kernel for"},
	[C_ATTR_DOMAIN] = {"attr_domain", "an attribute lies outside its domain"},
	[C_VALUE_DOMAIN] = {"value_domain", "input values lie outside the op's domain"},
	[C_OVERLAP_WRITE] = {"overlap_write", "an in-place op writes a view whose elements share memory"},
	[C_INPLACE_RESULT] = {"inplace_result", "an in-place op's result type can't be cast to its target's"},
};

const char *constraint_name(unsigned c) { return c > C_NONE && c < C_COUNT ? constraints[c].name : NULL; }

const char *constraint_about(unsigned c) { return c > C_NONE && c < C_COUNT ? constraints[c].about : NULL; }

int constraint_find(const char *s)
{
	for (unsigned c = C_NONE + 1; c < C_COUNT; c++)
		if (!strcmp(s, constraints[c].name))
			return (int)c;
	return -1;
}

int graph_choice_breaks(const struct graph *g, unsigned op, const struct op_choice *ch, char *why, size_t n)
{
	struct infer_io io, one;
	struct value in[G_MAX_IN];
	if (graph_prepare_inputs(g, op, ch, &io, why, n))
		return -1;
	if (!(op_dtypes(op_get(op), g->target) & DTM(io.in[0]->dtype)))
		return 1; /* no kernel for it, whatever the binding */
	/* Each binding alone: the inputs with that binding's shape in every slot. */
	for (unsigned b = 0; b < g->nbind; b++) {
		one = io;
		for (unsigned i = 0; i < io.nin; i++) {
			in[i] = *io.in[i];
			for (unsigned s = 0; s < G_MAX_BIND; s++)
				memcpy(in[i].dim[s], io.in[i]->dim[b], sizeof in[i].dim[s]);
			one.in[i] = &in[i];
		}
		if (op_get(op)->infer(&one) && !graph_inplace_breaks(&one, NULL, 0)) {
			fail(why, n, "%s: its shape rule holds at binding %u", op_get(op)->name, b);
			return 0;
		}
	}
	return 1;
}

int graph_add_broken_node(struct graph *g, unsigned op, const struct op_choice *ch, unsigned constraint, char *why,
			  size_t n)
{
	if (!constraint_name(constraint))
		return fail(why, n, "constraint %u unknown", constraint);
	int breaks = graph_choice_breaks(g, op, ch, why, n);
	if (breaks <= 0)
		return -1;
	struct infer_io io;
	graph_prepare_inputs(g, op, ch, &io, NULL, 0);
	/* A placeholder: forward() raises before it exists. */
	io.nout = 1;
	memset(&io.out[0], 0, sizeof io.out[0]);
	io.out[0].dtype = io.in[0]->dtype;
	g->broken = (uint8_t)constraint; /* commits a placeholder, not a write */
	int k = graph_commit_node(g, op, ch, &io, why, n);
	if (k < 0) {
		g->broken = C_NONE;
		return -1;
	}
	g->v[g->nvalues - 1].tie = 1;
	g->v[g->nvalues - 1].datadep = 0;
	return k;
}

int graph_check_broken_output(const struct graph *g, char *why, size_t n)
{
	if (g->broken && (!g->nvalues || !g->v[g->nvalues - 1].out))
		return fail(why, n, "the value of the node that breaks %s must be an output", constraint_name(g->broken));
	return 0;
}
