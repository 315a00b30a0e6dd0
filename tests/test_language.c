/* The graph language beyond functional float graphs: in-place writes and
 * what they reach, module state, factories, input layouts, chosen fills,
 * small integer dtypes, empty tensors and the device target. Each test says
 * what the rules accept, what they refuse, and what reaches the program. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../graph/capabilities.h"
#include "../graph/codec.h"
#include "../graph/emit.h"
#include "../graph/real.h"
#include "../graph/text.h"
#include "../graph/validate.h"
#include "../mutators/gen.h"
#include "test.h"
#include "testkit.h"

static struct graph g, h;
static char why[300];
static uint8_t a[CODEC_MAX_SIZE], b[CODEC_MAX_SIZE];

static int node_out(int k) { return k < 0 ? -1 : g.n[k].out0; }

TEST(inplace_target_must_be_writable_and_apart)
{
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){1, 4});
	int y = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int i = tk_input(&g, DT_INT64, 2, (int[]){3, 4});
	/* an expanded view has elements that share memory: eager refuses to write it */
	int e = node_out(tk_node(&g, "expand", 1, &x, 3, (int64_t[]){2, 3, 4}, why, sizeof why));
	CHECK(e >= 0 && g.v[e].overlap);
	CHECK(tk_node(&g, "add_", 2, (int[]){e, y}, 0, NULL, why, sizeof why) < 0);
	CHECK(strstr(why, "share memory") != NULL);
	/* an integer target may be an index whose bounds matter */
	CHECK(tk_node(&g, "relu_", 1, &i, 0, NULL, why, sizeof why) < 0);
	/* an operand sharing the target's memory (a view of it) overlaps what is written */
	int t = node_out(tk_node(&g, "transpose", 1, &x, 2, (int64_t[]){0, 1}, why, sizeof why));
	int s = node_out(tk_node(&g, "squeeze", 1, &t, 1, (int64_t[]){1}, why, sizeof why));
	CHECK(s >= 0 && g.v[s].root == (unsigned)x);
	CHECK(tk_node(&g, "add_", 2, (int[]){x, s}, 0, NULL, why, sizeof why) < 0);
	/* a result larger than the target (broadcasting it) cannot be written into it */
	int big = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	CHECK(tk_node(&g, "add_", 2, (int[]){x, big}, 0, NULL, why, sizeof why) < 0);
	/* a result type the target cannot hold: float into bool */
	int m = tk_input(&g, DT_BOOL, 1, (int[]){4});
	CHECK(tk_node(&g, "add_", 2, (int[]){m, y}, 0, NULL, why, sizeof why) < 0);
	CHECK(strstr(why, "can't be cast") != NULL);
	/* what holds: a float target, a broadcast operand; the value is the target */
	int k = tk_node(&g, "add_", 2, (int[]){x, y}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(g.v[node_out(k)].root, (unsigned)x);
	CHECK_EQ(g.v[node_out(k)].dtype, DT_FLOAT32);
	graph_mark_sinks(&g);
	CHECK(graph_validate(&g, why, sizeof why) == 0);
}

TEST(inplace_writes_reach_leaves_through_views)
{
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int y = tk_input(&g, DT_FLOAT32, 1, (int[]){3});
	int t = node_out(tk_node(&g, "transpose", 1, &x, 2, (int64_t[]){0, 1}, why, sizeof why));
	int w = node_out(tk_node(&g, "mul_", 2, (int[]){t, y}, 0, NULL, why, sizeof why));
	CHECK(w >= 0);
	int tied = 1;
	CHECK(graph_leaf_written(&g, (unsigned)x, &tied) && !tied);
	CHECK(!graph_leaf_written(&g, (unsigned)y, NULL));
	CHECK(!graph_leaf_written(&g, (unsigned)t, NULL)); /* node values are not leaves */
	/* a value that depends on tie-broken indices, written into x: x is not compared */
	int am = node_out(tk_node(&g, "argmax", 1, &x, 2, (int64_t[]){1, 1}, why, sizeof why));
	int f = node_out(tk_node(&g, "to_float", 1, &am, 0, NULL, why, sizeof why));
	CHECK(am >= 0 && f >= 0 && g.v[f].tie);
	CHECK(tk_node(&g, "add_", 2, (int[]){x, f}, 0, NULL, why, sizeof why) >= 0);
	CHECK(graph_leaf_written(&g, (unsigned)x, &tied) && tied);
	graph_mark_sinks(&g);
	/* the program compares x after the call, but not its values: they follow ties */
	char *p = emit_program_string(&g, NULL, NULL);
	CHECK(p && strstr(p, "\nMUTATED = (0,)\n"));
	uint8_t cmp[64];
	unsigned n = emit_compared(&g, NULL, cmp, sizeof cmp);
	CHECK_EQ(n, graph_noutputs(&g) + 1);
	CHECK_EQ(cmp[n - 1], 0);
	free(p);
}

