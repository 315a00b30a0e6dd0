/* Shape ops' rules: [@] shape lists at every binding, contiguity for .view,
 * expand/squeeze rules, Python slicing and the int bounds passed through. */
#include "test.h"
#include "testkit.h"
#include <string.h>

static char why[300];

#define NODE(g, op, x, ...) \
	tk_node(g, op, 1, &(x), NELEM_(((int64_t[]){__VA_ARGS__})), (int64_t[]){__VA_ARGS__}, why, sizeof why)
#define NELEM_(a) (sizeof(a) / sizeof((a)[0]))

TEST(shape_view_dynamic_refs_and_infer)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){-1, 4}); /* (s0, 4) */
	int k = NODE(&g, "view", x, 2, -2, -1);                /* view(x.size(0), -1) */
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 5);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 4);
	k = NODE(&g, "view", x, 3, 2, -1, 2); /* the -1 is s0 */
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 5);
	CHECK(tk_out(&g, k, 0)->dyn == 2);
	CHECK(tk_out(&g, k, 0)->contig);
	/* 12 elements divide by 3, 20 do not */
	CHECK(NODE(&g, "view", x, 2, -1, 3) < 0);
	CHECK(strstr(why, "binding 1") != NULL);
	/* a static product that matches binding 0 only */
	CHECK(NODE(&g, "reshape", x, 2, 3, 4) < 0);
	/* two -1, a 0, a dim beyond the rank */
	CHECK(NODE(&g, "reshape", x, 2, -1, -1) < 0);
	CHECK(NODE(&g, "reshape", x, 2, 0, -1) < 0);
	CHECK(NODE(&g, "reshape", x, 2, -4, -1) < 0);
}

TEST(shape_view_needs_contiguous_input)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 3});
	int k = NODE(&g, "transpose", x, 0, 1);
	CHECK(k >= 0);
	int t = g.n[k].out0;
	CHECK(!g.v[t].contig);
	CHECK(NODE(&g, "view", t, 1, 6) < 0);
	k = NODE(&g, "reshape", t, 1, 6);
	CHECK(k >= 0);
	CHECK(!tk_out(&g, k, 0)->contig); /* reshape keeps layout knowledge only */
	k = NODE(&g, "contiguous", t, 0);
	(void)k;
}

TEST(shape_view_to_scalar_and_back)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){1, 1});
	int k = tk_node(&g, "view", 1, &x, 1, (int64_t[]){0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);
}

TEST(shape_expand_rules)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 4});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){1, -1}); /* (1, s0) */
	int k = NODE(&g, "expand", x, 3, 2, -1, -1);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][2], 4);
	CHECK(!tk_out(&g, k, 0)->contig);
	/* size-1 dim grows to x.size(1) */
	k = NODE(&g, "expand", x, 2, -3, -3);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 4);
	/* a dynamic dim cannot take a static size; -1 is not allowed for a new dim */
	CHECK(NODE(&g, "expand", x, 2, 1, 3) < 0);
	CHECK(NODE(&g, "expand", x, 3, -1, 1, -1) < 0);
	/* fewer sizes than dims */
	CHECK(NODE(&g, "expand", x, 1, -1) < 0);
}

TEST(shape_repeat_and_tile)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_INT64, 2, (int[]){2, 3});
	int k = NODE(&g, "repeat", x, 3, 2, 1, 3);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 9);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 5); /* values pass through */
	CHECK(NODE(&g, "repeat", x, 1, 2) < 0); /* fewer counts than dims */
	k = NODE(&g, "tile", x, 1, 2);           /* tile pads the counts */
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 6);
	CHECK(NODE(&g, "repeat", x, 2, 0, 1) < 0);
	CHECK(NODE(&g, "repeat", x, 2, 1, 1000) < 0);
}

TEST(shape_permute_transpose_movedim)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, 4});
	int k = NODE(&g, "permute", x, 3, 2, 0, -2);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 4);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 3);
	CHECK(NODE(&g, "permute", x, 3, 0, 0, 1) < 0);
	CHECK(NODE(&g, "permute", x, 2, 0, 1) < 0);
	CHECK(NODE(&g, "permute", x, 3, 0, 1, 3) < 0);
	k = NODE(&g, "movedim", x, -1, 0);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 4);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 2);
	k = NODE(&g, "movedim", x, 0, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 2);
	CHECK(NODE(&g, "transpose", x, 0, 3) < 0);
	k = tk_node(&g, "mt", 1, &x, 0, NULL, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 4);
}

