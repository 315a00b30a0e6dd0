/* What a campaign avoids on its torch (fuzz/torch_avoid.h), the same in the
 * served targets and in the manager that makes their inputs: an op the torch
 * lacks, always; a known bug's trigger on a torch its line lists, unless
 * hunting. And how the campaign learns the torch before any worker runs
 * (harness/runtime.h runtime_torch_version): the runtime's python asked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../config/compile.h"
#include "../config/settings.h"
#include "../fuzz/torch_avoid.h"
#include "../graph/compile_config.h"
#include "../graph/text.h"
#include "../harness/runtime.h"
#include "../mutators/avoid.h"
#include "../mutators/config_draw.h"
#include "../mutators/mutkit.h"
#include "test.h"
#include "testkit.h"

static char torch[64];

static const char *torch_now(void) { return torch; }

/* A graph of one op on x [4, 4] (and, for ops of two, class targets like
 * it in [-1, 3]), with nattr attributes, each 0. */
static int one_op(struct graph *g, const char *op, unsigned nin, enum dtype second, unsigned nattr)
{
	char why[300];
	tk_static(g);
	int in[2] = {tk_input(g, DT_FLOAT32, 2, (int[]){4, 4}), 0};
	if (nin > 1)
		in[1] = tk_leaf(g, second, 2, (int[]){4, 4}, FILL_RANGE, second == DT_BOOL ? 0 : -1, second == DT_BOOL ? 1 : 3);
	int n = tk_node(g, op, nin, in, nattr, (int64_t[]){0}, why, sizeof why);
	if (n < 0)
		fprintf(stderr, "  %s: %s\n", op, why);
	return n >= 0;
}

TEST(ops_a_torch_lacks_are_avoided_on_that_torch_only)
{
	static struct graph g;
	if (!CHECK(one_op(&g, "linalg_matrix_sqrth", 1, DT_FLOAT32, 0))) /* since 2.15 */
		return;
	for (int hunt = 0; hunt < 2; hunt++) {
		torch_avoid_use(torch_now, hunt, 0, NULL);
		snprintf(torch, sizeof torch, "2.11.0+cu130");
		CHECK(avoid_graph(&g));
		snprintf(torch, sizeof torch, "2.15.0+cu132");
		CHECK(!avoid_graph(&g));
		torch[0] = 0; /* unknown: nothing avoided */
		CHECK(!avoid_graph(&g));
	}
	avoid_use(NULL);
	avoid_break_use(NULL);
}

TEST(known_triggers_are_avoided_on_the_torches_listed_unless_hunting)
{
	static struct graph g;
	/* known_bugs.txt: multilabel_margin_loss on 2.11 and 2.15 */
	if (!CHECK(one_op(&g, "multilabel_margin_loss", 2, DT_INT64, 1)))
		return;
	torch_avoid_use(torch_now, 0, 0, NULL);
	snprintf(torch, sizeof torch, "2.11.0+cu130");
	CHECK(avoid_graph(&g));
	snprintf(torch, sizeof torch, "2.6.0");
	CHECK(!avoid_graph(&g));
	torch_avoid_use(torch_now, 1, 0, NULL);
	snprintf(torch, sizeof torch, "2.11.0+cu130");
	CHECK(!avoid_graph(&g));
	avoid_use(NULL);
	avoid_break_use(NULL);
}

/* A graph in text form and whether a campaign on torch 2.15 avoids it. */
struct avoided_case {
	const char *text;
	int avoided;
};

static void check_avoided_on(const char *version, const struct avoided_case *cases, unsigned n)
{
	static struct graph g;
	char why[300];
	torch_avoid_use(torch_now, 0, 0, NULL);
	snprintf(torch, sizeof torch, "%s", version);
	for (unsigned k = 0; k < n; k++)
		if (CHECK(text_parse(&g, cases[k].text, why, sizeof why) == 0) && !CHECK_EQ(avoid_graph(&g), cases[k].avoided))
			fprintf(stderr, "  case %u on %s: %s", k, version, cases[k].text);
	avoid_use(NULL);
	avoid_break_use(NULL);
}