TEST(inplace_and_gradients_exclude_each_other)
{
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int y = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int r = node_out(tk_node(&g, "relu", 1, &x, 0, NULL, why, sizeof why));
	CHECK(graph_set_grad(&g, (unsigned)x, 1, why, sizeof why) == 0);
	CHECK(tk_node(&g, "add_", 2, (int[]){r, y}, 0, NULL, why, sizeof why) < 0);
	CHECK(graph_set_grad(&g, (unsigned)x, 0, why, sizeof why) == 0);
	CHECK(tk_node(&g, "add_", 2, (int[]){r, y}, 0, NULL, why, sizeof why) >= 0);
	CHECK(graph_set_grad(&g, (unsigned)y, 1, why, sizeof why) < 0);
	CHECK(strstr(why, "in place") != NULL);
	/* a backward campaign generates no in-place op */
	struct gen_opts o;
	gen_set_campaign(TARGET_ANY, 1);
	gen_default_opts(&o);
	gen_set_campaign(TARGET_ANY, 0);
	o.size = 20;
	for (uint64_t s = 0; s < 100; s++)
		if (!gen_graph(&g, s, &o, why, sizeof why))
			CHECK(!graph_has_inplace(&g));
}

/* graph_has_step: what keeps the oracle from excusing a difference as
 * ill-conditioning (docs/oracle.md, "Nudged inputs"). */
TEST(steps_are_step_ops_their_inplace_forms_and_float_to_int_nodes)
{
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int y = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int e = node_out(tk_node(&g, "exp", 1, &x, 0, NULL, why, sizeof why));
	int m = node_out(tk_node(&g, "mean_all", 1, &e, 0, NULL, why, sizeof why));
	CHECK(e >= 0 && m >= 0);
	CHECK(!graph_has_step(&g, NULL)); /* continuous */
	CHECK(tk_node(&g, "floor", 1, &e, 0, NULL, why, sizeof why) >= 0);
	CHECK(graph_has_step(&g, NULL));
	tk_static(&g);
	x = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	y = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int r = node_out(tk_node(&g, "relu", 1, &x, 0, NULL, why, sizeof why));
	CHECK(tk_node(&g, "floor_", 1, &r, 0, NULL, why, sizeof why) >= 0); /* the step of its base */
	CHECK(graph_has_step(&g, NULL));
	tk_static(&g);
	x = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	y = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	CHECK(tk_node(&g, "lt", 2, (int[]){x, y}, 0, NULL, why, sizeof why) >= 0); /* float in, bool out */
	CHECK(graph_has_step(&g, NULL));
	uint8_t none[G_MAX_NODES] = {0}, all[G_MAX_NODES] = {1};
	CHECK(!graph_has_step(&g, none)); /* only the nodes member marks */
	CHECK(graph_has_step(&g, all));
}

