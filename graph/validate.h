/* Whether a graph from outside (decoded, parsed, mutated) is one the checked
 * constructors could have built. */
#ifndef PT2FUZZ_VALIDATE_H
#define PT2FUZZ_VALIDATE_H
#include <stddef.h>
#include "graph.h"

/* Rebuilds g from scratch through the checked constructors; 0 iff every leaf,
 * node and output is valid (and at least one output exists), grad marks hold, and a broken
 * graph's last node breaks its constraint and is an output. */
int graph_validate(const struct graph *g, char *why, size_t n);

#endif
