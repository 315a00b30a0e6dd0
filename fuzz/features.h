/* Features of the graph itself, next to the worker's compiler coverage in
 * the map libFuzzer sees: op kinds, op pairs along edges, dtypes, dynamic
 * dims. They steer the search toward op combinations not yet tried even
 * where the compiler's lines are already covered. */
#ifndef PT2FUZZ_FEATURES_H
#define PT2FUZZ_FEATURES_H
#include <stddef.h>
#include <stdint.h>
#include "../graph/graph.h"

/* The map's layout (SHM_COVERAGE bytes): compiler lines and branches, then
 * Inductor's kernel names (both filled by the worker), then these. */
#define FEATURES_COMPILER 0xE000u
#define FEATURES_KERNELS 0x1000u
#define FEATURES_GRAPH 0x1000u
#define FEATURES_MAP (FEATURES_COMPILER + FEATURES_KERNELS + FEATURES_GRAPH)

/* Adds g's features to the graph region of map (FEATURES_MAP bytes). */
void features_graph(const struct graph *g, uint8_t *map);

/* Non-zero counters per region: compiler, kernels, graph. */
void features_count(const uint8_t *map, unsigned counts[3]);

#endif
