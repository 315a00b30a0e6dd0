/* Graphs of several independent components: generation gives exactly as many
 * weakly-connected components as asked, each valid on its own reads; graphs
 * at the caps round-trip through the codec; every mutator keeps such graphs
 * valid; a campaign's inputs are topped up to its components. */
#include <stdio.h>
#include <string.h>
#include "../graph/codec.h"
#include "../graph/text.h"
#include "../graph/validate.h"
#include "../mutators/config_draw.h"
#include "../mutators/gen.h"
#include "../mutators/gen_fill.h"
#include "../mutators/mutate.h"
#include "../oracles/signature.h"
#include "../pipeline/op_names.h"
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

/* Many small components reach the cap on what forward() returns, a few large
 * ones the node cap. */
TEST(components_graphs_at_the_caps_roundtrip)
{
	unsigned most = 0, most_returned = 0;
	for (unsigned s = 0; s < 60; s++) {
		unsigned parts = s % 2 ? GEN_MAX_COMPONENTS : 4;
		if (!CHECK(make(&g, 9100 + s, G_MAX_NODES / parts, parts) == 0))
			continue;
		CHECK(g.nnodes <= G_MAX_NODES);
		most = g.nnodes > most ? g.nnodes : most;
		most_returned = graph_nreturns(&g) > most_returned ? graph_nreturns(&g) : most_returned;
		if (!CHECK(roundtrips(&g)))
			fprintf(stderr, "  seed %u (%u nodes, %u values): %s\n", s, g.nnodes, g.nvalues, why);
		CHECK_EQ(graph_node_components(&h), graph_node_components(&g));
	}
	CHECK_EQ(most, G_MAX_NODES); /* some graph fills the node cap */
	CHECK(most_returned > G_MAX_RETURNS - 8); /* and some comes within a component of the returns cap */
	if (!CHECK(most_returned <= G_MAX_RETURNS))
		fprintf(stderr, "  %u returned\n", most_returned);
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
		/* config changes configurations only in a campaign that draws them */
		config_draw_set_campaign(m == (unsigned)mutator_find("config") ? CONFIG_DRAW_PCT : 0, 0, 0, NULL);
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
		config_draw_set_campaign(0, 0, 0, NULL);
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

/* A finding about one output is a finding of that output's component: its
 * op names (and so its signature, bucket and known-bug match) leave out the
 * components beside it. Outputs first, then graded leaves in backward mode;
 * -1 or a return that does not exist: the whole graph. */
TEST(components_a_finding_names_the_ops_of_its_outputs_component)
{
	static const char two[] = "bindings 1\n"
				  "x0 = input float32 [4]\n"
				  "v1 = exp(x0)\n"
				  "v2 = sin(v1)\n"
				  "x3 = input float32 [3, 2]\n"
				  "v4 = cumsum(x3; dim=0)\n"
				  "v5 = softmax(v4; dim=1)\n"
				  "output v2, v5\n"
				  "grad x0, x3\n";
	if (!CHECK(text_parse(&g, two, why, sizeof why) == 0)) {
		fprintf(stderr, "  %s\n", why);
		return;
	}
	static const struct emit_opts fwd = {"inductor", NULL, 0}, bwd = {"inductor", NULL, 1};
	const char *ops[G_MAX_NODES];
	static const struct {
		const struct emit_opts *o;
		int output;
		const char *want; /* the names, comma separated */
	} cases[] = {
		{&fwd, 0, "exp,sin"},           {&fwd, 1, "cumsum,softmax"},    {&bwd, 2, "exp,sin"},
		{&bwd, 3, "cumsum,softmax"},    {&fwd, -1, "cumsum,exp,sin,softmax"},
		{&fwd, 2, "cumsum,exp,sin,softmax"}, /* forward mode returns no gradients */
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		unsigned n = op_names_of_output(&g, cases[c].o, cases[c].output, ops, G_MAX_NODES);
		char got[200] = "";
		for (unsigned i = 0; i < n; i++)
			snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", i ? "," : "", ops[i]);
		if (!CHECK(!strcmp(got, cases[c].want)))
			fprintf(stderr, "  case %zu: output %d names %s, not %s\n", c, cases[c].output, got, cases[c].want);
	}
	/* So one bug beside different components is one signature. */
	static const char other[] = "bindings 1\n"
				    "x0 = input float32 [5]\n"
				    "v1 = tanh(x0)\n"
				    "x2 = input float32 [3, 2]\n"
				    "v3 = cumsum(x2; dim=0)\n"
				    "v4 = softmax(v3; dim=1)\n"
				    "output v1, v4\n";
	CHECK(text_parse(&h, other, why, sizeof why) == 0);
	struct verdict v = {.kind = V_NUMERIC, .output = 1};
	struct run_result r = {0};
	const char *hops[G_MAX_NODES];
	unsigned n = op_names_of_output(&g, &fwd, 1, ops, G_MAX_NODES), nh = op_names_of_output(&h, &fwd, 1, hops, G_MAX_NODES);
	CHECK_EQ(oracle_signature(&v, &r, ops, n), oracle_signature(&v, &r, hops, nh));
	v.output = 0;
	n = op_names_of_output(&g, &fwd, 0, ops, G_MAX_NODES);
	nh = op_names_of_output(&h, &fwd, 0, hops, G_MAX_NODES);
	CHECK(oracle_signature(&v, &r, ops, n) != oracle_signature(&v, &r, hops, nh));
}

/* A mutant keeps one component of its parent and gets fresh ones beside it:
 * the kept graph is valid, of one component, a part of the parent (its ops a
 * subset), and the choice follows pick; a graph of one component and a
 * near-invalid one are left alone. */
TEST(components_a_mutant_keeps_one_component_and_the_top_up_refreshes_the_rest)
{
	static struct graph kept;
	const char *all[G_MAX_NODES], *part[G_MAX_NODES];
	unsigned differ = 0;
	for (unsigned s = 0; s < 20; s++) {
		if (!CHECK(make(&g, 7700 + s, 5, 4) == 0))
			continue;
		unsigned nall = op_names(&g, NULL, all, G_MAX_NODES);
		struct graph first;
		for (uint64_t pick = 0; pick < 6; pick++) {
			if (!CHECK(gen_keep_component(&g, pick * 7 + s, &kept) == 0))
				continue;
			if (!CHECK(graph_validate(&kept, why, sizeof why) == 0))
				fprintf(stderr, "  seed %u pick %llu: %s\n", s, (unsigned long long)pick, why);
			CHECK_EQ(graph_node_components(&kept), 1);
			CHECK(kept.nnodes < g.nnodes);
			unsigned np = op_names(&kept, NULL, part, G_MAX_NODES);
			for (unsigned i = 0; i < np; i++) {
				unsigned j = 0;
				while (j < nall && strcmp(all[j], part[i]))
					j++;
				CHECK(j < nall);
			}
			if (!pick)
				first = kept;
			else
				differ += kept.nnodes != first.nnodes || memcmp(kept.n, first.n, sizeof kept.n[0] * kept.nnodes);
		}
		/* Then topped up to the campaign's components again. */
		CHECK(gen_keep_component(&g, s, &kept) == 0);
		struct gen_opts o;
		struct rng r;
		gen_default_opts(&o);
		o.size = 5;
		o.components = 4;
		rng_seed(&r, s);
		CHECK_EQ(gen_fill_components(&kept, &r, &o), 3);
		CHECK_EQ(graph_node_components(&kept), 4);
		CHECK(graph_validate(&kept, why, sizeof why) == 0);
	}
	CHECK(differ > 0); /* pick chooses among the components */
	/* A graph of one component is left whole. */
	unsigned seed = 42;
	while (seed < 142 && (make(&g, seed, 6, 1) || graph_node_components(&g) != 1))
		seed++;
	CHECK(seed < 142);
	CHECK(gen_keep_component(&g, 3, &kept) == -1);
	size_t n = codec_encode(&g, a, sizeof a);
	CHECK_EQ(gen_keep_component_bytes(a, n, 3), n);
	/* A near-invalid graph keeps its broken node last: left whole. */
	struct gen_opts o;
	gen_default_opts(&o);
	o.size = 5;
	o.components = 3;
	o.break_pct = 100;
	unsigned broken = 0;
	for (unsigned s = 0; s < 10; s++)
		if (!gen_graph(&g, 900 + s, &o, NULL, 0) && g.broken) {
			broken++;
			CHECK(gen_keep_component(&g, s, &kept) == -1);
		}
	CHECK(broken > 0);
}

/* forward() returns at most G_MAX_RETURNS values, what a worker's reply
 * carries: 16 components of 8 ops have more sinks than that, so generation
 * and the campaign's top-up stop adding components there, and a graph that
 * returns more is refused by the codec and the validator. */
TEST(components_stop_where_forward_would_return_more_than_a_reply_carries)
{
	struct gen_opts o;
	gen_default_opts(&o);
	o.size = 8;
	o.components = GEN_MAX_COMPONENTS;
	unsigned stopped = 0;
	for (unsigned s = 0; s < 30; s++) {
		if (!CHECK(make(&g, 16000 + s, 8, GEN_MAX_COMPONENTS) == 0))
			continue;
		if (!CHECK(graph_nreturns(&g) <= G_MAX_RETURNS) || !CHECK(graph_validate(&g, why, sizeof why) == 0))
			fprintf(stderr, "  seed %u: %u returned: %s\n", s, graph_nreturns(&g), why);
		stopped += graph_node_components(&g) < GEN_MAX_COMPONENTS && g.nnodes + 8 <= G_MAX_NODES;
		struct rng r;
		rng_seed(&r, s);
		gen_fill_components(&g, &r, &o);
		CHECK(graph_nreturns(&g) <= G_MAX_RETURNS);
	}
	CHECK(stopped > 0); /* the cap, not the node cap, ended some graphs */

	char wide[400];
	tk_static(&h);
	int x = tk_input(&h, DT_FLOAT32, 1, (const int[]){4});
	for (unsigned k = 0; k <= G_MAX_RETURNS; k++)
		CHECK(tk_node(&h, "relu", 1, &x, 0, NULL, why, sizeof why) >= 0);
	graph_mark_sinks(&h);
	CHECK_EQ(graph_nreturns(&h), G_MAX_RETURNS + 1);
	CHECK(graph_validate(&h, wide, sizeof wide) != 0);
	CHECK(strstr(wide, "at most 64") != NULL);
	size_t n = codec_encode(&h, a, sizeof a);
	CHECK(n > 0 && codec_decode(&g, a, n, why, sizeof why) != 0);
	h.v[h.nvalues - 1].out = 0; /* one fewer: accepted */
	CHECK(graph_validate(&h, why, sizeof why) == 0);
	n = codec_encode(&h, a, sizeof a);
	CHECK(n > 0 && codec_decode(&g, a, n, why, sizeof why) == 0);
}
