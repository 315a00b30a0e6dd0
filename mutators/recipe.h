/* A graph as an editable list of entries in value order: leaves, and nodes
 * whose inputs refer to (entry, output slot) of earlier entries. Mutators edit
 * a recipe and rebuild it through the checked constructors (graph_init,
 * graph_set_sym, graph_add_leaf, graph_add_node), so a result is valid by
 * construction or the rebuild fails with a reason. */
#ifndef PT2FUZZ_RECIPE_H
#define PT2FUZZ_RECIPE_H
#include <stddef.h>
#include "../graph/graph.h"

struct recipe_ref {
	uint16_t entry;
	uint8_t slot;
};

struct recipe_leaf {
	uint8_t kind, dtype, rank, fill; /* enum value_kind, dtype, -, fill */
	struct leaf_dim ld[G_MAX_RANK];
	int64_t lo, hi;
	uint8_t grad; /* requires grad: kept while the leaf stays float */
	uint8_t layout; /* enum input_layout: kept while it suits the leaf's kind and rank */
};

struct recipe_node {
	uint16_t op;
	uint8_t nin, nattr;
	struct recipe_ref in[G_MAX_IN];
	int64_t attr[G_MAX_ATTR];
	uint8_t broken; /* the constraint this node breaks (a near-invalid graph's last node), else 0 */
};

struct recipe_entry {
	uint8_t is_node;
	union {
		struct recipe_leaf leaf;
		struct recipe_node node;
	};
};

struct recipe {
	uint8_t nbind, nsym, target;
	struct graph_config config; /* kept as it is: a mutation of the graph leaves it */
	uint32_t seed;
	int32_t sym[G_MAX_BIND][G_MAX_SYM];
	uint16_t n;
	struct recipe_entry e[G_MAX_VALUES];
	/* First value of each entry in the graph last converted from or built
	 * into (stale once entries are inserted or removed). */
	uint16_t value_of[G_MAX_VALUES];
};

/* Entries of g, one per leaf and per node, in value order. */
void recipe_from_graph(struct recipe *rc, const struct graph *g);

/* The entry and slot that hold value id (numbering of rc->value_of). */
struct recipe_ref recipe_ref_of(const struct recipe *rc, unsigned id);

/* Builds entries [0, count) into g, without outputs (a prefix to extend), and
 * refreshes rc->value_of for them. Returns 0, or -1 with a reason and *bad =
 * the entry that failed (bad may be NULL). */
int recipe_build_prefix(struct recipe *rc, unsigned count, struct graph *g, unsigned *bad, char *why, size_t n);

/* Builds the whole recipe; outputs are the node values that no node reads. */
int recipe_build(struct recipe *rc, struct graph *g, unsigned *bad, char *why, size_t n);

/* Inserts k entries at pos; references of the entries after them are shifted.
 * The new entries' references must already be final. -1 when it would not fit. */
int recipe_insert(struct recipe *rc, unsigned pos, const struct recipe_entry *es, unsigned k);

/* Removes entry pos; later references shift down. Nothing may still refer to it. */
void recipe_remove(struct recipe *rc, unsigned pos);

/* Inserts at pos the values of p from entry `pos` on, where p was built from
 * rc's first pos entries (recipe_build_prefix) and then extended. Returns the
 * number of entries inserted, or -1 when they do not fit. */
int recipe_splice_prefix(struct recipe *rc, unsigned pos, const struct graph *p);

/* In entries [first, end), makes the references to entry `from` refer to
 * entry to.entry instead: each keeping its slot when slot < 0, else only those
 * of that slot, which become `to`. Returns how many were changed. */
unsigned recipe_redirect(struct recipe *rc, unsigned first, unsigned end, unsigned from, int slot,
			 struct recipe_ref to);

/* How many node inputs refer to entry `entry`. */
unsigned recipe_users(const struct recipe *rc, unsigned entry);

/* Removes leaves that no node reads (dead after a deletion or a rewiring). */
void recipe_prune_leaves(struct recipe *rc);

#endif