TEST(state_leaves_are_written_and_named)
{
	tk_static(&g);
	struct leaf_dim d4 = {-1, 0, 4};
	int p = graph_add_leaf(&g, VK_PARAM, DT_FLOAT32, 1, &d4, FILL_NORMAL, 0, 0, why, sizeof why);
	int bu = graph_add_leaf(&g, VK_BUFFER, DT_FLOAT32, 1, &d4, FILL_CONST, 1500, 1500, why, sizeof why);
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	CHECK(p >= 0 && bu >= 0);
	/* module state is static */
	struct leaf_dim dyn = {0, 1, 0};
	tk_dynamic(&h, 2, (int32_t[]){3, 5});
	CHECK(graph_add_leaf(&h, VK_BUFFER, DT_FLOAT32, 1, &dyn, FILL_NORMAL, 0, 0, why, sizeof why) < 0);
	CHECK(tk_node(&g, "add_", 2, (int[]){p, x}, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "slice_assign", 2, (int[]){bu, x}, 2, (int64_t[]){1, 3}, why, sizeof why) < 0); /* x: 4 != 2 */
	int one = tk_input(&g, DT_FLOAT32, 1, (int[]){1});
	CHECK(tk_node(&g, "slice_assign", 2, (int[]){bu, one}, 2, (int64_t[]){1, 3}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "slice_assign", 2, (int[]){bu, one}, 2, (int64_t[]){3, 5}, why, sizeof why) < 0);
	graph_mark_sinks(&g);
	CHECK(graph_grad_refused(&g, (unsigned)bu, why, sizeof why));
	char *prog = emit_program_string(&g, NULL, NULL);
	CHECK(prog && strstr(prog, "\nMUTATED = (\"p0\", \"b1\")\n"));
	CHECK(prog && strstr(prog, "self.register_buffer(\"b1\", fill((4,), torch.float32, \"const\", 1500, 1500, gen))"));
	/* a statement spelling: the assignment, then the node's value is the target */
	CHECK(prog && strstr(prog, "        self.b1[1:3] = x4\n        v"));
	free(prog);
	/* AOTInductor packages keep their own copy of the state: only inputs are compared */
	struct emit_opts aoti = {"aoti", NULL, 0};
	prog = emit_program_string(&g, &aoti, NULL);
	CHECK(prog && strstr(prog, "\nMUTATED = ()\n"));
	free(prog);
	/* the text form and the codec carry state, fills and writes */
	char *text = tk_text(&g, 0);
	CHECK(text && strstr(text, "b1 = buffer float32 [4] const 1.5\n"));
	CHECK(text_parse(&h, text, why, sizeof why) == 0);
	size_t n = codec_encode(&h, a, sizeof a);
	CHECK(n && n == codec_encode(&g, b, sizeof b) && !memcmp(a, b, n));
	free(text);
}

/* g's sinks marked and g through the codec into h; whether its program
 * says each of the three texts. */
static int program_says(const char *t1, const char *t2, const char *t3)
{
	graph_mark_sinks(&g);
	char *p = emit_program_string(&g, NULL, NULL);
	size_t n = codec_encode(&g, a, sizeof a);
	CHECK(n && codec_decode(&h, a, n, why, sizeof why) == 0);
	int says = p && strstr(p, t1) && strstr(p, t2) && strstr(p, t3);
	free(p);
	return says;
}

TEST(layouts_suit_their_rank_and_mark_memory)
{
	tk_static(&g);
	int x4 = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 3, 4, 5});
	int x3 = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, 4});
	int x1 = tk_input(&g, DT_FLOAT32, 1, (int[]){3});
	CHECK(graph_set_layout(&g, (unsigned)x4, IL_CHANNELS_LAST, why, sizeof why) == 0);
	CHECK(!g.v[x4].contig && !g.v[x4].overlap);
	CHECK(graph_set_layout(&g, (unsigned)x3, IL_CHANNELS_LAST, why, sizeof why) < 0);
	CHECK(graph_set_layout(&g, (unsigned)x3, IL_CHANNELS_LAST_3D, why, sizeof why) < 0);
	CHECK(graph_set_layout(&g, (unsigned)x1, IL_TRANSPOSED, why, sizeof why) < 0);
	CHECK(graph_set_layout(&g, (unsigned)x3, IL_EXPANDED, why, sizeof why) == 0);
	CHECK(g.v[x3].overlap);
	CHECK(graph_set_layout(&g, (unsigned)x1, IL_OFFSET, why, sizeof why) == 0);
	CHECK(g.v[x1].contig); /* a view at an offset of contiguous memory: .view() works */
	CHECK(tk_node(&g, "relu", 1, &x1, 0, NULL, why, sizeof why) >= 0);
	/* set before any node reads it, so what nodes derived from it stays true */
	CHECK(graph_set_layout(&g, (unsigned)x1, IL_STRIDED, why, sizeof why) < 0);
	CHECK(program_says("((2, 3, 4, 5), torch.float32, \"normal\", 0, 0, \"channels_last\")", "\"expanded\")",
			   "\"offset\")"));
	CHECK_EQ(h.v[x4].layout, IL_CHANNELS_LAST);
	CHECK_EQ(h.v[x3].layout, IL_EXPANDED);
	/* a version-3 file cannot say a layout; one without layouts still decodes */
	CHECK(codec_encode_version(&g, 3, a, sizeof a) == 0);
	char *text = tk_text(&g, 0);
	CHECK(text && strstr(text, "x0 = input float32 [2, 3, 4, 5] channels_last\n"));
	free(text);
}

