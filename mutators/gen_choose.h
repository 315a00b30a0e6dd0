/* Running an op's chooser while generating (gen_choose.c): a primary input,
 * the operands the chooser asks for (reused or fresh leaves), the node. */
#ifndef PT2FUZZ_GEN_CHOOSE_H
#define PT2FUZZ_GEN_CHOOSE_H
#include "../graph/graph.h"
#include "../graph/op.h"
#include "../graph/rng.h"

/* Runs op's attribute chooser on ch (ch->in[0] and ch->nin = 1 preset), then
 * appends the node; returns its index or -1. Operands the chooser asks for are
 * reused from values first.. (0: any; a component's first value keeps the
 * components of a graph apart) or appended as fresh leaves, which the caller
 * rolls back on failure. */
int gen_choose_node(struct graph *g, struct rng *r, unsigned op, unsigned first, struct op_choice *ch);

/* The same without appending the node: 0 when the chooser succeeded. */
int gen_choose(struct graph *g, struct rng *r, unsigned op, unsigned first, struct op_choice *ch);

/* An operand as choosers get them: an existing value that fits q, or a fresh
 * leaf (appended); -1 if neither. */
int gen_operand_for(struct graph *g, struct rng *r, const struct tensor_req *q);

/* A primary input for op among values first..: mostly one of the most recent
 * that op accepts, so graphs grow deep as well as wide (with rare pairs
 * favored, rarity.h, by pair rarity too); else a fresh
 * input. */
int gen_pick_primary(struct graph *g, struct rng *r, unsigned op, unsigned first);

/* A leaf dim with these per-binding sizes: static, or mul*sym+add for some
 * symbol of g. Returns -1 when no such expression exists. */
int gen_leaf_dim_for(const struct graph *g, const int32_t *sizes, struct leaf_dim *ld);

/* A float leaf's fill beside normal: now and then a constant (*value, in
 * thousandths) or special values; *fill is left alone otherwise. */
void gen_float_fill(struct rng *r, enum fill *fill, int64_t *value);

/* Appends a graph input of random shape whose dtype and rank suit the masks:
 * now and then empty (where empty_ok), laid out otherwise than contiguous, or
 * module state. */
int gen_random_input(struct graph *g, struct rng *r, unsigned dtypes, unsigned rank_min, unsigned rank_max, int empty_ok);

#endif
