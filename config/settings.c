/* The compile settings' catalogue (config/settings.h). A row is a setting a
 * graph's configuration may set: taken from torch._inductor.fuzzer's
 * ConfigFuzzer (its settings, less those it leaves at their defaults: caches,
 * paths, test hooks, timing-bound autotuning, ill-typed ones) and from the
 * settings that pick whole code paths. Left out on purpose: settings that make
 * a correct compile raise (implicit_fallbacks off: every op without a lowering
 * fails; nan_asserts: an output holding NaN or inf, which special fills make,
 * is an AssertionError) or change what eager mode promises (keep_output_stride off). */
#include "settings.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define OFF_ON {"False", "True"}
#define ON_OFF {"True", "False"}

static const struct setting settings[] = {
	/* Inductor, both devices */
	{"inductor.max_autotune", SET_BOOL, OFF_ON, ON_ANY, .effects = EFFECT_SLOW_COMPILE, .weight = SETTING_CODE_PATH},
	{"inductor.max_autotune_pointwise", SET_BOOL, OFF_ON, ON_ANY, .effects = EFFECT_SLOW_COMPILE, .weight = SETTING_CODE_PATH},
	{"inductor.max_autotune_gemm", SET_BOOL, OFF_ON, ON_ANY, .effects = EFFECT_SLOW_COMPILE, .weight = SETTING_CODE_PATH},
	{"inductor.cpp_wrapper", SET_BOOL, OFF_ON, ON_ANY, .effects = EFFECT_NOT_AOTI | EFFECT_SLOW_COMPILE, .weight = SETTING_CODE_PATH},
	{"inductor.freezing", SET_BOOL, OFF_ON, ON_ANY, .weight = SETTING_CODE_PATH},
	{"inductor.split_reductions", SET_BOOL, ON_OFF, ON_ANY, .weight = SETTING_CODE_PATH},
	{"inductor.loop_ordering_after_fusion", SET_BOOL, ON_OFF, ON_ANY, .since = "2.11"},
	{"inductor.comprehensive_padding", SET_BOOL, ON_OFF, ON_ANY, .weight = SETTING_CODE_PATH},
	{"inductor.shape_padding", SET_BOOL, ON_OFF, ON_ANY, .weight = SETTING_CODE_PATH},
	{"inductor.pad_outputs", SET_BOOL, OFF_ON, ON_ANY, .since = "2.11", .weight = SETTING_CODE_PATH},
	/* off: float16/bfloat16 intermediates stay in float32 where eager rounds them */
	{"inductor.emulate_precision_casts", SET_BOOL, OFF_ON, ON_ANY, .since = "2.11", .effects = EFFECT_NUMERICS, .effect_at = "False"},
	/* off: Inductor draws random numbers its own way (Philox), not eager's */
	{"inductor.fallback_random", SET_BOOL, OFF_ON, ON_ANY, .effects = EFFECT_RANDOM, .effect_at = "False", .weight = SETTING_CODE_PATH},
	{"inductor.epilogue_fusion", SET_BOOL, ON_OFF, ON_ANY},
	{"inductor.pattern_matcher", SET_BOOL, ON_OFF, ON_ANY},
	{"inductor.reorder_for_locality", SET_BOOL, ON_OFF, ON_ANY},
	{"inductor.aggressive_fusion", SET_BOOL, OFF_ON, ON_ANY, .weight = SETTING_CODE_PATH},
	{"inductor.size_asserts", SET_BOOL, ON_OFF, ON_ANY},
	{"inductor.max_fusion_size", SET_INT, {"64", "1", "4", "8"}, ON_ANY},
	{"inductor.realize_reads_threshold", SET_INT, {"4", "1", "16"}, ON_ANY},
	{"inductor.unroll_reductions_threshold", SET_INT, {"8", "1", "64"}, ON_ANY},
	{"inductor.split_cat_fx_passes", SET_BOOL, ON_OFF, ON_ANY},
	{"inductor.batch_fusion", SET_BOOL, ON_OFF, ON_ANY},
	/* batch fusions of like ops side by side (fx_passes/group_batch_fusion.py), each by its name */
	{"inductor.pre_grad_fusion_options", SET_DICT,
	 {"none", "batch_linear", "batch_linear_lhs+batch_layernorm", "batch_tanh+batch_relu+batch_sigmoid",
	  "batch_clamp+batch_detach+batch_dropout+batch_nan_to_num"}, ON_ANY},
	{"inductor.post_grad_fusion_options", SET_DICT,
	 {"none", "batch_aten_add+batch_aten_sub", "batch_aten_mul+batch_aten_div",
	  "batch_aten_tanh+batch_aten_relu+batch_aten_sigmoid", "batch_linear_post_grad"}, ON_ANY},
	{"inductor.efficient_conv_bn_eval_fx_passes", SET_BOOL, OFF_ON, ON_ANY},
	{"inductor.permute_fusion", SET_BOOL, OFF_ON, ON_ANY},
	{"inductor.layout_optimization", SET_BOOL, ON_OFF, ON_ANY},
	{"inductor.conv_1x1_as_mm", SET_BOOL, OFF_ON, ON_ANY},
	{"inductor.memory_planning", SET_BOOL, OFF_ON, ON_ANY, .since = "2.11", .weight = SETTING_CODE_PATH},
	{"inductor.reorder_for_peak_memory", SET_BOOL, ON_OFF, ON_ANY, .since = "2.11"},
	{"inductor.allow_buffer_reuse", SET_BOOL, ON_OFF, ON_ANY},
	{"inductor.inplace_buffers", SET_BOOL, ON_OFF, ON_ANY},
	{"inductor.score_fusion_memory_threshold", SET_INT, {"10", "1", "100"}, ON_ANY},
	{"inductor.max_pointwise_cat_inputs", SET_INT, {"8", "1", "128"}, ON_ANY},
	{"inductor.always_keep_tensor_constants", SET_BOOL, OFF_ON, ON_ANY},
	{"inductor.joint_graph_constant_folding", SET_BOOL, ON_OFF, ON_ANY},
	{"inductor.force_pointwise_cat", SET_BOOL, OFF_ON, ON_ANY, .since = "2.11"},
	{"inductor.optimize_scatter_upon_const_tensor", SET_BOOL, ON_OFF, ON_ANY, .since = "2.11"},
	{"inductor.pick_loop_orders", SET_BOOL, ON_OFF, ON_ANY},
	{"inductor.online_softmax", SET_BOOL, ON_OFF, ON_ANY, .since = "2.11", .weight = SETTING_CODE_PATH},
	{"inductor.deterministic", SET_BOOL, OFF_ON, ON_ANY, .since = "2.11"},
	{"inductor.graph_partition", SET_BOOL, ON_OFF, ON_ANY, .since = "2.11", .weight = SETTING_CODE_PATH},
	/* on: TORCH_COMPILE_DEBUG's dump, every IR node printed at each stage (the worker keeps it in a
	 * folder of its own and removes it after each request) */
	{"inductor.trace.enabled", SET_BOOL, OFF_ON, ON_ANY, .weight = SETTING_CODE_PATH},
	{"inductor.comment_origin", SET_BOOL, OFF_ON, ON_ANY},
	/* on: a small-M or small-N mm, bmm or addmm becomes a broadcast multiply and a sum */
	{"inductor.decompose_mem_bound_mm", SET_BOOL, OFF_ON, ON_ANY, .since = "2.11", .weight = SETTING_CODE_PATH},
	{"inductor.force_shape_pad", SET_BOOL, OFF_ON, ON_ANY, .since = "2.11"},
	{"inductor.inplace_padding", SET_BOOL, ON_OFF, ON_ANY, .since = "2.11"},
	/* on: freezing folds a linear's following add or mul into its weight */
	{"inductor.enable_linear_binary_folding", SET_BOOL, OFF_ON, ON_ANY, .since = "2.11"},
	{"inductor.loop_index_inversion_in_fusion", SET_BOOL, ON_OFF, ON_ANY, .since = "2.11"},
	{"inductor.expand_dimension_for_pointwise_nodes", SET_BOOL, OFF_ON, ON_ANY, .since = "2.11"},
	/* on: every indirect index checked in the kernel against its bounds */
	{"inductor.debug_index_asserts", SET_BOOL, OFF_ON, ON_ANY, .since = "2.11", .weight = SETTING_CODE_PATH},
	{"inductor.scalar_asserts", SET_BOOL, ON_OFF, ON_ANY, .since = "2.11"},
	{"inductor.alignment_asserts", SET_BOOL, ON_OFF, ON_ANY, .since = "2.11"},
	/* Inductor's Triton code: CUDA */
	{"inductor.coordinate_descent_tuning", SET_BOOL, OFF_ON, ON_CUDA, .effects = EFFECT_SLOW_COMPILE, .weight = SETTING_CODE_PATH},
	{"inductor.combo_kernels", SET_BOOL, OFF_ON, ON_CUDA, .weight = SETTING_CODE_PATH},
	{"inductor.prologue_fusion", SET_BOOL, ON_OFF, ON_CUDA, .since = "2.11"},
	{"inductor.benchmark_kernel", SET_BOOL, OFF_ON, ON_CUDA, .effects = EFFECT_SLOW_COMPILE},
	{"inductor.benchmark_fusion", SET_BOOL, OFF_ON, ON_CUDA, .effects = EFFECT_SLOW_COMPILE, .weight = SETTING_CODE_PATH},
	{"inductor.dynamic_scale_rblock", SET_BOOL, ON_OFF, ON_CUDA},
	{"inductor.triton.cudagraphs", SET_BOOL, OFF_ON, ON_CUDA, .effects = EFFECT_NOT_AOTI, .weight = SETTING_CODE_PATH},
	{"inductor.triton.cudagraph_trees", SET_BOOL, ON_OFF, ON_CUDA, .effects = EFFECT_NOT_AOTI},
	{"inductor.triton.autotune_pointwise", SET_BOOL, ON_OFF, ON_CUDA},
	{"inductor.triton.tiling_prevents_pointwise_fusion", SET_BOOL, ON_OFF, ON_CUDA},
	{"inductor.triton.tiling_prevents_reduction_fusion", SET_BOOL, ON_OFF, ON_CUDA},
	{"inductor.triton.persistent_reductions", SET_BOOL, ON_OFF, ON_CUDA},
	{"inductor.triton.cooperative_reductions", SET_BOOL, OFF_ON, ON_CUDA, .since = "2.11", .weight = SETTING_CODE_PATH},
	{"inductor.triton.force_cooperative_reductions", SET_BOOL, OFF_ON, ON_CUDA, .since = "2.11"},
	{"inductor.triton.multi_kernel", SET_INT, {"0", "1", "2", "3"}, ON_CUDA, .weight = SETTING_CODE_PATH},
	{"inductor.triton.divisible_by_16", SET_BOOL, ON_OFF, ON_CUDA},
	{"inductor.triton.prefer_nd_tiling", SET_BOOL, OFF_ON, ON_CUDA, .since = "2.11", .weight = SETTING_CODE_PATH},
	{"inductor.triton.use_block_ptr", SET_BOOL, OFF_ON, ON_CUDA, .weight = SETTING_CODE_PATH},
	{"inductor.triton.dense_indexing", SET_BOOL, OFF_ON, ON_CUDA},
	{"inductor.annotate_training", SET_BOOL, OFF_ON, ON_CUDA, .since = "2.11"}, /* NVTX ranges around the wrapper's calls */
	/* off: float16/bfloat16 pointwise math in its own dtype, not float32 */
	{"inductor.triton.codegen_upcast_to_fp32", SET_BOOL, ON_OFF, ON_CUDA, .since = "2.11", .effects = EFFECT_NUMERICS, .effect_at = "False"},
	/* Inductor's C++ code: CPU */
	{"inductor.cpp.dynamic_threads", SET_BOOL, OFF_ON, ON_CPU},
	{"inductor.cpp.fallback_scatter_reduce_sum", SET_BOOL, ON_OFF, ON_CPU},
	{"inductor.cpp.enable_tiling_heuristics", SET_BOOL, ON_OFF, ON_CPU, .since = "2.11"},
	{"inductor.cpp.weight_prepack", SET_BOOL, ON_OFF, ON_CPU, .weight = SETTING_CODE_PATH},
	{"inductor.cpp.max_horizontal_fusion_size", SET_INT, {"16", "1", "64"}, ON_CPU},
	{"inductor.cpp.min_chunk_size", SET_INT, {"512", "1", "4096"}, ON_CPU},
	{"inductor.cpp.enable_loop_tail_vec", SET_BOOL, ON_OFF, ON_CPU},
	{"inductor.cpp.no_redundant_loops", SET_BOOL, ON_OFF, ON_CPU},
	{"inductor.cpp.threads", SET_INT, {"-1", "1", "2"}, ON_CPU},
	{"inductor.cpp.enable_kernel_profile", SET_BOOL, OFF_ON, ON_CPU},
	{"inductor.cpp.enable_concat_linear", SET_BOOL, OFF_ON, ON_CPU, .since = "2.11", .weight = SETTING_CODE_PATH},
	/* off: the padding passes (comprehensive_padding, shape_padding) run for the CPU too */
	{"inductor.disable_padding_cpu", SET_BOOL, ON_OFF, ON_CPU, .since = "2.11", .weight = SETTING_CODE_PATH},
	{"inductor.cpp.enable_grouped_gemm_template", SET_BOOL, OFF_ON, ON_CPU, .since = "2.11"},
	{"inductor.cpp.gemm_max_k_slices", SET_INT, {"1", "0", "4"}, ON_CPU, .since = "2.11"},
	{"inductor.cpp.descriptive_names", SET_STRING, {"original_aten", "torch", "inductor_node"}, ON_CPU, .since = "2.11"},
	/* -ffast-math: reassociation and approximations */
	{"inductor.cpp.enable_unsafe_math_opt_flag", SET_BOOL, OFF_ON, ON_CPU, .effects = EFFECT_NUMERICS, .effect_at = "True"},
	{"inductor.cpp.use_decompose_tanh", SET_BOOL, OFF_ON, ON_CPU, .since = "2.11", .effects = EFFECT_NUMERICS, .effect_at = "True"},
	/* Dynamo */
	{"dynamo.assume_static_by_default", SET_BOOL, ON_OFF, ON_ANY, .weight = SETTING_CODE_PATH},
	{"dynamo.automatic_dynamic_shapes", SET_BOOL, ON_OFF, ON_ANY},
	{"dynamo.capture_scalar_outputs", SET_BOOL, OFF_ON, ON_ANY, .weight = SETTING_CODE_PATH},
	{"dynamo.capture_dynamic_output_shape_ops", SET_BOOL, OFF_ON, ON_ANY},
	{"dynamo.specialize_int", SET_BOOL, OFF_ON, ON_ANY},
	{"dynamo.specialize_float", SET_BOOL, OFF_ON, ON_ANY, .since = "2.11"},
	{"dynamo.force_parameter_static_shapes", SET_BOOL, ON_OFF, ON_ANY},
	{"dynamo.force_nn_module_property_static_shapes", SET_BOOL, ON_OFF, ON_ANY, .since = "2.11"},
	{"dynamo.prefer_deferred_runtime_asserts_over_guards", SET_BOOL, OFF_ON, ON_ANY, .since = "2.11"},
	{"dynamo.use_lazy_graph_module", SET_BOOL, ON_OFF, ON_ANY},
	{"dynamo.guard_nn_modules", SET_BOOL, ON_OFF, ON_ANY},
	{"dynamo.use_graph_deduplication", SET_BOOL, OFF_ON, ON_ANY, .since = "2.11"},
	/* on: tensors the model reads from outside its arguments become graph inputs */
	{"dynamo.install_free_tensors", SET_BOOL, OFF_ON, ON_ANY, .since = "2.11", .weight = SETTING_CODE_PATH},
	/* on: a graph break inside a called function resumes in that function */
	{"dynamo.nested_graph_breaks", SET_BOOL, OFF_ON, ON_ANY, .since = "2.11", .weight = SETTING_CODE_PATH},
	/* AOTAutograd, and its partitioner (EFFECT_BACKWARD: it splits a joint graph) */
	{"functorch.view_replay_for_aliased_outputs", SET_BOOL, ON_OFF, ON_ANY},
	{"functorch.activation_memory_budget", SET_FLOAT, {"1.0", "0.0", "0.5"}, ON_ANY, .since = "2.11",
	 .effects = EFFECT_BACKWARD, .weight = SETTING_CODE_PATH},
	{"functorch.activation_memory_budget_solver", SET_STRING, {"dp", "greedy"}, ON_ANY, .since = "2.11",
	 .effects = EFFECT_BACKWARD},
	{"functorch.recompute_views", SET_BOOL, OFF_ON, ON_ANY, .effects = EFFECT_BACKWARD},
	{"functorch.cse", SET_BOOL, ON_OFF, ON_ANY},
	/* on: tracing runs real tensors beside the fake ones */
	{"functorch.fake_tensor_propagate_real_tensors", SET_BOOL, OFF_ON, ON_ANY, .weight = SETTING_CODE_PATH},
	{"functorch.treat_parameters_as_free_to_save", SET_BOOL, ON_OFF, ON_ANY, .since = "2.11", .effects = EFFECT_BACKWARD},
	{"functorch.ban_recompute_used_far_apart", SET_BOOL, ON_OFF, ON_ANY, .effects = EFFECT_BACKWARD},
	{"functorch.ban_recompute_long_fusible_chains", SET_BOOL, ON_OFF, ON_ANY, .effects = EFFECT_BACKWARD},
	{"functorch.ban_recompute_materialized_backward", SET_BOOL, ON_OFF, ON_ANY, .effects = EFFECT_BACKWARD},
	{"functorch.ban_recompute_not_in_allowlist", SET_BOOL, ON_OFF, ON_ANY, .effects = EFFECT_BACKWARD},
	{"functorch.ban_recompute_reductions", SET_BOOL, ON_OFF, ON_ANY, .effects = EFFECT_BACKWARD},
	{"functorch.aggressive_recomputation", SET_BOOL, OFF_ON, ON_ANY, .effects = EFFECT_BACKWARD},
	{"functorch.donated_buffer", SET_BOOL, ON_OFF, ON_ANY, .since = "2.11", .effects = EFFECT_BACKWARD},
	/* on: CUDA's random ops become functional Philox draws, which torch.export refuses ("not
	 * currently supported in the aot_export workflow") */
	{"functorch.functionalize_rng_ops", SET_BOOL, OFF_ON, ON_CUDA, .effects = EFFECT_RANDOM | EFFECT_NOT_AOTI, .effect_at = "True"},
	/* Global modes around every run of forward() (eager, compiled and the float64 one), set by the
	 * program (graph/emit_runner.py's Modes), not by a config module */
	{"mode.deterministic_algorithms", SET_BOOL, OFF_ON, ON_ANY}, /* torch.use_deterministic_algorithms(warn_only) */
	{"mode.enable_grad", SET_BOOL, OFF_ON, ON_ANY, .effects = EFFECT_NOT_AOTI}, /* off: no_grad, as the harness runs */
	/* inputs made under torch.inference_mode: those forward() writes or differentiates are not */
	{"mode.inference_inputs", SET_BOOL, OFF_ON, ON_ANY, .effects = EFFECT_NOT_AOTI},
	/* torch.autocast: eager rounds to the autocast dtype too, the float64 run does not */
	{"mode.autocast_bfloat16", SET_BOOL, OFF_ON, ON_ANY, .effects = EFFECT_NUMERICS | EFFECT_NOT_AOTI, .effect_at = "True"},
	{"mode.autocast_float16", SET_BOOL, OFF_ON, ON_ANY, .effects = EFFECT_NUMERICS | EFFECT_NOT_AOTI, .effect_at = "True"},
	/* --mode backward for one graph: its float leaves' gradients are compared too, which reaches
	 * AOTAutograd's joint graph, the partitioner (whose settings it opens to the draw) and
	 * backward lowerings; the harness runs it (GRADS), not a torch mode */
	{GRAPH_CONFIG_BACKWARD, SET_BOOL, OFF_ON, ON_ANY, .effects = EFFECT_NOT_AOTI | EFFECT_SLOW_COMPILE,
	 .weight = SETTING_CODE_PATH},
};

