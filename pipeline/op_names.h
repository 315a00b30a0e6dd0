/* The op names a graph, or one of its findings, is identified by: sorted,
 * de-duplicated pointers into the catalogue. A graph of several independent
 * components (mutators/gen.h) that disagrees in one output is a finding of
 * that output's component: its signature, bucket and known-bug match name
 * that component's ops, not those of the components beside it. */
#ifndef PT2FUZZ_OP_NAMES_H
#define PT2FUZZ_OP_NAMES_H
#include "../graph/emit.h"
#include "../graph/graph.h"

/* The op names of g's nodes (member NULL: all of them; else those with
 * member[k] set), and the words of the structures they make
 * (graph_structure_words). Their count, at most cap. */
unsigned op_names(const struct graph *g, const uint8_t *member, const char **names, unsigned cap);

/* The op names of the component of g (emitted with o) that holds the
 * program's return `output` (emit_compared's order); all of g's when output
 * is -1 (a finding not about one output: an exception, a crash) or names no
 * return, or when no node computes it. Their count, at most cap. */
unsigned op_names_of_output(const struct graph *g, const struct emit_opts *o, int output, const char **names,
			    unsigned cap);

#endif
