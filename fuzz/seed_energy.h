/* Seed energy: an input whose run reached features the process had not
 * seen earns extra mutations. libFuzzer picks the input it hands the custom
 * mutator by its own schedule; while a recent finder has energy left, every
 * other call mutates that finder instead, so a productive region of the
 * search is explored while it is still productive. Deterministic for the
 * seeds libFuzzer passes. */
#ifndef PT2FUZZ_SEED_ENERGY_H
#define PT2FUZZ_SEED_ENERGY_H
#include <stddef.h>
#include <stdint.h>
#include "../graph/codec.h"

#define ENERGY_SLOTS 8    /* recent finders kept; the oldest makes room */
#define ENERGY_PER_FIND 8 /* extra mutations a finder earns */

struct seed_energy {
	struct {
		uint8_t data[CODEC_MAX_SIZE];
		size_t size;
		unsigned left;
	} hot[ENERGY_SLOTS];
	unsigned next; /* the slot the next finder takes */
};

/* data (size bytes) just reached new features: it earns ENERGY_PER_FIND. */
void energy_reward(struct seed_energy *e, const uint8_t *data, size_t size);

/* The input to mutate: data as libFuzzer gave it (size returned), or, on
 * every other call (by seed) while a finder has energy, that finder copied
 * into data (capacity max_size) at the cost of one unit; its size returned. */
size_t energy_choose(struct seed_energy *e, uint8_t *data, size_t size, size_t max_size, unsigned seed);

#endif
