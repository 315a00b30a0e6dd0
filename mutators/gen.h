/* Generation by forward insertion: grows a valid graph to a target size,
 * choosing ops by weight and reusing values whose shape fits. */
#ifndef PT2FUZZ_GEN_H
#define PT2FUZZ_GEN_H
#include "../graph/graph.h"
#include "../graph/op.h"
#include "../graph/rng.h"

struct gen_opts {
	unsigned size;       /* target number of ops (1..G_MAX_NODES) */
	int family;          /* only ops of this family (enum op_family), or -1 for all */
	unsigned dyn_pct;    /* chance (%) that the graph has dynamic dims */
	unsigned break_pct;  /* chance (%) that it is made near-invalid (mutators/break.h) */
	unsigned constraint; /* the constraint broken then (enum constraint; C_NONE: any) */
	unsigned grad_pct;   /* backward mode: chance (%) that each float leaf requires grad (mutators/grad.h) */
};

#define GEN_BACKWARD_GRAD_PCT 50 /* grad_pct in backward mode, unless told otherwise */

void gen_default_opts(struct gen_opts *o);

/* From now on, ops are picked by catalogue weight scaled by rarity: runs[i]
 * is how often op i has run (the fuzzer counts; it owns the array). Ops the
 * campaign has run least come first, so new inputs reach compiler paths of
 * ops not yet tried. NULL turns it off. */
void gen_favor_rare_ops(const uint32_t *runs);

/* Builds a graph from scratch, deterministically for a seed. Returns 0, or -1
 * with a reason (only if not even one op could be placed). */
int gen_graph(struct graph *g, uint64_t seed, const struct gen_opts *o, char *why, size_t n);

/* Appends one op chosen by weight (and a fresh input if it needs one);
 * returns the node index or -1 when no attempt succeeded. The graph is left
 * unchanged on failure. */
int gen_append_op(struct graph *g, struct rng *r, const struct gen_opts *o, unsigned attempts);

/* Runs op's attribute chooser on ch (ch->in[0] and ch->nin = 1 preset), then
 * appends the node; returns its index or -1. Operands the chooser asks for are
 * reused or appended as fresh leaves, which the caller rolls back on failure. */
int gen_choose_node(struct graph *g, struct rng *r, unsigned op, struct op_choice *ch);

/* The same without appending the node: 0 when the chooser succeeded. */
int gen_choose(struct graph *g, struct rng *r, unsigned op, struct op_choice *ch);

/* An operand as choosers get them: an existing value that fits q, or a fresh
 * leaf (appended); -1 if neither. */
int gen_operand_for(struct graph *g, struct rng *r, const struct tensor_req *q);

/* A primary input for op: mostly one of the most recent values that op
 * accepts, so graphs grow deep as well as wide; else a fresh input. */
int gen_pick_primary(struct graph *g, struct rng *r, unsigned op);

/* A leaf dim with these per-binding sizes: static, or mul*sym+add for some
 * symbol of g. Returns -1 when no such expression exists. */
int gen_leaf_dim_for(const struct graph *g, const int32_t *sizes, struct leaf_dim *ld);

/* Appends a graph input of random shape whose dtype and rank suit the masks. */
int gen_random_input(struct graph *g, struct rng *r, unsigned dtypes, unsigned rank_min, unsigned rank_max);

/* Marks every node value that no node reads as an output (and nothing else). */
void gen_mark_sinks(struct graph *g);

#endif