TEST(shape_squeeze_same_dims_at_every_binding)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 4});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){1, -1, 2});
	int k = NODE(&g, "squeeze", x, 0);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	k = NODE(&g, "squeeze", x, 2); /* not 1: unchanged, as torch does */
	CHECK_EQ(tk_out(&g, k, 0)->rank, 3);
	/* x[:, 0::3]: 1 element at s0=3, 2 at s0=4 */
	int s = g.n[NODE(&g, "slice1", x, 0, 1024, 3)].out0;
	CHECK_EQ(g.v[s].dim[0][1], 1);
	CHECK_EQ(g.v[s].dim[1][1], 2);
	CHECK(NODE(&g, "squeeze", s, 1) < 0);
	CHECK(tk_node(&g, "squeeze_all", 1, &s, 0, NULL, why, sizeof why) < 0);
	k = NODE(&g, "squeeze_dims", x, 2, 0, 2);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK(NODE(&g, "squeeze_dims", x, 2, 0, -3) < 0); /* repeated */
	CHECK(NODE(&g, "squeeze", x, 3) < 0);
}

TEST(shape_unsqueeze_flatten_unflatten)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 4});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, -2, 3}); /* (2, 2*s0, 3) */
	int k = NODE(&g, "unsqueeze", x, -1);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][3], 1);
	CHECK(NODE(&g, "unsqueeze", x, 4) < 0);
	CHECK(NODE(&g, "unsqueeze", x, -5) < 0);
	k = NODE(&g, "flatten", x, 1, -1);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 24);
	CHECK(NODE(&g, "flatten", x, 2, 1) < 0);
	k = NODE(&g, "unflatten", x, 1, 2, -1, 2); /* 2*s0 = (s0, 2) */
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 4);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 4);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][2], 2);
	CHECK(NODE(&g, "unflatten", x, 1, 2, 3, -1) < 0); /* 8 is not a multiple of 3 */
	k = NODE(&g, "unflatten", x, 1, 2, -3, 1);          /* (x.size(1), 1) */
	CHECK(k >= 0);
	int s = tk_input(&g, DT_FLOAT32, 0, NULL);
	k = NODE(&g, "flatten", s, 0, -1);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 1);
}

TEST(shape_narrow_select_within_smallest_binding)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){5, 3});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){4, -1});
	int k = NODE(&g, "narrow", x, 1, 1, 2);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 2);
	CHECK(!tk_out(&g, k, 0)->dyn);
	CHECK(NODE(&g, "narrow", x, 1, 2, 2) < 0); /* 4 > 3 at binding 1 */
	CHECK(NODE(&g, "narrow", x, 1, -1, 1) < 0);
	k = NODE(&g, "select", x, 1, -3);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 1);
	CHECK(NODE(&g, "select", x, 1, 3) < 0);
	CHECK(NODE(&g, "select", x, 1, -4) < 0);
}

TEST(shape_slice_follows_python)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 5});
	struct { int64_t st, en, step, want; } cases[] = {
		{1, 4, 2, 2}, {-2, 1024, 1, 2}, {0, -1, 1, 4}, {-9, 2, 1, 2}, {4, 1024, 3, 1}, {0, 5, 4, 2},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int k = NODE(&g, "slice_last", x, cases[i].st, cases[i].en, cases[i].step);
		CHECK(k >= 0);
		CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], cases[i].want);
	}
	CHECK(NODE(&g, "slice_last", x, 3, 2, 1) < 0);
	CHECK(NODE(&g, "slice_last", x, 5, 1024, 1) < 0);
	CHECK(NODE(&g, "slice_last", x, 0, 3, 0) < 0);
	CHECK(NODE(&g, "slice2", x, 0, 3, 1) < 0); /* needs 3 dims */
	int k = NODE(&g, "slice0", x, 1, 1024, 1);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 2);
}

TEST(shape_unfold_windows)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){4, 7});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){2, -1});
	int k = NODE(&g, "unfold", x, 1, 3, 2);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 1);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][2], 3);
	CHECK(NODE(&g, "unfold", x, 1, 5, 1) < 0); /* window larger than 4 */
}

TEST(shape_t_rank_limit)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, 4});
	CHECK(tk_node(&g, "t", 1, &x, 0, NULL, why, sizeof why) < 0);
	int y = tk_input(&g, DT_BOOL, 2, (int[]){2, 3});
	int k = tk_node(&g, "t", 1, &y, 0, NULL, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 3);
}

/* Mutated corpora carry any attribute values: the shape, combine and index
 * rules must reject them cleanly (no overflow or out-of-range read under
 * UBSan/ASan), whatever the inputs. */
