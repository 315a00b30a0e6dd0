/* A libFuzzer target whose runs look like pt2fuzz_fuzzer's to libFuzzer:
 * FEATURES counters of a 256 KiB extra-counters map set per run (a compile
 * sets tens of thousands), drawn from a fixed set of twice as many at
 * varying buckets, so some runs are new and enter the corpus. Its own work
 * is nothing: the time a run takes is libFuzzer's (bench/entropic/run.sh). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define MAP (1u << 18)
__attribute__((used, section("__libfuzzer_extra_counters"))) uint8_t bench_counters[MAP];

static uint64_t state = 88172645463325252ull;

static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data, (void)size;
	static unsigned features;
	if (!features) {
		const char *env = getenv("FEATURES");
		features = env ? (unsigned)strtoul(env, NULL, 10) : 30000;
		features = features && features < MAP / 2 ? features : 30000;
	}
	for (unsigned i = 0; i < features; i++)
		bench_counters[(uint32_t)((next() % (2 * features)) * 2654435761u) % MAP] = (uint8_t)(1 + next() % 4);
	return 0;
}
