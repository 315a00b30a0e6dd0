/* The norm family's shape rules: static feature counts of modules,
 * normalized_shape lists, group divisibility at every binding, and torch's
 * refusal of statistics over a single element. */
#include <string.h>
#include "test.h"
#include "testkit.h"

static char why[300];

static int node1(struct graph *g, const char *op, int x, unsigned nattr, const int64_t *attr)
{
	return tk_node(g, op, 1, &x, nattr, attr, why, sizeof why);
}

TEST(norm_batch_norm_features_and_batch_stats)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, -1});
	int dc = tk_input(&g, DT_FLOAT32, 3, (int[]){2, -1, 4});
	int one = tk_input(&g, DT_FLOAT32, 4, (int[]){1, 3, 1, 1});
	int k = node1(&g, "batch_norm1d", x, 4, (int64_t[]){3, 5, 1, 1});
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][2], 5);
	CHECK(node1(&g, "batch_norm1d", x, 4, (int64_t[]){4, 5, 1, 1}) < 0);  /* 3 channels */
	CHECK(node1(&g, "batch_norm1d", dc, 4, (int64_t[]){3, 5, 1, 1}) < 0); /* channels 3 then 5 */
	CHECK(node1(&g, "batch_norm1d", x, 4, (int64_t[]){3, 0, 1, 1}) < 0);  /* eps_exp */
	CHECK(node1(&g, "batch_norm2d", x, 4, (int64_t[]){3, 5, 1, 1}) < 0);  /* 3-D input */
	/* one value per channel: fine with running stats, rejected with batch stats */
	CHECK(node1(&g, "batch_norm2d", one, 4, (int64_t[]){3, 5, 0, 1}) >= 0);
	CHECK(node1(&g, "batch_norm2d", one, 4, (int64_t[]){3, 5, 0, 0}) < 0);
}

TEST(norm_batch_norm_fn_running_stats_follow_channels)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, -1, 4});
	int m = tk_input(&g, DT_FLOAT32, 1, (int[]){-1});
	int s = tk_input(&g, DT_FLOAT32, 1, (int[]){3});
	int h = tk_input(&g, DT_FLOAT16, 1, (int[]){-1});
	int64_t eps = 5;
	CHECK(tk_node(&g, "batch_norm_fn", 3, (int[]){x, m, m}, 1, &eps, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "batch_norm_fn", 3, (int[]){x, m, s}, 1, &eps, why, sizeof why) < 0);
	CHECK(strstr(why, "binding 1") != NULL);
	CHECK(tk_node(&g, "batch_norm_fn", 3, (int[]){x, m, h}, 1, &eps, why, sizeof why) < 0);
	CHECK(tk_node(&g, "batch_norm_fn_weight", 4, (int[]){x, m, m, m}, 1, &eps, why, sizeof why) >= 0);
}

TEST(norm_instance_norm_channel_and_spatial)
{
	struct graph g;
	tk_static(&g);
	int batched = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 3, 4, 4});
	int unbatched = tk_input(&g, DT_FLOAT32, 3, (int[]){3, 4, 4});
	int point = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 3, 1, 1});
	CHECK(node1(&g, "instance_norm2d", batched, 4, (int64_t[]){3, 5, 1, 0}) >= 0);
	CHECK(node1(&g, "instance_norm2d", unbatched, 4, (int64_t[]){3, 5, 1, 0}) >= 0);
	CHECK(node1(&g, "instance_norm2d", unbatched, 4, (int64_t[]){4, 5, 1, 0}) < 0);
	CHECK(node1(&g, "instance_norm2d", point, 4, (int64_t[]){3, 5, 0, 0}) < 0);  /* 1 spatial element */
	CHECK(node1(&g, "instance_norm2d", point, 4, (int64_t[]){3, 5, 0, 1}) >= 0); /* running stats */
	CHECK(node1(&g, "instance_norm1d", batched, 4, (int64_t[]){3, 5, 1, 0}) < 0); /* 4-D */
	CHECK(node1(&g, "instance_norm_fn", batched, 1, (int64_t[]){5}) >= 0);
	CHECK(node1(&g, "instance_norm_fn", point, 1, (int64_t[]){5}) < 0);
}

