#include "seed_energy.h"
#include <string.h>

void energy_reward(struct seed_energy *e, const uint8_t *data, size_t size)
{
	if (!size || size > CODEC_MAX_SIZE)
		return;
	unsigned k = e->next++ % ENERGY_SLOTS;
	memcpy(e->hot[k].data, data, size);
	e->hot[k].size = size;
	e->hot[k].left = ENERGY_PER_FIND;
}

size_t energy_choose(struct seed_energy *e, uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
	if (seed & 1)
		return size; /* libFuzzer's own pick keeps half the calls */
	/* the newest finder with energy first: the freshest region */
	for (unsigned t = 1; t <= ENERGY_SLOTS; t++) {
		unsigned k = (e->next - t) % ENERGY_SLOTS;
		if (e->hot[k].left && e->hot[k].size <= max_size) {
			e->hot[k].left--;
			memcpy(data, e->hot[k].data, e->hot[k].size);
			return e->hot[k].size;
		}
	}
	return size;
}
