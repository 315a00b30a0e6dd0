/* Ops whose eager kernel the float64 reference does not run (eager_reference.c). */
#ifndef PT2FUZZ_EAGER_REFERENCE_H
#define PT2FUZZ_EAGER_REFERENCE_H
#include <stdio.h>
#include "graph.h"

struct eager_reference {
	const char *op;        /* the catalogue row */
	const char *call;      /* the torch function its Python calls */
	const char *reference; /* a Python callable of the same arguments: the op from its definition */
	const char *why;       /* the upstream issue, and what eager gets wrong */
};

unsigned eager_reference_count(void);
const struct eager_reference *eager_reference_get(unsigned i); /* NULL when out of range */

/* Whether g holds an op of the table. */
int eager_reference_in(const struct graph *g);

/* REFERENCE, the dict Upcast (graph/emit_upcast.py) replaces calls by: the
 * rows of g's ops, keyed by their torch function. */
void emit_eager_reference(FILE *f, const struct graph *g);

#endif
