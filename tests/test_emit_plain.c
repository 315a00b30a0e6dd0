/* The plain program (graph/emit_plain.c): what it holds for graphs of each
 * kind — parameters, in-place writes, near-invalid graphs, layouts, dynamic
 * dims, random ops — that it fits in thirty-five lines for small graphs, and
 * what it refuses. */
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
#include "../graph/eager_reference.h"
#include "../graph/emit_plain.h"
#include "../graph/op.h"
#include "../graph/text.h"
#include "../mutators/gen.h"
#include "test.h"

static struct graph g;
static char why[300];

/* The plain program of a graph given in text form, with options o (NULL: the defaults). */
static char *plain(const char *text, const struct plain_opts *o)
{
	static const struct plain_opts defaults;
	if (!CHECK(text_parse(&g, text, why, sizeof why) == 0)) {
		fprintf(stderr, "  %s\n", why);
		return NULL;
	}
	char *p = emit_plain_string(&g, o ? o : &defaults, NULL, why, sizeof why);
	if (!p)
		fprintf(stderr, "  %s\n", why);
	return p;
}

static int starts(const char *p, const char *s) { return strncmp(p, s, strlen(s)) == 0; }

static unsigned lines(const char *p)
{
	unsigned n = 0;
	for (; *p; p++)
		n += *p == '\n';
	return n;
}

/* Nothing of the harness: neither its helpers nor an import of pt2fuzz. */
/* The harness's names, as whole words (torch.index_fill( is no fill( call). */
static int no_harness(const char *p)
{
	static const char *const harness[] = {"make_inputs", "lay_out(", "fill(", "MUTATED", "INPUTS", "pt2fuzz_", "import os"};
	for (size_t i = 0; i < sizeof harness / sizeof harness[0]; i++)
		for (const char *at = strstr(p, harness[i]); at; at = strstr(at + 1, harness[i]))
			if (at == p || !(isalnum((unsigned char)at[-1]) || at[-1] == '_' || at[-1] == '.'))
				return 0;
	return 1;
}

static const char mm_param[] = "bindings 1\nseed 5\nx0 = input float32 [3, 4]\np1 = param float32 [4, 2]\n"
			       "v2 = mm(x0, p1)\noutput v2\n";

TEST(plain_float_graph_with_a_parameter)
{
	char *p = plain(mm_param, NULL);
	if (!p)
		return;
	CHECK(starts(p, "# pt2fuzz: mm; eager vs torch.compile(backend=\"inductor\") vs a float64 run, input binding 0\n"));
	CHECK(strstr(p, "\nimport torch\n\nclass Model(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
			"        gen = torch.Generator().manual_seed(5)"));
	CHECK(strstr(p, "        self.p1 = torch.nn.Parameter(torch.randn((4, 2), generator=gen))\n"
			"    def forward(self, x0):\n        v2 = torch.mm(x0, self.p1)\n        return (v2,)\n"));
	/* inputs from SEED * 1000003 + binding, drawn as fill() draws */
	CHECK(strstr(p, "    gen = torch.Generator().manual_seed(5000015)  # input binding 0\n"
			"    x0 = torch.randn((3, 4), generator=gen)\n"));
	/* compiled mode's first call, then x0's new values (REMUTATE) from SEED * 1000003 + binding + 500009 */
	CHECK(strstr(p, "    if twice:  # compiled mode: a first call on these inputs, before one changes in place\n"
			"        model(x0)\n    with torch.no_grad():  # x0's new values, which every judged call sees\n"
			"        gen = torch.Generator().manual_seed(5500024)\n"
			"        x0.copy_(torch.randn((3, 4), generator=gen))\n    x0 = x0.double() if fp64 else x0\n"));
	CHECK(strstr(p, "return {f\"output {k}\": o for k, o in enumerate(model(x0))}\n"));
	CHECK(strstr(p, "\neager, compiled = run(Model()), run(torch.compile(Model(), backend=\"inductor\"), twice=True)\n"
			"ref = run(Model().double(), fp64=True)\n"));
	CHECK(strstr(p, "torch._dynamo.utils.same(e, c, fp64_ref=ref[k], equal_nan=True) if e.is_floating_point() or e.is_complex() else "
			"torch.equal(e, c)"));
	CHECK(strstr(p, "(e.shape, e.dtype) == (c.shape, c.dtype)")); /* same() broadcasts [1] against () */
	const char *last = "\nprint(\"\\n\".join(bad) or \"PASS\")\n";
	CHECK(lines(p) >= 2 && strstr(p, last) == p + strlen(p) - strlen(last));
	CHECK(!strstr(p, "Upcast") && !strstr(p, "allow_tf32")); /* no cast to half precision, no convolution */
	/* only what the graph needs */
	CHECK(!strstr(p, "functional") && !strstr(p, "fallback_random") && !strstr(p, "emulate_precision_casts") &&
	      !strstr(p, "capture_") && !strstr(p, "mark_dynamic") && !strstr(p, "device") && !strstr(p, "torch.manual_seed("));
	CHECK(no_harness(p));
	CHECK(lines(p) <= 30);
	free(p);
}

