/* Data-dependent ops: upper-bound shapes, the data-dependent mark that keeps
 * their outputs from being read by any node (graph_add_node, the generator,
 * the mutators), and the program's DATA_DEPENDENT flag. */
#include <stdlib.h>
#include <string.h>
#include "../graph/emit.h"
#include "../graph/validate.h"
#include "../mutators/gen.h"
#include "../mutators/mutate.h"
#include "test.h"
#include "testkit.h"

static char why[300];

TEST(datadep_shapes_are_upper_bounds)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){4, -1});
	int k = tk_node(&g, "nonzero", 1, (int[]){x}, 0, NULL, why, sizeof why);
	CHECK(k >= 0 && tk_out(&g, k, 0)->datadep && tk_out(&g, k, 0)->dtype == DT_INT64);
	CHECK(tk_out(&g, k, 0)->dim[0][0] == 12 && tk_out(&g, k, 0)->dim[1][0] == 20 && tk_out(&g, k, 0)->dim[1][1] == 2);
	k = tk_node(&g, "unique", 1, (int[]){x}, 1, (int64_t[]){1}, why, sizeof why);
	CHECK(k >= 0 && g.n[k].nout == 2 && tk_out(&g, k, 0)->dim[1][0] == 20);
	CHECK(g.v[g.n[k].out0 + 1].dtype == DT_INT64 && g.v[g.n[k].out0 + 1].datadep);
	k = tk_node(&g, "unique", 1, (int[]){x}, 1, (int64_t[]){0}, why, sizeof why);
	CHECK(k >= 0 && g.n[k].nout == 1);
	/* x[mask]: a mask of x's leading dims */
	struct leaf_dim ld[1] = {{-1, 0, 4}};
	int m = graph_add_leaf(&g, VK_INPUT, DT_BOOL, 1, ld, FILL_RANGE, 0, 1, why, sizeof why);
	k = tk_node(&g, "mask_index", 2, (int[]){x, m}, 0, NULL, why, sizeof why);
	CHECK(k >= 0 && tk_out(&g, k, 0)->rank == 2 && tk_out(&g, k, 0)->dim[1][0] == 4 && tk_out(&g, k, 0)->dim[1][1] == 5);
	CHECK(tk_node(&g, "mask_index", 2, (int[]){x, x}, 0, NULL, why, sizeof why) < 0); /* not bool */
	k = tk_node(&g, "masked_select", 2, (int[]){x, m}, 0, NULL, why, sizeof why);
	CHECK(k < 0); /* [4] does not broadcast with [4, s0] */
	/* repeat_interleave: one count in [0, 3] per index of the dim */
	int r = graph_add_leaf(&g, VK_INPUT, DT_INT64, 1, ld, FILL_RANGE, 0, 3, why, sizeof why);
	k = tk_node(&g, "repeat_interleave", 2, (int[]){x, r}, 1, (int64_t[]){0}, why, sizeof why);
	CHECK(k >= 0 && tk_out(&g, k, 0)->dim[0][0] == 12 && tk_out(&g, k, 0)->dim[1][1] == 5);
	CHECK(tk_node(&g, "repeat_interleave", 2, (int[]){x, r}, 1, (int64_t[]){1}, why, sizeof why) < 0);
	/* more than 1024 elements: no bound fits one dim */
	int big = tk_input(&g, DT_FLOAT32, 2, (int[]){40, 40});
	CHECK(tk_node(&g, "nonzero", 1, (int[]){big}, 0, NULL, why, sizeof why) < 0);
}

TEST(datadep_values_are_read_by_no_node)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){6});
	int k = tk_node(&g, "unique", 1, (int[]){x}, 1, (int64_t[]){0}, why, sizeof why);
	int u = g.n[k].out0;
	CHECK(tk_node(&g, "relu", 1, (int[]){u}, 0, NULL, why, sizeof why) < 0);
	CHECK(strstr(why, "data-dependent"));
	graph_mark_sinks(&g);
	char *p = emit_program_string(&g, NULL, NULL);
	CHECK(p && strstr(p, "\nDATA_DEPENDENT = True\n") && strstr(p, "torch.unique(x0, sorted=True, return_counts=False)"));
	free(p);
}

TEST(datadep_generated_and_mutated_graphs_keep_them_sinks)
{
	struct gen_opts o;
	gen_default_opts(&o);
	o.size = 12;
	static struct graph g;
	struct rng r;
	rng_seed(&r, 3);
	unsigned seen = 0;
	for (unsigned i = 0; i < 300; i++) {
		o.family = i % 2 ? FAM_DATADEP : -1;
		if (gen_graph(&g, 4000 + i, &o, why, sizeof why))
			continue;
		for (unsigned t = 0; t < 4; t++)
			mutate_graph(&g, NULL, &r, 16, NULL);
		CHECK(graph_validate(&g, why, sizeof why) == 0);
		for (unsigned v = 0; v < g.nvalues; v++) {
			seen += g.v[v].datadep;
			CHECK(!g.v[v].datadep || (graph_users(&g, v) == 0 && g.v[v].out));
		}
	}
	CHECK(seen > 300);
}

TEST(datadep_argwhere_and_bincount_bounds)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){4, -1});
	int k = tk_node(&g, "argwhere", 1, (int[]){x}, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 20);
	CHECK(tk_out(&g, k, 0)->datadep);
	int c = tk_leaf(&g, DT_INT64, 1, (int[]){-1}, FILL_RANGE, 0, 6);
	k = tk_node(&g, "bincount", 1, (int[]){c}, 1, (int64_t[]){3}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 7); /* at most max + 1 */
	k = tk_node(&g, "bincount", 1, (int[]){c}, 1, (int64_t[]){10}, why, sizeof why);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 10); /* minlength */
	int neg = tk_leaf(&g, DT_INT64, 1, (int[]){4}, FILL_RANGE, -1, 6);
	CHECK(tk_node(&g, "bincount", 1, (int[]){neg}, 1, (int64_t[]){0}, why, sizeof why) < 0);
	int any = tk_leaf(&g, DT_INT32, 1, (int[]){4}, FILL_RANGE, 0, 100);
	CHECK(tk_node(&g, "bincount", 1, (int[]){any}, 1, (int64_t[]){0}, why, sizeof why) < 0); /* too large a bound */
}
