/* Deterministic random numbers (splitmix64): the same seed gives the same
 * graph on every machine, which is what makes `gen --seed` reproducible. */
#ifndef PT2FUZZ_RNG_H
#define PT2FUZZ_RNG_H
#include <stdint.h>

struct rng { uint64_t s; };

static inline void rng_seed(struct rng *r, uint64_t seed) { r->s = seed ^ 0x9e3779b97f4a7c15ull; }

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n); n == 0 gives 0. */
static inline uint64_t rng_below(struct rng *r, uint64_t n) { return n ? rng_next(r) % n : 0; }

/* Uniform in [lo, hi] (inclusive). */
static inline int64_t rng_range(struct rng *r, int64_t lo, int64_t hi)
{
	return hi <= lo ? lo : lo + (int64_t)rng_below(r, (uint64_t)(hi - lo) + 1);
}

/* True with probability pct/100. */
static inline int rng_chance(struct rng *r, unsigned pct) { return rng_below(r, 100) < pct; }

#endif