/* Inputs that share memory: SAME and VIEW need an earlier input described
 * alike, take its memory (root) so in-place writes know, carry through the
 * codec and the text form, and the program says whose memory (SHARES). */
TEST(shared_inputs_take_an_earlier_inputs_memory)
{
	tk_static(&g);
	int x0 = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 6});
	int y = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 5});
	int x2 = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 6});
	int x3 = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 6});
	CHECK(graph_set_layout(&g, (unsigned)y, IL_SAME, why, sizeof why) < 0); /* no input of its dims before it */
	CHECK(strstr(why, "no earlier input") != NULL);
	CHECK(graph_set_layout(&g, (unsigned)x2, IL_SAME, why, sizeof why) == 0);
	CHECK_EQ(graph_input_partner(&g, (unsigned)x2), x0);
	CHECK_EQ(g.v[x2].root, x0);
	CHECK(graph_set_layout(&g, (unsigned)x3, IL_VIEW, why, sizeof why) == 0);
	CHECK_EQ(graph_input_partner(&g, (unsigned)x3), x2); /* the nearest, whose memory is x0's */
	CHECK_EQ(g.v[x3].root, x0);
	CHECK(graph_has_shared_inputs(&g));
	CHECK(graph_grad_refused(&g, (unsigned)x3, why, sizeof why)); /* shared memory takes no gradient */
	CHECK(graph_grad_refused(&g, (unsigned)x0, why, sizeof why) == 0);
	/* a write into x3 may not read x0: they are one memory */
	CHECK(tk_node(&g, "add_", 2, (int[]){x3, x0}, 0, NULL, why, sizeof why) < 0);
	int w = tk_input(&g, DT_FLOAT32, 1, (int[]){6});
	CHECK(tk_node(&g, "add_", 2, (int[]){x3, w}, 0, NULL, why, sizeof why) >= 0);
	CHECK(graph_leaf_written(&g, (unsigned)x0, NULL));
	/* the known-bug list's word for a write into shared memory, beside the view write's */
	const char *words[GRAPH_STRUCTURE_WORDS];
	unsigned nwords = graph_structure_words(&g, NULL, words, GRAPH_STRUCTURE_WORDS);
	CHECK_EQ(nwords, 2);
	CHECK(nwords == 2 && !strcmp(words[1], "inplace_shared_input"));
	CHECK(program_says("\nSHARES = {2: 0, 3: 2}\n", "\"same\")", "\"view\")"));
	CHECK_EQ(h.v[x2].layout, IL_SAME);
	CHECK_EQ(h.v[x3].layout, IL_VIEW);
	CHECK_EQ(h.v[x3].root, x0);
	char *text = tk_text(&g, 0);
	CHECK(text && strstr(text, "x2 = input float32 [4, 6] same\n") && strstr(text, "x3 = input float32 [4, 6] view\n"));
	CHECK(text && text_parse(&h, text, why, sizeof why) == 0 && h.v[x3].root == x0);
	free(text);
	/* the generator draws them */
	struct gen_opts o;
	gen_default_opts(&o);
	unsigned same = 0, view = 0;
	for (uint64_t s = 0; s < 300; s++)
		if (!gen_graph(&h, s, &o, why, sizeof why))
			for (unsigned i = 0; i < h.nvalues; i++)
				if (h.v[i].kind == VK_INPUT) {
					same += h.v[i].layout == IL_SAME;
					view += h.v[i].layout == IL_VIEW;
				}
	CHECK(same > 0 && view > 0);
}