/* Pairs a configuration does not set together: each row a combination that
 * fails by design, so a graph holding it would find nothing. */
static const struct setting_clash clashes[] = {
	{"inductor.memory_planning", "inductor.cpp_wrapper", "memory planning is the Python wrapper's"},
	{"inductor.triton.cudagraphs", "inductor.cpp_wrapper", "CUDA graphs wrap the Python wrapper's calls"},
	{"inductor.triton.multi_kernel", "inductor.combo_kernels", "a combo kernel has no multi-kernel variant"},
	{"inductor.triton.cooperative_reductions", "inductor.triton.force_cooperative_reductions",
	 "forcing makes the other moot"},
	{"dynamo.capture_dynamic_output_shape_ops", "dynamo.capture_scalar_outputs",
	 "the worker sets both for data-dependent graphs: one alone contradicts it"},
	{"inductor.max_autotune", "inductor.max_autotune_gemm", "max_autotune implies max_autotune_gemm"},
	{"inductor.max_autotune", "inductor.max_autotune_pointwise", "max_autotune implies max_autotune_pointwise"},
	{"dynamo.assume_static_by_default", "dynamo.automatic_dynamic_shapes",
	 "with every dim dynamic from the start, automatic dynamism has nothing to do"},
	{"mode.autocast_bfloat16", "mode.autocast_float16", "one autocast dtype at a time"},
	{"mode.inference_inputs", "mode.enable_grad", "an op that saves an inference tensor for backward raises in eager"},
	{"inductor.benchmark_fusion", "inductor.deterministic",
	 "deterministic mode refuses the benchmarking (may_ban_benchmarking raises)"},
	{"inductor.benchmark_fusion", "mode.deterministic_algorithms",
	 "deterministic algorithms put Inductor in its deterministic mode, which refuses the benchmarking"},
	{"inductor.triton.multi_kernel", "inductor.deterministic",
	 "a multi-kernel picks its kernel by benchmarking, which deterministic mode refuses"},
	{"inductor.triton.multi_kernel", "mode.deterministic_algorithms",
	 "deterministic algorithms put Inductor in its deterministic mode, which refuses the multi-kernel's benchmarking"},
};

