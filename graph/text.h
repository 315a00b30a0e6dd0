/* The readable text form of a graph (seeds/ are written in it; `show`
 * prints it with shapes, `parse` reads it back). Grammar in docs/formats.md. */
#ifndef PT2FUZZ_TEXT_H
#define PT2FUZZ_TEXT_H
#include <stdio.h>
#include "graph.h"

/* Writes g; with shapes != 0, each op line ends with a comment giving its
 * outputs' dtype and shape at every binding. */
void text_write(FILE *f, const struct graph *g, int shapes);

/* Parses text (NUL-terminated) into g; 0, or -1 with "line N: reason". */
int text_parse(struct graph *g, const char *text, char *why, size_t n);

#endif