static uint64_t next_rand(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

static int64_t any_attr(uint64_t *s)
{
	static const int64_t edge[] = {-(1LL << 40), (1LL << 40), 1024, 1025, -1, -2, -3, -7, 0, 1, 2, 3, 4, 65536};
	uint64_t r = next_rand(s);
	return r % 3 ? (int64_t)(r / 3 % 9) - 3 : edge[r / 3 % (sizeof edge / sizeof edge[0])];
}

TEST(shape_combine_index_rules_survive_random_attributes)
{
	uint64_t s = 42;
	unsigned added = 0;
	for (unsigned round = 0; round < 30; round++) {
		struct graph g;
		struct leaf_dim perm_ld = {-1, 0, 4};
		tk_dynamic(&g, 2, (int32_t[]){3, 5});
		tk_input(&g, DT_FLOAT32, 3, (int[]){-1, 1, 4});
		tk_input(&g, DT_INT64, 2, (int[]){2, 3});
		tk_input(&g, DT_BOOL, 2, (int[]){1, 4});
		tk_input(&g, DT_FLOAT16, 0, NULL);
		tk_input(&g, DT_FLOAT32, 5, (int[]){2, 1, 3, 1, 2});
		graph_add_leaf(&g, VK_INPUT, DT_INT64, 1, &perm_ld, FILL_PERM, 0, 4, NULL, 0);
		for (unsigned t = 0; t < 300 && g.nnodes < G_MAX_NODES && g.nvalues < G_MAX_VALUES - G_MAX_OUT; t++) {
			unsigned id = (unsigned)(next_rand(&s) % op_count());
			const struct op_def *op = op_get(id);
			if (op->family != FAM_SHAPE && op->family != FAM_COMBINE && op->family != FAM_INDEX)
				continue;
			struct attr_spec sp;
			struct op_choice ch;
			memset(&ch, 0, sizeof ch);
			op_attr_spec(op, &sp);
			ch.nin = (uint8_t)(op->nin_min + next_rand(&s) % (op->nin_max - op->nin_min + 1u));
			for (unsigned i = 0; i < ch.nin; i++)
				ch.in[i] = (uint16_t)(next_rand(&s) % g.nvalues);
			ch.nattr = (uint8_t)sp.nscalar;
			for (unsigned i = 0; i < sp.nscalar; i++)
				ch.attr[i] = sp.kind[i] == AK_BOOL || sp.kind[i] == AK_STR ? (int64_t)(next_rand(&s) % 2) : any_attr(&s);
			if (sp.list >= 0) {
				unsigned len = (unsigned)(next_rand(&s) % (G_MAX_ATTR - sp.nscalar));
				ch.attr[ch.nattr++] = len;
				for (unsigned i = 0; i < len; i++)
					ch.attr[ch.nattr++] = any_attr(&s);
			}
			added += graph_add_node(&g, id, &ch, why, sizeof why) >= 0;
		}
	}
	CHECK(added > 100);
}

TEST(shape_as_strided_copy_reads_a_contiguous_input_only)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){4, 3});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){-1, 5}); /* 20 | 15 elements */
	int k = NODE(&g, "as_strided_copy", x, 2, 3, 5, 2, 4);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 3);
	CHECK(NODE(&g, "as_strided_copy", x, 2, 3, 5, 2, 5) >= 0);      /* last element 14 */
	CHECK(NODE(&g, "as_strided_copy", x, 2, 3, 5, 2, 6) < 0);       /* 15: past binding 1 */
	CHECK(strstr(why, "binding 1") != NULL);
	CHECK(NODE(&g, "as_strided_copy", x, 4, 4, 0, 0, 0) >= 0);      /* overlapping reads */
	CHECK(NODE(&g, "as_strided_copy", x, 0, 1, 1, 1, 0) < 0);       /* an empty size */
	CHECK(NODE(&g, "as_strided_copy", x, 1, 1, -1, 1, 0) < 0);      /* a negative stride */
	int t = g.n[NODE(&g, "transpose", x, 0, 1)].out0;
	CHECK(NODE(&g, "as_strided_copy", t, 1, 1, 1, 1, 0) < 0);       /* storage order unknown */
	int s = tk_input(&g, DT_INT8, 0, NULL);
	CHECK(NODE(&g, "as_strided_copy", s, 1, 1, 7, 3, 0) >= 0);      /* a 0-d tensor's one element */
	CHECK(NODE(&g, "as_strided_copy", s, 2, 1, 1, 0, 0) < 0);
}