TEST(norm_layer_norm_lists_trailing_dims)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, 4});
	int d = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, -1});
	CHECK(node1(&g, "layer_norm", x, 6, (int64_t[]){5, 1, 1, 2, 3, 4}) >= 0);
	CHECK(node1(&g, "layer_norm", x, 6, (int64_t[]){5, 1, 1, 2, 4, 3}) < 0);
	CHECK(node1(&g, "layer_norm", x, 4, (int64_t[]){5, 1, 1, 0}) < 0);          /* empty list */
	CHECK(node1(&g, "layer_norm", d, 5, (int64_t[]){5, 1, 1, 1, 3}) < 0);       /* dynamic last dim */
	CHECK(node1(&g, "rms_norm_module", x, 4, (int64_t[]){5, 1, 1, 4}) >= 0);
	/* the functional forms name a dynamic dim by its size at run time */
	CHECK(node1(&g, "layer_norm_fn", d, 3, (int64_t[]){5, 1, -2 - 2}) >= 0);
	CHECK(node1(&g, "layer_norm_fn", d, 4, (int64_t[]){5, 2, 3, -2 - 2}) >= 0);
	CHECK(node1(&g, "layer_norm_fn", d, 3, (int64_t[]){5, 1, -2 - 1}) < 0); /* size(1) for dim 2 */
	CHECK(node1(&g, "rms_norm", d, 3, (int64_t[]){5, 1, 3}) < 0);           /* 3 then 5 */
	CHECK(node1(&g, "rms_norm", d, 3, (int64_t[]){13, 1, -4}) < 0);         /* eps_exp */
}

TEST(norm_group_norm_divides_channels_at_every_binding)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){2, 3});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 6, 4});
	int d = tk_input(&g, DT_FLOAT32, 2, (int[]){2, -2}); /* channels 4 then 6 */
	int lone = tk_input(&g, DT_FLOAT32, 2, (int[]){1, 4});
	CHECK(node1(&g, "group_norm", x, 4, (int64_t[]){3, 6, 5, 1}) >= 0);
	CHECK(node1(&g, "group_norm", x, 4, (int64_t[]){4, 6, 5, 1}) < 0);
	CHECK(node1(&g, "group_norm", x, 4, (int64_t[]){3, 5, 5, 1}) < 0);
	CHECK(node1(&g, "group_norm_fn", d, 2, (int64_t[]){2, 5}) >= 0);
	CHECK(node1(&g, "group_norm_fn", d, 2, (int64_t[]){4, 5}) < 0);
	CHECK(strstr(why, "binding 1") != NULL);
	/* one value per group: torch raises */
	CHECK(node1(&g, "group_norm_fn", lone, 2, (int64_t[]){4, 5}) < 0);
	CHECK(node1(&g, "group_norm_fn", lone, 2, (int64_t[]){2, 5}) >= 0);
}

TEST(norm_local_response_norm_needs_contiguous_above_3d)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 4, (int[]){2, 3, 4, 5});
	int w = tk_input(&g, DT_FLOAT32, 2, (int[]){5, 6});
	int64_t a[4] = {3, 100, 750, 1000};
	CHECK(node1(&g, "local_response_norm", x, 4, a) >= 0);
	CHECK(node1(&g, "local_response_norm_fn", x, 4, (int64_t[]){0, 100, 750, 1000}) < 0);
	int m = tk_node(&g, "matmul", 2, (int[]){x, w}, 0, NULL, why, sizeof why); /* may be a strided view */
	CHECK(m >= 0);
	CHECK(node1(&g, "local_response_norm", g.n[m].out0, 4, a) < 0);
	int f16 = tk_input(&g, DT_FLOAT16, 3, (int[]){2, 3, 4});
	CHECK(node1(&g, "local_response_norm", f16, 4, a) < 0); /* no CPU kernel */
}

TEST(norm_normalize_and_renorm_dims)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int v = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int i = tk_input(&g, DT_INT64, 2, (int[]){3, 4});
	CHECK(node1(&g, "normalize", x, 3, (int64_t[]){2000, -1, 12}) >= 0);
	CHECK(node1(&g, "normalize", x, 3, (int64_t[]){2000, 2, 12}) < 0);
	CHECK(node1(&g, "normalize", x, 3, (int64_t[]){0, 1, 12}) < 0);
	CHECK(node1(&g, "normalize", i, 3, (int64_t[]){2000, 1, 12}) < 0);
	CHECK(node1(&g, "renorm", x, 3, (int64_t[]){1000, 0, 500}) >= 0);
	CHECK(node1(&g, "renorm", v, 3, (int64_t[]){1000, 0, 500}) < 0); /* needs 2-D */
}
