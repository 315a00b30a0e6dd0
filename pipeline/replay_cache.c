#include "replay_cache.h"
#include "atomic_file.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* File: "P2FC", u32 count, then count entries of (u32 index, u8 value),
 * little-endian as written; a finding's: "P2FX", u32 0. */
#define ENTRY 5

static void entry_path(const struct replay_cache *c, uint64_t input, char *path, size_t n)
{
	snprintf(path, n, "%.4000s/%016llx-%016llx", c->dir, (unsigned long long)input, (unsigned long long)c->config);
}

enum replay_entry replay_cache_load(const struct replay_cache *c, uint64_t input, uint8_t *map, size_t n)
{
	char path[4100];
	uint8_t head[8], e[ENTRY];
	uint32_t count;
	if (!c->dir)
		return REPLAY_NONE;
	entry_path(c, input, path, sizeof path);
	FILE *f = fopen(path, "rb");
	if (!f)
		return REPLAY_NONE;
	uint8_t *tmp = calloc(n, 1);
	int bad = !tmp || fread(head, 1, 8, f) != 8, finding = !bad && !memcmp(head, "P2FX", 4);
	bad = bad || (!finding && memcmp(head, "P2FC", 4));
	if (!bad)
		memcpy(&count, head + 4, 4);
	bad = bad || (finding && count);
	for (uint32_t i = 0; !bad && i < count; i++) {
		uint32_t at;
		bad = fread(e, 1, ENTRY, f) != ENTRY;
		memcpy(&at, e, 4);
		bad = bad || at >= n || !e[4];
		if (!bad)
			tmp[at] = e[4];
	}
	bad = bad || fgetc(f) != EOF;
	fclose(f);
	if (!bad && !finding)
		memcpy(map, tmp, n);
	free(tmp);
	return bad ? REPLAY_NONE : finding ? REPLAY_FINDING : REPLAY_MAP;
}

void replay_cache_store(const struct replay_cache *c, uint64_t input, const uint8_t *map, size_t n)
{
	char path[4100];
	struct atomic_file a;
	if (!c->dir)
		return;
	entry_path(c, input, path, sizeof path);
	FILE *f = atomic_open(&a, path);
	if (!f)
		return;
	uint32_t count = 0;
	for (size_t i = 0; i < n; i++)
		count += map[i] != 0;
	int bad = fwrite("P2FC", 1, 4, f) != 4 || fwrite(&count, 4, 1, f) != 1;
	for (size_t i = 0; !bad && i < n; i++) {
		if (!map[i])
			continue;
		uint8_t e[ENTRY];
		uint32_t at = (uint32_t)i;
		memcpy(e, &at, 4);
		e[4] = map[i];
		bad = fwrite(e, 1, ENTRY, f) != ENTRY;
	}
	atomic_commit(&a, 0); /* bad came from a failed fwrite, which atomic_commit sees */
}

void replay_cache_store_finding(const struct replay_cache *c, uint64_t input)
{
	static const uint8_t entry[8] = {'P', '2', 'F', 'X', 0, 0, 0, 0};
	char path[4100];
	if (!c->dir)
		return;
	entry_path(c, input, path, sizeof path);
	atomic_write(path, entry, sizeof entry, 0); /* a failure costs a later merge a compile */
}
