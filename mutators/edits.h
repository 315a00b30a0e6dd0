/* Deterministic graph edits, for the reducer: each builds a new graph from g
 * through the checked constructors (recipe.h), so the result is valid at
 * every binding, or the edit fails (-1) and out is undefined. Outputs of
 * the result are its sinks, as everywhere. */
#ifndef PT2FUZZ_EDITS_H
#define PT2FUZZ_EDITS_H
#include <stdint.h>
#include "../graph/graph.h"

/* Deletes the nodes k with del[k] != 0; each user input is rewired to an
 * input of the deleted node of the same type (a bypass), else the nearest
 * earlier value of the same type, else a fresh graph input of that type. */
int edit_delete_nodes(const struct graph *g, const uint8_t *del, struct graph *out);

/* Keeps only the nodes that value `id` depends on. */
int edit_keep_cone(const struct graph *g, unsigned id, struct graph *out);

/* Every dim at its binding-0 size: one binding, nothing dynamic. */
int edit_make_static(const struct graph *g, struct graph *out);

/* Drops the last binding (3 -> 2). */
int edit_drop_binding(const struct graph *g, struct graph *out);

/* Sets static dim d of leaf value id to size. */
int edit_leaf_dim(const struct graph *g, unsigned id, unsigned d, int32_t size, struct graph *out);

/* Sets symbol s to v at binding b. */
int edit_sym(const struct graph *g, unsigned s, unsigned b, int32_t v, struct graph *out);

/* Leaf value id laid out contiguously, with normal values (a float) or its
 * range (an integer): the plainest input that keeps its shape and dtype. */
int edit_leaf_plain(const struct graph *g, unsigned id, struct graph *out);

/* Changes leaf value id's dtype, or its integer value range. */
int edit_leaf_dtype(const struct graph *g, unsigned id, enum dtype dt, struct graph *out);
int edit_leaf_range(const struct graph *g, unsigned id, int64_t lo, int64_t hi, struct graph *out);

/* Sets attribute i of node k. */
int edit_attr(const struct graph *g, unsigned k, unsigned i, int64_t v, struct graph *out);

#endif
