/* Generation by forward insertion: grows a valid graph to a target size,
 * choosing ops by weight and reusing values whose shape fits. */
#ifndef PT2FUZZ_GEN_H
#define PT2FUZZ_GEN_H
#include "../graph/graph.h"
#include "../graph/op.h"
#include "../graph/rng.h"

struct gen_opts {
	unsigned size;       /* target number of ops of each component (1..G_MAX_NODES) */
	unsigned components; /* independent subgraphs in one graph (1..GEN_MAX_COMPONENTS): one compile
			      * covers them all; size*components is capped at G_MAX_NODES */
	int family;          /* only ops of this family (enum op_family), or -1 for all */
	unsigned dyn_pct;    /* chance (%) that the graph has dynamic dims */
	unsigned break_pct;  /* chance (%) that it is made near-invalid (mutators/break.h) */
	unsigned constraint; /* the constraint broken then (enum constraint; C_NONE: any) */
	unsigned grad_pct;   /* backward mode: chance (%) that each float leaf requires grad (mutators/grad.h);
			      * no in-place ops are generated then */
	unsigned target;     /* enum graph_target: the device class the graph is made for */
	unsigned config_pct; /* chance (%) that it gets a compile configuration other than the default
			      * (mutators/config_draw.h; a campaign's, 0 outside one) */
	int autocast;        /* the autocast mode (a row of graph/autocast.h) the graph is to run under,
			      * or -1: what it makes invalid is not drawn (so too under the graph's own
			      * configuration's, when ops are added to a graph that has one) */
};

#define GEN_BACKWARD_GRAD_PCT 50 /* grad_pct in backward mode, unless told otherwise */
#define GEN_MAX_COMPONENTS 16

void gen_default_opts(struct gen_opts *o);

/* What gen_default_opts gives from now on: the campaign's target (enum
 * graph_target; TARGET_ANY until set), and in backward mode grad marks
 * (GEN_BACKWARD_GRAD_PCT) and no in-place ops, which would leave a graph
 * without gradients. A campaign sets them once, so that what its mutators
 * generate fits its device and mode. */
void gen_set_campaign(unsigned target, int backward);

/* What gen_default_opts gives from now on for a graph's shape: ops per
 * component and components (a campaign's --size and --components). */
void gen_set_campaign_shape(unsigned size, unsigned components);

/* Builds a graph from scratch, deterministically for a seed: o->components
 * weakly-connected components, each grown from its own inputs (no value of
 * one is read by another). Returns 0, or -1 with a reason (only if not even
 * one op could be placed). */
int gen_graph(struct graph *g, uint64_t seed, const struct gen_opts *o, char *why, size_t n);

/* Pure generation's input (--no-coverage): a fresh graph of the
 * campaign's defaults for seed, near_invalid percent of them near-invalid
 * (and marks for gradients in backward mode), encoded into out (capacity
 * cap). Its size, 0 when eight tries did not make one. */
size_t gen_fresh_bytes(uint8_t *out, size_t cap, uint64_t seed, unsigned near_invalid, int backward);

/* o's components and ops per component, within the limits (at least 1;
 * size * components at most G_MAX_NODES). */
unsigned gen_components(const struct gen_opts *o);
unsigned gen_component_size(const struct gen_opts *o);

/* Appends a component of about `size` ops that reads only values made from
 * its start on. When `connected`, an op that would start an island of its
 * own is taken back, so that the component is one weakly-connected piece. */
void gen_component(struct graph *g, struct rng *r, const struct gen_opts *o, unsigned size, int connected);
/* How often a component that holds a known bug's trigger (avoid.h) is
 * drawn again before it is left out. */
#define GEN_AVOID_TRIES 4

/* gen_component, its sinks marked as outputs; taken back (-1) when forward()
 * would then return more than `most` values (graph_nreturns). */
int gen_returned_component(struct graph *g, struct rng *r, const struct gen_opts *o, unsigned size, int connected,
			   unsigned most);

/* Appends one op chosen by weight reading values first.. only (and a fresh
 * input if it needs one); returns the node index or -1 when no attempt
 * succeeded. The graph is left unchanged on failure. */
int gen_append_op(struct graph *g, struct rng *r, const struct gen_opts *o, unsigned first, unsigned attempts);

#endif
