#include "png.h"
#include "../pipeline/atomic_file.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t png_crc32(const uint8_t *buf, size_t len)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < len; i++) {
		c ^= buf[i];
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
	}
	return c ^ 0xffffffffu;
}

uint32_t png_adler32(const uint8_t *buf, size_t len)
{
	uint32_t a = 1, b = 0;
	for (size_t i = 0; i < len; i++) {
		a = (a + buf[i]) % 65521u;
		b = (b + a) % 65521u;
	}
	return b << 16 | a;
}

/* A growing byte buffer written bit by bit, least significant bit first
 * (deflate's order). */
struct bits {
	uint8_t *buf;
	size_t len, cap;
	uint32_t acc;
	unsigned nacc;
	int oom;
};

static void put_byte(struct bits *b, uint8_t v)
{
	if (b->len == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 1 << 16;
		uint8_t *p = realloc(b->buf, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->buf = p;
		b->cap = cap;
	}
	b->buf[b->len++] = v;
}

static void put_bits(struct bits *b, uint32_t v, unsigned n)
{
	b->acc |= v << b->nacc;
	b->nacc += n;
	for (; b->nacc >= 8; b->nacc -= 8, b->acc >>= 8)
		put_byte(b, (uint8_t)b->acc);
}

/* Huffman codes go most significant bit first. */
static void put_code(struct bits *b, uint32_t code, unsigned n)
{
	uint32_t rev = 0;
	for (unsigned i = 0; i < n; i++)
		rev |= ((code >> i) & 1) << (n - 1 - i);
	put_bits(b, rev, n);
}

/* A literal/length symbol in deflate's fixed code (RFC 1951, 3.2.6). */
static void put_symbol(struct bits *b, unsigned sym)
{
	if (sym < 144)
		put_code(b, 0x30 + sym, 8);
	else if (sym < 256)
		put_code(b, 0x190 + sym - 144, 9);
	else if (sym < 280)
		put_code(b, sym - 256, 7);
	else
		put_code(b, 0xc0 + sym - 280, 8);
}

static const uint16_t len_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
				      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

/* A run of len (3..258) copies of the previous byte: a match at distance 1. */
static void put_run(struct bits *b, unsigned len)
{
	unsigned i = 28;
	while (len_base[i] > len)
		i--;
	put_symbol(b, 257 + i);
	put_bits(b, len - len_base[i], len_extra[i]);
	put_code(b, 0, 5); /* distance code 0: distance 1 */
}

/* A zlib stream of data: one final fixed-Huffman block. */
static void zlib_stream(struct bits *b, const uint8_t *data, size_t len)
{
	put_byte(b, 0x78);
	put_byte(b, 0x01);
	put_bits(b, 1, 1); /* BFINAL */
	put_bits(b, 1, 2); /* BTYPE 01: fixed codes */
	for (size_t i = 0; i < len;) {
		size_t run = 0;
		while (i > 0 && i + run < len && run < 258 && data[i + run] == data[i - 1])
			run++;
		if (run >= 3) {
			put_run(b, (unsigned)run);
			i += run;
		} else {
			put_symbol(b, data[i++]);
		}
	}
	put_symbol(b, 256);
	if (b->nacc)
		put_bits(b, 0, 8 - b->nacc);
	uint32_t adler = png_adler32(data, len);
	for (int s = 24; s >= 0; s -= 8)
		put_byte(b, (uint8_t)(adler >> s));
}

static void put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

static int chunk(FILE *f, const char *type, const uint8_t *data, size_t len)
{
	uint8_t head[8], crc[4];
	uint8_t *typed = malloc(len + 4);
	if (!typed)
		return -1;
	memcpy(typed, type, 4);
	if (len)
		memcpy(typed + 4, data, len);
	put_be32(head, (uint32_t)len);
	memcpy(head + 4, type, 4);
	put_be32(crc, png_crc32(typed, len + 4));
	free(typed);
	return fwrite(head, 1, 8, f) == 8 && fwrite(data, 1, len, f) == len && fwrite(crc, 1, 4, f) == 4 ? 0 : -1;
}

int png_write(const char *path, const uint8_t *pixels, unsigned w, unsigned h, const uint8_t (*palette)[3],
	      unsigned ncolors)
{
	static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	uint8_t ihdr[13] = {0}, plte[256 * 3];
	if (!w || !h || !ncolors || ncolors > 256)
		return -1;
	put_be32(ihdr, w);
	put_be32(ihdr + 4, h);
	ihdr[8] = 8; /* bit depth */
	ihdr[9] = 3; /* palette */
	memcpy(plte, palette, ncolors * 3);
	/* Scanlines: filter type 0, then the row. */
	size_t stride = (size_t)w + 1, rawlen = stride * h;
	uint8_t *raw = malloc(rawlen);
	struct bits z = {0};
	if (!raw)
		return -1;
	for (unsigned y = 0; y < h; y++) {
		raw[y * stride] = 0;
		memcpy(raw + y * stride + 1, pixels + (size_t)y * w, w);
	}
	zlib_stream(&z, raw, rawlen);
	free(raw);
	struct atomic_file a;
	FILE *f = z.oom ? NULL : atomic_open(&a, path);
	int rc = !f || fwrite(signature, 1, 8, f) != 8 || chunk(f, "IHDR", ihdr, 13) || chunk(f, "PLTE", plte, ncolors * 3) ||
		 chunk(f, "IDAT", z.buf, z.len) || chunk(f, "IEND", NULL, 0);
	if (f && rc) {
		fclose(f);
		remove(a.tmp);
	} else if (f && atomic_commit(&a, 0)) {
		rc = 1;
	}
	free(z.buf);
	return rc ? -1 : 0;
}
