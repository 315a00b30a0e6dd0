/* Graphs of several independent components: generation gives exactly as many
 * weakly-connected components as asked, each valid on its own reads; graphs
 * at the caps round-trip through the codec; every mutator keeps such graphs
 * valid. */
#include <stdio.h>
#include <string.h>
#include "../graph/codec.h"
#include "../graph/validate.h"
#include "../mutators/gen.h"
#include "../mutators/mutate.h"
#include "test.h"

static struct graph g, h;
static uint8_t a[CODEC_MAX_SIZE], b[CODEC_MAX_SIZE];
static char why[400];

static unsigned find(uint16_t *up, unsigned v)
{
	while (up[v] != v)
		v = up[v] = up[up[v]];
	return v;
}

/* The weakly-connected components of x's nodes: two nodes are joined when
 * one reads the other's output or both read the same value. */
static unsigned node_components(const struct graph *x)
{
	uint16_t up[G_MAX_VALUES];
	for (unsigned i = 0; i < x->nvalues; i++)
		up[i] = (uint16_t)i;
	for (unsigned k = 0; k < x->nnodes; k++) {
		const struct node *nd = &x->n[k];
		for (unsigned i = 0; i < nd->nin; i++)
			up[find(up, nd->in[i])] = (uint16_t)find(up, nd->out0);
		for (unsigned i = 1; i < nd->nout; i++)
			up[find(up, nd->out0 + i)] = (uint16_t)find(up, nd->out0);
	}
	uint8_t root[G_MAX_VALUES] = {0};
	unsigned n = 0;
	for (unsigned k = 0; k < x->nnodes; k++) {
		unsigned r = find(up, x->n[k].out0);
		n += !root[r];
		root[r] = 1;
	}
	return n;
}

static int make(struct graph *x, uint64_t seed, unsigned size, unsigned parts)
{
	struct gen_opts o;
	gen_default_opts(&o);
	o.size = size;
	o.components = parts;
	if (gen_graph(x, seed, &o, why, sizeof why)) {
		fprintf(stderr, "  gen_graph(%llu): %s\n", (unsigned long long)seed, why);
		return -1;
	}
	return 0;
}

static int roundtrips(const struct graph *x)
{
	size_t n = codec_encode(x, a, sizeof a);
	if (!n || codec_decode(&h, a, n, why, sizeof why))
		return 0;
	return codec_encode(&h, b, sizeof b) == n && !memcmp(a, b, n);
}

TEST(components_generation_gives_k_weakly_connected_components)
{
	for (unsigned parts = 2; parts <= 8; parts++)
		for (unsigned s = 0; s < 25; s++) {
			if (!CHECK(make(&g, 5000 + 100 * parts + s, 6, parts) == 0))
				continue;
			if (!CHECK(graph_validate(&g, why, sizeof why) == 0))
				fprintf(stderr, "  %u components, seed %u: %s\n", parts, s, why);
			if (!CHECK_EQ(node_components(&g), parts))
				fprintf(stderr, "  %u components, seed %u\n", parts, s);
		}
}

/* One component is the generator as it always was (islands and all). */
TEST(components_one_is_the_graph_generation_always_made)
{
	struct gen_opts o;
	gen_default_opts(&o);
	CHECK_EQ(o.components, 1); /* no campaign shape set: `pt2fuzz gen` makes single graphs */
	for (unsigned s = 0; s < 20; s++) {
		o.size = 12;
		o.components = 1;
		gen_graph(&g, 70 + s, &o, NULL, 0);
		o.components = 0; /* taken as one */
		gen_graph(&h, 70 + s, &o, NULL, 0);
		size_t n = codec_encode(&g, a, sizeof a);
		CHECK(n && codec_encode(&h, b, sizeof b) == n && !memcmp(a, b, n));
	}
}

TEST(components_graphs_at_the_caps_roundtrip)
{
	unsigned most = 0;
	for (unsigned s = 0; s < 30; s++) {
		if (!CHECK(make(&g, 9100 + s, G_MAX_NODES / GEN_MAX_COMPONENTS, GEN_MAX_COMPONENTS) == 0))
			continue;
		CHECK(g.nnodes <= G_MAX_NODES);
		most = g.nnodes > most ? g.nnodes : most;
		if (!CHECK(roundtrips(&g)))
			fprintf(stderr, "  seed %u (%u nodes, %u values): %s\n", s, g.nnodes, g.nvalues, why);
		CHECK_EQ(node_components(&h), node_components(&g));
	}
	CHECK_EQ(most, G_MAX_NODES); /* some graph fills the node cap */
}

TEST(components_campaign_shape_reaches_default_opts)
{
	struct gen_opts o;
	gen_set_campaign_shape(5, 6);
	gen_default_opts(&o);
	gen_set_campaign_shape(8, 1);
	CHECK_EQ(o.size, 5);
	CHECK_EQ(o.components, 6);
}

TEST(components_every_mutator_keeps_multi_component_graphs_valid)
{
	static struct graph partner;
	for (unsigned m = 0; m < mutator_count(); m++) {
		unsigned ok = 0;
		gen_set_campaign(TARGET_ANY, m == (unsigned)mutator_find("grad")); /* grad toggles grad marks */
		for (unsigned s = 0; s < 40; s++) {
			if (make(&g, 300 + s, 8, 8) || make(&partner, 900 + s, 8, 4))
				continue;
			struct rng r;
			rng_seed(&r, 40 * m + s);
			if (mutate_with(m, &g, &partner, &r, CODEC_MAX_SIZE))
				continue;
			ok++;
			if (!CHECK(graph_validate(&g, why, sizeof why) == 0) || !CHECK(roundtrips(&g)))
				fprintf(stderr, "  %s, seed %u: %s\n", mutator_name(m), s, why);
		}
		gen_set_campaign(TARGET_ANY, 0);
		if (strcmp(mutator_name(m), "break") && !CHECK(ok > 0)) /* break runs through its own option */
			fprintf(stderr, "  %s never applied to a multi-component graph\n", mutator_name(m));
	}
}
