/* A graph's compile configuration: checked like the rest of the graph, kept
 * by the codec (version 5; older versions decode with the default), the
 * text form and mutation, and named by the emitted program. */
#include <stdlib.h>
#include <string.h>
#include "../config/compile.h"
#include "../config/pins.h"
#include "../config/settings.h"
#include "../graph/codec.h"
#include "../graph/compile_config.h"
#include "../graph/emit.h"
#include "../graph/emit_plain.h"
#include "../graph/text.h"
#include "../graph/validate.h"
#include "../pipeline/check_job.h"
#include "test.h"
#include "testkit.h"

static struct graph g, h;
static uint8_t a[CODEC_MAX_SIZE];
static char why[300];

static unsigned id_of(const char *name)
{
	int id = setting_find(name);
	CHECK(id >= 0);
	return (unsigned)id;
}

/* x0 float32 [4, 4], v1 = relu(x0): mode max-autotune, dynamic true, three settings of three types. */
static void configured_graph(void)
{
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){4, 4});
	tk_node(&g, "relu", 1, (int[]){x}, 0, NULL, why, sizeof why);
	graph_mark_sinks(&g);
	struct graph_config c = {.mode = CM_MAX_AUTOTUNE, .dynamic = CD_TRUE, .fullgraph = 1};
	CHECK(graph_config_put(&c, id_of("inductor.max_fusion_size"), 2) == 0);                  /* 4 */
	CHECK(graph_config_put(&c, id_of("functorch.activation_memory_budget_solver"), 1) == 0); /* greedy */
	CHECK(graph_config_put(&c, id_of("functorch.activation_memory_budget"), 2) == 0);        /* 0.5 */
	CHECK(graph_config_put(&c, id_of("dynamo.specialize_int"), 1) == 0);                     /* True */
	CHECK(graph_set_config(&g, &c, why, sizeof why) == 0);
}

TEST(graph_config_codec_roundtrip)
{
	configured_graph();
	size_t n = codec_encode(&g, a, sizeof a);
	CHECK(n > 0 && a[3] == CODEC_VERSION && CODEC_VERSION >= 5);
	CHECK(codec_decode(&h, a, n, why, sizeof why) == 0);
	CHECK(graph_config_equal(&h.config, &g.config));
	CHECK(codec_hash(&h) == codec_hash(&g));
	CHECK(graph_validate(&h, why, sizeof why) == 0);
	/* a configuration is part of what a graph is */
	struct graph plain = g;
	memset(&plain.config, 0, sizeof plain.config);
	CHECK(codec_hash(&plain) != codec_hash(&g));
}

TEST(graph_config_older_versions_decode_with_the_default)
{
	configured_graph();
	CHECK_EQ(codec_encode_version(&g, 4, a, sizeof a), 0); /* version 4 cannot say it */
	struct graph plain = g;
	memset(&plain.config, 0, sizeof plain.config);
	size_t n = codec_encode_version(&plain, 4, a, sizeof a);
	CHECK(n > 0 && a[3] == 4);
	CHECK(codec_decode(&h, a, n, why, sizeof why) == 0);
	CHECK(graph_config_is_default(&h.config));
	CHECK(codec_hash(&h) == codec_hash(&plain));
}

TEST(graph_config_decoder_refuses_what_is_not_in_the_catalogue)
{
	configured_graph();
	size_t n = codec_encode(&g, a, sizeof a);
	/* settings go in the catalogue's order: the last is the solver, a string stored as its hash */
	CHECK(n > 0 && codec_decode(&h, a, n, why, sizeof why) == 0);
	a[n - 1] ^= 0x55; /* no value of the row */
	CHECK(codec_decode(&h, a, n, why, sizeof why) < 0);
	CHECK(strstr(why, "has no value") != NULL);
	n = codec_encode(&g, a, sizeof a);
	a[n - 6] ^= 0x55; /* the setting's hash */
	CHECK(codec_decode(&h, a, n, why, sizeof why) < 0);
	CHECK(strstr(why, "unknown setting") != NULL);
}

