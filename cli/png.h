/* A self-contained PNG writer: 8-bit palette images, compressed with
 * deflate's fixed Huffman codes and runs (matches at distance 1), which
 * suits plots: mostly background, lines and text. No zlib needed. */
#ifndef PT2FUZZ_PNG_H
#define PT2FUZZ_PNG_H
#include <stddef.h>
#include <stdint.h>

/* CRC-32 (PNG chunks) and Adler-32 (the zlib stream) of buf. */
uint32_t png_crc32(const uint8_t *buf, size_t len);
uint32_t png_adler32(const uint8_t *buf, size_t len);

/* Writes w x h pixels (one palette index a byte, row after row) with a
 * palette of ncolors RGB triples to path. 0, or -1. */
int png_write(const char *path, const uint8_t *pixels, unsigned w, unsigned h, const uint8_t (*palette)[3],
	      unsigned ncolors);

#endif
