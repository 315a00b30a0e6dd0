/* Graph inputs passed as Python numbers (layout number): which ops read them
 * and how (graph/ops/scalar.c), the codec and text round trips, the
 * program's spelling, the reducer dropping one nothing reads, and which graph
 * input compiled mode changes between calls (emit_remutated_input). */
#include <stdlib.h>
#include <string.h>
#include "../graph/codec.h"
#include "../graph/compile_config.h"
#include "../graph/emit.h"
#include "../graph/real.h"
#include "../graph/text.h"
#include "../mutators/edits.h"
#include "test.h"
#include "testkit.h"

static char why[300];

/* A graph input of dtype dt passed as a Python number, its draws in [lo, hi] (integers) or normal. */
static int number(struct graph *g, enum dtype dt, enum fill fill, int64_t lo, int64_t hi)
{
	int id = tk_leaf(g, dt, 0, NULL, fill, lo, hi);
	CHECK(id >= 0);
	CHECK_EQ(graph_set_layout(g, (unsigned)id, IL_NUMBER, why, sizeof why), 0);
	return id;
}

/* op(x, k): the number input k in place of the op's number attribute. */
static int with_number(struct graph *g, const char *op, int x, int k)
{
	return tk_node(g, op, 2, (int[]){x, k}, 0, NULL, why, sizeof why);
}

/* x: float32 [2, s0]; f: a float; i: an int in [1, 7]; b: a bool; each op reading one. */
static void number_graph(struct graph *g)
{
	tk_dynamic(g, 3, (int32_t[]){3, 5, 7});
	int x = tk_input(g, DT_FLOAT32, 2, (int[]){2, -1});
	int n = tk_leaf(g, DT_INT32, 1, (int[]){4}, FILL_RANGE, -5, 5);
	int f = number(g, DT_FLOAT64, FILL_NORMAL, 0, 0);
	int i = number(g, DT_INT64, FILL_RANGE, 1, 7);
	int b = number(g, DT_BOOL, FILL_RANGE, 0, 1);
	int outs[] = {with_number(g, "mul_scalar", x, f), with_number(g, "clamp_min_scalar", x, f),
		      with_number(g, "pow_py_scalar", x, f), with_number(g, "floor_divide_int_scalar", n, i),
		      with_number(g, "eq_int_scalar", n, b)};
	for (unsigned k = 0; k < sizeof outs / sizeof outs[0]; k++) {
		CHECK(outs[k] >= 0);
		graph_set_output(g, g->n[outs[k]].out0, 1, NULL, 0);
	}
}

TEST(scalar_inputs_round_trip_codec_and_text)
{
	struct graph g, back, parsed;
	number_graph(&g);
	uint8_t buf[CODEC_MAX_SIZE];
	size_t len = codec_encode(&g, buf, sizeof buf);
	CHECK(len > 0);
	CHECK_EQ(codec_decode(&back, buf, len, why, sizeof why), 0);
	CHECK_EQ(codec_hash(&back), codec_hash(&g));
	CHECK(graph_is_number(&back, 2) && graph_is_number(&back, 3) && graph_is_number(&back, 4));
	CHECK_EQ(codec_encode_version(&g, 3, buf, sizeof buf), 0); /* layouts begin with version 4 */
	char *text = tk_text(&g, 0);
	CHECK(strstr(text, "x2 = input float64 [] number") != NULL);
	CHECK(strstr(text, "x3 = input int64 [] range 1 7 number") != NULL);
	CHECK(strstr(text, "= mul_scalar(x0, x2)\n") != NULL); /* no value= where the input gives it */
	CHECK_EQ(text_parse(&parsed, text, why, sizeof why), 0);
	CHECK_EQ(codec_hash(&parsed), codec_hash(&g));
	free(text);
}