TEST(graph_config_text_roundtrip)
{
	configured_graph();
	char *text = tk_text(&g, 0);
	CHECK(strstr(text, "\nconfig mode=max-autotune dynamic=true fullgraph=True ") != NULL);
	CHECK(strstr(text, "inductor.max_fusion_size=4") != NULL);
	CHECK(strstr(text, "functorch.activation_memory_budget_solver=greedy") != NULL);
	CHECK(text_parse(&h, text, why, sizeof why) == 0);
	CHECK(graph_config_equal(&h.config, &g.config));
	CHECK(codec_hash(&h) == codec_hash(&g));
	free(text);
	static const char *const bad[] = {
		"config inductor.max_fusion_size=5\n",              /* an int off the row's list */
		"config inductor.no_such=True\n",                   /* not in the catalogue */
		"config inductor.fallback_random=maybe\n",          /* not a bool */
		"config mode=max-autotune backend=aot_eager\n",     /* a mode without inductor */
		"config inductor.max_autotune=True inductor.max_autotune_gemm=True\n", /* a clash */
		"config backend=aoti mode.enable_grad=True\n",      /* what an AOTInductor package does not take */
		"config backend=aoti mode=max-autotune\n",           /* a mode without inductor */
		"config dynamic=false backend=aoti\n",               /* a package of static shapes, bindings that vary */
	};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char src[300];
		snprintf(src, sizeof src, "bindings 1\nseed 1\n%sx0 = input float32 [3]\nv1 = relu(x0)\noutput v1\n", bad[i]);
		if (!CHECK(text_parse(&h, src, why, sizeof why) < 0))
			fprintf(stderr, "  accepted: %s", bad[i]);
	}
	/* a setting for the other device of a graph made for one */
	CHECK(text_parse(&h, "target cpu\nbindings 1\nseed 1\nconfig inductor.triton.cudagraphs=True\n"
			     "x0 = input float32 [3]\nv1 = relu(x0)\noutput v1\n", why, sizeof why) < 0);
	CHECK(strstr(why, "does not apply to a cpu graph") != NULL);
	/* AOTInductor as a graph's own backend, with a setting a package takes */
	CHECK(text_parse(&h, "bindings 1\nseed 1\nconfig backend=aoti inductor.max_fusion_size=4\n"
			     "x0 = input float32 [3]\nv1 = relu(x0)\noutput v1\n", why, sizeof why) == 0);
	CHECK_EQ(h.config.backend, CB_AOTI);
	text = tk_text(&h, 0);
	CHECK(strstr(text, "\nconfig backend=aoti inductor.max_fusion_size=4\n") != NULL);
	free(text);
}

TEST(graph_config_emitted_program_names_it)
{
	configured_graph();
	char *p = emit_program_string(&g, NULL, NULL);
	CHECK(p != NULL);
	CHECK(strstr(p, "MODE = os.environ.get(\"PT2FUZZ_MODE\", \"max-autotune\") or None\n") != NULL);
	CHECK(strstr(p, "COMPILE_DYNAMIC = \"true\"\nFULLGRAPH = True\n") != NULL);
	CHECK(strstr(p, "CONFIG = {\"inductor.max_fusion_size\": 4, \"dynamo.specialize_int\": True, "
			"\"functorch.activation_memory_budget\": 0.5, \"functorch.activation_memory_budget_solver\": 'greedy'}\n") !=
	      NULL);
	free(p);
	/* the command line's pins win; a mode needs the inductor backend */
	struct emit_opts o = {"aot_eager", NULL, 0, "marks"};
	p = emit_program_string(&g, &o, NULL);
	CHECK(p && strstr(p, "MODE = os.environ.get(\"PT2FUZZ_MODE\") or None\n") && strstr(p, "COMPILE_DYNAMIC = \"marks\""));
	free(p);
	/* settings that an AOTInductor package does not take are left out of its program */
	struct graph_config c = g.config;
	CHECK(graph_config_put(&c, id_of("inductor.cpp_wrapper"), 1) == 0);
	CHECK(graph_config_put(&c, id_of("functorch.functionalize_rng_ops"), 1) == 0);
	CHECK(graph_set_config(&g, &c, why, sizeof why) == 0);
	struct emit_opts aoti = {"aoti", NULL, 0, NULL};
	p = emit_program_string(&g, &aoti, NULL);
	CHECK(p && !strstr(p, "cpp_wrapper") && !strstr(p, "functionalize_rng_ops") && strstr(p, "inductor.max_fusion_size"));
	free(p);
}

