/* Near-invalid graphs: the broken node in the graph core (accepted only when
 * its rule fails at every binding, last, an output), the codec (version 2's
 * byte, version 1 still read), the text form, emission, rebuilding through
 * recipes and reducer edits, the breakers, and the mutators' near-invalid share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../graph/broken.h"
#include "../graph/codec.h"
#include "../graph/emit.h"
#include "../graph/text.h"
#include "../graph/validate.h"
#include "../mutators/avoid.h"
#include "../mutators/break.h"
#include "../mutators/edits.h"
#include "../mutators/gen.h"
#include "../mutators/mutate.h"
#include "test.h"
#include "testkit.h"

static struct graph g, h;
static uint8_t a[CODEC_MAX_SIZE], b[CODEC_MAX_SIZE];
static char why[400];

/* mm of [3, s0] @ [s0+1, 2] (inner dims off by one at every binding), after a relu. */
static void mm_broken(void)
{
	tk_dynamic(&g, 2, (int32_t[]){4, 6});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, -1});
	int r = tk_node(&g, "relu", 1, (int[]){x}, 0, NULL, why, sizeof why);
	struct leaf_dim ld[2] = {{0, 1, 1}, {-1, 0, 2}};
	int y = graph_add_leaf(&g, VK_INPUT, DT_FLOAT32, 2, ld, FILL_NORMAL, 0, 0, why, sizeof why);
	struct op_choice ch = {.nin = 2, .in = {(uint16_t)g.n[r].out0, (uint16_t)y}};
	CHECK(graph_add_broken_node(&g, (unsigned)op_find("mm"), &ch, C_INNER_DIM, why, sizeof why) == 1);
	graph_mark_sinks(&g);
}

TEST(broken_node_only_where_the_rule_fails_at_every_binding)
{
	mm_broken();
	CHECK_EQ(g.broken, C_INNER_DIM);
	const struct value *ph = &g.v[g.nvalues - 1];
	CHECK(ph->out && ph->tie && ph->rank == 0); /* a placeholder output, never compared */
	CHECK(graph_validate(&g, why, sizeof why) == 0);
	/* nothing may follow it */
	CHECK(tk_node(&g, "relu", 1, (int[]){0}, 0, NULL, why, sizeof why) < 0);
	struct leaf_dim ld[1] = {{-1, 0, 2}};
	CHECK(graph_add_leaf(&g, VK_INPUT, DT_FLOAT32, 1, ld, FILL_NORMAL, 0, 0, why, sizeof why) < 0);
	/* a valid choice is refused, and so is one valid at one binding only */
	tk_dynamic(&h, 2, (int32_t[]){4, 6});
	int x = tk_input(&h, DT_FLOAT32, 2, (int[]){3, -1}), y = tk_input(&h, DT_FLOAT32, 2, (int[]){-1, 2});
	struct op_choice ch = {.nin = 2, .in = {(uint16_t)x, (uint16_t)y}};
	CHECK(graph_add_broken_node(&h, (unsigned)op_find("mm"), &ch, C_INNER_DIM, why, sizeof why) < 0);
	struct leaf_dim four[2] = {{-1, 0, 4}, {-1, 0, 2}};
	ch.in[1] = (uint16_t)graph_add_leaf(&h, VK_INPUT, DT_FLOAT32, 2, four, FILL_NORMAL, 0, 0, why, sizeof why);
	CHECK_EQ(graph_choice_breaks(&h, (unsigned)op_find("mm"), &ch, why, sizeof why), 0);
	CHECK(strstr(why, "holds at binding 0"));
	CHECK(graph_add_broken_node(&h, (unsigned)op_find("mm"), &ch, C_INNER_DIM, why, sizeof why) < 0);
	/* an unknown constraint */
	struct leaf_dim five[2] = {{-1, 0, 5}, {-1, 0, 2}};
	ch.in[1] = (uint16_t)graph_add_leaf(&h, VK_INPUT, DT_FLOAT32, 2, five, FILL_NORMAL, 0, 0, why, sizeof why);
	CHECK(graph_add_broken_node(&h, (unsigned)op_find("mm"), &ch, C_COUNT, why, sizeof why) < 0);
	CHECK(graph_add_broken_node(&h, (unsigned)op_find("mm"), &ch, C_NONE, why, sizeof why) < 0);
	/* the placeholder must stay an output */
	g.v[g.nvalues - 1].out = 0;
	CHECK(graph_validate(&g, why, sizeof why) < 0);
}