TEST(scalar_inputs_go_only_where_a_python_number_does)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT16, 1, (int[]){4});
	int n = tk_leaf(&g, DT_INT64, 1, (int[]){4}, FILL_RANGE, -5, 5);
	int f = number(&g, DT_FLOAT64, FILL_NORMAL, 0, 0);
	int special = number(&g, DT_FLOAT64, FILL_SPECIAL, 0, 0);
	int i = number(&g, DT_INT64, FILL_RANGE, -1, 1);
	CHECK(tk_node(&g, "sin", 1, &f, 0, NULL, why, sizeof why) < 0);        /* a tensor op */
	CHECK(tk_node(&g, "mul", 2, (int[]){x, f}, 0, NULL, why, sizeof why) < 0);
	CHECK(tk_node(&g, "times_0dim", 2, (int[]){x, f}, 0, NULL, why, sizeof why) < 0);
	CHECK(tk_node(&g, "mul_scalar", 2, (int[]){x, f}, 1, (int64_t[]){0}, why, sizeof why) < 0); /* and the attribute */
	CHECK(with_number(&g, "mul_scalar", x, n) < 0);                 /* the extra input is a number */
	CHECK(with_number(&g, "mul_scalar", x, i) < 0);                 /* a float op takes a Python float */
	CHECK(with_number(&g, "clamp_min_scalar", x, special) < 0);     /* 3e38 overflows float16 */
	CHECK(with_number(&g, "add_scalar", x, special) >= 0);          /* x + 3e38 is inf, no error */
	CHECK(with_number(&g, "floor_divide_int_scalar", n, i) < 0);    /* may divide by 0 */
	CHECK(with_number(&g, "add_int_scalar", n, i) >= 0);
	CHECK_EQ(tk_out(&g, with_number(&g, "mul_scalar", x, f), 0)->dtype, DT_FLOAT16); /* a weak float */
	int y = tk_input(&g, DT_FLOAT32, 1, (int[]){4}), r = tk_input(&g, DT_FLOAT64, 1, (int[]){4});
	CHECK(graph_set_layout(&g, (unsigned)y, IL_NUMBER, why, sizeof why) < 0); /* rank 1 */
	int z = tk_input(&g, DT_FLOAT32, 0, NULL);
	CHECK(graph_set_layout(&g, (unsigned)z, IL_NUMBER, why, sizeof why) < 0); /* a Python float is float64 */
	CHECK(graph_set_grad(&g, (unsigned)f, 1, why, sizeof why) < 0);
	CHECK(graph_set_grad(&g, (unsigned)r, 1, why, sizeof why) == 0);
}

TEST(scalar_inputs_spelled_as_forward_arguments)
{
	struct graph g;
	number_graph(&g);
	char *prog = emit_program_string(&g, NULL, NULL);
	CHECK(prog != NULL);
	CHECK(strstr(prog, "def forward(self, x0, x1, x2, x3, x4):") != NULL);
	CHECK(strstr(prog, " = x0 * x2\n") != NULL);
	CHECK(strstr(prog, "torch.clamp_min(x0, x2)") != NULL);
	CHECK(strstr(prog, " = x0 ** x2\n") != NULL);
	CHECK(strstr(prog, "((), torch.float64, \"normal\", 0, 0, \"number\")") != NULL);
	CHECK(strstr(prog, "REMUTATE = 0\n") != NULL); /* x0, the first tensor input read */
	free(prog);
}

TEST(scalar_inputs_nothing_reads_are_dropped_by_the_reducer)
{
	struct graph g, out;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int f = number(&g, DT_FLOAT64, FILL_NORMAL, 0, 0);
	int a = with_number(&g, "mul_scalar", x, f);
	int s = tk_node(&g, "sin", 1, &x, 0, NULL, why, sizeof why);
	CHECK(a >= 0 && s >= 0);
	graph_set_output(&g, g.n[a].out0, 1, NULL, 0);
	graph_set_output(&g, g.n[s].out0, 1, NULL, 0);
	uint8_t del[G_MAX_NODES] = {0};
	del[a] = 1;
	CHECK_EQ(edit_delete_nodes(&g, del, &out), 0);
	for (unsigned i = 0; i < out.nvalues; i++)
		CHECK(!graph_is_number(&out, i));
	CHECK_EQ(out.nvalues, 2u); /* x and sin(x) */
}

TEST(scalar_inputs_remutated_input_is_skipped_where_values_may_not_change)
{
	struct graph g;
	tk_static(&g);
	int f = number(&g, DT_FLOAT64, FILL_NORMAL, 0, 0);
	int e = tk_input(&g, DT_FLOAT32, 2, (int[]){1, 4});
	CHECK_EQ(graph_set_layout(&g, (unsigned)e, IL_EXPANDED, why, sizeof why), 0);
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int a = with_number(&g, "mul_scalar", e, f), b = tk_node(&g, "sin", 1, &x, 0, NULL, why, sizeof why);
	CHECK(a >= 0 && b >= 0);
	graph_set_output(&g, g.n[a].out0, 1, NULL, 0);
	graph_set_output(&g, g.n[b].out0, 1, NULL, 0);
	CHECK_EQ(emit_remutated_input(&g), x); /* not the number, not the expanded input */
	struct graph frozen = g;
	struct graph_config c = g.config;
	CHECK_EQ(graph_config_read(&c, "inductor.freezing", "True", why, sizeof why), 0);
	CHECK_EQ(graph_set_config(&frozen, &c, why, sizeof why), 0);
	CHECK_EQ(emit_remutated_input(&frozen), -1);
	int y = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	CHECK(tk_node(&g, "add_", 2, (int[]){y, x}, 0, NULL, why, sizeof why) >= 0); /* forward() writes y */
	CHECK_EQ(emit_remutated_input(&g), -1);
}