#define NSETTINGS (sizeof settings / sizeof settings[0])
_Static_assert(NSETTINGS <= SETTING_ROWS_MAX, "SETTING_ROWS_MAX holds every row");
static uint32_t hashes[NSETTINGS];

static void load(void)
{
	static int loaded;
	if (loaded)
		return;
	for (unsigned i = 0; i < NSETTINGS; i++)
		hashes[i] = XXH32(settings[i].name, strlen(settings[i].name), 0x70743266u);
	loaded = 1;
}

unsigned setting_count(void)
{
	return NSETTINGS;
}

const struct setting *setting_get(unsigned id)
{
	return id < NSETTINGS ? &settings[id] : NULL;
}

int setting_find(const char *name)
{
	for (unsigned i = 0; i < NSETTINGS; i++)
		if (!strcmp(settings[i].name, name))
			return (int)i;
	return -1;
}

uint32_t setting_hash(unsigned id)
{
	load();
	return id < NSETTINGS ? hashes[id] : 0;
}

int setting_by_hash(uint32_t h)
{
	load();
	for (unsigned i = 0; i < NSETTINGS; i++)
		if (hashes[i] == h)
			return (int)i;
	return -1;
}

unsigned setting_value_count(const struct setting *s)
{
	unsigned n = 0;
	while (n < SETTING_MAX_VALUES && s->values[n])
		n++;
	return n;
}

