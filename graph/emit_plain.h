/* The plain program: a graph as some thirty lines of ordinary PyTorch, for an
 * issue's reproducer — the model, one binding's inputs built inline from
 * their seed, torch.compile, and the comparison printed, with no harness.
 * See docs/formats.md, "The plain program". */
#ifndef PT2FUZZ_EMIT_PLAIN_H
#define PT2FUZZ_EMIT_PLAIN_H
#include <stddef.h>
#include <stdio.h>
#include "graph.h"

struct plain_opts {
	const char *backend;  /* torch.compile's backend; NULL: "inductor" (aoti has no torch.compile form) */
	const char *mode;     /* torch.compile's mode, or NULL */
	const char *dynamic;  /* "marks" (NULL: the graph's dynamic dims marked), "true" or "false" */
	unsigned binding;     /* whose inputs the program builds */
	int cuda;             /* model and inputs on "cuda" (else the CPU) */
	const char *finding;  /* the first comment line's finding signature and kind, or NULL; */
	const char *kind;     /* the caller's words, checked with emit_safe_name */
	int strides;          /* also compare strides where eager's layout is dense (a stride finding) */
	int aliases;          /* also compare which leaf's storage each output shares (an alias finding) */
	int nonfinite;        /* also compare which positions are NaN, inf or -inf where eager's agree with the
	                         float64 run's (a nonfinite finding: same() takes NaN for inf) */
	const char *const *pins; /* "NAME=TEXT" settings over the graph's own (--inductor; config/pins.h) */
	unsigned npins;
};

/* Writes the plain program of a valid graph. 0, or -1 with a reason (an
 * option it cannot express, a write error). */
int emit_plain(FILE *f, const struct graph *g, const struct plain_opts *o, char *why, size_t n);

/* The same into a malloc'd string (NUL-terminated); NULL with a reason. */
char *emit_plain_string(const struct graph *g, const struct plain_opts *o, size_t *len, char *why, size_t n);

#endif