TEST(graph_config_plain_program_sets_it)
{
	configured_graph();
	struct plain_opts o = {0};
	char *p = emit_plain_string(&g, &o, NULL, why, sizeof why);
	CHECK(p != NULL);
	CHECK(strstr(p, "torch._inductor.config.max_fusion_size = 4\n") != NULL);
	CHECK(strstr(p, "torch._dynamo.config.specialize_int = True\n") != NULL);
	CHECK(strstr(p, "import torch._functorch.config\ntorch._functorch.config.activation_memory_budget = 0.5\n"
			"torch._functorch.config.activation_memory_budget_solver = 'greedy'\n") != NULL);
	CHECK(strstr(p, "backend=\"inductor\", mode=\"max-autotune\", dynamic=True, fullgraph=True)") != NULL);
	free(p);
}

TEST(graph_config_effects_at_the_value_that_has_them)
{
	struct graph_config c = {0};
	unsigned fast = id_of("inductor.cpp.enable_unsafe_math_opt_flag"), fr = id_of("inductor.fallback_random");
	CHECK(graph_config_put(&c, fast, 0) == 0); /* False: as without it */
	CHECK(graph_config_put(&c, fr, 1) == 0);   /* True: as the worker runs anyway */
	CHECK_EQ(graph_config_effects(&c), 0);
	CHECK(graph_config_put(&c, fast, 1) == 0);
	CHECK_EQ(graph_config_effects(&c), EFFECT_NUMERICS);
	CHECK(graph_config_put(&c, fr, 0) == 0);
	CHECK_EQ(graph_config_effects(&c), EFFECT_NUMERICS | EFFECT_RANDOM);
}

TEST(graph_config_time_factor_counts_slow_settings_and_modes)
{
	struct graph_config c = {0};
	CHECK_EQ(graph_config_time_factor(&c), 1);
	CHECK(graph_config_put(&c, id_of("inductor.max_fusion_size"), 2) == 0); /* not slow */
	c.mode = CM_REDUCE_OVERHEAD;
	CHECK_EQ(graph_config_time_factor(&c), 1);
	CHECK(graph_config_put(&c, id_of("inductor.cpp_wrapper"), 0) == 0); /* False: its default, as without it */
	CHECK_EQ(graph_config_time_factor(&c), 1);
	CHECK(graph_config_put(&c, id_of("inductor.cpp_wrapper"), 1) == 0);
	CHECK_EQ(graph_config_time_factor(&c), 2);
	c.mode = CM_MAX_AUTOTUNE_NO_CUDAGRAPHS;
	CHECK_EQ(graph_config_time_factor(&c), 3);
	CHECK(graph_config_put(&c, id_of("inductor.coordinate_descent_tuning"), 1) == 0);
	CHECK(graph_config_put(&c, id_of("inductor.benchmark_fusion"), 1) == 0);
	CHECK_EQ(graph_config_time_factor(&c), CONFIG_TIME_FACTOR_MAX); /* 5 slow: capped */
	c.mode = CM_MAX_AUTOTUNE;
	CHECK_EQ(graph_config_time_factor(&c), CONFIG_TIME_FACTOR_MAX);
	struct graph_config aoti = {.backend = CB_AOTI}; /* a C++ build of the whole model */
	CHECK_EQ(graph_config_time_factor(&aoti), 2);
	struct executor_opts o = {.timeout_ms = 120000};
	struct exec_request rq = {.time_factor = 0};
	CHECK_EQ(executor_request_limit_ms(&o, &rq), 120000); /* a request that names none: the base */
	rq.time_factor = graph_config_time_factor(&c);
	CHECK_EQ(executor_request_limit_ms(&o, &rq), 480000);
}