unsigned setting_weight(const struct setting *s) { return s->weight ? s->weight : 1; }

unsigned setting_clash_count(void)
{
	return sizeof clashes / sizeof clashes[0];
}

const struct setting_clash *setting_clash_get(unsigned i)
{
	return i < setting_clash_count() ? &clashes[i] : NULL;
}

const struct setting_clash *settings_clash(unsigned a, unsigned b)
{
	if (a >= NSETTINGS || b >= NSETTINGS)
		return NULL;
	for (unsigned i = 0; i < setting_clash_count(); i++) {
		const char *x = clashes[i].a, *y = clashes[i].b;
		if ((!strcmp(x, settings[a].name) && !strcmp(y, settings[b].name)) ||
		    (!strcmp(y, settings[a].name) && !strcmp(x, settings[b].name)))
			return &clashes[i];
	}
	return NULL;
}

const char *setting_type_name(enum setting_type t)
{
	static const char *const names[SET_TYPE_COUNT] = {"bool", "int", "float", "string", "dict"};
	return t < SET_TYPE_COUNT ? names[t] : "?";
}

const char *setting_devices_name(unsigned devices)
{
	return devices == ON_CPU ? "cpu" : devices == ON_CUDA ? "cuda" : "any";
}

long torch_minor_number(const char *v)
{
	char *end;
	long major = strtol(v, &end, 10), minor;
	if (end == v || *end != '.')
		return -1;
	v = end + 1;
	minor = strtol(v, &end, 10);
	return end == v ? -1 : major * 1000 + minor;
}

