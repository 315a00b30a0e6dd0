/* Graphs of several independent components: generation gives exactly as many
 * weakly-connected components as asked, each valid on its own reads; graphs
 * at the caps round-trip through the codec; every mutator keeps such graphs
 * valid; a campaign's inputs are topped up to its components. */
#include <stdio.h>
#include <string.h>
#include "../graph/codec.h"
#include "../graph/validate.h"
#include "../mutators/gen.h"
#include "../mutators/gen_fill.h"
#include "../mutators/mutate.h"
#include "test.h"
#include "testkit.h"

static struct graph g, h;
static uint8_t a[CODEC_MAX_SIZE], b[CODEC_MAX_SIZE];
static char why[400];

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
			if (!CHECK_EQ(graph_node_components(&g), parts))
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
		CHECK_EQ(graph_node_components(&h), graph_node_components(&g));
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

TEST(components_counts_joined_and_apart_nodes)
{
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){4}), y = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int kx = tk_node(&g, "relu", 1, &x, 0, NULL, why, sizeof why);
	int ky = tk_node(&g, "relu", 1, &y, 0, NULL, why, sizeof why);
	CHECK(kx >= 0 && ky >= 0);
	CHECK_EQ(graph_node_components(&g), 2);
	CHECK(tk_node(&g, "sin", 1, &x, 0, NULL, why, sizeof why) >= 0); /* reads what relu(x) reads: joined */
	CHECK_EQ(graph_node_components(&g), 2);
	int both[2] = {g.n[kx].out0, g.n[ky].out0};
	CHECK(tk_node(&g, "add", 2, both, 0, NULL, why, sizeof why) >= 0);
	CHECK_EQ(graph_node_components(&g), 1);
}

TEST(components_fill_tops_a_graph_up_and_keeps_its_outputs)
{
	struct gen_opts o;
	gen_default_opts(&o);
	o.size = 4;
	o.components = 6;
	for (unsigned s = 0; s < 30; s++) {
		if (make(&g, 600 + s, 5, 1))
			continue;
		unsigned have = graph_node_components(&g), nvalues = g.nvalues;
		uint8_t out[G_MAX_VALUES];
		for (unsigned i = 0; i < nvalues; i++)
			out[i] = g.v[i].out;
		struct rng r;
		rng_seed(&r, s);
		unsigned added = gen_fill_components(&g, &r, &o);
		CHECK_EQ(added, have < 6 ? 6 - have : 0);
		CHECK_EQ(graph_node_components(&g), have < 6 ? 6 : have);
		if (!CHECK(graph_validate(&g, why, sizeof why) == 0) || !CHECK(roundtrips(&g)))
			fprintf(stderr, "  seed %u: %s\n", s, why);
		for (unsigned i = 0; i < nvalues; i++)
			CHECK_EQ(g.v[i].out, out[i]);
		for (unsigned i = nvalues; i < g.nvalues; i++) /* every new sink is compared */
			CHECK(g.v[i].kind != VK_NODE || graph_users(&g, i) || g.v[i].out);
	}
}

TEST(components_fill_leaves_near_invalid_graphs_alone)
{
	struct gen_opts o;
	gen_default_opts(&o);
	o.size = 4;
	o.break_pct = 100;
	unsigned broken = 0;
	for (unsigned s = 0; s < 20; s++) {
		if (gen_graph(&g, 700 + s, &o, NULL, 0) || !g.broken)
			continue;
		broken++;
		struct rng r;
		rng_seed(&r, s);
		o.components = 6;
		CHECK_EQ(gen_fill_components(&g, &r, &o), 0);
		o.components = 1;
	}
	CHECK(broken > 0);
}

TEST(components_fill_bytes_follows_the_campaign_shape)
{
	CHECK(make(&g, 811, 5, 1) == 0);
	unsigned have = graph_node_components(&g);
	size_t n = codec_encode(&g, a, sizeof a);
	CHECK_EQ(gen_fill_bytes(a, n, sizeof a, 1), n); /* one component: nothing to add */
	gen_set_campaign_shape(3, have + 3);
	CHECK_EQ(gen_fill_bytes(a, n, n, 1), n); /* no room: left as it was */
	size_t m = gen_fill_bytes(a, n, sizeof a, 1);
	gen_set_campaign_shape(8, 1);
	CHECK(m > n);
	CHECK(codec_decode(&h, a, m, why, sizeof why) == 0);
	CHECK_EQ(graph_node_components(&h), have + 3);
}
