/* The feature map an input produced, kept by the input's hash, so that
 * libFuzzer's replays of corpus inputs cost a file read instead of a
 * compile: every -fork job starts by running a subset of the corpus, and
 * -merge=1 runs all of it. On a target where one input takes seconds, those
 * replays were most of a feedback campaign's time (docs/fuzzing.md). */
#ifndef PT2FUZZ_REPLAY_CACHE_H
#define PT2FUZZ_REPLAY_CACHE_H
#include <stddef.h>
#include <stdint.h>

/* Entries live in dir, named by the input's hash and config, a hash of
 * everything that shapes the features (the target's options): a campaign
 * resumed with other options does not read stale maps. */
struct replay_cache {
	const char *dir; /* NULL: off */
	uint64_t config;
};

/* What replay_cache_load found. */
enum replay_entry {
	REPLAY_NONE = -1, /* none, or damaged: the input must run (map untouched) */
	REPLAY_MAP = 0,   /* the input's map, now in map */
	REPLAY_FINDING,   /* the input was a finding (map untouched): a merge must
			   * leave it out again, without compiling it again */
};

/* The entry stored for this input (a map of n bytes into map). */
enum replay_entry replay_cache_load(const struct replay_cache *c, uint64_t input, uint8_t *map, size_t n);

/* Keeps map (n bytes, mostly zero: stored sparse) for this input; a failure
 * only costs a later replay its compile. */
void replay_cache_store(const struct replay_cache *c, uint64_t input, const uint8_t *map, size_t n);

/* Keeps that this input was a finding. */
void replay_cache_store_finding(const struct replay_cache *c, uint64_t input);

#endif