TEST(plain_compares_the_input_forward_writes)
{
	char *p = plain("bindings 1\nseed 3\nx0 = input float32 [4]\nx1 = input float32 [4]\nv2 = add_(x0, x1)\n"
			"v3 = relu(v2)\noutput v3\n",
			NULL);
	if (!p)
		return;
	CHECK(strstr(p, "        v2 = x0.add_(x1)\n"));
	CHECK(strstr(p, "    x0, x1 = [x.double() if fp64 else x for x in (x0, x1)]\n    out = model(x0, x1)\n"
			"    return {\"output 0\": out[0], \"x0 written in place\": x0}\n"));
	CHECK(no_harness(p) && lines(p) <= 30);
	free(p);
}

TEST(plain_compares_the_parameter_forward_writes)
{
	char *p = plain("bindings 1\nseed 3\nx0 = input float32 [4]\np1 = param float32 [4]\nv2 = add_(p1, x0)\n"
			"output v2\n",
			NULL);
	if (!p)
		return;
	CHECK(strstr(p, "\"self.p1 written in place\": model.p1}\n"));
	free(p);
}

TEST(plain_near_invalid_graph_checks_the_error_type)
{
	char *p = plain("bindings 1\nx0 = input float32 [3, 4]\nx1 = input float64 [4, 5]\n"
			"v2 = mm(x0, x1) breaks operand_dtype\noutput v2\n",
			NULL);
	if (!p)
		return;
	CHECK(strstr(p, "the last breaks operand_dtype on purpose, so eager raises, and torch.compile(backend=\"inductor\") "
			"must too"));
	CHECK(strstr(p, "\ndef run(model):  # forward() on fresh inputs\n"));
	CHECK(strstr(p, "    return model(x0, x1)\n"));
	CHECK(!strstr(p, "fp64") && !strstr(p, "same("));
	CHECK(strstr(p, "try:\n    run(Model())\nexcept Exception as e:\n    expected = type(e)\n"));
	CHECK(strstr(p, "try:\n    run(torch.compile(Model(), backend=\"inductor\"))\nexcept expected as e:\n"));
	CHECK(strstr(p, "else:\n    raise SystemExit(\"INVALID: eager does not raise\")\n"));
	CHECK(strstr(p, "    print(\"PASS\")\n") && strstr(p, "MISMATCH error-mismatch") &&
	      strstr(p, "else:\n    print(\"MISMATCH missing-error: compiled returns\")\n"));
	CHECK(no_harness(p) && lines(p) <= 30);
	free(p);
}

TEST(plain_lays_inputs_out_inline)
{
	char *p = plain("bindings 1\nseed 2\nx0 = input float32 [2, 3, 4, 4] channels_last\n"
			"x1 = input float16 [3, 4] positive expanded\nx2 = input int64 [5] range 0 9 offset\n"
		  "x3 = input bool [2, 3] range 0 1 strided\nx4 = input float32 [2, 3, 4] special permuted\n"
		  "x5 = input int32 [6] perm 9\nv6 = add(x0, x0)\noutput v6\n",
		  NULL);
	if (!p)
		return;
	CHECK(strstr(p, "    x0 = torch.randn((2, 3, 4, 4), generator=gen).contiguous(memory_format=torch.channels_last)\n"));
	/* an expanded input is drawn with dim 0 of size 1 */
	CHECK(strstr(p, "    x1 = (torch.rand((1, 4), generator=gen) + 0.5).to(torch.float16).expand((3, 4))\n"));
	CHECK(strstr(p, "    x2 = torch.randint(0, 10, (5,), generator=gen)\n"
			"    x2 = torch.cat((x2.new_zeros(3), x2.flatten()))[3:].view(x2.shape)  # at storage offset 3\n"));
	CHECK(strstr(p, "    x3 = torch.stack((x3, torch.zeros_like(x3)), -1).flatten(-2)[..., ::2]  # every other element\n"));
	CHECK(strstr(p, "    x4 = special((2, 3, 4), gen).to(torch.float32).permute((2, 1, 0)).contiguous().permute((2, 1, 0))\n"));
	CHECK(strstr(p, "    x5 = torch.randperm(10, generator=gen)[:6].reshape((6,)).to(torch.int32)\n"));
	/* the special fill's helper, shared with the harness program, and the half-precision settings */
	CHECK(strstr(p, "import math\nimport torch\n") && strstr(p, "\ndef special(shape, gen):"));
	CHECK(strstr(p, "emulate_precision_casts = True") && strstr(p, "tol={torch.float16: 1e-3, torch.bfloat16: 1e-2}"));
	CHECK(strstr(p, "    x0, x1, x4 = [x.double() if fp64 else x for x in (x0, x1, x4)]\n"));
	CHECK(no_harness(p));
	free(p);
}

