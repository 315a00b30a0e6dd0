/* Topping a campaign's inputs up to its components: a mutated graph of fewer
 * weakly-connected components than the campaign generates (a seed, a graph
 * that lost some to deletion) gets fresh ones beside it, so that every
 * compile covers as many independent subgraphs as the campaign asks for. */
#ifndef PT2FUZZ_GEN_FILL_H
#define PT2FUZZ_GEN_FILL_H
#include <stddef.h>
#include <stdint.h>
#include "gen.h"

/* Drops g's components that hold a known bug's trigger (avoid.h), then
 * appends components of o->size ops (gen_component) until g has
 * o->components or no room is left, their sinks marked as outputs (the
 * outputs g had stay). A near-invalid graph is left alone: its broken node
 * must stay the last. Returns how many were dropped and added (0: g as it was). */
unsigned gen_fill_components(struct graph *g, struct rng *r, const struct gen_opts *o);

/* The same with the campaign's gen_default_opts, deterministically for seed. */
unsigned gen_fill_campaign(struct graph *g, uint64_t seed);

/* The same on an encoded input (capacity max_size). Returns the new size;
 * size when nothing was added or the result would not fit. */
size_t gen_fill_bytes(uint8_t *data, size_t size, size_t max_size, uint64_t seed);

/* The component a mutant works on: of g's components, the one holding node
 * pick % nnodes, the others dropped. They ran with the parent, and a mutant
 * that kept them would spend most of its compile on graphs already compiled;
 * the top-up puts fresh components in their place, so that each compile
 * brings as many new subgraphs as a generated input does, beside the one
 * the feedback steers. 0, or -1 (out undefined) for a graph of one
 * component or a near-invalid one (its broken node must stay the last). */
int gen_keep_component(const struct graph *g, uint64_t pick, struct graph *out);

/* The same on an encoded input, in place: the new size, or size unchanged. */
size_t gen_keep_component_bytes(uint8_t *data, size_t size, uint64_t pick);

#endif
