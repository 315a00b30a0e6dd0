/* The replay cache (pipeline/replay_cache.h): a stored map comes back
 * whole, a finding comes back as a finding without touching the map, and a
 * damaged or foreign entry makes the input run. */
#include "test.h"
#include "../pipeline/replay_cache.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAP = 4096 };

static char dir[64];

static void cleanup(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK_EQ(system(cmd), 0);
}

TEST(replay_cache_gives_back_maps_and_findings_and_refuses_damage)
{
	snprintf(dir, sizeof dir, "/tmp/pt2fuzz-replay.XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
	struct replay_cache c = {dir, 42}, other = {dir, 43};
	static uint8_t map[MAP], got[MAP];
	map[0] = 1, map[17] = 3, map[MAP - 1] = 200;

	CHECK_EQ(replay_cache_load(&c, 1, got, MAP), REPLAY_NONE);
	replay_cache_store(&c, 1, map, MAP);
	CHECK_EQ(replay_cache_load(&c, 1, got, MAP), REPLAY_MAP);
	CHECK(!memcmp(got, map, MAP));
	CHECK_EQ(replay_cache_load(&other, 1, got, MAP), REPLAY_NONE); /* other options: not this entry */

	memset(got, 7, MAP);
	replay_cache_store_finding(&c, 2);
	CHECK_EQ(replay_cache_load(&c, 2, got, MAP), REPLAY_FINDING);
	CHECK_EQ(got[0], 7); /* untouched */
	CHECK_EQ(got[MAP - 1], 7);

	/* Cut short, and a finding entry with a count after it: both run again. */
	char path[256];
	snprintf(path, sizeof path, "%s/%016llx-%016llx", dir, 1ULL, 42ULL);
	CHECK_EQ(truncate(path, 10), 0);
	CHECK_EQ(replay_cache_load(&c, 1, got, MAP), REPLAY_NONE);
	snprintf(path, sizeof path, "%s/%016llx-%016llx", dir, 2ULL, 42ULL);
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	if (f) {
		fwrite("P2FX\1\0\0\0", 1, 8, f);
		fclose(f);
	}
	CHECK_EQ(replay_cache_load(&c, 2, got, MAP), REPLAY_NONE);
	cleanup();
}