/* A component reading a number is named by the structure word number_input
 * (a known bug's line can name it); one that reads none is not. */
TEST(scalar_inputs_named_by_a_structure_word)
{
	struct graph g;
	number_graph(&g);
	const char *words[GRAPH_STRUCTURE_WORDS];
	unsigned n = graph_structure_words(&g, NULL, words, GRAPH_STRUCTURE_WORDS);
	CHECK(n == 1 && !strcmp(words[0], "number_input"));
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	CHECK(tk_node(&g, "sin", 1, &x, 0, NULL, why, sizeof why) >= 0);
	CHECK_EQ(graph_structure_words(&g, NULL, words, GRAPH_STRUCTURE_WORDS), 0);
}

/* How many times the graph's structure words name identity_output. */
static unsigned identity_output_words(struct graph *g)
{
	graph_mark_sinks(g);
	const char *words[GRAPH_STRUCTURE_WORDS];
	unsigned n = graph_structure_words(g, NULL, words, GRAPH_STRUCTURE_WORDS), named = 0;
	for (unsigned i = 0; i < n; i++)
		named += !strcmp(words[i], "identity_output");
	return named;
}

/* A graph output that is a leaf under an identity (x * 1, x + 0, in its own
 * dtype) is named identity_output: a compiler that drops the node returns
 * the leaf itself (pytorch#197893). Another number, a node's value, an
 * output read further, or a promoted dtype is not. */
static unsigned identity_words(const char *op, enum dtype dt, double number, int through_sin, int read_further)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, dt, 1, (int[]){4});
	if (through_sin)
		x = g.n[tk_node(&g, "sin", 1, &x, 0, NULL, why, sizeof why)].out0;
	int64_t attr = strstr(op, "_int_") ? (int64_t)number : real_bits(number);
	int k = tk_node(&g, op, 1, &x, 1, &attr, why, sizeof why);
	if (!CHECK(k >= 0))
		return 99;
	if (read_further) {
		int y = g.n[k].out0;
		CHECK(tk_node(&g, "cos", 1, &y, 0, NULL, why, sizeof why) >= 0);
	}
	return identity_output_words(&g);
}

TEST(identity_of_a_returned_leaf_named_by_a_structure_word)
{
	CHECK_EQ(identity_words("mul_scalar", DT_FLOAT32, 1.0, 0, 0), 1);
	CHECK_EQ(identity_words("add_scalar", DT_FLOAT32, -0.0, 0, 0), 1);
	CHECK_EQ(identity_words("times_0dim", DT_FLOAT32, 1.0, 0, 0), 1);
	CHECK_EQ(identity_words("add_int_scalar", DT_INT64, 0, 0, 0), 1);
	CHECK_EQ(identity_words("mul_scalar", DT_FLOAT32, 2.0, 0, 0), 0); /* not an identity */
	CHECK_EQ(identity_words("sub_scalar", DT_FLOAT32, 1.0, 0, 0), 0);
	CHECK_EQ(identity_words("mul_scalar", DT_FLOAT32, 1.0, 1, 0), 0); /* of a node's value */
	CHECK_EQ(identity_words("mul_scalar", DT_FLOAT32, 1.0, 0, 1), 0); /* not returned */
	CHECK_EQ(identity_words("add_scalar", DT_INT64, 0.0, 0, 0), 0);   /* promoted to float32 */
	/* an int forward() argument that may be 0 (Dynamo specializes it), or may not */
	for (int lo = 0; lo <= 1; lo++) {
		struct graph g;
		tk_static(&g);
		int x = tk_input(&g, DT_INT64, 1, (int[]){4});
		int k = with_number(&g, "sub_int_scalar", x, number(&g, DT_INT64, FILL_RANGE, lo, 3));
		CHECK(k >= 0);
		CHECK_EQ(identity_output_words(&g), lo == 0);
	}
}