TEST(broken_codec_roundtrip_and_version_1)
{
	mm_broken();
	size_t n = codec_encode(&g, a, sizeof a);
	CHECK(n > 0 && a[3] == CODEC_VERSION);
	CHECK(codec_decode(&h, a, n, why, sizeof why) == 0);
	CHECK_EQ(h.broken, C_INNER_DIM);
	CHECK(codec_encode(&h, b, sizeof b) == n && !memcmp(a, b, n));
	CHECK(codec_decode(&h, a, n - 1, why, sizeof why) < 0);
	/* a version-1 file: the same bytes without the broken byte decode as a valid graph */
	static struct graph v1;
	tk_static(&v1);
	int x = tk_input(&v1, DT_FLOAT32, 1, (int[]){4});
	tk_node(&v1, "relu", 1, (int[]){x}, 0, NULL, why, sizeof why);
	graph_mark_sinks(&v1);
	n = codec_encode_version(&v1, 1, b, sizeof b);
	/* version 1, byte for byte as docs/formats.md lays it out: no broken byte, no grad list */
	uint32_t relu = op_hash((unsigned)op_find("relu"));
	const uint8_t want[] = {'P', '2', 'F', 1, 1, 0, 1, 2, 0, 0, 1, 0, 0, 0, 1, 8, 2, (uint8_t)relu,
				(uint8_t)(relu >> 8), (uint8_t)(relu >> 16), (uint8_t)(relu >> 24), 1, 0, 0, 1, 1};
	CHECK(n == sizeof want && !memcmp(b, want, n));
	CHECK(codec_decode(&h, b, n, why, sizeof why) == 0);
	CHECK_EQ(h.broken, C_NONE);
	CHECK(codec_hash(&h) == codec_hash(&v1));
	n = codec_encode(&v1, a, sizeof a);
	/* header: magic(3) version(1) nbind(1) nsym(1) seed(varint) broken(1) */
	size_t broken_at = 6;
	while (a[broken_at++] & 0x80)
		;
	CHECK_EQ(a[broken_at], 0);
	/* a broken byte on a graph whose last record is a valid node: refused */
	a[broken_at] = C_INNER_DIM;
	CHECK(codec_decode(&h, a, n, why, sizeof why) < 0);
	a[broken_at] = C_COUNT;
	CHECK(codec_decode(&h, a, n, why, sizeof why) < 0);
	b[3] = CODEC_VERSION + 1; /* a future version */
	CHECK(codec_decode(&h, b, n - 2, why, sizeof why) < 0);
}

TEST(broken_text_form_roundtrips_and_marks_the_node)
{
	mm_broken();
	char *text = tk_text(&g, 1);
	CHECK(strstr(text, "v3 = mm(v1, x2) breaks inner_dim  # raises: the contracted dims"));
	CHECK(text_parse(&h, text, why, sizeof why) == 0);
	CHECK_EQ(h.broken, C_INNER_DIM);
	CHECK(codec_hash(&h) == codec_hash(&g));
	free(text);
	CHECK(text_parse(&h, "bindings 1\nx0 = input float32 [3, 4]\nx1 = input float32 [5, 2]\n"
			     "v2 = mm(x0, x1) breaks no_such\noutput v2\n", why, sizeof why) < 0);
	CHECK(strstr(why, "unknown constraint 'no_such'"));
	/* a valid node marked broken, or a node after the broken one */
	CHECK(text_parse(&h, "bindings 1\nx0 = input float32 [3, 4]\nx1 = input float32 [4, 2]\n"
			     "v2 = mm(x0, x1) breaks inner_dim\noutput v2\n", why, sizeof why) < 0);
	CHECK(text_parse(&h, "bindings 1\nx0 = input float32 [3, 4]\nx1 = input float32 [5, 2]\n"
			     "v2 = mm(x0, x1) breaks inner_dim\nv3 = relu(x0)\noutput v2, v3\n", why, sizeof why) < 0);
}

TEST(broken_emission_expects_the_error)
{
	mm_broken();
	char *p = emit_program_string(&g, NULL, NULL);
	CHECK(p && strstr(p, "\nEXPECT_ERROR = \"inner_dim\"\n") && strstr(p, "DATA_DEPENDENT = False"));
	CHECK(p && strstr(p, "v3 = torch.mm(v1, x2)") && strstr(p, "MISMATCH missing-error"));
	free(p);
	tk_static(&h);
	tk_node(&h, "relu", 1, (int[]){tk_input(&h, DT_FLOAT32, 1, (int[]){4})}, 0, NULL, why, sizeof why);
	graph_mark_sinks(&h);
	p = emit_program_string(&h, NULL, NULL);
	CHECK(p && strstr(p, "\nEXPECT_ERROR = None\n"));
	free(p);
}

TEST(broken_node_survives_rebuilding_and_reducer_edits)
{
	mm_broken();
	uint8_t del[G_MAX_NODES] = {1}; /* the relu: its user reads the input instead */
	CHECK(edit_delete_nodes(&g, del, &h) == 0);
	CHECK(h.broken == C_INNER_DIM && h.nnodes == 1 && graph_validate(&h, why, sizeof why) == 0);
	CHECK(edit_make_static(&g, &h) == 0 && h.broken == C_INNER_DIM && h.nbind == 1);
	CHECK(edit_sym(&g, 0, 0, 5, &h) == 0 && h.broken);
	/* an edit that mends the node fails instead of dropping the constraint */
	static struct graph s;
	CHECK(text_parse(&s, "bindings 1\nx0 = input float32 [3, 4]\nx1 = input float32 [5, 2]\n"
			     "v2 = mm(x0, x1) breaks inner_dim\noutput v2\n", why, sizeof why) == 0);
	CHECK(edit_leaf_dim(&s, 1, 0, 4, &h) < 0);
	CHECK(edit_leaf_dim(&s, 1, 0, 2, &h) == 0 && h.broken);
	memset(del, 0, sizeof del);
	del[1] = 1;
	CHECK(edit_delete_nodes(&g, del, &h) == 0 && !h.broken); /* the broken node itself goes */
	CHECK(edit_keep_cone(&g, g.nvalues - 1, &h) == 0 && h.broken && h.nnodes == 2);
	h = g;
	CHECK(break_mend(&h) == 0 && !h.broken && h.nnodes == 1 && graph_validate(&h, why, sizeof why) == 0);
}