TEST(shape_as_strided_view_overlaps_and_scatter_needs_distinct_writes)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 5});
	int k = NODE(&g, "as_strided", x, 2, 3, 5, 1, 2);
	CHECK(k >= 0);
	CHECK(!tk_out(&g, k, 0)->overlap);
	CHECK_EQ(tk_out(&g, k, 0)->root, x);                      /* a view of x */
	k = NODE(&g, "as_strided", x, 2, 3, 1, 1, 0);              /* rows share elements */
	CHECK(tk_out(&g, k, 0)->overlap);
	CHECK(!tk_out(&g, NODE(&g, "as_strided_copy", x, 2, 3, 1, 1, 0), 0)->overlap); /* a copy */
	CHECK(NODE(&g, "as_strided", x, 4, 4, 5, 1, 2) < 0);       /* reads element 20 of 20 */
	int src = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 3});
	int in[2] = {x, src};
	k = tk_node(&g, "as_strided_scatter", 2, in, 5, (int64_t[]){2, 3, 5, 1, 2}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 5);
	CHECK(tk_node(&g, "as_strided_scatter", 2, in, 5, (int64_t[]){2, 3, 1, 1, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "as_strided_scatter", 2, in, 5, (int64_t[]){3, 2, 5, 1, 0}, why, sizeof why) < 0);
	in[1] = tk_input(&g, DT_FLOAT64, 2, (int[]){2, 3});
	CHECK(tk_node(&g, "as_strided_scatter", 2, in, 5, (int64_t[]){2, 3, 5, 1, 2}, why, sizeof why) < 0);
}

TEST(shape_expand_reshape_view_as_take_the_other_shape)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){2, 3});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){-1, 1});
	int o = tk_input(&g, DT_INT64, 3, (int[]){4, -1, 6});
	int k = tk_node(&g, "expand_as", 2, (int[]){x, o}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT32);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 3);
	CHECK(tk_out(&g, k, 0)->overlap);
	CHECK(tk_node(&g, "expand_as", 2, (int[]){o, x}, 0, NULL, why, sizeof why) < 0); /* fewer dims */
	int y = tk_input(&g, DT_FLOAT32, 2, (int[]){6, -1});
	CHECK(tk_node(&g, "expand_as", 2, (int[]){y, o}, 0, NULL, why, sizeof why) < 0); /* 6 vs s0 */
	int r = tk_input(&g, DT_BOOL, 3, (int[]){-1, 3, 2});
	k = tk_node(&g, "reshape_as", 2, (int[]){y, r}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 3);
	CHECK(tk_node(&g, "view_as", 2, (int[]){y, r}, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "reshape_as", 2, (int[]){y, o}, 0, NULL, why, sizeof why) < 0); /* numel differs */
	int t = g.n[NODE(&g, "transpose", y, 0, 1)].out0;
	CHECK(tk_node(&g, "reshape_as", 2, (int[]){t, r}, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "view_as", 2, (int[]){t, r}, 0, NULL, why, sizeof why) < 0);   /* not contiguous */
}

TEST(shape_sum_to_size_promotes_only_when_it_sums)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){2, 3});
	int x = tk_input(&g, DT_INT32, 3, (int[]){4, -1, 5});
	int k = NODE(&g, "sum_to_size", x, 2, -3, 1);               /* (x.size(1), 1) */
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT64);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 3);
	k = NODE(&g, "sum_to_size", x, 3, 4, -3, 5);                /* x itself */
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT32);
	CHECK(NODE(&g, "sum_to_size", x, 2, 2, 5) < 0);             /* 2 is neither s0 nor 1 at binding 1 */
	CHECK(NODE(&g, "sum_to_size", x, 1, 3) < 0);
	int h = tk_input(&g, DT_FLOAT16, 2, (int[]){-1, 2});
	k = NODE(&g, "sum_to_size", h, 1, 1);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT16);
	int c = tk_input(&g, DT_COMPLEX64, 2, (int[]){-1, 2}); /* a complex sum stays complex */
	k = NODE(&g, "sum_to_size", c, 1, 1);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_COMPLEX64);
}

TEST(shape_channel_shuffle_groups_divide_channels)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){2, 3});
	int x = tk_input(&g, DT_BOOL, 3, (int[]){2, 6, -1});
	CHECK(NODE(&g, "channel_shuffle", x, 3) >= 0);
	CHECK(NODE(&g, "channel_shuffle", x, 4) < 0);
	CHECK(NODE(&g, "channel_shuffle", x, 0) < 0);
	int d = tk_input(&g, DT_FLOAT32, 3, (int[]){2, -2, 2});     /* 4 | 6 channels */
	CHECK(NODE(&g, "channel_shuffle", d, 2) >= 0);
	CHECK(NODE(&g, "channel_shuffle", d, 3) < 0);
	int m = tk_input(&g, DT_FLOAT32, 2, (int[]){2, 6});
	CHECK(NODE(&g, "channel_shuffle", m, 2) < 0);               /* 2-D */
}