TEST(empty_tensors_only_where_ops_take_them)
{
	tk_static(&g);
	int e = tk_input(&g, DT_FLOAT32, 2, (int[]){0, 3});
	CHECK(value_has_empty_dim(&g, &g.v[e]));
	/* a size of 0 is a size; a negative one is no size (the text form could not say it) */
	struct leaf_dim neg = {-1, 0, -7};
	CHECK(graph_add_leaf(&g, VK_INPUT, DT_FLOAT32, 1, &neg, FILL_NORMAL, 0, 0, why, sizeof why) < 0);
	CHECK(tk_node(&g, "exp", 1, &e, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "to_double", 1, &e, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "softmax", 1, &e, 1, (int64_t[]){1}, why, sizeof why) < 0);
	CHECK(strstr(why, "empty") != NULL);
	/* a factory may make one: sizes of 0 */
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){3});
	int z = node_out(tk_node(&g, "zeros", 1, &x, 4, (int64_t[]){DT_FLOAT32, 2, 0, 5}, why, sizeof why));
	CHECK(z >= 0 && g.v[z].dim[0][0] == 0 && g.v[z].dim[0][1] == 5);
	/* generation keeps empty inputs away from ops that do not take them */
	struct gen_opts o;
	gen_default_opts(&o);
	o.size = 16;
	unsigned empty = 0;
	for (uint64_t s = 0; s < 300; s++) {
		if (gen_graph(&h, s, &o, why, sizeof why))
			continue;
		CHECK(graph_validate(&h, why, sizeof why) == 0);
		for (unsigned k = 0; k < h.nnodes; k++)
			for (unsigned j = 0; j < h.n[k].nin; j++)
				if (value_has_empty_dim(&h, &h.v[h.n[k].in[j]])) {
					empty++;
					CHECK(op_get(h.n[k].op)->empty_ok);
				}
	}
	CHECK(empty > 0);
}

TEST(factories_hold_their_values_and_follow_dims)
{
	static const int32_t vals[2] = {3, 6};
	tk_dynamic(&g, 2, vals);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){-1, 4});
	/* a size that follows input 0's dim 0 (dynamic), and a static one */
	int f = node_out(tk_node(&g, "full", 1, &x, 5, (int64_t[]){real_bits(2.5), DT_FLOAT32, 2, -2, 7}, why, sizeof why));
	CHECK(f >= 0 && g.v[f].dim[0][0] == 3 && g.v[f].dim[1][0] == 6 && g.v[f].dim[1][1] == 7);
	/* an integer dtype holds integral values only, within its range */
	CHECK(tk_node(&g, "full", 1, &x, 4, (int64_t[]){real_bits(2.5), DT_INT64, 1, 2}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "full", 1, &x, 4, (int64_t[]){real_bits(-1.0), DT_UINT8, 1, 2}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "full", 1, &x, 4, (int64_t[]){real_bits(200.0), DT_UINT8, 1, 2}, why, sizeof why) >= 0);
	/* a float dtype holds any real number within its range: 1e-30, -0.0, NaN, but not 1e+10 in float16 */
	CHECK(tk_node(&g, "full", 1, &x, 4, (int64_t[]){real_bits(1e-30), DT_FLOAT16, 1, 2}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "full", 1, &x, 4, (int64_t[]){real_bits(-0.0), DT_BFLOAT16, 1, 2}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "full_like", 1, &x, 2, (int64_t[]){real_bits(NAN), DT_FLOAT32}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "full", 1, &x, 4, (int64_t[]){real_bits(1e10), DT_FLOAT16, 1, 2}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "full_like", 1, &x, 2, (int64_t[]){real_bits(NAN), DT_INT32}, why, sizeof why) < 0);
	/* arange over a dynamic dim: an int64 index in [0, size - 1] */
	int r = node_out(tk_node(&g, "arange_dim", 1, &x, 1, (int64_t[]){0}, why, sizeof why));
	CHECK(r >= 0 && g.v[r].dtype == DT_INT64 && g.v[r].lo == 0 && g.v[r].hi == 5);
	CHECK(g.v[r].dyn == 1);
	/* arange's length is exact: 0, 2, 4 */
	int ar = node_out(tk_node(&g, "arange", 1, &x, 4, (int64_t[]){0, 5, 2, DT_INT64}, why, sizeof why));
	CHECK(ar >= 0 && g.v[ar].dim[0][0] == 3 && g.v[ar].hi == 4);
	/* a 0-dim float operand with an int tensor promotes to float32 */
	int i = tk_input(&g, DT_INT32, 1, (int[]){4});
	int t = node_out(tk_node(&g, "times_0dim", 1, &i, 1, (int64_t[]){real_bits(2.0)}, why, sizeof why));
	CHECK(t >= 0 && g.v[t].dtype == DT_FLOAT32);
	graph_mark_sinks(&g);
	char *p = emit_program_string(&g, NULL, NULL);
	CHECK(p && strstr(p, "torch.full((x0.size(0), 7), 2.5, dtype=torch.float32, device=x0.device)"));
	free(p);
}