static const char dynamic_graph[] = "bindings 2\nseed 4\nsym s0 = 3 5\nx0 = input float32 [s0, 4]\n"
				    "x1 = input float32 [2, s0]\nv2 = relu(x0)\noutput v2\n";

TEST(plain_marks_the_dynamic_dims_at_one_binding)
{
	struct plain_opts o = {.binding = 1};
	char *p = plain(dynamic_graph, &o);
	if (!p)
		return;
	CHECK(strstr(p, "manual_seed(4000013)  # input binding 1\n    x0 = torch.randn((5, 4), generator=gen)\n"
			"    x1 = torch.randn((2, 5), generator=gen)\n    torch._dynamo.maybe_mark_dynamic(x0, 0)\n"
			"    torch._dynamo.maybe_mark_dynamic(x1, 1)\n"));
	CHECK(strstr(p, "torch.compile(Model(), backend=\"inductor\"), twice=True)"));
	CHECK(lines(p) <= 35);
	free(p);
	/* torch.compile's own dynamic setting instead of the marks */
	o = (struct plain_opts){.dynamic = "false", .mode = "max-autotune", .backend = "aot_eager"};
	p = plain(dynamic_graph, &o);
	if (!p)
		return;
	CHECK(!strstr(p, "mark_dynamic"));
	CHECK(strstr(p, "torch.compile(Model(), backend=\"aot_eager\", mode=\"max-autotune\", dynamic=False), twice=True)"));
	free(p);
}

TEST(plain_marks_many_dynamic_inputs_in_a_loop)
{
	char *p = plain("bindings 2\nsym s0 = 3 5\nx0 = input float32 [s0]\nx1 = input float32 [s0, s0]\n"
			"x2 = input float32 [2, s0]\nv3 = relu(x0)\noutput v3\n",
			NULL);
	if (!p)
		return;
	CHECK(strstr(p, "    for x, dims in ((x0, 0), (x1, (0, 1)), (x2, 1)):\n"
			"        torch._dynamo.maybe_mark_dynamic(x, dims)\n"));
	free(p);
}

TEST(plain_fallback_random_only_with_random_ops)
{
	char *p = plain("bindings 1\nseed 9\nx0 = input float32 [4, 4]\nv1 = dropout(x0; p=0.5)\noutput v1\n", NULL);
	if (!p)
		return;
	CHECK(strstr(p, "\ntorch._inductor.config.fallback_random = True"));
	CHECK(strstr(p, "    torch.manual_seed(9)  # the random ops' draws\n    return {"));
	CHECK(strstr(p, "import torch.nn.functional as F\n")); /* F.dropout */
	free(p);
	p = plain(mm_param, NULL);
	CHECK(p && !strstr(p, "fallback_random") && !strstr(p, "torch.manual_seed("));
	free(p);
}

TEST(plain_on_cuda_moves_model_and_inputs)
{
	struct plain_opts o = {.cuda = 1, .finding = "numeric-0123456789abcdef", .kind = "numeric"};
	char *p = plain(mm_param, &o);
	if (!p)
		return;
	CHECK(starts(p, "# pt2fuzz numeric-0123456789abcdef (numeric): mm; "));
	CHECK(strstr(p, "\ndevice = \"cuda\"\n") && strstr(p, "x0 = torch.randn((3, 4), generator=gen).to(device)\n"));
	CHECK(strstr(p, "eager, compiled = run(Model().to(device)), ") &&
	      strstr(p, "ref = run(Model().to(device).double(), fp64=True)"));
	free(p);
}

