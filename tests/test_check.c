/* check.h without a worker: check_hung, the finding of a graph whose run
 * never ended (the manager's watchdog files it): a hang verdict, the program
 * that ran, and a signature over the graph's ops, as findings of a run have;
 * check_nudging, which modes and oracle options a graph's shape asks for. */
#include "test.h"
#include "testkit.h"
#include "../pipeline/check.h"
#include "../oracles/judge.h"
#include "../pipeline/pool.h"
#include <string.h>

static struct graph g;
static struct check_result r;

/* g: one op on a float input, its result the output. */
static void one_op(const char *op)
{
	char why[300];
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int k = tk_node(&g, op, 1, &x, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	graph_mark_sinks(&g);
}

TEST(check_hung_is_a_hang_finding_of_the_graphs_program)
{
	struct check_cfg c;
	char why[300];
	check_default_cfg(&c);
	one_op("exp");
	CHECK_EQ(check_hung(&g, &c, "killed after 9 s", &r, why, sizeof why), 0);
	CHECK_EQ(r.v.kind, V_HANG);
	CHECK(verdict_is_finding(r.v.kind) && !strcmp(r.v.detail, "killed after 9 s"));
	CHECK(r.program && r.program_len > 0 && strstr(r.program, "exp"));
	CHECK(r.nops == 1 && !strcmp(r.ops[0], "exp"));
	uint64_t exp_sig = r.signature;
	CHECK(exp_sig != 0);
	check_result_free(&r);
	CHECK_EQ(check_hung(&g, &c, "killed after 20 s", &r, why, sizeof why), 0);
	CHECK(r.signature == exp_sig); /* the detail is not the signature */
	check_result_free(&r);
	one_op("sin");
	CHECK_EQ(check_hung(&g, &c, "killed after 9 s", &r, why, sizeof why), 0);
	CHECK(r.signature != exp_sig); /* another op, another bug */
	check_result_free(&r);
}

/* The nudged run is asked for where it judges something: floats where
 * nothing jumps, or ints where no op reads a float's bits. */
TEST(nudged_run_only_where_it_judges_floats_or_ints)
{
	struct check_cfg c;
	char why[300];
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int k = tk_node(&g, "exp", 1, &x, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	int e = g.n[k].out0;
	graph_mark_sinks(&g);
	check_default_cfg(&c);
	check_nudging(&c, &g, NULL);
	CHECK(c.oracle.nudge_floats && !c.oracle.stepped[0] && c.oracle.nudge_ints && (c.modes & (1u << RM_NUDGED)));
	CHECK(tk_node(&g, "floor", 1, &e, 0, NULL, why, sizeof why) >= 0); /* a step: ints still judged */
	graph_mark_sinks(&g);
	check_default_cfg(&c);
	check_nudging(&c, &g, NULL);
	CHECK(!c.oracle.nudge_floats && c.oracle.stepped[0] && c.oracle.nudge_ints && (c.modes & (1u << RM_NUDGED)));
	CHECK(tk_node(&g, "view_dtype", 1, &x, 1, (int64_t[]){DT_INT32}, why, sizeof why) >= 0); /* an input's bits */
	graph_mark_sinks(&g);
	check_default_cfg(&c);
	check_nudging(&c, &g, NULL);
	CHECK(!c.oracle.nudge_floats && !c.oracle.nudge_ints && !(c.modes & (1u << RM_NUDGED)));
	g.broken = 1; /* nothing judged by nudging a near-invalid graph */
	check_default_cfg(&c);
	check_nudging(&c, &g, NULL);
	CHECK(!(c.modes & (1u << RM_NUDGED)));
}

/* A step is judged per component: the floor of one component's value takes
 * nothing from the nudged run's excuse of another's (a campaign graph of 8
 * components, one with a comparison, one with ndtri of a cross product of
 * a vector with itself, zero up to rounding). */
TEST(a_step_marks_only_the_outputs_of_its_component)
{
	struct check_cfg c;
	char why[300];
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int y = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int ke = tk_node(&g, "exp", 1, &x, 0, NULL, why, sizeof why);
	int kf = tk_node(&g, "floor", 1, &y, 0, NULL, why, sizeof why);
	CHECK(ke >= 0 && kf >= 0);
	int e = g.n[ke].out0, f = g.n[kf].out0;
	graph_mark_sinks(&g);
	uint16_t ids[3 * G_MAX_VALUES];
	CHECK_EQ(emit_returned_values(&g, NULL, ids), 2);
	CHECK(ids[0] == e && ids[1] == f);
	check_default_cfg(&c);
	check_nudging(&c, &g, NULL);
	CHECK(c.oracle.nudge_floats && !c.oracle.stepped[0] && c.oracle.stepped[1]);
	CHECK(c.modes & (1u << RM_NUDGED));
	/* joined by a node that reads both, the step reaches every output */
	CHECK(tk_node(&g, "add", 2, (int[]){e, f}, 0, NULL, why, sizeof why) >= 0);
	graph_mark_sinks(&g);
	g.v[e].out = g.v[f].out = 1;
	check_default_cfg(&c);
	check_nudging(&c, &g, NULL);
	CHECK(!c.oracle.nudge_floats && c.oracle.stepped[0] && c.oracle.stepped[1] && c.oracle.stepped[2]);
}

/* A graph's second finding (an alias in one component, beside a numeric
 * one in another: the H200 campaign's, reduced to the numeric one's graph)
 * is followed by its own verdict and output, then by its own key, not by
 * the check's first verdict. */
TEST(a_reduction_follows_the_wanted_finding_not_the_first)
{
	memset(&r, 0, sizeof r); /* the file's */
	oracle_set(&r.v, V_NUMERIC, MM_VALUES, 0, 0, "binding 0 output 0: max abs diff 1");
	r.signature = 11;
	oracle_set(&r.more[0].v, V_ALIAS, MM_NONE, 0, 4, "binding 0 output 4: compiled shares leaf 5's storage");
	r.more[0].signature = 22;
	r.nmore = 1;
	struct check_want want = {0, "", -1};
	uint64_t sig = 0;
	CHECK(pool_wanted(&r, &want, &sig) == &r.v && sig == 11); /* nothing wanted: the first */
	snprintf(want.verdict, sizeof want.verdict, "alias");
	want.output = 4;
	CHECK(pool_wanted(&r, &want, &sig) == &r.more[0].v && sig == 22);
	want.output = 3; /* another output's alias: not this one */
	CHECK(pool_wanted(&r, &want, &sig) == &r.v && sig == 11);
	want.key = pool_key(&r.more[0].v, &r.run); /* once reduced, by key alone */
	CHECK(want.key && want.key != pool_key(&r.v, &r.run));
	CHECK(pool_wanted(&r, &want, &sig) == &r.more[0].v && sig == 22);
	r.nmore = 0; /* a candidate that lost it: the first, whose key differs */
	CHECK(pool_wanted(&r, &want, &sig) == &r.v && pool_key(&r.v, &r.run) != want.key);
}
