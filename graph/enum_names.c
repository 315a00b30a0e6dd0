/* The names of the graph's enums, as the text form writes them and the
 * emitted program reads them; those of fills and layouts are their rows'
 * (fills.c). */
#include <string.h>
#include "fills.h"
#include "graph.h"

static const char *const target_names[TARGET_COUNT] = {"any", "cpu", "gpu"};

/* The index of the name s among count names, or -1. */
static int find(const char *(*name)(unsigned), unsigned count, const char *s)
{
	for (unsigned i = 0; i < count; i++)
		if (!strcmp(name(i), s))
			return (int)i;
	return -1;
}

const char *fill_name(unsigned f) { return f < FILL_COUNT ? fill_rows[f].name : "?"; }
int fill_find(const char *s) { return find(fill_name, FILL_COUNT, s); }
const char *layout_name(unsigned l) { return l < IL_COUNT ? layout_rows[l].name : "?"; }
int layout_find(const char *s) { return find(layout_name, IL_COUNT, s); }
const char *target_name(unsigned t) { return t < TARGET_COUNT ? target_names[t] : "?"; }
int target_find(const char *s) { return find(target_name, TARGET_COUNT, s); }
