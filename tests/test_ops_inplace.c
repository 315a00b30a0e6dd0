/* In-place rows: writes into expanded views (refused but for fill_ and zero_,
 * which eager defines; near-invalid otherwise), integer targets (written when
 * the write keeps the bounds of what shares the memory), a result type the
 * target can't hold (near-invalid), and dtype views (view_dtype). */
#include <string.h>
#include "test.h"
#include "testkit.h"
#include "../graph/broken.h"

static char why[300];

/* A graph input of shape [rows, 4] laid out expanded (dim 0 of stride 0). */
static int expanded_input(struct graph *g, int rows)
{
	int x = tk_input(g, DT_FLOAT32, 2, (int[]){rows, 4});
	CHECK(graph_set_layout(g, (unsigned)x, IL_EXPANDED, why, sizeof why) == 0);
	return x;
}

TEST(inplace_overlap_refused_unless_eager_defines_it)
{
	struct graph g;
	tk_static(&g);
	int x = expanded_input(&g, 3), y = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	CHECK(tk_node(&g, "add_", 2, (int[]){x, y}, 0, NULL, why, sizeof why) < 0);
	CHECK(strstr(why, "share memory") != NULL);
	CHECK(tk_node(&g, "copy_", 2, (int[]){x, y}, 0, NULL, why, sizeof why) < 0);
	int k = tk_node(&g, "fill_", 1, &x, 1, (int64_t[]){1500}, why, sizeof why);
	CHECK(k >= 0);
	/* what fill_ returns is the same overlapping memory */
	int f = g.n[k].out0;
	CHECK(tk_out(&g, k, 0)->overlap);
	CHECK(tk_node(&g, "tanh_", 1, &f, 0, NULL, why, sizeof why) < 0);
	CHECK(tk_node(&g, "zero_", 1, &f, 0, NULL, why, sizeof why) >= 0);
	/* the known-bug list's word for it (pytorch#197448's trigger) */
	const char *words[GRAPH_STRUCTURE_WORDS];
	unsigned n = graph_structure_words(&g, NULL, words, GRAPH_STRUCTURE_WORDS), found = 0;
	for (unsigned i = 0; i < n; i++)
		found += !strcmp(words[i], "inplace_overlap");
	CHECK_EQ(found, 1);
}

/* A write into memory whose elements do not overlap has no such word, only
 * that of a direct write into an input. */
TEST(inplace_overlap_word_only_for_overlapping_targets)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	CHECK(tk_node(&g, "fill_", 1, &x, 1, (int64_t[]){1500}, why, sizeof why) >= 0);
	const char *words[GRAPH_STRUCTURE_WORDS];
	unsigned n = graph_structure_words(&g, NULL, words, GRAPH_STRUCTURE_WORDS);
	CHECK(n == 1 && !strcmp(words[0], "inplace:input"));
}

TEST(inplace_overlap_write_breaks_only_where_rows_share_memory)
{
	struct graph g;
	tk_static(&g);
	int y = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int x = expanded_input(&g, 3);
	struct op_choice ch = tk_choice(2, (int[]){x, y}, 0, NULL);
	CHECK_EQ(graph_choice_breaks(&g, (unsigned)op_find("copy_"), &ch, why, sizeof why), 1);
	ch = tk_choice(1, &x, 1, (int64_t[]){1500});
	CHECK_EQ(graph_choice_breaks(&g, (unsigned)op_find("fill_"), &ch, why, sizeof why), 0);
	/* one row: nothing shares memory, eager writes it */
	int one = expanded_input(&g, 1), y1 = tk_input(&g, DT_FLOAT32, 2, (int[]){1, 4});
	ch = tk_choice(2, (int[]){one, y1}, 0, NULL);
	CHECK_EQ(graph_choice_breaks(&g, (unsigned)op_find("copy_"), &ch, why, sizeof why), 0);
	ch = tk_choice(2, (int[]){x, y}, 0, NULL);
	CHECK(graph_add_broken_node(&g, (unsigned)op_find("copy_"), &ch, C_OVERLAP_WRITE, why, sizeof why) >= 0);
	CHECK_EQ(g.broken, C_OVERLAP_WRITE);
}