static void check_avoided_on_2_15(const struct avoided_case *cases, unsigned n) { check_avoided_on("2.15.0", cases, n); }

/* known_bugs.txt: pytorch#190418's trigger is "*softmax*@0d", a softmax of a
 * 0-d tensor: a softmax of a 1-element vector, and a 0-d value some other op
 * reads, stay in reach. */
TEST(a_zero_dim_trigger_holds_only_where_the_op_reads_a_zero_dim_tensor)
{
	static const struct avoided_case cases[] = {
		{"bindings 1\nx0 = input int32 [] range -3 3\nv1 = softsign(x0)\n"
		 "v2 = softmax_dtype(v1; dim=-1, dtype=float32)\noutput v2\n", 1},
		{"bindings 1\nx0 = input int32 [1] range -3 3\nv1 = softsign(x0)\n"
		 "v2 = softmax_dtype(v1; dim=-1, dtype=float32)\noutput v2\n", 0},
		{"bindings 1\nx0 = input float32 [3]\nv1 = sum_all(x0)\nv2 = softsign(v1)\n"
		 "v3 = softmax(x0; dim=-1)\nv4 = mul(v3, v2)\noutput v4\n", 0},
	};
	check_avoided_on_2_15(cases, sizeof cases / sizeof *cases);
}

/* known_bugs.txt: pytorch#198364's triggers are "copysign@strided" and the
 * like: eager follows a transposed input 0's layout, Inductor's meta gives
 * contiguous strides. copysign stays in reach where its input 0 is
 * contiguous, also beside a transposed input 1; LAPACK's column-major
 * result, through an elementwise op that keeps it, is strided. */
TEST(a_strided_trigger_holds_only_where_input_0_is_not_known_contiguous)
{
	static const struct avoided_case cases[] = {
		{"bindings 1\nx0 = input float32 [3, 4] transposed\nx1 = input float32 [3, 4]\n"
		 "v2 = copysign(x0, x1)\noutput v2\n", 1},
		{"bindings 1\nx0 = input float32 [3, 4]\nx1 = input float32 [3, 4] transposed\n"
		 "v2 = copysign(x0, x1)\noutput v2\n", 0},
		{"bindings 1\nx0 = input float32 [3, 4]\nx1 = input float32 [3, 4]\nv2 = copysign(x0, x1)\noutput v2\n", 0},
		{"bindings 1\nx0 = input float32 [3, 3]\nv1 = linalg_tensorinv(x0)\nv2 = neg(v1)\n"
		 "v3 = copysign(v2, x0)\noutput v3\n", 1},
		/* a channels-last input is not contiguous either (pt2fuzz's rpow_scalar write-up) */
		{"bindings 1\nx0 = input float32 [1, 2, 1, 2] channels_last\nv1 = rpow_scalar(x0; value=2.0)\noutput v1\n", 1},
		{"bindings 1\nx0 = input float32 [1, 2, 1, 2]\nv1 = rpow_scalar(x0; value=2.0)\noutput v1\n", 0},
	};
	check_avoided_on_2_15(cases, sizeof cases / sizeof *cases);
}

/* known_bugs.txt: pt2fuzz's AOTInductor write-up needs a write into a
 * parameter itself and the aoti backend. A campaign under --backend aoti
 * avoids such a graph; an Inductor campaign avoids it only in a
 * configuration that draws the aoti backend. */