TEST(small_integer_dtypes_promote_and_hold_ranges)
{
	CHECK_EQ(dtype_promote(DT_INT8, DT_UINT8), DT_INT16);
	CHECK_EQ(dtype_promote(DT_UINT8, DT_INT16), DT_INT16);
	CHECK_EQ(dtype_promote(DT_UINT8, DT_INT32), DT_INT32);
	CHECK_EQ(dtype_promote(DT_INT16, DT_INT8), DT_INT16);
	CHECK_EQ(dtype_promote(DT_UINT8, DT_FLOAT16), DT_FLOAT16);
	CHECK_EQ(dtype_promote(DT_UINT8, DT_BOOL), DT_UINT8);
	tk_static(&g);
	struct leaf_dim d3 = {-1, 0, 3};
	CHECK(graph_add_leaf(&g, VK_INPUT, DT_UINT8, 1, &d3, FILL_RANGE, -1, 5, why, sizeof why) < 0);
	CHECK(graph_add_leaf(&g, VK_INPUT, DT_INT8, 1, &d3, FILL_RANGE, -128, 127, why, sizeof why) >= 0);
	int u = graph_add_leaf(&g, VK_INPUT, DT_UINT8, 1, &d3, FILL_RANGE, 0, 255, why, sizeof why);
	CHECK(u >= 0);
	/* sums of small integers are int64; all/any of uint8 stay uint8 */
	int s = node_out(tk_node(&g, "sum_all", 1, &u, 0, NULL, why, sizeof why));
	CHECK(s >= 0 && g.v[s].dtype == DT_INT64);
	int al = node_out(tk_node(&g, "all_all", 1, &u, 0, NULL, why, sizeof why));
	CHECK(al >= 0 && g.v[al].dtype == DT_UINT8);
	/* a cast keeps bounds that fit the target */
	int c = node_out(tk_node(&g, "to_dtype", 1, &u, 1, (int64_t[]){DT_INT16}, why, sizeof why));
	CHECK(c >= 0 && g.v[c].lo == 0 && g.v[c].hi == 255);
	c = node_out(tk_node(&g, "to_dtype", 1, &u, 1, (int64_t[]){DT_INT8}, why, sizeof why));
	CHECK(c >= 0 && g.v[c].lo == INT8_MIN && g.v[c].hi == INT8_MAX);
}

TEST(target_decides_sizes_and_cpu_only_ops)
{
	tk_static(&g);
	int a8 = tk_input(&g, DT_INT8, 2, (int[]){3, 4});
	int b8 = tk_input(&g, DT_INT8, 2, (int[]){4, 2});
	CHECK(tk_node(&g, "mm_int", 2, (int[]){a8, b8}, 0, NULL, why, sizeof why) < 0);
	CHECK(strstr(why, "CPU only") != NULL);
	CHECK(tk_node(&g, "mm", 2, (int[]){a8, b8}, 0, NULL, why, sizeof why) < 0); /* floats only */
	CHECK(graph_init(&g, 1, 0, 1, why, sizeof why) == 0);
	CHECK(graph_set_target(&g, TARGET_CPU, why, sizeof why) == 0);
	a8 = tk_input(&g, DT_INT8, 2, (int[]){3, 4});
	b8 = tk_input(&g, DT_INT8, 2, (int[]){4, 2});
	int k = tk_node(&g, "mm_int", 2, (int[]){a8, b8}, 0, NULL, why, sizeof why);
	CHECK(k >= 0 && g.v[node_out(k)].dtype == DT_INT8);
	CHECK(graph_set_target(&g, TARGET_GPU, why, sizeof why) < 0); /* before any value */
	graph_mark_sinks(&g);
	size_t n = codec_encode(&g, a, sizeof a);
	CHECK(n && codec_decode(&h, a, n, why, sizeof why) == 0 && h.target == TARGET_CPU);
	char *text = tk_text(&g, 0);
	CHECK(text && !strncmp(strchr(text, '\n') + 1, "target cpu\n", 11));
	CHECK(text_parse(&h, text, why, sizeof why) == 0 && h.target == TARGET_CPU);
	free(text);
	/* a GPU graph holds larger tensors */
	struct leaf_dim big[2] = {{-1, 0, 512}, {-1, 0, 512}};
	CHECK(graph_init(&g, 1, 0, 1, why, sizeof why) == 0);
	CHECK(graph_add_leaf(&g, VK_INPUT, DT_FLOAT32, 2, big, FILL_NORMAL, 0, 0, why, sizeof why) < 0);
	CHECK(graph_set_target(&g, TARGET_GPU, why, sizeof why) == 0);
	CHECK(graph_add_leaf(&g, VK_INPUT, DT_FLOAT32, 2, big, FILL_NORMAL, 0, 0, why, sizeof why) >= 0);
}

