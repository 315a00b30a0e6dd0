/* The worker requests `pt2fuzz report` needs, against the real torch
 * runtime: collect_env's text, a TORCH_TRACE log of one request, and the
 * same worker serving normal requests afterwards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../graph/emit.h"
#include "../../harness/executor.h"
#include "../../harness/runtime.h"
#include "../test.h"
#include "../testkit.h"

static struct executor X;
static int ready = -1;
static char why[800], *program;
static size_t program_len;

/* One executor; the program of relu(x) * 2 on a float32 [4, 5] input. */
static int setup(void)
{
	static char python[4096];
	static struct graph g;
	if (ready >= 0)
		return ready;
	ready = 0;
	struct executor_opts o;
	executor_default_opts(&o);
	o.timeout_ms = 60000;
	o.compile_threads = 1;
	if (runtime_python(python, sizeof python, why, sizeof why)) {
		fprintf(stderr, "  setup: %s\n", why);
		return 0;
	}
	o.python = python;
	if (executor_init(&X, &o, why, sizeof why)) {
		fprintf(stderr, "  setup: %s\n", why);
		return 0;
	}
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 5});
	int r = tk_node(&g, "relu", 1, &x, 0, NULL, why, sizeof why);
	int in[2] = {g.n[r].out0, g.n[r].out0};
	int s = tk_node(&g, "add", 2, in, 0, NULL, why, sizeof why);
	graph_set_output(&g, g.n[s].out0, 1, why, sizeof why);
	struct emit_opts eo = {"inductor", NULL};
	program = emit_program_string(&g, &eo, &program_len);
	ready = program != NULL;
	return ready;
}

static struct exec_request RQ;
static struct run_result R;

/* The program once, eager and compiled, with TORCH_TRACE on. */
static int traced_run(struct exec_trace *t)
{
	RQ = (struct exec_request){program, program_len, (1u << RM_EAGER) | (1u << RM_COMPILED), "inductor", NULL, "marks"};
	if (executor_run_traced(&X, &RQ, &R, t, why, sizeof why)) {
		fprintf(stderr, "  %s\n", why);
		return 0;
	}
	return 1;
}

TEST(report_collect_env_names_the_torch_version)
{
	if (!CHECK(setup()))
		return;
	char *text = NULL;
	size_t len = 0;
	if (!CHECK(executor_collect_env(&X, &text, &len, why, sizeof why) == 0)) {
		fprintf(stderr, "  %s\n", why);
		return;
	}
	CHECK(strstr(text, "PyTorch version") != NULL);
	CHECK_EQ(strlen(text), len);
	free(text);
}

TEST(report_traced_run_returns_the_compile_trace)
{
	struct exec_trace t;
	if (!CHECK(setup()) || !CHECK(traced_run(&t)))
		return;
	CHECK(R.m[RM_COMPILED][0].ok && R.compiled_graphs >= 1);
	CHECK(t.text && t.len > 0 && strlen(t.text) == t.len);
	CHECK(t.text && (strstr(t.text, "dynamo_start") || strstr(t.text, "compilation_metrics")));
	CHECK_EQ(t.note[0], 0);
	CHECK(X.trace == NULL);
	free(t.text);
}

TEST(report_executor_keeps_serving_after_a_trace)
{
	struct exec_trace t;
	if (!CHECK(setup()) || !CHECK(traced_run(&t)))
		return;
	free(t.text);
	unsigned starts = X.starts;
	CHECK(executor_run(&X, &RQ, &R, why, sizeof why) == 0);
	CHECK(R.m[RM_EAGER][0].ok && R.m[RM_COMPILED][0].ok);
	char *text = NULL;
	size_t len;
	CHECK(executor_collect_env(&X, &text, &len, why, sizeof why) == 0);
	free(text);
	CHECK_EQ(X.starts, starts); /* the same worker all along: no protocol slip restarted it */
}
