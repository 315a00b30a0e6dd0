/* What a graph uses of the language, by capability (in-place writes,
 * factories, layouts, small integer dtypes, losses, ...): `pt2fuzz gen
 * --stats` counts the share of generated graphs that use each one. */
#ifndef PT2FUZZ_CAPABILITIES_H
#define PT2FUZZ_CAPABILITIES_H
#include "graph.h"

unsigned capability_count(void);
const char *capability_name(unsigned c); /* NULL when out of range */
/* Whether g uses capability c. */
int capability_used(const struct graph *g, unsigned c);

#endif
