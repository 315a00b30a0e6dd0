/* Graphs drawn to run under an autocast mode (graph/autocast.h): none holds
 * an op that wants operands of one dtype, an op without a kernel of the
 * autocast dtype, or a value of the other half dtype; a campaign's draw
 * gives no autocast mode to a graph that holds one; and the rules are the
 * catalogue's rows. */
#include <string.h>
#include "../config/settings.h"
#include "../graph/autocast.h"
#include "../graph/compile_config.h"
#include "../graph/validate.h"
#include "../mutators/config_draw.h"
#include "../mutators/gen.h"
#include "test.h"

static char why[300];

static int row_of(const char *setting)
{
	int id = setting_find(setting);
	return id < 0 ? -1 : autocast_row_of_setting((unsigned)id);
}

TEST(autocast_rows_are_the_modes)
{
	CHECK(row_of("mode.autocast_bfloat16") >= 0);
	CHECK(row_of("mode.autocast_float16") >= 0);
	CHECK(row_of("mode.autocast_bfloat16") != row_of("mode.autocast_float16"));
	CHECK_EQ(row_of("mode.enable_grad"), -1);
	CHECK_EQ(autocast_dtypes_refused(row_of("mode.autocast_bfloat16")), DTM(DT_FLOAT16));
	CHECK_EQ(autocast_dtypes_refused(row_of("mode.autocast_float16")), DTM(DT_BFLOAT16));
	CHECK_EQ(autocast_dtypes_refused(-1), 0);
}

TEST(autocast_refuses_the_ops_it_breaks)
{
	int bf16 = row_of("mode.autocast_bfloat16"), f16 = row_of("mode.autocast_float16");
	/* operands of one dtype: the in-place entry follows its base */
	CHECK(autocast_op_refused(op_get((unsigned)op_find("lerp")), TARGET_CPU, bf16, why, sizeof why) != 0);
	CHECK(strstr(why, "one dtype") != NULL);
	CHECK(autocast_op_refused(op_get((unsigned)op_find("lerp_")), TARGET_CPU, f16, NULL, 0) != 0);
	CHECK(autocast_op_refused(op_get((unsigned)op_find("index_put_")), TARGET_CPU, f16, NULL, 0) != 0);
	/* no half kernel (float32 and float64 only) */
	CHECK(autocast_op_refused(op_get((unsigned)op_find("log_ndtr")), TARGET_CPU, bf16, why, sizeof why) != 0);
	CHECK(strstr(why, "kernel") != NULL);
	/* neither: promotes, or has half kernels */
	CHECK_EQ(autocast_op_refused(op_get((unsigned)op_find("add")), TARGET_CPU, bf16, NULL, 0), 0);
	CHECK_EQ(autocast_op_refused(op_get((unsigned)op_find("cat")), TARGET_CPU, f16, NULL, 0), 0);
	/* no mode: nothing refused */
	CHECK_EQ(autocast_op_refused(op_get((unsigned)op_find("lerp")), TARGET_CPU, -1, NULL, 0), 0);
}

/* n graphs drawn for mode's row: valid, and nothing in them the mode refuses. */
static void check_drawn_for(const char *mode, unsigned target, unsigned n)
{
	static struct graph g;
	struct gen_opts o;
	gen_default_opts(&o);
	o.target = target;
	o.autocast = row_of(mode);
	struct graph_config c;
	memset(&c, 0, sizeof c);
	CHECK(graph_config_put(&c, (unsigned)setting_find(mode), 1) == 0);
	for (unsigned i = 0; i < n; i++) {
		if (!CHECK(gen_graph(&g, 500 + i, &o, why, sizeof why) == 0))
			continue;
		CHECK(graph_validate(&g, why, sizeof why) == 0);
		if (!CHECK(autocast_graph_refused(&g, &c, why, sizeof why) == 0))
			fprintf(stderr, "  %s graph %u: %s\n", mode, i, why);
	}
}

TEST(autocast_draws_avoid_what_the_mode_breaks)
{
	check_drawn_for("mode.autocast_bfloat16", TARGET_CPU, 150);
	check_drawn_for("mode.autocast_float16", TARGET_CPU, 150);
	check_drawn_for("mode.autocast_float16", TARGET_GPU, 50);
}

/* Without a mode the same draws do hold such graphs: the check above can fail. */
TEST(autocast_draws_without_a_mode_hold_refused_graphs)
{
	static struct graph g;
	struct gen_opts o;
	gen_default_opts(&o);
	o.target = TARGET_CPU;
	struct graph_config c;
	memset(&c, 0, sizeof c);
	CHECK(graph_config_put(&c, (unsigned)setting_find("mode.autocast_bfloat16"), 1) == 0);
	unsigned refused = 0;
	for (unsigned i = 0; i < 150; i++)
		refused += gen_graph(&g, 500 + i, &o, why, sizeof why) == 0 && autocast_graph_refused(&g, &c, NULL, 0);
	CHECK(refused > 0);
}

/* A campaign's configurations: an autocast mode only where the graph holds nothing it refuses. */
TEST(autocast_config_draw_respects_the_graph)
{
	static struct graph g;
	struct gen_opts o;
	config_draw_set_campaign(100, 0, 0, NULL);
	gen_default_opts(&o);
	o.target = TARGET_CPU;
	unsigned autocast = 0;
	for (unsigned i = 0; i < 1500; i++) {
		if (!CHECK(gen_graph(&g, 900 + i, &o, why, sizeof why) == 0))
			continue;
		autocast += autocast_row(&g.config) >= 0;
		CHECK(autocast_graph_refused(&g, &g.config, why, sizeof why) == 0);
	}
	CHECK(autocast > 0); /* some still draw one: about one graph in 200 */
	config_draw_set_campaign(0, 0, 0, NULL);
}