TEST(aoti_parameter_write_is_avoided_where_the_campaign_or_configuration_runs_aoti)
{
	static struct graph g;
	char why[300];
	if (!CHECK(text_parse(&g, "bindings 1\np0 = param float32 [3]\nx1 = input float32 [3]\nv2 = add_(p0, x1)\noutput v2\n",
			      why, sizeof why) == 0))
		return;
	snprintf(torch, sizeof torch, "2.15.0+cu132");
	torch_avoid_use(torch_now, 0, 1, NULL);
	CHECK(avoid_graph(&g));
	torch_avoid_use(torch_now, 1, 1, NULL); /* hunting */
	CHECK(!avoid_graph(&g));
	torch_avoid_use(torch_now, 0, 0, NULL);
	CHECK(!avoid_graph(&g));
	struct graph_config aoti = {0};
	CHECK_EQ(graph_config_read(&aoti, "backend", "aoti", why, sizeof why), 0);
	aoti.dynamic = CD_MARKS;
	CHECK(avoid_config(&g, &aoti));
	struct graph_config eager = {0};
	CHECK_EQ(graph_config_read(&eager, "backend", "aot_eager", why, sizeof why), 0);
	CHECK(!avoid_config(&g, &eager));
	avoid_use(NULL);
	avoid_break_use(NULL);
}

/* A configuration of one setting at its value named as text. */
static struct graph_config one_setting(const char *name, const char *value)
{
	struct graph_config c = {0};
	char why[300];
	CHECK_EQ(graph_config_read(&c, name, value, why, sizeof why), 0);
	return c;
}

/* How many of n configurations drawn for g (a GPU graph) set name to True. */
static unsigned drawn_with(struct graph *g, const char *name, unsigned n)
{
	struct rng r;
	unsigned with = 0;
	rng_seed(&r, 7);
	for (unsigned i = 0; i < n; i++) {
		memset(&g->config, 0, sizeof g->config);
		config_draw_graph(g, &r, 100, TARGET_GPU);
		with += graph_config_on(&g->config, name);
	}
	memset(&g->config, 0, sizeof g->config);
	return with;
}

/* known_bugs.txt: force_cooperative_reductions=True alone on 2.11 (any
 * small reduction), and fake_tensor_propagate_real_tensors=True beside
 * a boolean mask's index on 2.11 and 2.15. Such a setting is what a draw and the
 * config mutator refuse; the op stays. */
TEST(settings_a_known_bug_needs_are_not_drawn_nor_mutated_into_unless_hunting)
{
	static struct graph masked, add;
	static struct mut_ctx m;
	const char *coop = "inductor.triton.force_cooperative_reductions",
		   *real = "functorch.fake_tensor_propagate_real_tensors";
	struct graph_config c_coop = one_setting(coop, "True"), c_real = one_setting(real, "True");
	if (!CHECK(one_op(&masked, "mask_index", 2, DT_BOOL, 0)) || !CHECK(one_op(&add, "add", 2, DT_FLOAT32, 0)))
		return;
	masked.target = add.target = TARGET_GPU;
	snprintf(torch, sizeof torch, "2.11.0+cu130");
	torch_avoid_use(torch_now, 0, 0, NULL);
	CHECK(avoid_config(NULL, &c_coop));
	CHECK(avoid_config(&add, &c_coop));
	CHECK(!avoid_config(NULL, &c_real));
	CHECK(!avoid_config(&add, &c_real));
	CHECK(avoid_config(&masked, &c_real));
	CHECK(!avoid_graph(&masked)); /* the op alone is no trigger */
	snprintf(torch, sizeof torch, "2.15.0+cu132");
	CHECK(!avoid_config(NULL, &c_coop)); /* its line lists 2.11 only */
	CHECK(avoid_config(&masked, &c_real));

	/* Drawn: never on the torch its line lists; hunting, both are drawn. */
	config_draw_set_campaign(100, 0, 0, torch_now);
	snprintf(torch, sizeof torch, "2.11.0+cu130");
	CHECK_EQ(drawn_with(&masked, coop, 3000), 0);
	CHECK_EQ(drawn_with(&masked, real, 3000), 0);
	CHECK(drawn_with(&add, real, 3000) > 0);
	torch_avoid_use(torch_now, 1, 0, NULL);
	CHECK(drawn_with(&masked, coop, 3000) > 0);
	CHECK(drawn_with(&masked, real, 3000) > 0);

	/* Mutated: a change into the setting is refused, for the graph of masked only. */
	torch_avoid_use(torch_now, 0, 0, NULL);
	struct rng r;
	rng_seed(&r, 3);
	unsigned into[2] = {0, 0};
	for (int which = 0; which < 2; which++)
		for (unsigned i = 0; i < 4000; i++) {
			m.g = which ? &add : &masked;
			m.r = &r;
			into[which] += !mut_config(&m) && graph_config_on(&m.out.config, real);
		}
	CHECK_EQ(into[0], 0);
	CHECK(into[1] > 0);
	config_draw_set_campaign(0, 0, 0, NULL);
	avoid_use(NULL);
	avoid_break_use(NULL);
	torch[0] = 0;
}

