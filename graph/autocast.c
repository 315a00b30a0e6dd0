#include "autocast.h"
#include <string.h>
#include "../config/settings.h"
#include "compile_config.h"
#include "fail.h"

static const struct autocast_mode {
	const char *setting;
	enum dtype lowers_to; /* what autocast casts float32 operands of its lowering ops to */
	enum dtype refused;   /* the other half dtype, which its promoting ops raise on */
} modes[] = {
	{"mode.autocast_bfloat16", DT_BFLOAT16, DT_FLOAT16},
	{"mode.autocast_float16", DT_FLOAT16, DT_BFLOAT16},
};
#define NMODES (int)(sizeof modes / sizeof modes[0])

int autocast_row(const struct graph_config *c)
{
	for (int i = 0; i < NMODES; i++)
		if (graph_config_on(c, modes[i].setting))
			return i;
	return -1;
}

int autocast_row_of_setting(unsigned id)
{
	const struct setting *s = setting_get(id);
	for (int i = 0; s && i < NMODES; i++)
		if (!strcmp(s->name, modes[i].setting))
			return i;
	return -1;
}

int autocast_op_refused(const struct op_def *op, unsigned target, int row, char *why, size_t n)
{
	if (row < 0 || row >= NMODES)
		return 0;
	const struct op_def *base = op_base(op);
	if (op->same_dtype || (base && base->same_dtype))
		return fail(why, n, "%s wants operands of one dtype, which %s may lower one of", op->name, modes[row].setting);
	unsigned dts = op_dtypes(op, (enum graph_target)target);
	if ((dts & DTM(DT_FLOAT32)) && !(dts & DTM(modes[row].lowers_to)))
		return fail(why, n, "%s has no %s kernel for an input %s lowers", op->name,
			    dtype_info(modes[row].lowers_to)->name, modes[row].setting);
	return 0;
}

unsigned autocast_dtypes_refused(int row)
{
	return row >= 0 && row < NMODES ? DTM(modes[row].refused) : 0u;
}

int autocast_value_refused(const struct graph *g, unsigned id, int row, char *why, size_t n)
{
	if (!(autocast_dtypes_refused(row) & DTM(g->v[id].dtype)))
		return 0;
	return fail(why, n, "value %u is %s, which %s's promoting ops raise on", id, dtype_info(modes[row].refused)->name,
		    modes[row].setting);
}

int autocast_node_refused(const struct graph *g, unsigned k, int row, char *why, size_t n)
{
	const struct node *nd = &g->n[k];
	if (autocast_op_refused(op_get(nd->op), g->target, row, why, n))
		return -1;
	for (unsigned i = 0; i < nd->nin; i++)
		if (autocast_value_refused(g, nd->in[i], row, why, n))
			return -1;
	for (unsigned o = 0; o < nd->nout; o++)
		if (autocast_value_refused(g, nd->out0 + o, row, why, n))
			return -1;
	return 0;
}

int autocast_graph_refused(const struct graph *g, const struct graph_config *c, char *why, size_t n)
{
	int row = autocast_row(c);
	if (row < 0)
		return 0;
	for (unsigned id = 0; id < g->nvalues; id++)
		if (autocast_value_refused(g, id, row, why, n))
			return -1;
	for (unsigned k = 0; k < g->nnodes; k++)
		if (autocast_node_refused(g, k, row, why, n))
			return -1;
	return 0;
}
