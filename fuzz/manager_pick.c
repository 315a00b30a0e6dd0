/* The manager's corpus and its choice of the input to mutate (manager.h). */
#include <stdlib.h>
#include <string.h>
#include "../graph/rng.h"
#include "manager.h"

int manager_corpus_add(struct manager_corpus *c, const uint8_t *data, size_t size)
{
	if (c->n == c->cap) {
		unsigned cap = c->cap ? 2 * c->cap : 64;
		struct manager_input *in = realloc(c->in, cap * sizeof *in);
		if (!in)
			return -1;
		c->in = in;
		c->cap = cap;
	}
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy)
		return -1;
	memcpy(copy, data, size);
	c->in[c->n++] = (struct manager_input){copy, size};
	return 0;
}

void manager_corpus_free(struct manager_corpus *c)
{
	for (unsigned i = 0; i < c->n; i++)
		free(c->in[i].data);
	free(c->in);
	*c = (struct manager_corpus){0};
}

size_t manager_pick(const struct manager_corpus *c, struct seed_energy *e, uint64_t draw, uint8_t *buf, size_t cap)
{
	struct rng r;
	size_t size = 0;
	rng_seed(&r, draw);
	if (c->n) {
		const struct manager_input *in = &c->in[rng_below(&r, c->n)];
		size = in->size <= cap ? in->size : 0;
		memcpy(buf, in->data, size);
	}
	return energy_choose(e, buf, size, cap, (unsigned)draw);
}