TEST(broken_every_breaker_applies_on_random_graphs)
{
	struct gen_opts o;
	gen_default_opts(&o);
	o.size = 6;
	o.break_pct = 100;
	for (unsigned c = C_NONE + 1; c < C_COUNT; c++) {
		o.constraint = c;
		unsigned made = 0;
		for (unsigned i = 0; i < 100; i++) {
			if (gen_graph(&g, 500 + i, &o, why, sizeof why))
				continue;
			made++;
			const char *op = op_get(g.n[g.nnodes - 1].op)->name;
			int listed = 0;
			for (const char *const *p = breaker_ops(c); *p; p++)
				listed |= !strcmp(*p, op);
			CHECK(g.broken == c && listed);
			if (!CHECK(graph_validate(&g, why, sizeof why) == 0))
				fprintf(stderr, "  %s graph %u: %s\n", constraint_name(c), i, why);
			size_t n = codec_encode(&g, a, sizeof a);
			CHECK(n && codec_decode(&h, a, n, why, sizeof why) == 0 && h.broken == c);
			for (unsigned v = 0; v < g.nvalues; v++) /* no dead leaf left behind */
				CHECK(g.v[v].kind == VK_NODE || graph_users(&g, v));
		}
		if (!CHECK(made >= 95))
			fprintf(stderr, "  %s: %u of 100 graphs broken\n", constraint_name(c), made);
		CHECK(constraint_find(constraint_name(c)) == (int)c);
	}
	/* off: generation is unchanged */
	o.break_pct = 0;
	gen_graph(&g, 7, &o, why, sizeof why);
	struct gen_opts d;
	gen_default_opts(&d);
	d.size = 6;
	gen_graph(&h, 7, &d, why, sizeof why);
	CHECK(codec_hash(&g) == codec_hash(&h) && !g.broken);
}

/* The broken nodes a known bug holds (mutators/avoid.h avoid_break): here
 * softmax breaking unsupported_dtype. */
static int softmax_unsupported(const char *op, unsigned constraint)
{
	return !strcmp(op, "softmax") && constraint == C_UNSUPPORTED_DTYPE;
}

/* Of 200 generated graphs breaking constraint, how many break it at a softmax. */
static unsigned broken_softmaxes(unsigned constraint)
{
	struct gen_opts o;
	gen_default_opts(&o);
	o.size = 6;
	o.break_pct = 100;
	o.constraint = constraint;
	unsigned n = 0;
	for (unsigned i = 0; i < 200; i++)
		if (!gen_graph(&g, 900 + i, &o, why, sizeof why) && g.broken)
			n += !strcmp(op_get(g.n[g.nnodes - 1].op)->name, "softmax");
	return n;
}

TEST(broken_nodes_of_a_known_bug_are_not_made)
{
	unsigned before = broken_softmaxes(C_UNSUPPORTED_DTYPE);
	CHECK(before > 0);
	avoid_break_use(softmax_unsupported);
	CHECK_EQ(broken_softmaxes(C_UNSUPPORTED_DTYPE), 0);
	/* softmax breaks its other constraints still */
	CHECK(broken_softmaxes(C_ATTR_DOMAIN) > 0);
	avoid_break_use(NULL);
}

TEST(broken_share_of_mutated_inputs_follows_break_pct)
{
	struct gen_opts o;
	gen_default_opts(&o);
	o.size = 8;
	unsigned broken = 0, mended = 0;
	for (unsigned i = 0; i < 200; i++) {
		gen_graph(&g, 900 + i, &o, why, sizeof why);
		size_t n = codec_encode(&g, a, sizeof a);
		int which;
		n = mutate_bytes(a, n, sizeof a, i, 100, &which, NULL);
		CHECK(codec_decode(&h, a, n, why, sizeof why) == 0);
		broken += h.broken != 0;
		CHECK(!h.broken || !strcmp(mutator_name((unsigned)which), "break"));
		/* 0%: a near-invalid input comes back valid */
		n = mutate_bytes(a, n, sizeof a, i, 0, &which, NULL);
		CHECK(codec_decode(&h, a, n, why, sizeof why) == 0);
		mended += !h.broken;
		n = crossover_bytes(a, n, b, codec_encode(&g, b, sizeof b), a, sizeof a, i, 100, NULL, NULL);
		CHECK(!n || codec_decode(&h, a, n, why, sizeof why) == 0);
	}
	CHECK(broken >= 190);
	CHECK_EQ(mended, 200);
	CHECK(mutator_find("break") >= 0);
}
