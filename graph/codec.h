/* The binary form of a graph: the libFuzzer corpus format (docs/formats.md).
 * Versioned and compact; decoding any byte string gives a graph that passes
 * graph_validate (validate.h), or an error with a reason, never a crash. */
#ifndef PT2FUZZ_CODEC_H
#define PT2FUZZ_CODEC_H
#include <stddef.h>
#include <stdint.h>
#include "graph.h"

#define CODEC_MAGIC "P2F"
#define CODEC_VERSION 5 /* 2 added the broken-constraint byte, 3 the grad marks, 4 the target, input layouts
			   * and buffers, 5 the compile configuration; 1 to 4 still decode */
#define CODEC_MAX_SIZE 32768 /* no valid graph encodes larger (libFuzzer's -max_len, fuzz/campaign.c) */

/* Encodes g into buf (capacity cap); returns the length, or 0 if it does not fit. */
size_t codec_encode(const struct graph *g, uint8_t *buf, size_t cap);

/* The same in format version `version` (1 to CODEC_VERSION), as that
 * version wrote it; 0 also when g holds what the version cannot say (a
 * broken node before 2, grad marks before 3, a target, buffers or layouts
' * before 4, a configuration before 5). The decoder's tests write old corpora with it. */
size_t codec_encode_version(const struct graph *g, unsigned version, uint8_t *buf, size_t cap);

/* Decodes exactly len bytes; 0 on success, -1 with a reason. */
int codec_decode(struct graph *g, const uint8_t *buf, size_t len, char *why, size_t n);

/* 64-bit hash of the encoding: a graph's identity (caches, dedup). */
uint64_t codec_hash(const struct graph *g);

#endif
