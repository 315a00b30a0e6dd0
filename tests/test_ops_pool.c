/* Pooling shape rules: torch's output-size formula with ceil_mode's "last
 * window starts inside" rule (sizes checked against torch 2.6), padding at
 * most half the kernel, indices outputs, adaptive output sizes. */
#include "test.h"
#include "testkit.h"
#include <string.h>
#include "../mutators/gen_choose.h"

static char why[300];

/* attrs of max_pool*d: kernel stride padding dilation ceil_mode */
TEST(pool_max_ceil_mode_sizes)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 4, (int[]){1, 1, 5, 5});
	int k = tk_node(&g, "max_pool2d", 1, &x, 5, (int64_t[]){2, 2, 0, 1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 3);
	k = tk_node(&g, "max_pool2d", 1, &x, 5, (int64_t[]){2, 2, 0, 1, 0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][3], 2);
	/* L=5, k=2, s=2, p=1, ceil: 4 windows by the formula, the last would
	 * start past the input, so 3 */
	int y = tk_input(&g, DT_FLOAT32, 3, (int[]){1, 1, 5});
	k = tk_node(&g, "max_pool1d", 1, &y, 5, (int64_t[]){2, 2, 1, 1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 3);
	/* unbatched 3d, dilated */
	int z = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 7, 6, 5});
	k = tk_node(&g, "max_pool3d", 1, &z, 5, (int64_t[]){3, 2, 1, 2, 0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][3], 2);
}

TEST(pool_max_rejects)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){1, 2, 5});
	int xi = tk_input(&g, DT_INT64, 3, (int[]){1, 2, 5});
	int x1 = tk_input(&g, DT_FLOAT32, 1, (int[]){5});
	/* padding above kernel/2 */
	CHECK(tk_node(&g, "max_pool1d", 1, &x, 5, (int64_t[]){3, 1, 2, 1, 0}, why, sizeof why) < 0);
	/* kernel larger than the input */
	CHECK(tk_node(&g, "max_pool1d", 1, &x, 5, (int64_t[]){6, 1, 0, 1, 0}, why, sizeof why) < 0);
	/* padding 1 with dilation 3 leaves one window of span 7 */
	CHECK(tk_node(&g, "max_pool1d", 1, &x, 5, (int64_t[]){3, 1, 1, 3, 0}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "max_pool1d", 1, &x, 5, (int64_t[]){3, 0, 1, 1, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "max_pool1d", 1, &xi, 5, (int64_t[]){2, 2, 0, 1, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "max_pool1d", 1, &x1, 5, (int64_t[]){2, 2, 0, 1, 0}, why, sizeof why) < 0);
}

TEST(pool_max_with_indices_outputs)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){4, 6});
	int x = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 3, -1, 5});
	int k = tk_node(&g, "max_pool2d_with_indices", 1, &x, 5, (int64_t[]){2, 2, 0, 1, 0}, why, sizeof why);
	CHECK(k >= 0);
	const struct value *v = tk_out(&g, k, 0), *i = tk_out(&g, k, 1);
	CHECK_EQ(g.n[k].nout, 2);
	CHECK_EQ(v->dim[0][2], 2);
	CHECK_EQ(v->dim[1][2], 3);
	CHECK_EQ(i->dtype, DT_INT64);
	CHECK_EQ(i->dim[1][2], 3);
	CHECK_EQ(i->lo, 0);
	CHECK_EQ(i->hi, 29);
	CHECK(i->tie);
	CHECK(!v->tie);
}

TEST(pool_dynamic_fails_at_one_binding)
{
	struct graph g;
	tk_dynamic(&g, 3, (int32_t[]){6, 3, 9});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, -1});
	CHECK(tk_node(&g, "max_pool1d", 1, &x, 5, (int64_t[]){3, 1, 0, 1, 0}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "max_pool1d", 1, &x, 5, (int64_t[]){4, 1, 0, 1, 0}, why, sizeof why) < 0);
	CHECK(strstr(why, "binding 1") != NULL);
}