int setting_in_torch(const struct setting *s, const char *torch)
{
	long have = torch_minor_number(torch);
	if (have < 0)
		return 1;
	if (s->since && have < torch_minor_number(s->since))
		return 0;
	return !s->until || have < torch_minor_number(s->until);
}

int setting_is_text(const struct setting *s) { return s->type == SET_STRING || s->type == SET_DICT; }

static int index_of(const struct setting *s, const char *canon)
{
	char py[SETTING_PYTHON_MAX];
	for (unsigned v = 0; v < setting_value_count(s); v++) {
		setting_value_python(s, v, py, sizeof py);
		if (!strcmp(py, canon))
			return (int)v;
	}
	return -1;
}

int setting_parse_value(const struct setting *s, const char *text, char *out, size_t outsz, char *why,
			size_t whysz)
{
	char *end;
	switch (s->type) {
	case SET_BOOL:
		if (!strcmp(text, "True") || !strcmp(text, "true") || !strcmp(text, "1"))
			snprintf(out, outsz, "True");
		else if (!strcmp(text, "False") || !strcmp(text, "false") || !strcmp(text, "0"))
			snprintf(out, outsz, "False");
		else {
			snprintf(why, whysz, "%s is a bool: True, False, true, false, 1 or 0, not '%s'", s->name, text);
			return -1;
		}
		break;
	case SET_INT: {
		errno = 0;
		long long n = strtoll(text, &end, 10);
		if (end == text || *end || errno) {
			snprintf(why, whysz, "%s is an int, not '%s'", s->name, text);
			return -1;
		}
		snprintf(out, outsz, "%lld", n);
		break;
	}
	case SET_FLOAT: {
		errno = 0;
		double d = strtod(text, &end);
		if (end == text || *end || errno || !isfinite(d)) {
			snprintf(why, whysz, "%s is a float, not '%s'", s->name, text);
			return -1;
		}
		snprintf(out, outsz, "%.17g", d);
		if (!strpbrk(out, ".e"))
			strncat(out, ".0", outsz - strlen(out) - 1);
		break;
	}
	default: {
		int v = -1;
		for (unsigned i = 0; i < setting_value_count(s) && v < 0; i++)
			if (!strcmp(s->values[i], text))
				v = (int)i;
		if (v >= 0)
			setting_value_python(s, (unsigned)v, out, outsz);
		if (v < 0) {
			char list[256] = "";
			for (unsigned i = 0; i < setting_value_count(s); i++)
				snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
					 s->values[i]);
			snprintf(why, whysz, "%s is one of %s, not '%s'", s->name, list, text);
		}
		return v;
	}
	}
	int v = index_of(s, out);
	return v < 0 ? SETTING_MAX_VALUES : v;
}

/* A SET_DICT value's names as a dict literal: {'a': {}, 'b': {}}; none: {}. */
static void dict_python(const char *names, char *out, size_t outsz)
{
	size_t k = (size_t)snprintf(out, outsz, "{");
	for (const char *p = names; strcmp(names, "none") && *p && k < outsz;) {
		size_t l = strcspn(p, "+");
		k += (size_t)snprintf(out + k, outsz - k, "%s'%.*s': {}", p == names ? "" : ", ", (int)l, p);
		p += l + (p[l] == '+');
	}
	if (k < outsz)
		snprintf(out + k, outsz - k, "}");
}

void setting_value_python(const struct setting *s, unsigned v, char *out, size_t outsz)
{
	const char *text = v < setting_value_count(s) ? s->values[v] : "None";
	if (s->type == SET_DICT && v < setting_value_count(s))
		dict_python(text, out, outsz);
	else
		snprintf(out, outsz, s->type == SET_STRING ? "'%s'" : "%s", text);
}
