/* The names of the graph's enums, as the text form writes them and the
 * emitted program reads them (its fill() and lay_out() take these words). */
#include <string.h>
#include "graph.h"

static const char *const fill_names[FILL_COUNT] = {"normal", "positive", "range", "perm", "const", "special"};
static const char *const layout_names[IL_COUNT] = {"contiguous", "channels_last", "channels_last_3d", "transposed",
						   "permuted",   "offset",        "expanded",         "strided",
						   "same",       "view",          "number"};
static const char *const target_names[TARGET_COUNT] = {"any", "cpu", "gpu"};

static int find(const char *const *names, unsigned count, const char *s)
{
	for (unsigned i = 0; i < count; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

const char *fill_name(unsigned f) { return f < FILL_COUNT ? fill_names[f] : "?"; }
int fill_find(const char *s) { return find(fill_names, FILL_COUNT, s); }
const char *layout_name(unsigned l) { return l < IL_COUNT ? layout_names[l] : "?"; }
int layout_find(const char *s) { return find(layout_names, IL_COUNT, s); }
const char *target_name(unsigned t) { return t < TARGET_COUNT ? target_names[t] : "?"; }
int target_find(const char *s) { return find(target_names, TARGET_COUNT, s); }