TEST(graph_config_slow_compile_rows_and_modes)
{
	static const char *const slow[] = {"inductor.max_autotune", "inductor.max_autotune_pointwise",
					   "inductor.max_autotune_gemm", "inductor.cpp_wrapper",
					   "inductor.coordinate_descent_tuning", "inductor.benchmark_kernel",
					   "inductor.benchmark_fusion", GRAPH_CONFIG_BACKWARD};
	unsigned n = 0;
	for (size_t i = 0; i < sizeof slow / sizeof *slow; i++)
		CHECK(setting_get(id_of(slow[i]))->effects & EFFECT_SLOW_COMPILE);
	for (unsigned i = 0; i < setting_count(); i++) {
		const struct setting *s = setting_get(i);
		n += (s->effects & EFFECT_SLOW_COMPILE) != 0;
		if (s->effects & EFFECT_SLOW_COMPILE) /* slow off its default: the default is the fast one */
			CHECK(!strcmp(s->values[0], "False"));
	}
	CHECK_EQ(n, sizeof slow / sizeof *slow);
	for (unsigned m = 0; m < CM_COUNT; m++)
		CHECK_EQ(compile_mode_effects(m) & EFFECT_SLOW_COMPILE,
			 m == CM_MAX_AUTOTUNE || m == CM_MAX_AUTOTUNE_NO_CUDAGRAPHS ? EFFECT_SLOW_COMPILE : 0u);
	for (unsigned b = 0; b < CB_COUNT; b++)
		CHECK_EQ(compile_backend_effects(b) & EFFECT_SLOW_COMPILE, b == CB_AOTI ? EFFECT_SLOW_COMPILE : 0u);
}

TEST(graph_config_fullgraph_break_is_no_finding)
{
	static struct run_result run;
	struct verdict v = {.kind = V_BEHAVIOUR, .what = MM_RAISED, .binding = 0, .output = -1};
	configured_graph(); /* fullgraph */
	memset(&run, 0, sizeof run);
	run.m[RM_COMPILED][0].ran = 1;
	snprintf(run.m[RM_COMPILED][0].ebases, sizeof run.m[RM_COMPILED][0].ebases,
		 "torch._dynamo.exc.Unsupported torch._dynamo.exc.TorchDynamoException builtins.RuntimeError");
	CHECK(check_fullgraph_break(&g, &run, &v));
	v.kind = V_ERROR_MISMATCH; /* a near-invalid graph: eager raised, Dynamo declined before any check */
	CHECK(check_fullgraph_break(&g, &run, &v));
	v.kind = V_MISSING_ERROR;
	CHECK(!check_fullgraph_break(&g, &run, &v));
	v.kind = V_BEHAVIOUR;
	g.config.fullgraph = 0; /* without fullgraph Dynamo does not raise it: something else went wrong */
	CHECK(!check_fullgraph_break(&g, &run, &v));
	g.config.fullgraph = 1;
	snprintf(run.m[RM_COMPILED][0].ebases, sizeof run.m[RM_COMPILED][0].ebases,
		 "torch._dynamo.exc.UnsupportedOperatorError builtins.RuntimeError");
	CHECK(!check_fullgraph_break(&g, &run, &v)); /* another error: a finding as ever */
	snprintf(run.m[RM_COMPILED][0].ebases, sizeof run.m[RM_COMPILED][0].ebases,
		 "torch._inductor.exc.InductorError builtins.RuntimeError");
	CHECK(!check_fullgraph_break(&g, &run, &v));
	/* data-dependent control flow is a graph break too; another UserError is not */
	snprintf(run.m[RM_COMPILED][0].ebases, sizeof run.m[RM_COMPILED][0].ebases,
		 "torch._dynamo.exc.UserError torch._dynamo.exc.TorchDynamoException builtins.RuntimeError");
	snprintf(run.m[RM_COMPILED][0].emsg, sizeof run.m[RM_COMPILED][0].emsg,
		 "Could not guard on data-dependent expression Eq(u0, 1) (unhinted: Eq(u0, 1)).");
	CHECK(check_fullgraph_break(&g, &run, &v));
	snprintf(run.m[RM_COMPILED][0].emsg, sizeof run.m[RM_COMPILED][0].emsg, "Tried to use data-dependent value");
	CHECK(!check_fullgraph_break(&g, &run, &v));
}