/* attrs of avg_pool*d: kernel stride padding ceil_mode count_include_pad [divisor_override] */
TEST(pool_avg_sizes_and_dtypes)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){3, 7, 6});
	int k = tk_node(&g, "avg_pool2d", 1, &x, 5, (int64_t[]){3, 2, 1, 1, 0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 4);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 4);
	/* kernel 6 over 5 elements fits with padding 3 */
	int y = tk_input(&g, DT_FLOAT32, 3, (int[]){1, 2, 5});
	k = tk_node(&g, "avg_pool1d", 1, &y, 5, (int64_t[]){6, 6, 3, 0, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 1);
	CHECK(tk_node(&g, "avg_pool2d_divisor", 1, &x, 6, (int64_t[]){3, 2, 1, 1, 0, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "avg_pool2d_divisor", 1, &x, 6, (int64_t[]){3, 2, 1, 1, 0, 3}, why, sizeof why) >= 0);
	/* avg_pool3d has no float16 CPU kernel */
	int h = tk_input(&g, DT_FLOAT16, 5, (int[]){1, 2, 4, 4, 4});
	CHECK(tk_node(&g, "avg_pool3d", 1, &h, 5, (int64_t[]){2, 2, 0, 0, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "avg_pool2d", 1, &h, 5, (int64_t[]){2, 2, 0, 0, 1}, why, sizeof why) < 0);
}

/* attrs of lp_pool*d: norm_type (1/1000) kernel stride ceil_mode */
TEST(pool_lp_sizes_and_norm_range)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 4, (int[]){1, 3, 7, 6});
	int k = tk_node(&g, "lp_pool2d", 1, &x, 4, (int64_t[]){2000, 3, 2, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][2], 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][3], 3);
	CHECK(tk_node(&g, "lp_pool2d", 1, &x, 4, (int64_t[]){0, 3, 2, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "lp_pool2d", 1, &x, 4, (int64_t[]){2000, 8, 2, 1}, why, sizeof why) < 0);
}

/* adaptive pools: output_size list, items >= 1 or -2-k for input dim k */
TEST(pool_adaptive_sizes)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 3, -1, 4});
	int k = tk_node(&g, "adaptive_avg_pool2d", 1, &x, 3, (int64_t[]){2, -4, 7}, why, sizeof why);
	CHECK(k >= 0);
	const struct value *o = tk_out(&g, k, 0);
	CHECK_EQ(o->dim[0][2], 3);
	CHECK_EQ(o->dim[1][2], 5);
	CHECK_EQ(o->dim[1][3], 7);
	CHECK(o->dyn == 4);
	CHECK(tk_node(&g, "adaptive_avg_pool2d", 1, &x, 3, (int64_t[]){2, 0, 2}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "adaptive_avg_pool2d", 1, &x, 3, (int64_t[]){2, -1, 2}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "adaptive_avg_pool2d", 1, &x, 2, (int64_t[]){1, 2}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "adaptive_avg_pool2d", 1, &x, 3, (int64_t[]){2, -6, 2}, why, sizeof why) < 0);
	/* a 1d pool of a 4-D input is refused; of a 3-D one, indices < 2*s0 at every binding */
	CHECK(tk_node(&g, "adaptive_max_pool1d_indices", 1, &x, 2, (int64_t[]){1, 3}, why, sizeof why) < 0);
	int z = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, -2});
	k = tk_node(&g, "adaptive_max_pool1d_indices", 1, &z, 2, (int64_t[]){1, 3}, why, sizeof why);
	CHECK(k >= 0);
	if (k < 0)
		return;
	CHECK_EQ(tk_out(&g, k, 1)->dtype, DT_INT64);
	CHECK_EQ(tk_out(&g, k, 1)->hi, 9);
	CHECK(tk_out(&g, k, 1)->tie);
	int y = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	CHECK(tk_node(&g, "adaptive_avg_pool2d", 1, &y, 3, (int64_t[]){2, 2, 2}, why, sizeof why) < 0);
}

