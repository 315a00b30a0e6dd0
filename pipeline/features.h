/* Features of the graph itself, next to the worker's compiler coverage in
 * the map libFuzzer sees: op kinds, op pairs along edges, dtypes, dynamic
 * dims. They steer the search toward op combinations not yet tried even
 * where the compiler's lines are already covered. */
#ifndef PT2FUZZ_FEATURES_H
#define PT2FUZZ_FEATURES_H
#include <stddef.h>
#include <stdint.h>
#include "../graph/graph.h"
#include "../harness/protocol.h"

/* The map's layout (harness/protocol.h): compiler lines and branches, then
 * Inductor's kernel names, then the compiler's decisions (all three filled
 * by the worker), then these. */
#define FEATURES_COMPILER SHM_COMPILER_SLOTS
#define FEATURES_KERNELS SHM_KERNEL_SLOTS
#define FEATURES_DECISIONS SHM_DECISION_SLOTS
#define FEATURES_GRAPH_AT (SHM_COMPILER_SLOTS + SHM_KERNEL_SLOTS + SHM_DECISION_SLOTS)
#define FEATURES_GRAPH (SHM_COVERAGE - FEATURES_GRAPH_AT)
#define FEATURES_MAP SHM_COVERAGE

/* Adds g's features to the graph region of map (FEATURES_MAP bytes). */
void features_graph(const struct graph *g, uint8_t *map);

/* A passing run's near miss (struct verdict's nearest, nearest_output): one
 * feature per (op making that output, octave of nearness) from 1/256 up, so
 * that the corpus keeps a graph that brings an op's output nearer to a
 * values finding than any before. */
void features_near_miss(const struct graph *g, int output, double nearness, uint8_t *map);

/* Whether map holds a (counter, libFuzzer count bucket) pair not in seen
 * (FEATURES_MAP bytes, bit k of a byte: bucket k seen at that counter),
 * which takes them: what makes an input new to a job or a campaign. */
int features_novel(const uint8_t *map, uint8_t *seen);

/* The (counter, bucket) pairs seen holds: libFuzzer's feature count. */
unsigned long long features_seen_count(const uint8_t *seen);

enum feature_region { FR_COMPILER, FR_KERNELS, FR_DECISIONS, FR_GRAPH, FR_COUNT };

/* Non-zero counters per region. */
void features_count(const uint8_t *map, unsigned counts[FR_COUNT]);

#endif
