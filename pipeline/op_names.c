#include "op_names.h"
#include <stdlib.h>
#include <string.h>
#include "../graph/op.h"

static int name_cmp(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

unsigned op_names(const struct graph *g, const uint8_t *member, const char **names, unsigned cap)
{
	unsigned k = 0;
	for (unsigned i = 0; i < g->nnodes && k < cap; i++)
		if (!member || member[i])
			names[k++] = op_get(g->n[i].op)->name;
	k += graph_structure_words(g, member, names + k, cap - k);
	qsort(names, k, sizeof *names, name_cmp);
	unsigned u = 0;
	for (unsigned i = 0; i < k; i++)
		if (!u || strcmp(names[u - 1], names[i]))
			names[u++] = names[i];
	return u;
}

unsigned op_names_of_output(const struct graph *g, const struct emit_opts *o, int output, const char **names,
			    unsigned cap)
{
	uint8_t member[G_MAX_NODES];
	uint16_t ids[3 * G_MAX_VALUES];
	unsigned returned = emit_returned_values(g, o, ids);
	if (output < 0 || (unsigned)output >= returned || !graph_component_nodes(g, ids[output], member))
		return op_names(g, NULL, names, cap);
	return op_names(g, member, names, cap);
}