TEST(plain_refuses_what_it_cannot_say)
{
	static const struct plain_opts bad[] = {
		{.backend = "aoti"},         {.backend = "x\"); import os"}, {.mode = "a b"},
		{.dynamic = "maybe"},        {.binding = 1},                  {.finding = "numeric-0\nimport os"},
		{.kind = "numeric)\nimport os"}, {.mode = "backward"},
	};
	CHECK(text_parse(&g, mm_param, why, sizeof why) == 0);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *p = emit_plain_string(&g, &bad[i], NULL, why, sizeof why);
		CHECK(p == NULL && why[0]);
		free(p);
	}
}

/* Generated graphs of three ops, for their sizes: most fit in thirty-five lines. */
TEST(plain_small_generated_graphs_are_short)
{
	struct gen_opts o;
	gen_default_opts(&o);
	o.size = 2;
	unsigned fit = 0, total = 0;
	for (unsigned i = 0; i < 40; i++) {
		static const struct plain_opts defaults;
		if (gen_graph(&g, 900 + i, &o, why, sizeof why))
			continue;
		char *p = emit_plain_string(&g, &defaults, NULL, why, sizeof why);
		if (!CHECK(p != NULL))
			continue;
		fit += lines(p) <= 35;
		total++;
		CHECK(no_harness(p));
		free(p);
	}
	CHECK(total >= 30 && fit * 10 >= total * 9);
}

/* The float64 run keeps float64 where the model itself casts to bfloat16 (the
 * upcast graph, as the harness runs it); a graph whose half-precision values
 * only come from its inputs, which the float64 run upcasts, needs no Upcast. */
TEST(plain_upcasts_the_model_casts_in_the_float64_run)
{
	char *p = plain("bindings 1\nseed 3\nx0 = input float32 [2, 3]\nv1 = to_dtype(x0; dtype=bfloat16)\n"
			"v2 = tan(v1)\noutput v2\n", NULL);
	if (!p)
		return;
	CHECK(strstr(p, "\nclass Upcast(torch.overrides.TorchFunctionMode):") != NULL);
	CHECK(strstr(p, "\nref = run(upcast(Model().double()), fp64=True)\n") != NULL);
	CHECK(strstr(p, "torch.set_default_dtype(torch.float64)") != NULL); /* Upcast's own */
	free(p);
	p = plain("bindings 1\nseed 3\nx0 = input bfloat16 [2, 3]\nv1 = tan(x0)\noutput v1\n", NULL);
	if (!p)
		return;
	CHECK(!strstr(p, "Upcast") && strstr(p, "emulate_precision_casts"));
	free(p);
}

/* Where eager's own kernel is wrong (graph/eager_reference.c), the float64
 * run computes the op from its definition, in the plain program as in the
 * harness's: std_mean's row under Upcast, and no row of an op the graph
 * lacks. Each row names a catalogue op whose Python calls the row's function. */
TEST(plain_reference_replaces_the_eager_kernels_known_wrong)
{
	char *p = plain("bindings 1\nseed 1\nx0 = input float32 [64, 8] special\n"
			"v1, v2 = std_mean(x0; correction=1, keepdim=False, dim=[0])\noutput v2\n", NULL);
	if (!p)
		return;
	CHECK(strstr(p, "\n    torch.std_mean: lambda x, dim=None, *, correction=None, keepdim=False: (torch.std(") != NULL);
	CHECK(!strstr(p, "torch.var_mean:"));
	CHECK(strstr(p, "\nref = run(upcast(Model().double()), fp64=True)\n") != NULL);
	free(p);
	p = plain("bindings 1\nseed 1\nx0 = input float32 [64, 8] special\nv1 = mean(x0; dim=0, keepdim=False)\n"
		  "output v1\n", NULL);
	if (!p)
		return;
	CHECK(!strstr(p, "Upcast") && !strstr(p, "REFERENCE"));
	free(p);
	for (unsigned i = 0; i < eager_reference_count(); i++) {
		const struct eager_reference *r = eager_reference_get(i);
		int id = op_find(r->op);
		if (!CHECK(id >= 0))
			continue;
		char call[64];
		snprintf(call, sizeof call, "%s(", r->call);
		CHECK(strstr(op_get((unsigned)id)->py, call) != NULL);
	}
}

/* A float the model makes from integers is float32 by the default dtype: in
 * the float64 run it is float64, so it neither rounds nor meets a float64
 * operand in an op that takes one dtype (lerp). */
