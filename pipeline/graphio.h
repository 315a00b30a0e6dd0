/* Loading and saving graphs for the command-line tools: binary (the corpus
 * format) or the readable text form, told apart by the magic bytes. */
#ifndef PT2FUZZ_GRAPHIO_H
#define PT2FUZZ_GRAPHIO_H
#include <stddef.h>
#include <stdint.h>
#include "../graph/graph.h"

/* Reads a whole file (at most max bytes) into a malloc'd, NUL-terminated buffer. */
uint8_t *graphio_read_file(const char *path, size_t max, size_t *len, char *why, size_t n);

/* Loads a graph from a binary or text file; 0, or -1 with a reason. */
int graphio_load(const char *path, struct graph *g, char *why, size_t n);

/* Writes g's binary form to path (atomically: temp file + rename). */
int graphio_save(const char *path, const struct graph *g, char *why, size_t n);

#endif
