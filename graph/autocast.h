/* What the global autocast modes (mode.autocast_bfloat16, mode.autocast_float16:
 * config/settings.c) make invalid in eager, so that a graph drawn to run
 * under one stays valid:
 *  - an op whose float operands must share one dtype (op_def.same_dtype):
 *    autocast may lower one of them (a matmul's result) and not the other;
 *  - an op without a kernel of the autocast dtype on the graph's device
 *    (its input-0 dtypes have float32 but not that one): an input may come lowered;
 *  - a value of the other half dtype: autocast's promoting ops (cat, stack,
 *    roll, index_copy) raise on it ("Unexpected floating ScalarType in
 *    at::autocast::prioritize").
 * One row per mode (autocast.c). */
#ifndef PT2FUZZ_AUTOCAST_H
#define PT2FUZZ_AUTOCAST_H
#include <stddef.h>
#include "graph.h"
#include "op.h"

/* The autocast mode c runs under, as a row index, or -1 when none. */
int autocast_row(const struct graph_config *c);
/* The row of settings' catalogue row id (a mode.autocast_* setting), or -1. */
int autocast_row_of_setting(unsigned id);

/* The dtypes (DTM mask) no value may have under row `row` (none: 0). */
unsigned autocast_dtypes_refused(int row);
/* Why op cannot be in a graph for target under autocast row `row`, or 0. */
int autocast_op_refused(const struct op_def *op, unsigned target, int row, char *why, size_t n);
/* Why node k of g (its op, inputs and outputs) cannot run under row `row`, or 0. */
int autocast_node_refused(const struct graph *g, unsigned k, int row, char *why, size_t n);
/* Why leaf or node value id cannot run under row `row` (its dtype), or 0. */
int autocast_value_refused(const struct graph *g, unsigned id, int row, char *why, size_t n);
/* Why g cannot run under the autocast mode of c (none: 0), or 0. */
int autocast_graph_refused(const struct graph *g, const struct graph_config *c, char *why, size_t n);

#endif
