/* Python emission: a graph becomes a standalone PyTorch program (the repro is
 * exactly what runs). See docs/formats.md for the program's shape. */
#ifndef PT2FUZZ_EMIT_H
#define PT2FUZZ_EMIT_H
#include <stdio.h>
#include "graph.h"

struct emit_opts {
	const char *backend; /* default compile backend of the program ("inductor") */
	const char *mode;    /* default torch.compile mode, or NULL */
	int backward;        /* GRADS lists the graph's grad leaves (else it is empty) */
};

/* Writes the program for a valid graph to f. Returns 0, or -1 on a write error. */
int emit_program(FILE *f, const struct graph *g, const struct emit_opts *o);

/* The same into a malloc'd string (NUL-terminated); NULL on failure. */
char *emit_program_string(const struct graph *g, const struct emit_opts *o, size_t *len);

/* Writes attribute i of node nd in Python form (also used by the text form). */
void emit_attr(FILE *f, const struct graph *g, const struct node *nd, unsigned i, int python);

#endif