TEST(plain_floats_made_from_integers_are_float64_in_the_float64_run)
{
	char *p = plain("bindings 1\nseed 3\nx0 = input int32 [2, 3] range 0 8\nv1 = special_log1p(x0)\noutput v1\n", NULL);
	if (!p)
		return;
	CHECK(strstr(p, "\n    torch.set_default_dtype(torch.float64 if fp64 else torch.float32)") != NULL);
	CHECK(!strstr(p, "Upcast"));
	free(p);
	p = plain("bindings 1\nseed 3\nx0 = input float32 [2, 3]\nv1 = special_log1p(x0)\noutput v1\n", NULL);
	if (!p)
		return;
	CHECK(!strstr(p, "set_default_dtype"));
	free(p);
}

/* cuDNN may take TF32 kernels for float32 convolutions, eager and compiled
 * mode different ones: on CUDA the program turns that off, as the worker does. */
TEST(plain_convolution_on_cuda_turns_tf32_off)
{
	static const char conv[] = "bindings 1\nseed 3\nx0 = input float32 [9, 1, 2]\nv1 = conv_transpose2d(x0; in_channels=9, "
				   "out_channels=2, kernel_size=1, stride=1, padding=0, output_padding=0, groups=1, bias=True, "
				   "dilation=1)\noutput v1\n";
	struct plain_opts o = {.cuda = 1};
	char *p = plain(conv, &o);
	if (!p)
		return;
	CHECK(strstr(p, "\ntorch.backends.cudnn.allow_tf32 = False") != NULL);
	free(p);
	p = plain(conv, NULL);
	if (!p)
		return;
	CHECK(!strstr(p, "allow_tf32"));
	free(p);
}

/* A stride finding's plain program compares strides too, as the oracle does
 * (dims of size > 1, where eager's layout is dense); any other compares values. */
TEST(plain_of_a_stride_finding_compares_strides)
{
	struct plain_opts o = {0};
	o.strides = 1;
	char *p = plain(mm_param, &o), *q = plain(mm_param, NULL);
	if (p && q) {
		CHECK(strstr(p, "bad += [f\"MISMATCH stride {k}: eager {e.stride()}, compiled {c.stride()}\"") != NULL);
		CHECK(strstr(p, "(s := significant(e))[1] and s[0] != significant(c)[0]") != NULL);
		CHECK(strstr(p, "print(\"\\n\".join(bad) or \"PASS\")") > strstr(p, "bad += "));
		CHECK(strstr(q, "stride") == NULL);
	}
	free(p);
	free(q);
}

/* A nonfinite finding's plain program compares each position's NaN/Inf class
 * where eager's agrees with the float64 run's, as the oracle does: same()
 * takes compiled NaN for eager's inf. Any other leaves it to same(). */
TEST(plain_of_a_nonfinite_finding_compares_nan_and_inf)
{
	const struct plain_opts nonfinite = {.nonfinite = 1};
	char *p = plain(mm_param, &nonfinite), *q = plain(mm_param, NULL);
	if (p && q) {
		CHECK(strstr(p, "return torch.where(t.isnan(), 2.0, torch.where(t.isinf(), t.sign(), 0.0))") != NULL);
		CHECK(strstr(p, "(d := (nonfinite(e) == nonfinite(ref[k])) & (nonfinite(e) != nonfinite(c))).any()]") != NULL);
		CHECK(strstr(p, "print(\"\\n\".join(bad) or \"PASS\")") > strstr(p, "MISMATCH NaN/Inf"));
		CHECK(strstr(q, "nonfinite") == NULL);
	}
	free(p);
	free(q);
}

/* An alias finding's plain program collects each run's leaves (its inputs,
 * then the module's parameters and buffers, the harness's order) and
 * compares which one each output shares; any other collects nothing. */
TEST(plain_of_an_alias_finding_compares_what_outputs_share)
{
	const struct plain_opts aliases = {.aliases = 1};
	char *p = plain(mm_param, &aliases);
	CHECK(p != NULL);
	static const char *const says[] = {
		"def run(model, fp64=False, leaves=None, twice=False):",
		"        leaves += [x0] + list(model.parameters()) + list(model.buffers())\n",
		"run(Model(), leaves=eager_leaves)",
		", leaves=compiled_leaves, twice=True)\n",
		"bad += [f\"MISMATCH alias {k}: eager shares leaf {shared(e, eager_leaves)}",
		"ref = run(Model().double(), fp64=True)", /* the reference collects nothing */
	};
	for (unsigned k = 0; p && k < sizeof says / sizeof says[0]; k++)
		CHECK(strstr(p, says[k]) != NULL);
	CHECK(p && strstr(p, "print(\"\\n\".join(bad) or \"PASS\")") > strstr(p, "MISMATCH alias"));
	free(p);
	p = plain(mm_param, NULL);
	CHECK(p && !strstr(p, "leaves"));
	free(p);
}
