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
/* The graph region's last slots hold the near misses (features_near_miss),
 * apart from the graph's own features: a first one is code-level novelty. */
#define FEATURES_NEAR 0x400u
#define FEATURES_NEAR_AT (FEATURES_MAP - FEATURES_NEAR)

/* Adds g's features to the graph region of map (FEATURES_MAP bytes). */
void features_graph(const struct graph *g, uint8_t *map);

/* A passing run's near miss (struct verdict's nearest, nearest_output): one
 * feature per (op making that output, octave of nearness) from 1/256 up, so
 * that the corpus keeps a graph that brings an op's output nearer to a
 * values finding than any before. */
void features_near_miss(const struct graph *g, int output, double nearness, uint8_t *map);

/* How new a run's map is to seen (FEATURES_MAP bytes, bit k of a byte:
 * libFuzzer's count bucket k seen at that counter), which then takes it. */
enum novelty {
	NOVEL_NONE,
	/* only a new count bucket of a counter hit before, or a graph feature
	 * (an op, op pair, dtype, dynamic pattern) not drawn before: nearly
	 * every generated graph brings one, so it steers nothing */
	NOVEL_COUNT,
	/* a compiler line or branch, kernel name or decision never hit before,
	 * or a passing run nearer a values finding than any before: what the
	 * corpus keeps and what mutators and settings are scored by */
	NOVEL_CODE,
};
/* new_code (NULL: not wanted): how many code counters map hits first, what
 * a NOVEL_CODE run is scored by. */
enum novelty features_novelty(const uint8_t *map, uint8_t *seen, unsigned *new_code);

/* Whether map holds anything seen lacks (features_novelty above NOVEL_NONE),
 * as libFuzzer counts a feature: what makes an input new to a job's runs. */
int features_novel(const uint8_t *map, uint8_t *seen);

/* The (counter, bucket) pairs seen holds: libFuzzer's feature count. */
unsigned long long features_seen_count(const uint8_t *seen);

enum feature_region { FR_COMPILER, FR_KERNELS, FR_DECISIONS, FR_GRAPH, FR_COUNT };

/* Non-zero counters per region. */
void features_count(const uint8_t *map, unsigned counts[FR_COUNT]);

#endif
