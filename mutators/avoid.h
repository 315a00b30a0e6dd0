/* Known bugs stop costing compute: a component whose ops hold a known bug's
 * trigger (the ops its known-bug line or its reduced graph names) can only
 * find that bug again, or be counted as it. Generation redraws such a
 * component and mutation drops such a mutant. The triggers are the caller's
 * (a campaign's known bugs, for the installed torch, and the ops that torch
 * lacks), given as a predicate over a component's op names; none set,
 * nothing is avoided. */
#ifndef PT2FUZZ_AVOID_H
#define PT2FUZZ_AVOID_H
#include "../graph/graph.h"

/* hits(ops, nops): whether a component of these ops holds a trigger; each
 * op is "name@dtype", its input 0's dtype ("name" for an op of no input). */
typedef int (*avoid_hits_fn)(const char *const *ops, unsigned nops);

void avoid_use(avoid_hits_fn hits);

/* Whether the component of g's nodes with member[k] set holds a trigger. */
int avoid_component(const struct graph *g, const uint8_t *member);

/* Whether configuration c makes a trigger for g: c's words alone
 * ("config:KEY=VALUE", graph/compile_config.h) hold one, or some component
 * of g (NULL: none) holds one with them that it does not hold without. A
 * known bug's line may name settings beside ops (pipeline/known_bugs.h):
 * the configuration is what a draw or the config mutator then refuses, and
 * the ops stay. */
int avoid_config(const struct graph *g, const struct graph_config *c);

/* Whether some component of g does. */
int avoid_graph(const struct graph *g);

/* Drops g's components that hold a trigger: a seed's, a corpus input's or
 * a mutant's parent's, made before the trigger was known. A near-invalid
 * graph is left alone (its broken node must stay the last). How many went
 * (all of them: g keeps its bindings and no value); g is unchanged when
 * none did or the rest would not be a graph. */
unsigned avoid_drop(struct graph *g);

/* A known bug of near-invalid graphs is held by their broken node: its op
 * and the constraint it breaks (graph/broken.h). Such a pair is no longer
 * made (mutators/break.h). hits(op, constraint): whether the pair holds a
 * known bug; none set, nothing is avoided. */
typedef int (*avoid_break_fn)(const char *op, unsigned constraint);

void avoid_break_use(avoid_break_fn hits);

int avoid_break(const char *op, unsigned constraint);

#endif