/* Global modes: in force for the whole program (CONFIG, which its run() reads), autocast as a
 * low-precision graph's rounding (emulate_precision_casts) and a numerics effect; each plain line. */
TEST(graph_config_global_modes)
{
	static const char mm[] = "x0 = input float32 [4, 8]\nx1 = input float32 [4, 8]\n"
				 "p2 = param float32 [8, 5]\nv3 = add_(x1, x0)\nv4 = mm(v3, p2)\noutput v4\n";
	char text[512];
	snprintf(text, sizeof text, "bindings 1\nseed 3\n%s", mm);
	CHECK(text_parse(&g, text, why, sizeof why) == 0);
	char *p = emit_program_string(&g, NULL, NULL);
	CHECK(p && strstr(p, "LOW_PRECISION = False\n") && strstr(p, "CONFIG = {}\n") && strstr(p, "NOT_DIFFERENTIABLE = ()\n"));
	free(p);
	p = emit_plain_string(&g, &(struct plain_opts){0}, NULL, why, sizeof why);
	CHECK(p && !strstr(p, "autocast") && !strstr(p, "as_inference") && !strstr(p, "deterministic") &&
	      strstr(p, "torch.set_grad_enabled(False)"));
	free(p);
	snprintf(text, sizeof text, "bindings 1\nseed 3\nconfig mode.deterministic_algorithms=True mode.inference_inputs=True "
				    "mode.autocast_bfloat16=True\n%s", mm);
	CHECK(text_parse(&g, text, why, sizeof why) == 0);
	CHECK(graph_config_on(&g.config, "mode.inference_inputs") && !graph_config_on(&g.config, "mode.enable_grad"));
	CHECK(graph_config_autocast(&g.config));
	CHECK_EQ(graph_config_effects(&g.config), EFFECT_NUMERICS);
	p = emit_program_string(&g, NULL, NULL);
	CHECK(p && strstr(p, "LOW_PRECISION = True\n") &&
	      strstr(p, "CONFIG = {\"mode.deterministic_algorithms\": True, \"mode.inference_inputs\": True, "
			"\"mode.autocast_bfloat16\": True}\n"));
	free(p);
	p = emit_plain_string(&g, &(struct plain_opts){0}, NULL, why, sizeof why);
	CHECK(p && strstr(p, "\ntorch.use_deterministic_algorithms(True, warn_only=True)") &&
	      strstr(p, "torch._inductor.config.emulate_precision_casts = True") &&
	      strstr(p, "\n@torch.autocast(\"cpu\", dtype=torch.bfloat16)  # mode.autocast_bfloat16\ndef run(") &&
	      strstr(p, "    x0 = as_inference(x0)  # an inference tensor\n") && !strstr(p, "as_inference(x1)") &&
	      strstr(p, "tol={torch.float16: 1e-3, torch.bfloat16: 1e-2}"));
	free(p);
	/* grad mode; on CUDA, autocast on the program's device; the two modes that clash are refused */
	snprintf(text, sizeof text, "bindings 1\nseed 3\nconfig mode.enable_grad=True mode.autocast_float16=True\n%s", mm);
	CHECK(text_parse(&g, text, why, sizeof why) == 0);
	p = emit_plain_string(&g, &(struct plain_opts){.cuda = 1}, NULL, why, sizeof why);
	CHECK(p && strstr(p, "\ntorch.set_grad_enabled(True)\n") && strstr(p, "@torch.autocast(device, dtype=torch.float16)"));
	free(p);
	snprintf(text, sizeof text, "bindings 1\nseed 3\nconfig mode.enable_grad=True mode.inference_inputs=True\n%s", mm);
	CHECK(text_parse(&g, text, why, sizeof why) != 0);
	snprintf(text, sizeof text, "bindings 1\nseed 3\nconfig mode.autocast_bfloat16=True mode.autocast_float16=True\n%s", mm);
	CHECK(text_parse(&g, text, why, sizeof why) != 0);
}

