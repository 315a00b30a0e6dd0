/* Fill values held in 0-dim tensors (masked_fill_tensor, index_fill_tensor,
 * where_tensor_fill, fill_tensor_ and the in-place forms): the fill must be
 * 0-dim and of input 0's dtype, its bounds reach the result's, and the
 * choosers draw such fills, parameters among them. */
#include <stdio.h>
#include <string.h>
#include "../mutators/gen.h"
#include "test.h"
#include "testkit.h"

static char why[300];

TEST(tensor_fill_rows_take_a_0dim_fill_of_the_dtype)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int mask = tk_leaf(&g, DT_BOOL, 2, (int[]){3, 4}, FILL_RANGE, 0, 1);
	int t = tk_input(&g, DT_FLOAT32, 0, NULL), t1 = tk_input(&g, DT_FLOAT32, 1, (int[]){1});
	int t64 = tk_input(&g, DT_FLOAT64, 0, NULL);
	int idx = tk_leaf(&g, DT_INT64, 1, (int[]){2}, FILL_RANGE, 0, 2);
	CHECK(tk_node(&g, "masked_fill_tensor", 3, (int[]){x, mask, t}, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "where_tensor_fill", 3, (int[]){x, mask, t}, 0, NULL, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "index_fill_tensor", 3, (int[]){x, idx, t}, 1, (int64_t[]){0}, why, sizeof why) >= 0);
	/* a 1-element tensor of rank 1 is no fill; nor one of another dtype */
	for (unsigned k = 0; k < 2; k++) {
		int bad = k ? t64 : t1;
		CHECK(tk_node(&g, "masked_fill_tensor", 3, (int[]){x, mask, bad}, 0, NULL, why, sizeof why) < 0);
		CHECK(strstr(why, "0-dim") != NULL);
		CHECK(tk_node(&g, "where_tensor_fill", 3, (int[]){x, mask, bad}, 0, NULL, why, sizeof why) < 0);
		CHECK(tk_node(&g, "index_fill_tensor", 3, (int[]){x, idx, bad}, 1, (int64_t[]){0}, why, sizeof why) < 0);
	}
	int y = tk_node(&g, "mul", 2, (int[]){x, x}, 0, NULL, why, sizeof why);
	int f = tk_node(&g, "fill_tensor_", 2, (int[]){tk_out(&g, y, 0) - g.v, t}, 0, NULL, why, sizeof why);
	CHECK(f >= 0);
	CHECK(tk_node(&g, "fill_tensor_", 2, (int[]){tk_out(&g, y, 0) - g.v, t1}, 0, NULL, why, sizeof why) < 0);
}

TEST(tensor_fill_bounds_reach_the_result)
{
	struct graph g;
	tk_static(&g);
	int x = tk_leaf(&g, DT_INT64, 2, (int[]){3, 4}, FILL_RANGE, 0, 5);
	int mask = tk_leaf(&g, DT_BOOL, 2, (int[]){3, 4}, FILL_RANGE, 0, 1);
	int t = tk_leaf(&g, DT_INT64, 0, NULL, FILL_RANGE, -7, 9);
	int k = tk_node(&g, "masked_fill_tensor", 3, (int[]){x, mask, t}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->lo, -7);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 9);
}

/* The choosers: every drawn fill is 0-dim of input 0's dtype, and float
 * fills are now and then module parameters. */
TEST(tensor_fill_choosers_draw_0dim_fills_and_parameters)
{
	static const char *const rows[] = {"masked_fill_tensor", "index_fill_tensor", "where_tensor_fill", "fill_tensor_",
					   "masked_fill_tensor_", "index_fill_tensor_"};
	static struct graph g;
	unsigned seen[6] = {0}, params = 0;
	struct gen_opts o;
	gen_default_opts(&o);
	o.size = 12;
	for (unsigned i = 0; i < 600; i++) {
		o.family = (int)(i % 3 == 0 ? FAM_INDEX : i % 3 == 1 ? FAM_BINARY : FAM_INPLACE);
		if (!CHECK(gen_graph(&g, 7000 + i, &o, why, sizeof why) == 0))
			continue;
		for (unsigned k = 0; k < g.nnodes; k++)
			for (unsigned r = 0; r < 6; r++) {
				if ((int)g.n[k].op != op_find(rows[r]))
					continue;
				const struct value *fill = &g.v[g.n[k].in[r == 3 ? 1 : 2]], *x = &g.v[g.n[k].in[0]];
				seen[r]++;
				CHECK_EQ(fill->rank, 0);
				CHECK_EQ(fill->dtype, x->dtype);
				params += fill->kind == VK_PARAM;
			}
	}
	for (unsigned r = 0; r < 6; r++)
		if (!CHECK(seen[r] > 0))
			fprintf(stderr, "  %s never drawn\n", rows[r]);
	CHECK(params > 0);
}