/* A stand-in python: PT2FUZZ_PYTHON names it; it reads the program from
 * stdin, as python -u - does, and answers with body. */
static void fake_python(const char *path, const char *body)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "#!/bin/sh\ncat >/dev/null\n%s\n", body);
		fclose(f);
	}
	chmod(path, 0755);
}

TEST(torch_version_comes_from_the_runtime_python_or_a_reason)
{
	char dir[] = "/tmp/pt2fuzz-torchver.XXXXXX", path[100], out[64], why[300] = "";
	if (!CHECK(mkdtemp(dir) != NULL))
		return;
	const char *saved = getenv("PT2FUZZ_PYTHON");
	char keep[4096];
	snprintf(keep, sizeof keep, "%s", saved ? saved : "");
	snprintf(path, sizeof path, "%s/python3", dir);
	setenv("PT2FUZZ_PYTHON", path, 1);
	fake_python(path, "echo 2.6.0+cpu");
	CHECK_EQ(runtime_torch_version(out, sizeof out, why, sizeof why), 0);
	CHECK(!strcmp(out, "2.6.0+cpu"));
	fake_python(path, "echo 'No package metadata was found for torch' >&2; exit 1");
	CHECK_EQ(runtime_torch_version(out, sizeof out, why, sizeof why), -1);
	CHECK(strstr(why, "found no torch package") != NULL);
	setenv("PT2FUZZ_PYTHON", "/nonexistent/python3", 1);
	CHECK_EQ(runtime_torch_version(out, sizeof out, why, sizeof why), -1);
	if (keep[0])
		setenv("PT2FUZZ_PYTHON", keep, 1);
	else
		unsetenv("PT2FUZZ_PYTHON");
	unlink(path);
	rmdir(dir);
}

/* known_bugs.txt: torch 2.11's known failures found by a GPU campaign. A
 * cumsum of a 0-d constant (pytorch#193265) is avoided where the constant
 * is 0-d, not where it is a vector; select_scatter into an expanded tensor
 * (the class of pytorch#183986) on 2.11, not on 2.15, which computes it. */
TEST(torch_2_11s_cumsum_of_a_0d_constant_and_select_scatter_into_an_expansion_are_avoided_there)
{
	static const char select_into_expansion[] =
		"bindings 1\nx0 = input int64 [199, 12] range -8 8\nv1 = broadcast_to(x0; sizes=[12, -1, 12])\n"
		"x2 = input int64 [12, 199] range -8 8\nv3 = select_scatter(v1, x2; dim=2, index=4)\noutput v3\n";
	static const struct avoided_case on_2_11[] = {
		{"bindings 1\nx0 = input int64 [1, 1] range -8 8\nv1 = new_zeros(x0; size=[])\n"
		 "v2 = cumsum_dtype(v1; dim=0, dtype=float32)\noutput v2\n", 1},
		{"bindings 1\nx0 = input int64 [1, 1] range -8 8\nv1 = new_zeros(x0; size=[3])\n"
		 "v2 = cumsum_dtype(v1; dim=0, dtype=float32)\noutput v2\n", 0},
		{select_into_expansion, 1},
	};
	static const struct avoided_case on_2_15[] = {{select_into_expansion, 0}};
	check_avoided_on("2.11.0+cu130", on_2_11, sizeof on_2_11 / sizeof *on_2_11);
	check_avoided_on_2_15(on_2_15, 1);
}