/* A graph's own backend reaches its run, unless the command line pinned one;
 * in backward mode aoti does not (an AOTInductor package runs forward only). */
TEST(graph_config_backend_reaches_the_run_but_aoti_not_in_backward_mode)
{
	static struct graph aoti_graph;
	CHECK(text_parse(&aoti_graph,
			 "bindings 1\nseed 1\nconfig backend=aoti\nx0 = input float32 [3]\nv1 = relu(x0)\noutput v1\n", why,
			 sizeof why) == 0);
	struct check_cfg c = {.backend = "inductor", .dynamic = "marks"};
	CHECK(!strcmp(check_cfg_for_graph(&c, &aoti_graph).backend, "aoti"));
	c.backward = 1;
	CHECK(!strcmp(check_cfg_for_graph(&c, &aoti_graph).backend, "inductor"));
	c.backward = 0;
	c.backend = "aot_eager";
	c.pinned = PIN_BACKEND;
	CHECK(!strcmp(check_cfg_for_graph(&c, &aoti_graph).backend, "aot_eager"));
}

/* mode.backward in a graph's configuration runs that graph in backward mode
 * (its gradients compared, its meta.json says so, no plain program), but not
 * through a pinned AOTInductor; a configuration does not hold it with
 * backend=aoti, and no pin sets it (--mode backward does). */
TEST(graph_config_mode_backward_runs_the_graph_backward)
{
	const char *body = "x0 = input float32 [3]\nv1 = relu(x0)\noutput v1\n";
	char text[256], name[64], py[SETTING_PYTHON_MAX];
	snprintf(text, sizeof text, "bindings 1\nseed 1\nconfig mode.backward=True\n%s", body);
	CHECK(text_parse(&g, text, why, sizeof why) == 0);
	CHECK(graph_config_backward(&g.config));
	struct check_cfg c = {.backend = "inductor", .dynamic = "marks"};
	CHECK(check_cfg_for_graph(&c, &g).backward);
	c.backend = "aoti";
	c.pinned = PIN_BACKEND;
	CHECK(!check_cfg_for_graph(&c, &g).backward);
	CHECK(emit_plain_string(&g, &(struct plain_opts){0}, NULL, why, sizeof why) == NULL);
	CHECK(strstr(why, "backward mode") != NULL);
	snprintf(text, sizeof text, "bindings 1\nseed 1\n%s", body);
	CHECK(text_parse(&g, text, why, sizeof why) == 0);
	c = (struct check_cfg){.backend = "inductor", .dynamic = "marks"};
	CHECK(!check_cfg_for_graph(&c, &g).backward);
	snprintf(text, sizeof text, "bindings 1\nseed 1\nconfig backend=aoti mode.backward=True\n%s", body);
	CHECK(text_parse(&g, text, why, sizeof why) != 0);
	CHECK(pin_python("mode.backward=True", name, sizeof name, py, sizeof py, why, sizeof why) < 0);
	CHECK(strstr(why, "--mode backward") != NULL);
}