/* In-place entries (x.add_), copies (permute_copy) and other spellings of
 * one op (broadcast_to, x.T) share their base's rule and chooser, so they
 * must take what it takes. */
TEST(entries_with_a_base_agree_with_it)
{
	unsigned n = 0, inplace = 0;
	for (unsigned i = 0; i < op_count(); i++) {
		const struct op_def *op = op_get(i);
		if (!op->base)
			continue;
		int bi = op_find(op->base);
		if (!CHECK(bi >= 0))
			continue;
		inplace += op->inplace;
		const struct op_def *base = op_get((unsigned)bi);
		CHECK_EQ(op->nin_min, base->nin_min);
		CHECK_EQ(op->nin_max, base->nin_max);
		CHECK(!strcmp(op->attrs ? op->attrs : "", base->attrs ? base->attrs : ""));
		CHECK((op->dtypes & ~base->dtypes) == 0);
		n++;
	}
	CHECK(inplace > 30 && n > inplace);
}

TEST(chosen_fills_reach_the_program)
{
	tk_static(&g);
	struct leaf_dim d3 = {-1, 0, 3};
	CHECK(graph_add_leaf(&g, VK_INPUT, DT_INT32, 1, &d3, FILL_SPECIAL, 0, 0, why, sizeof why) < 0);
	CHECK(graph_add_leaf(&g, VK_INPUT, DT_FLOAT32, 1, &d3, FILL_CONST, 1500, 2000, why, sizeof why) < 0);
	int c = graph_add_leaf(&g, VK_INPUT, DT_FLOAT16, 1, &d3, FILL_CONST, -2500, -2500, why, sizeof why);
	int s = graph_add_leaf(&g, VK_INPUT, DT_FLOAT32, 1, &d3, FILL_SPECIAL, 0, 0, why, sizeof why);
	CHECK(c >= 0 && s >= 0);
	CHECK(tk_node(&g, "add", 2, (int[]){c, s}, 0, NULL, why, sizeof why) >= 0);
	graph_mark_sinks(&g);
	char *p = emit_program_string(&g, NULL, NULL);
	CHECK(p && strstr(p, "((3,), torch.float16, \"const\", -2500, -2500, \"contiguous\")"));
	CHECK(p && strstr(p, "((3,), torch.float32, \"special\", 0, 0, \"contiguous\")"));
	free(p);
	char *text = tk_text(&g, 0);
	CHECK(text && strstr(text, "= input float16 [3] const -2.5\n") && strstr(text, "= input float32 [3] special\n"));
	CHECK(text_parse(&h, text, why, sizeof why) == 0);
	free(text);
}

/* By default every capability of the language is in at least 2% of
 * generated graphs (near-invalid ones at the campaign's default share). */
TEST(every_capability_is_generated)
{
	struct gen_opts o;
	gen_set_campaign(TARGET_CPU, 0);
	gen_default_opts(&o);
	gen_set_campaign(TARGET_ANY, 0);
	o.size = 12;
	o.break_pct = 10;
	unsigned used[64] = {0}, made = 0;
	for (uint64_t s = 0; s < 1000; s++) {
		if (gen_graph(&g, 5000 + s, &o, why, sizeof why))
			continue;
		made++;
		for (unsigned c = 0; c < capability_count(); c++)
			used[c] += (unsigned)capability_used(&g, c);
	}
	for (unsigned c = 0; c < capability_count(); c++) {
		printf("  %-24s %5.1f%%\n", capability_name(c), 100.0 * used[c] / made);
		CHECK(used[c] * 50 >= made);
	}
}
