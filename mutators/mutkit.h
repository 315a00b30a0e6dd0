/* What the mutators share (internal to mutators/): the context a mutator
 * works in, and helpers for finding or making operands of an exact type. */
#ifndef PT2FUZZ_MUTKIT_H
#define PT2FUZZ_MUTKIT_H
#include "../graph/graph.h"
#include "../graph/rng.h"
#include "recipe.h"

struct mut_ctx {
	const struct graph *g;     /* the input, never changed */
	const struct graph *other; /* crossover partner, or NULL */
	struct rng *r;
	size_t max_size;           /* of the result's encoding */
	struct recipe rc;          /* g's entries, for the mutator to edit */
	struct graph out;          /* the result, when the mutator succeeds */
	struct graph prefix;       /* scratch: a prefix of rc being extended */
};

/* A mutator: 0 when m->out holds a valid graph, -1 otherwise. */
typedef int (*mutator_fn)(struct mut_ctx *m);

int mut_insert(struct mut_ctx *m);
int mut_grow(struct mut_ctx *m);
int mut_delete(struct mut_ctx *m);
int mut_rewire(struct mut_ctx *m);
int mut_attr(struct mut_ctx *m);
int mut_swap(struct mut_ctx *m);
int mut_dims(struct mut_ctx *m);
int mut_dynamic(struct mut_ctx *m);
int mut_dtype(struct mut_ctx *m);
int mut_leaf(struct mut_ctx *m);
int mut_splice(struct mut_ctx *m);
int mut_regenerate(struct mut_ctx *m);
int mut_break(struct mut_ctx *m);
int mut_config(struct mut_ctx *m); /* mut_config.c: one change to the compile configuration */
int mut_grad(struct mut_ctx *m);  /* grad.c: toggles a requires-grad mark (backward mode) */ /* break.c: only by the near-invalid share (weight 0) */

/* Drops dead leaves and unused symbols (a graph left with no dynamic dim
 * becomes 1-binding). */
void mut_tidy(struct recipe *rc);

/* mut_tidy, then rebuilds m->rc into m->out: 0, or -1 when the rebuild fails. */
int mut_finish(struct mut_ctx *m);

/* The entry of g's node k in m->rc (before any edit). */
unsigned mut_node_entry(const struct mut_ctx *m, unsigned k);

/* Whether value c may stand in for value v of the same graph: same dtype and
 * shape at every binding, integer values within v's range, distinct-index
 * (perm) leaves only by perm leaves with no larger values, and c's shape not
 * data-dependent. */
int mut_can_replace(const struct graph *g, const struct value *c, const struct value *v);

/* A random value with id < before that may stand in for value v and is not
 * v itself nor an output of node `skip` (-1: none); -1 when there is none. */
int mut_find_replacement(const struct graph *g, struct rng *r, unsigned v, unsigned before, int skip);

/* A fresh graph-input leaf with value v's dtype and shape (dynamic dims
 * through g's symbols) and values within v's range; -1 when a dim cannot be
 * expressed by a symbol of g. */
int mut_leaf_like(const struct graph *g, const struct value *v, struct recipe_entry *e);

/* Sets the fill and range of a leaf for its dtype, keeping within [lo, hi]
 * where that range is non-empty for the dtype. */
void mut_leaf_fill(struct recipe_leaf *l, int64_t lo, int64_t hi);

#endif