TEST(inplace_integer_target_keeps_bounds)
{
	struct graph g;
	tk_static(&g);
	int a = tk_leaf(&g, DT_INT64, 1, (int[]){4}, FILL_RANGE, -8, 8);
	int b = tk_leaf(&g, DT_INT64, 1, (int[]){4}, FILL_RANGE, 0, 3);
	/* a leaf's range may bound an index: an add past it is refused */
	CHECK(tk_node(&g, "add_", 2, (int[]){a, b}, 0, NULL, why, sizeof why) < 0);
	CHECK(strstr(why, "breaks the bounds") != NULL);
	int k = tk_node(&g, "add", 2, (int[]){a, b}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	int s = g.n[k].out0; /* computed: bounded by its type alone */
	CHECK(tk_node(&g, "add_", 2, (int[]){s, b}, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "bitwise_xor_", 2, (int[]){s, b}, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "clamp_min_", 2, (int[]){s, b}, 0, NULL, why, sizeof why) >= 0);
	/* true division gives a float: near-invalid, never valid */
	CHECK(tk_node(&g, "div_", 2, (int[]){s, b}, 0, NULL, why, sizeof why) < 0);
	CHECK(strstr(why, "can't be cast") != NULL);
	struct op_choice ch = tk_choice(2, (int[]){s, b}, 0, NULL);
	CHECK_EQ(graph_choice_breaks(&g, (unsigned)op_find("div_"), &ch, why, sizeof why), 1);
	ch = tk_choice(2, (int[]){s, b}, 0, NULL);
	CHECK_EQ(graph_choice_breaks(&g, (unsigned)op_find("add_"), &ch, why, sizeof why), 0);
	int f = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	ch = tk_choice(2, (int[]){s, f}, 0, NULL);
	CHECK(graph_add_broken_node(&g, (unsigned)op_find("sub_"), &ch, C_INPLACE_RESULT, why, sizeof why) >= 0);
}

TEST(inplace_view_dtype_reads_exact_input_bits)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int k = tk_node(&g, "view_dtype", 1, &x, 1, (int64_t[]){DT_INT32}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT32);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 4);
	CHECK_EQ(tk_out(&g, k, 0)->root, x);
	k = tk_node(&g, "view_dtype", 1, &x, 1, (int64_t[]){DT_UINT8}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 16); /* the last dim times 4 */
	int u = g.n[k].out0;
	/* no larger element, no bool, not its own dtype */
	CHECK(tk_node(&g, "view_dtype", 1, &x, 1, (int64_t[]){DT_INT64}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "view_dtype", 1, &x, 1, (int64_t[]){DT_BOOL}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "view_dtype", 1, &x, 1, (int64_t[]){DT_FLOAT32}, why, sizeof why) < 0);
	/* a smaller element needs a contiguous input */
	int t = tk_node(&g, "transpose", 1, &x, 2, (int64_t[]){0, 1}, why, sizeof why);
	CHECK(t >= 0);
	int tv = g.n[t].out0;
	CHECK(tk_node(&g, "view_dtype", 1, &tv, 1, (int64_t[]){DT_INT16}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "view_dtype", 1, &tv, 1, (int64_t[]){DT_INT32}, why, sizeof why) >= 0);
	/* neither writes through the view nor float writes into the input */
	int m = tk_leaf(&g, DT_UINT8, 2, (int[]){3, 16}, FILL_RANGE, 0, 7);
	CHECK(tk_node(&g, "bitwise_xor_", 2, (int[]){u, m}, 0, NULL, why, sizeof why) < 0);
	CHECK(tk_node(&g, "relu_", 1, &x, 0, NULL, why, sizeof why) < 0);
	/* a computed float's bits are not read, nor an input's once written */
	int e = tk_node(&g, "exp", 1, &x, 0, NULL, why, sizeof why);
	CHECK(e >= 0);
	int ev = g.n[e].out0;
	CHECK(tk_node(&g, "view_dtype", 1, &ev, 1, (int64_t[]){DT_INT32}, why, sizeof why) < 0);
	int w = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	CHECK(tk_node(&g, "relu_", 1, &w, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "view_dtype", 1, &w, 1, (int64_t[]){DT_INT32}, why, sizeof why) < 0);
}
