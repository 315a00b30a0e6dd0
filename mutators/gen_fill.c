#include "gen_fill.h"
#include <string.h>
#include "../graph/codec.h"
#include "avoid.h"
#include "edits.h"

unsigned gen_fill_components(struct graph *g, struct rng *r, const struct gen_opts *o)
{
	unsigned want = gen_components(o), size = gen_component_size(o), added = 0;
	if (g->broken)
		return 0;
	unsigned dropped = avoid_drop(g);
	for (unsigned have = graph_node_components(g); have + added < want && g->nnodes + size <= G_MAX_NODES;) {
		unsigned nodes = g->nnodes;
		if (gen_returned_component(g, r, o, size, 1, G_MAX_RETURNS) || g->nnodes == nodes)
			break;
		added++;
	}
	return dropped + added;
}

unsigned gen_fill_campaign(struct graph *g, uint64_t seed)
{
	struct gen_opts o;
	struct rng r;
	gen_default_opts(&o);
	rng_seed(&r, seed);
	return gen_fill_components(g, &r, &o);
}

size_t gen_fill_bytes(uint8_t *data, size_t size, size_t max_size, uint64_t seed)
{
	static _Thread_local struct graph g;
	static _Thread_local uint8_t out[CODEC_MAX_SIZE];
	if (codec_decode(&g, data, size, NULL, 0) || !gen_fill_campaign(&g, seed))
		return size;
	size_t n = codec_encode(&g, out, max_size < sizeof out ? max_size : sizeof out);
	if (!n)
		return size;
	memcpy(data, out, n);
	return n;
}

int gen_keep_component(const struct graph *g, uint64_t pick, struct graph *out)
{
	uint8_t member[G_MAX_NODES], del[G_MAX_NODES];
	/* One component holds every node: nothing to drop. */
	if (g->broken || !g->nnodes || graph_component_nodes(g, g->n[pick % g->nnodes].out0, member) == g->nnodes)
		return -1;
	for (unsigned k = 0; k < g->nnodes; k++)
		del[k] = !member[k];
	return edit_delete_nodes(g, del, out);
}

size_t gen_keep_component_bytes(uint8_t *data, size_t size, uint64_t pick)
{
	static _Thread_local struct graph g, kept;
	static _Thread_local uint8_t out[CODEC_MAX_SIZE];
	if (codec_decode(&g, data, size, NULL, 0) || gen_keep_component(&g, pick, &kept))
		return size;
	size_t n = codec_encode(&kept, out, size < sizeof out ? size : sizeof out); /* in the input's room */
	if (!n)
		return size;
	memcpy(data, out, n);
	return n;
}
