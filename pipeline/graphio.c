#include "graphio.h"
#include "atomic_file.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../graph/codec.h"
#include "../graph/fail.h"
#include "../graph/text.h"

uint8_t *graphio_read_file(const char *path, size_t max, size_t *len, char *why, size_t n)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fail(why, n, "%s: %s", path, strerror(errno));
		return NULL;
	}
	uint8_t *buf = malloc(max + 1);
	size_t got = buf ? fread(buf, 1, max + 1, f) : 0;
	int err = ferror(f);
	fclose(f);
	if (!buf || err || got > max) {
		free(buf);
		fail(why, n, "%s: %s", path, !buf ? "out of memory" : err ? "read error" : "file too large");
		return NULL;
	}
	buf[got] = 0;
	*len = got;
	return buf;
}

int graphio_load(const char *path, struct graph *g, char *why, size_t n)
{
	size_t len;
	char sub[240];
	uint8_t *buf = graphio_read_file(path, 1 << 20, &len, why, n);
	if (!buf)
		return -1;
	int rc;
	if (len >= 3 && !memcmp(buf, CODEC_MAGIC, 3))
		rc = codec_decode(g, buf, len, sub, sizeof sub);
	else if (memchr(buf, 0, len))
		rc = fail(sub, sizeof sub, "neither a pt2fuzz binary graph nor text");
	else
		rc = text_parse(g, (const char *)buf, sub, sizeof sub);
	free(buf);
	if (rc)
		return fail(why, n, "%s: %s", path, sub);
	return 0;
}

int graphio_save(const char *path, const struct graph *g, char *why, size_t n)
{
	static uint8_t buf[CODEC_MAX_SIZE];
	size_t len = codec_encode(g, buf, sizeof buf);
	if (!len)
		return fail(why, n, "%s: graph does not fit the binary format", path);
	if (atomic_write(path, buf, len, 0))
		return fail(why, n, "%s: %s", path, strerror(errno));
	return 0;
}