TEST(pool_avg3d_needs_the_whole_kernel_inside)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 5, (int[]){1, 2, 3, 10, 1});
	/* padding 1 would make room, but avg_pool3d checks the unpadded input */
	CHECK(tk_node(&g, "avg_pool3d", 1, &x, 5, (int64_t[]){2, 2, 1, 1, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "lp_pool3d", 1, &x, 4, (int64_t[]){2000, 2, 2, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "max_pool3d", 1, &x, 5, (int64_t[]){2, 2, 1, 1, 0}, why, sizeof why) >= 0);
}

/* Integer max_pool2d/3d only in graphs for the CPU (CUDA's pooling is floating
 * point only; max_pool1d has no integer kernel anywhere); avg_pool3d's float16
 * only in graphs for the GPU (no CPU kernel). */
TEST(pool_dtypes_follow_the_graphs_device)
{
	static const int64_t max_attrs[] = {2, 2, 0, 1, 0}, avg_attrs[] = {2, 2, 0, 0, 1};
	for (unsigned t = 0; t < TARGET_COUNT; t++) {
		struct graph g;
		tk_static(&g);
		CHECK(graph_set_target(&g, t, why, sizeof why) == 0);
		int i8 = tk_input(&g, DT_INT8, 4, (int[]){1, 2, 5, 5});
		int i32 = tk_input(&g, DT_INT32, 5, (int[]){1, 2, 4, 4, 4});
		int i64 = tk_input(&g, DT_INT64, 3, (int[]){1, 2, 5});
		int h = tk_input(&g, DT_FLOAT16, 5, (int[]){1, 2, 4, 4, 4});
		int k = tk_node(&g, "max_pool2d", 1, &i8, 5, max_attrs, why, sizeof why);
		CHECK((k >= 0) == (t == TARGET_CPU));
		CHECK(k < 0 || tk_out(&g, k, 0)->dtype == DT_INT8);
		k = tk_node(&g, "max_pool3d_with_indices", 1, &i32, 5, max_attrs, why, sizeof why);
		CHECK((k >= 0) == (t == TARGET_CPU));
		CHECK(tk_node(&g, "max_pool1d", 1, &i64, 5, max_attrs, why, sizeof why) < 0);
		k = tk_node(&g, "avg_pool3d", 1, &h, 5, avg_attrs, why, sizeof why);
		CHECK((k >= 0) == (t == TARGET_GPU));
		CHECK(k < 0 || tk_out(&g, k, 0)->dtype == DT_FLOAT16);
	}
}

/* The generator draws max_pool2d's integer inputs in graphs for the CPU only. */
TEST(pool_generated_inputs_follow_the_graphs_device)
{
	unsigned op = (unsigned)op_find("max_pool2d");
	for (unsigned t = TARGET_CPU; t <= TARGET_GPU; t++) {
		unsigned ints = 0;
		struct rng r;
		rng_seed(&r, 7);
		for (unsigned i = 0; i < 200; i++) {
			struct graph g;
			tk_static(&g);
			CHECK(graph_set_target(&g, t, why, sizeof why) == 0);
			int v = gen_pick_primary(&g, &r, op, 0);
			CHECK(v >= 0);
			ints += v >= 0 && dtype_is_int(g.v[v].dtype);
		}
		CHECK(t == TARGET_CPU ? ints > 0 : ints == 0);
	}
}

/* attrs: kernel_size, sample (thousandths), output_size[] */
TEST(pool_fractional_windows_fit_and_round_exactly)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){6, 9});
	int x = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 3, -1, 7});
	int k = tk_node(&g, "fractional_max_pool2d", 1, &x, 5, (int64_t[]){2, 500, 2, 5, 3}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][2], 5);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][3], 3);
	/* 5 + 2 - 1 > 5 at binding 0 */
	CHECK(tk_node(&g, "fractional_max_pool2d", 1, &x, 5, (int64_t[]){3, 500, 2, 5, 3}, why, sizeof why) < 0);
	/* output 4: 3 intervals, inexact starts (ours); sample 0.3: inexact (ours) */
	CHECK(tk_node(&g, "fractional_max_pool2d", 1, &x, 5, (int64_t[]){2, 500, 2, 4, 3}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "fractional_max_pool2d", 1, &x, 5, (int64_t[]){2, 300, 2, 5, 3}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "fractional_max_pool2d", 1, &x, 5, (int64_t[]){2, 1000, 2, 5, 3}, why, sizeof why) < 0);
	/* 3-D pooling wants o + k - 1 < L */
	int v = tk_input(&g, DT_FLOAT64, 5, (int[]){1, 2, 4, 4, 4});
	CHECK(tk_node(&g, "fractional_max_pool3d", 1, &v, 6, (int64_t[]){2, 0, 3, 2, 2, 2}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "fractional_max_pool3d", 1, &v, 6, (int64_t[]){2, 0, 3, 3, 2, 2}, why, sizeof why) < 0);
	int u = tk_input(&g, DT_FLOAT32, 3, (int[]){3, 5, 5}); /* unbatched: left out (ours) */
	CHECK(tk_node(&g, "fractional_max_pool2d", 1, &u, 5, (int64_t[]){2, 0, 2, 2, 2}, why, sizeof why) < 0);
}

/* attrs: kernel_size stride; input 0 a positive leaf (ours: ties) */
TEST(pool_max_unpool_restores_the_input_shape)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){2, 7});
	int x = tk_leaf(&g, DT_FLOAT32, 4, (int[]){2, 3, -1, 6}, FILL_POSITIVE, 0, 0);
	int k = tk_node(&g, "max_unpool2d", 1, &x, 2, (int64_t[]){2, 3}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][2], 7);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][3], 6);
	/* a kernel of 3 past the 2 rows of binding 0 */
	CHECK(tk_node(&g, "max_unpool2d", 1, &x, 2, (int64_t[]){3, 3}, why, sizeof why) < 0);
	int n = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 3, 4, 6}); /* a normal fill: ties after mutation */
	CHECK(tk_node(&g, "max_unpool2d", 1, &n, 2, (int64_t[]){2, 2}, why, sizeof why) < 0);
	int r = tk_node(&g, "relu", 1, &x, 0, NULL, why, sizeof why);
	CHECK(r >= 0);
	int rv = g.n[r].out0;
	CHECK(tk_node(&g, "max_unpool2d", 1, &rv, 2, (int64_t[]){2, 2}, why, sizeof why) < 0);
	int y = tk_leaf(&g, DT_FLOAT64, 2, (int[]){3, -1}, FILL_POSITIVE, 0, 0);
	CHECK(tk_node(&g, "max_unpool1d", 1, &y, 2, (int64_t[]){2, 1}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "max_unpool3d", 1, &y, 2, (int64_t[]){2, 1}, why, sizeof why) < 0); /* 2-D: no 3-D pool */
}
