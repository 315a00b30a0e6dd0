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

/* The leaves the program's MUTATED names, in value order, into ids (room for
 * G_MAX_VALUES): those forward() writes in place, parameters and buffers
 * only where the backend keeps the module's state in the module (not aoti).
 * Their count. */
unsigned emit_written_leaves(const struct graph *g, const struct emit_opts *o, uint16_t *ids);

/* What the program returns, in order: forward()'s outputs, the written
 * leaves (emit_written_leaves), and in backward mode the gradients; for each,
 * whether it is compared (not what tie-broken indices decide) into cmp
 * (room for cap). Their count (at most cap). */
unsigned emit_compared(const struct graph *g, const struct emit_opts *o, uint8_t *cmp, unsigned cap);

/* Writes a number given in thousandths ("-0.5"; also used by the text form). */
void emit_milli(FILE *f, int64_t x);

/* Writes attribute i of node nd in Python form (also used by the text form). */
void emit_attr(FILE *f, const struct graph *g, const struct node *nd, unsigned i, int python);

#endif
