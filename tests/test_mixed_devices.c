/* Mixed-device rows (mul_cpu_0dim, index_cpu_index, cpu_round_trip): taken in
 * graphs for a GPU only, and drawn only there. */
#include <stdio.h>
#include <string.h>
#include "../mutators/gen.h"
#include "test.h"
#include "testkit.h"

static char why[300];
static const char *const rows[] = {"mul_cpu_0dim", "index_cpu_index", "cpu_round_trip"};

/* Adds the three rows to a graph for target: how many were taken. */
static unsigned add_rows(unsigned target)
{
	struct graph g;
	tk_static(&g);
	CHECK(graph_set_target(&g, target, why, sizeof why) == 0);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 6}), t = tk_input(&g, DT_FLOAT32, 0, NULL);
	int idx = tk_leaf(&g, DT_INT64, 1, (int[]){3}, FILL_RANGE, 0, 3);
	unsigned taken = tk_node(&g, rows[0], 2, (int[]){x, t}, 0, NULL, why, sizeof why) >= 0;
	taken += tk_node(&g, rows[1], 2, (int[]){x, idx}, 0, NULL, why, sizeof why) >= 0;
	taken += tk_node(&g, rows[2], 1, (int[]){x}, 0, NULL, why, sizeof why) >= 0;
	if (target == TARGET_GPU) /* the CPU operand is 0-dim */
		CHECK(tk_node(&g, rows[0], 2, (int[]){x, x}, 0, NULL, why, sizeof why) < 0);
	return taken;
}

TEST(mixed_device_rows_are_for_a_gpu_only)
{
	CHECK_EQ(add_rows(TARGET_GPU), 3);
	CHECK_EQ(add_rows(TARGET_CPU), 0);
	CHECK_EQ(add_rows(TARGET_ANY), 0);
}

static unsigned drawn(unsigned target)
{
	static struct graph g;
	struct gen_opts o;
	unsigned n = 0;
	gen_default_opts(&o);
	o.target = target;
	o.size = 12;
	for (unsigned i = 0; i < 300; i++) {
		o.family = (int)(i % 3 == 0 ? FAM_BINARY : i % 3 == 1 ? FAM_INDEX : FAM_SHAPE);
		if (!CHECK(gen_graph(&g, 3000 + i, &o, why, sizeof why) == 0))
			continue;
		for (unsigned k = 0; k < g.nnodes; k++)
			for (unsigned r = 0; r < 3; r++)
				n += (int)g.n[k].op == op_find(rows[r]);
	}
	return n;
}

TEST(mixed_device_rows_are_drawn_for_a_gpu_only)
{
	CHECK(drawn(TARGET_GPU) > 0);
	CHECK_EQ(drawn(TARGET_CPU), 0);
}
