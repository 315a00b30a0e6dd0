/* The plain program (emit_plain.h). Its text comes from the same sources as
 * the harness program's (see the top of emit.c): this file, the fixed
 * graph/emit_special.py and graph/emit_inference.py, the rows of fills.c,
 * the catalogue's spellings expanded by emit.c,
 * integers the validator checked, and words the caller checked with
 * emit_safe_name. The model and its values are the harness's: emit.c writes
 * __init__'s state and forward(), and the draws below spell the rows of
 * fills.c, as fill() and lay_out() run them, for the one binding. */
#include "emit_plain.h"
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "../config/compile.h"
#include "../config/pins.h"
#include "../config/settings.h"
#include "broken.h"
#include "compile_config.h"
#include "eager_reference.h"
#include "emit.h"
#include "fail.h"
#include "fills.h"
#include "op.h"

/* What the program needs besides the model: each decides a line or a clause. */
struct needs {
	int random;  /* an op of the random family: fallback_random, and the seed before each run */
	int fullgraph; /* the graph's configuration asks torch.compile for one graph */
	int low;     /* float16/bfloat16: emulate_precision_casts, and same()'s tolerance for them */
	int upcast;  /* the float64 run is under Upcast: NARROW_CAST, or an op eager_reference replaces */
	int makes_floats; /* NARROW_DEFAULT alone: the float64 run's default dtype is float64 */
	int datadep; /* data-dependent output shapes: Dynamo's capture flags */
	int special; /* a special fill: special() and math */
	int state;   /* parameters or buffers: __init__'s generator */
	int modules; /* modules built by the ops' constructors: __init__'s seed */
	int conv;    /* a convolution: cuDNN's TF32 off, on CUDA */
	int shared;  /* inputs that share memory: compiled mode's first call gets copies of their own */
	int remutated; /* the input compiled mode's first call gets before it changes in place (REMUTATE), or -1 */
	/* the configuration's global modes (mode.*), as graph/emit_runner.py's modes() sets them */
	int deterministic, grad, inference;
	const char *autocast; /* the autocast dtype's torch name, or NULL */
};

/* How node nd makes a float or complex value narrower than float64, which
 * the float64 run, whose inputs are float64, would otherwise compute narrow,
 * or mix with float64 where an op takes one dtype (lerp). An explicit cast to
 * float32 stays one: a dtype view's spelling rounds through it. */
enum narrow {
	NARROW_NONE,
	NARROW_DEFAULT, /* not by a cast, float32 or complex64 none of its inputs has: the default dtype (log1p of an integer) */
	NARROW_CAST,    /* float16/bfloat16 by a cast (a dtype argument, .to()) or none of its inputs has: Upcast */
};

static enum narrow makes_narrow(const struct graph *g, const struct node *nd)
{
	enum narrow r = NARROW_NONE;
	for (unsigned o = 0; o < nd->nout; o++) {
		unsigned dt = g->v[nd->out0 + o].dtype;
		if (!dtype_is_inexact(dt) || dt == DT_FLOAT64 || dt == DT_COMPLEX128)
			continue;
		int same = 0;
		for (unsigned i = 0; i < nd->nin; i++)
			same |= g->v[nd->in[i]].dtype == dt;
		int cast = op_get(nd->op)->family == FAM_CAST;
		if (dtype_is_low_precision(dt) && (cast || !same))
			return NARROW_CAST;
		if (!cast && !same)
			r = NARROW_DEFAULT;
	}
	return r;
}

static void find_needs(const struct graph *g, struct needs *nd)
{
	int shares = graph_has_shared_inputs(g);
	memset(nd, 0, sizeof *nd);
	nd->fullgraph = g->config.fullgraph;
	nd->shared = shares && !g->broken;
	nd->remutated = emit_remutated_input(g);
	nd->deterministic = graph_config_on(&g->config, "mode.deterministic_algorithms");
	nd->grad = graph_config_on(&g->config, "mode.enable_grad");
	nd->inference = graph_config_on(&g->config, "mode.inference_inputs") && !shares;
	nd->autocast = graph_config_on(&g->config, "mode.autocast_bfloat16") ? "bfloat16"
		     : graph_config_on(&g->config, "mode.autocast_float16") ? "float16" : NULL;
	nd->low = nd->autocast != NULL;
	for (unsigned i = 0; i < g->nvalues; i++) {
		const struct value *v = &g->v[i];
		nd->low |= dtype_is_low_precision(v->dtype);
		nd->datadep |= v->datadep;
		nd->special |= v->kind != VK_NODE && v->fill == FILL_SPECIAL;
		nd->state |= v->kind == VK_PARAM || v->kind == VK_BUFFER;
	}
	for (unsigned k = 0; k < g->nnodes; k++) {
		nd->random |= op_get(g->n[k].op)->family == FAM_RANDOM;
		nd->modules |= op_get(g->n[k].op)->ctor != NULL;
		nd->conv |= op_get(g->n[k].op)->family == FAM_CONV;
		enum narrow r = makes_narrow(g, &g->n[k]);
		nd->upcast |= r == NARROW_CAST;
		nd->makes_floats |= r == NARROW_DEFAULT;
	}
	nd->upcast |= eager_reference_in(g);
}

/* Leaf v at binding b, whose value id is name (for %X). */
struct spelled {
	const struct value *v;
	unsigned b, name;
};

/* A directive of a row's Python (fills.h) as this binding's literal. */
static void literal(FILE *f, char c, const void *ctx)
{
	const struct spelled *s = ctx;
	const struct value *v = s->v;
	switch (c) {
	case 'S': emit_shape(f, v, s->b); break;
	case 'L': fprintf(f, "%" PRId64, v->lo); break;
	case 'H': fprintf(f, "%" PRId64, v->hi + 1); break;
	case 'N': fprintf(f, "%" PRId64, value_numel(v, s->b)); break;
	case 'C': emit_milli(f, v->lo); break;
	case 'X': fprintf(f, "x%u", s->name); break;
	case 'R':
		fputc('(', f);
		for (unsigned d = v->rank; d-- > 0;)
			fprintf(f, "%u%s", d, d ? ", " : v->rank == 1 ? "," : "");
		fputc(')', f);
		break;
	default: fputc(c, f); break;
	}
}

static void spell_draw(FILE *f, const char *fmt, const struct value *v, unsigned b, unsigned name)
{
	struct spelled s = {v, b, name};
	fills_spell(f, fmt, literal, &s);
}

/* fill(): the draw, then the leaf's dtype unless the draw made it. */
static void draw(FILE *f, const struct value *v, unsigned b)
{
	if (dtype_is_complex(v->dtype)) { /* fill()'s two draws in float64: the real parts, then the imaginary */
		fputs("torch.complex(", f);
		spell_draw(f, fill_rows[v->fill].draw, v, b, 0);
		fputs(".double(), ", f);
		spell_draw(f, fill_rows[v->fill].draw, v, b, 0);
		fprintf(f, ".double()).to(%s)", dtype_info(v->dtype)->torch);
		return;
	}
	spell_draw(f, fill_rows[v->fill].draw, v, b, 0);
	if (v->dtype != fill_rows[v->fill].made)
		fprintf(f, ".to(%s)", dtype_info(v->dtype)->torch);
}

/* Parameters and buffers are static: their one shape is binding 0's. */
static void draw_state(FILE *f, const struct graph *g, unsigned id) { draw(f, &g->v[id], 0); }

/* An input of a sharing layout (same, view): its partner's memory (after
 * the upcast, so that the float64 run shares too); 0, or -1 for any other. */
static int write_share(FILE *f, const struct graph *g, unsigned id)
{
	const struct layout_row *l = &layout_rows[g->v[id].layout];
	int partner = l->share ? graph_input_partner(g, id) : -1;
	if (partner < 0)
		return -1;
	fprintf(f, "    x%u = x%d.clone() if unshared else x%d%s  # %s\n", id, partner, partner, l->share, l->about);
	return 0;
}

/* lay_out(): input id drawn (dim 0 of size 1 for a one_row layout), on the
 * device, laid out. */
static void write_input(FILE *f, const struct graph *g, unsigned id, const struct plain_opts *o)
{
	const struct value *v = &g->v[id];
	struct value drawn = *v;
	const struct layout_row *l = &layout_rows[v->layout];
	if (l->one_row)
		drawn.dim[o->binding][0] = 1;
	fprintf(f, "    x%u = ", id);
	draw(f, &drawn, o->binding);
	fputs(o->cuda ? ".to(device)" : "", f);
	spell_draw(f, l->suffix, v, o->binding, id);
	fputc('\n', f);
	if (l->remake) {
		fprintf(f, "    x%u = ", id);
		spell_draw(f, l->remake, v, o->binding, id);
		fprintf(f, "  # %s\n", l->about);
	}
}

/* maybe_mark_dynamic's index argument for input v: "1", or "(0, 2)". */
static void dyn_dims(FILE *f, const struct value *v)
{
	int several = (v->dyn & (v->dyn - 1)) != 0;
	fputs(several ? "(" : "", f);
	for (unsigned d = 0, k = 0; d < v->rank; d++)
		if (v->dyn >> d & 1)
			fprintf(f, "%s%u", k++ ? ", " : "", d);
	fputs(several ? ")" : "", f);
}

/* The graph's dynamic dims marked as the harness marks them: a line per
 * input, or a loop over three or more. */
static void write_marks(FILE *f, const struct graph *g, const uint16_t *inputs, unsigned ninputs)
{
	unsigned ndyn = 0;
	for (unsigned k = 0; k < ninputs; k++)
		ndyn += g->v[inputs[k]].dyn != 0;
	fputs(ndyn >= 3 ? "    for x, dims in (" : "", f);
	for (unsigned k = 0, j = 0; k < ninputs; k++) {
		const struct value *v = &g->v[inputs[k]];
		if (!v->dyn)
			continue;
		fprintf(f, ndyn >= 3 ? "%s(x%u, " : "%s    torch._dynamo.maybe_mark_dynamic(x%u, ", j++ && ndyn >= 3 ? ", " : "",
			inputs[k]);
		dyn_dims(f, v);
		fputs(ndyn >= 3 ? ")" : ")\n", f);
	}
	fputs(ndyn >= 3 ? "):\n        torch._dynamo.maybe_mark_dynamic(x, dims)\n" : "", f);
}

/* "x0, x3": inputs by name. */
static void name_list(FILE *f, const uint16_t *ids, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		fprintf(f, "%sx%u", k ? ", " : "", ids[k]);
}

/* The first comment line: what the program tests. */
static void write_header(FILE *f, const struct graph *g, const struct plain_opts *o, const char *backend)
{
	fputs("# pt2fuzz", f);
	if (o->finding)
		fprintf(f, " %s", o->finding);
	if (o->kind)
		fprintf(f, " (%s)", o->kind);
	fputs(":", f);
	const char *names[G_MAX_NODES];
	unsigned nnames = 0;
	for (unsigned k = 0; k < g->nnodes; k++) {
		const char *name = op_get(g->n[k].op)->name;
		unsigned j = 0;
		while (j < nnames && strcmp(names[j], name))
			j++;
		if (j == nnames)
			names[nnames++] = name;
	}
	for (unsigned j = 0; j < nnames && j < 4; j++)
		fprintf(f, "%s%s", j ? ", " : " ", names[j]);
	if (nnames > 4)
		fprintf(f, " and %u more ops", nnames - 4);
	if (g->broken)
		fprintf(f, "; the last breaks %s on purpose, so eager raises, and torch.compile(backend=\"%s\") must too",
			constraint_name(g->broken), backend);
	else
		fprintf(f, "; eager vs torch.compile(backend=\"%s\") vs a float64 run", backend);
	fprintf(f, ", input binding %u\n", o->binding);
}

static void write_imports(FILE *f, const struct graph *g, const struct needs *nd, int uses_F, int cuda, int broken)
{
	fputs(nd->special ? "import math\n" : "", f);
	fputs("import torch\n", f);
	fputs(uses_F ? "import torch.nn.functional as F\n" : "", f);
	fputs(nd->random ? "torch._inductor.config.fallback_random = True  # random ops draw what eager draws\n" : "", f);
	fputs(nd->low ? "torch._inductor.config.emulate_precision_casts = True  # float16/bfloat16 rounded as eager "
			"rounds\n" : "", f);
	fputs(nd->datadep ? "torch._dynamo.config.capture_dynamic_output_shape_ops = True  # data-dependent shapes\n"
			    "torch._dynamo.config.capture_scalar_outputs = True\n" : "", f);
	fputs(nd->deterministic ? "torch.use_deterministic_algorithms(True, warn_only=True)  # mode.deterministic_algorithms\n"
				: "", f);
	fputs(cuda && nd->conv ? "torch.backends.cudnn.allow_tf32 = False  # float32 convolutions in float32\n" : "", f);
	fputs(cuda ? "device = \"cuda\"\n" : "", f);
	if (nd->special) {
		fputc('\n', f);
		emit_special_helper(f);
	}
	if (nd->inference) {
		fputc('\n', f);
		emit_inference_helper(f);
	}
	if (nd->upcast && !broken) {
		fputc('\n', f);
		emit_upcast_helper(f, g);
		fputs("def upcast(model):  # forward() under Upcast, on inputs made outside it: they keep eager's roundings\n"
		      "    def forward(*inputs):\n"
		      "        with Upcast():\n"
		      "            return model(*inputs)\n"
		      "    return forward\n", f);
	}
}

/* class Model: __init__ only where there is state or a module to build. */
static void write_model(FILE *f, const struct graph *g, const struct needs *nd)
{
	fputs("\nclass Model(torch.nn.Module):\n", f);
	if (nd->state || nd->modules) {
		fputs("    def __init__(self):\n        super().__init__()\n", f);
		if (nd->state)
			fprintf(f, "        gen = torch.Generator().manual_seed(%" PRIu32 ")  # pt2fuzz's values\n", g->seed);
		if (nd->modules)
			fprintf(f, "        torch.manual_seed(%" PRIu32 ")  # module initializers\n", g->seed);
		emit_model_state(f, g, draw_state);
	}
	emit_forward(f, g);
}

/* The call and what run() returns: the compared outputs and the leaves
 * forward() writes in place, each named by what it is (tie-broken indices
 * left out); where that is every output and nothing more, in one line. A
 * near-invalid graph's run returns what forward() returns (it raises). */
static void write_call(FILE *f, const struct graph *g, const uint16_t *inputs, unsigned ninputs)
{
	uint16_t written[G_MAX_VALUES];
	uint8_t cmp[G_MAX_VALUES];
	unsigned nwritten = emit_written_leaves(g, NULL, written), nout = graph_noutputs(g);
	unsigned ncmp = emit_compared(g, NULL, cmp, sizeof cmp), all = !nwritten && !g->broken;
	for (unsigned k = 0; k < ncmp; k++)
		all &= cmp[k];
	fputs(g->broken ? "    return model(" : all ? "    return {f\"output {k}\": o for k, o in enumerate(model("
						  : "    out = model(", f);
	name_list(f, inputs, ninputs);
	fputs(all ? "))}\n" : ")\n", f);
	if (g->broken || all)
		return;
	fputs("    return {", f);
	unsigned k = 0;
	for (unsigned i = 0; i < nout; i++)
		if (cmp[i])
			fprintf(f, "%s\"output %u\": out[%u]", k++ ? ", " : "", i, i);
	for (unsigned w = 0; w < nwritten; w++) {
		const struct value *v = &g->v[written[w]];
		char name = v->kind == VK_INPUT ? 'x' : v->kind == VK_PARAM ? 'p' : 'b';
		if (cmp[nout + w])
			fprintf(f, "%s\"%s%c%u written in place\": %s%c%u", k++ ? ", " : "", v->kind == VK_INPUT ? "" : "self.",
				name, written[w], v->kind == VK_INPUT ? "" : "model.", name, written[w]);
	}
	fputs("}\n", f);
}

/* mode.inference_inputs: the inputs forward() does not write in place as
 * inference tensors (writing one outside inference mode is an error). */
static void write_inference_inputs(FILE *f, const struct graph *g, const uint16_t *inputs, unsigned ninputs)
{
	uint16_t written[G_MAX_VALUES], made[G_MAX_VALUES];
	unsigned nwritten = emit_written_leaves(g, NULL, written), nmade = 0;
	for (unsigned i = 0; i < ninputs; i++) {
		int w = 0;
		for (unsigned k = 0; k < nwritten; k++)
			w |= written[k] == inputs[i];
		if (!w)
			made[nmade++] = inputs[i];
	}
	if (!nmade)
		return;
	if (nmade == 1) {
		fprintf(f, "    x%u = as_inference(x%u)  # an inference tensor\n", made[0], made[0]);
		return;
	}
	fputs("    ", f);
	name_list(f, made, nmade);
	fputs(" = [", f);
	for (unsigned i = 0; i < nmade; i++)
		fprintf(f, "%sas_inference(x%u)", i ? ", " : "", made[i]);
	fputs("]  # inference tensors\n", f);
}

/* The seed of the binding's inputs' generator, as the harness program's make_inputs seeds it. */
static uint64_t binding_seed(const struct graph *g, const struct plain_opts *o)
{
	return (uint64_t)g->seed * EMIT_SEED_STRIDE + o->binding;
}

/* REMUTATE: compiled mode calls forward() once on the inputs, then input id
 * gets new values of its fill in place, and every mode's judged call sees
 * those (graph/emit_runner.py's judged_inputs): a first call where asked,
 * then the new values, drawn as the program draws them. */
static void write_remutate(FILE *f, const struct graph *g, const struct plain_opts *o, const uint16_t *inputs,
			   unsigned ninputs, unsigned id)
{
	fputs("    if twice:  # compiled mode: a first call on these inputs, before one changes in place\n        model(", f);
	name_list(f, inputs, ninputs);
	fprintf(f, ")\n    with torch.no_grad():  # x%u's new values, which every judged call sees\n"
		   "        gen = torch.Generator().manual_seed(%" PRIu64 ")\n        x%u.copy_(",
		id, binding_seed(g, o) + EMIT_REMUTATE_DRAW, id);
	draw(f, &g->v[id], o->binding); /* never an expanded one (drawn one row high) */
	fputs(")\n", f);
}

/* run(model): fresh inputs, the seed (where forward() draws random numbers),
 * forward(). A near-invalid graph's run returns what forward() returns (it
 * raises); the others' take fp64 and return the compared tensors. */
static void write_run(FILE *f, const struct graph *g, const struct plain_opts *o, const struct needs *nd)
{
	int expect_error = g->broken != 0, marks = !o->dynamic || !strcmp(o->dynamic, "marks");
	if (nd->autocast) /* eager, compiled and float64 runs (whose float64 tensors autocast leaves alone) */
		fprintf(f, "@torch.autocast(%s, dtype=torch.%s)  # mode.autocast_%s\n", o->cuda ? "device" : "\"cpu\"",
			nd->autocast, nd->autocast);
	int aliases = o->aliases && !expect_error;
	int twice = nd->remutated >= 0;
	fprintf(f, "def run(model%s%s%s%s):  # forward() on fresh inputs%s%s%s\n", expect_error ? "" : ", fp64=False",
		aliases ? ", leaves=None" : "", nd->shared ? ", unshared=False" : "", twice ? ", twice=False" : "",
		expect_error ? "" : "; float64 ones for the reference", aliases ? "; in leaves, what its outputs may share" : "",
		twice ? "; twice: a first call before the judged one" : "");
	fprintf(f, "    gen = torch.Generator().manual_seed(%" PRIu64 ")  # input binding %u\n",
		binding_seed(g, o), o->binding);
	uint16_t inputs[G_MAX_VALUES], up[G_MAX_VALUES]; /* all, and those the reference upcasts */
	unsigned ninputs = 0, nup = 0;
	for (unsigned i = 0; i < g->nvalues; i++) {
		const struct value *v = &g->v[i];
		if (v->kind != VK_INPUT)
			continue;
		write_input(f, g, i, o);
		inputs[ninputs++] = (uint16_t)i;
		if (dtype_is_float(v->dtype) && v->dtype != DT_FLOAT64 && !expect_error && v->root == i)
			up[nup++] = (uint16_t)i;
		if (v->dtype == DT_COMPLEX64 && !expect_error)
			fprintf(f, "    x%u = x%u.to(torch.complex128) if fp64 else x%u\n", i, i, i);
	}
	if (nd->inference)
		write_inference_inputs(f, g, inputs, ninputs);
	if (marks)
		write_marks(f, g, inputs, ninputs);
	if (twice)
		write_remutate(f, g, o, inputs, ninputs, (unsigned)nd->remutated);
	if (aliases) { /* the harness's leaves, in its order: the inputs, then the module's parameters and buffers */
		fputs("    if leaves is not None:\n        leaves += [", f);
		name_list(f, inputs, ninputs);
		fputs("] + list(model.parameters()) + list(model.buffers())\n", f);
	}
	if (nup == 1) {
		fprintf(f, "    x%u = x%u.double() if fp64 else x%u\n", up[0], up[0], up[0]);
	} else if (nup) {
		fputs("    ", f);
		name_list(f, up, nup);
		fputs(" = [x.double() if fp64 else x for x in (", f);
		name_list(f, up, nup);
		fputs(")]\n", f);
	}
	for (unsigned k = 0; k < ninputs; k++)
		write_share(f, g, inputs[k]);
	if (nd->random)
		fprintf(f, "    torch.manual_seed(%" PRIu32 ")  # the random ops' draws\n", g->seed);
	if (nd->makes_floats && !nd->upcast && !expect_error)
		fputs("    torch.set_default_dtype(torch.float64 if fp64 else torch.float32)  # floats made from integers\n", f);
	write_call(f, g, inputs, ninputs);
}

static const char *model_expr(const struct plain_opts *o) { return o->cuda ? "Model().to(device)" : "Model()"; }

/* set_grad_enabled's argument: the harness runs forward() under no_grad but for mode.enable_grad. */
static const char *grad_mode(const struct needs *nd)
{
	return nd->grad ? "True" : "False";
}

static void write_compile(FILE *f, const struct plain_opts *o, const char *backend, int fullgraph)
{
	fprintf(f, "torch.compile(%s, backend=\"%s\"", model_expr(o), backend);
	if (o->mode)
		fprintf(f, ", mode=\"%s\"", o->mode);
	if (o->dynamic && strcmp(o->dynamic, "marks"))
		fputs(strcmp(o->dynamic, "true") ? ", dynamic=False" : ", dynamic=True", f);
	fputs(fullgraph ? ", fullgraph=True)" : ")", f);
}

/* Eager, compiled and float64 runs (the float64 one of the upcast graph
 * where the model casts to float16/bfloat16, as the harness runs it), then
 * each result judged as the harness judges it (torch._dynamo.utils.same
 * against the float64 run; ints and bools exactly), with the shape and dtype
 * first (same() broadcasts), and for a nonfinite finding each position's
 * NaN/Inf class (same() takes NaN for inf): what was compared, then a
 * MISMATCH line per output that differs, else PASS. */
static void write_compare(FILE *f, const struct plain_opts *o, const struct needs *nd, const char *backend)
{
	fprintf(f, "\ntorch.set_grad_enabled(%s)\n", grad_mode(nd));
	if (nd->shared) { /* as compiled mode runs it: a first call on copies, then the judged call on shared inputs */
		fputs("compiled_model = ", f);
		write_compile(f, o, backend, nd->fullgraph);
		fputs("\nrun(compiled_model, unshared=True)  # a first call on inputs of their own\n", f);
	}
	fprintf(f, "%seager, compiled = run(%s%s), run(", o->aliases ? "eager_leaves, compiled_leaves = [], []\n" : "",
		model_expr(o), o->aliases ? ", leaves=eager_leaves" : "");
	if (nd->shared)
		fputs("compiled_model", f);
	else
		write_compile(f, o, backend, nd->fullgraph);
	fprintf(f, "%s%s)\nref = run(%s%s.double()%s, fp64=True)\n", o->aliases ? ", leaves=compiled_leaves" : "",
		nd->remutated >= 0 ? ", twice=True" : "",
		nd->upcast ? "upcast(" : "", model_expr(o), nd->upcast ? ")" : "");
	fprintf(f, "bad = [f\"MISMATCH {k}: eager {e.dtype} {list(e.shape)}, compiled {c.dtype} {list(c.shape)}\" "
		   "for (k, e), c in zip(eager.items(), compiled.values())\n"
		   "       if not ((e.shape, e.dtype) == (c.shape, c.dtype) and (torch._dynamo.utils.same(e, c, "
		   "fp64_ref=ref[k], equal_nan=True%s) if e.is_floating_point() or e.is_complex() else torch.equal(e, c)))]\n",
		nd->low ? ", tol={torch.float16: 1e-3, torch.bfloat16: 1e-2}.get(e.dtype, 1e-4)" : "");
	/* as the harness judges strides: exactly on dims of size > 1, where eager's layout is dense */
	if (o->strides)
		fputs("def significant(t):  # the strides of dims of size > 1, and whether they pack densely\n"
		      "    strides, packed = [t.stride(d) for d in range(t.dim()) if t.shape[d] > 1], 1\n"
		      "    for d in sorted((d for d in range(t.dim()) if t.shape[d] > 1), key=t.stride):\n"
		      "        if t.stride(d) != packed:\n            return strides, False\n"
		      "        packed *= t.shape[d]\n    return strides, True\n"
		      "bad += [f\"MISMATCH stride {k}: eager {e.stride()}, compiled {c.stride()}\" "
		      "for (k, e), c in zip(eager.items(), compiled.values())\n"
		      "        if e.shape == c.shape and (s := significant(e))[1] and s[0] != significant(c)[0]]\n",
		      f);
	/* as the harness judges NaN and Inf: each position's class where eager's agrees with float64's */
	if (o->nonfinite) {
		emit_nonfinite_helper(f);
		fputs("bad += [f\"MISMATCH NaN/Inf {k}: at {int(d.sum())} positions where eager and float64 agree\" "
		      "for (k, e), c in zip(eager.items(), compiled.values())\n"
		      "        if (e.is_floating_point() or e.is_complex()) and (e.shape, e.dtype) == (c.shape, c.dtype)\n"
		      "        and (d := (nonfinite(e) == nonfinite(ref[k])) & (nonfinite(e) != nonfinite(c))).any()]\n",
		      f);
	}
	/* as the harness judges sharing: the leaf whose storage a non-empty output shares, by its address */
	if (o->aliases)
		fputs("def shared(t, leaves):  # the leaf whose storage t shares (None: none)\n"
		      "    ptr = t.untyped_storage().data_ptr() if t.numel() else 0\n"
		      "    return next((i for i, x in enumerate(leaves) if ptr and isinstance(x, torch.Tensor)\n"
		      "                 and x.untyped_storage().data_ptr() == ptr), None)\n"
		      "bad += [f\"MISMATCH alias {k}: eager shares leaf {shared(e, eager_leaves)}, compiled leaf "
		      "{shared(c, compiled_leaves)}\" for (k, e), c in zip(eager.items(), compiled.values())\n"
		      "        if shared(e, eager_leaves) != shared(c, compiled_leaves)]\n",
		      f);
	fputs("print(\"compared:\", \", \".join(eager))\nprint(\"\\n\".join(bad) or \"PASS\")\n", f);
}

/* A near-invalid graph: eager must raise, and compiled mode an instance of eager's type. */
static void write_expect_error(FILE *f, const struct plain_opts *o, const struct needs *nd, const char *backend)
{
	fprintf(f, "\ntorch.set_grad_enabled(%s)\ntry:\n    run(%s)\n", grad_mode(nd), model_expr(o));
	fputs("except Exception as e:\n    expected = type(e)\n    print(f\"eager raises {expected.__name__}: {e}\".splitlines()[0])\n"
	      "else:\n    raise SystemExit(\"INVALID: eager does not raise\")\ntry:\n    run(", f);
	write_compile(f, o, backend, nd->fullgraph);
	fputs(")\nexcept expected as e:\n    print(f\"compiled raises {type(e).__name__}, an instance of eager's type\")\n"
	      "    print(\"PASS\")\n"
	      "except Exception as e:\n"
	      "    print(f\"MISMATCH error-mismatch: compiled raises {type(e).__name__}: {e}\".splitlines()[0])\n"
	      "else:\n    print(\"MISMATCH missing-error: compiled returns\")\n", f);
}

/* Whether text calls torch.nn.functional by its short name. */
static int uses_F(const char *text)
{
	for (const char *p = strstr(text, "F."); p; p = strstr(p + 1, "F."))
		if (p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.'))
			return 1;
	return 0;
}

/* One setting's assignment (a module's: the configuration's modes are run()'s). */
static void write_setting(FILE *f, const char *name, const char *py, int *functorch)
{
	static const struct {
		const char *prefix, *module;
	} modules[] = {{"inductor.", "torch._inductor.config."},
		       {"dynamo.", "torch._dynamo.config."},
		       {"functorch.", "torch._functorch.config."}};
	for (unsigned m = 0; m < sizeof modules / sizeof modules[0]; m++)
		if (!strncmp(name, modules[m].prefix, strlen(modules[m].prefix))) {
			if (m == 2 && !(*functorch)++)
				fputs("import torch._functorch.config\n", f);
			fprintf(f, "%s%s = %s\n", modules[m].module, name + strlen(modules[m].prefix), py);
		}
}

/* Whether o's pins can be written: -1 with a reason for one pin_python refuses or a
 * pinned mode (run()'s, which a plain program has not). */
static int check_pins(const struct plain_opts *o, char *why, size_t n)
{
	for (unsigned i = 0; i < o->npins; i++) {
		char name[PIN_NAME_MAX], py[SETTING_PYTHON_MAX];
		if (pin_python(o->pins[i], name, sizeof name, py, sizeof py, why, n))
			return -1;
		if (!strncmp(name, "mode.", 5))
			return fail(why, n, "the pinned %s is a mode of the fuzzer's runs: a plain program has none", name);
	}
	return 0;
}

/* The graph's compile settings (its configuration's), after the ones the
 * graph's ops imply, so that they win as in the harness; then the pins
 * (check_pins), over them. */
static void write_settings(FILE *f, const struct graph *g, const struct plain_opts *o)
{
	int functorch = 0;
	for (unsigned k = 0; k < g->config.nsettings; k++) {
		const struct setting *s = setting_get(g->config.set[k].id);
		char py[SETTING_PYTHON_MAX];
		setting_value_python(s, g->config.set[k].value, py, sizeof py);
		write_setting(f, s->name, py, &functorch);
	}
	for (unsigned i = 0; i < o->npins; i++) {
		char name[PIN_NAME_MAX], py[SETTING_PYTHON_MAX], why[8];
		if (!pin_python(o->pins[i], name, sizeof name, py, sizeof py, why, sizeof why))
			write_setting(f, name, py, &functorch);
	}
}

int emit_plain(FILE *f, const struct graph *g, const struct plain_opts *given, char *why, size_t n)
{
	static const char *const dynamics[] = {"marks", "true", "false"};
	/* what the command line leaves open, the graph's configuration says */
	struct plain_opts eff = *given;
	const struct plain_opts *o = &eff;
	if (!eff.backend)
		eff.backend = compile_backend_name(g->config.backend);
	if (!eff.mode && g->config.mode && !strcmp(eff.backend, "inductor"))
		eff.mode = compile_mode_name(g->config.mode);
	if (!eff.dynamic)
		eff.dynamic = compile_dynamic_name(g->config.dynamic);
	const char *backend = o->backend;
	unsigned d = 0;
	while (o->dynamic && d < 3 && strcmp(o->dynamic, dynamics[d]))
		d++;
	if (!emit_safe_name(backend) || (o->mode && !emit_safe_name(o->mode)) || d == 3)
		return fail(why, n, "bad backend, mode or dynamic setting");
	if (!strcmp(backend, "aoti"))
		return fail(why, n, "the aoti backend has no torch.compile form (no plain program)");
	if ((o->mode && !strncmp(o->mode, "backward", 8)) || graph_config_backward(&g->config))
		return fail(why, n, "backward mode: a plain program compares forward() only");
	if ((o->finding && !emit_safe_name(o->finding)) || (o->kind && !emit_safe_name(o->kind)))
		return fail(why, n, "a finding signature or kind that is not a plain word");
	if (o->binding >= g->nbind)
		return fail(why, n, "binding %u: the graph has %u", o->binding, g->nbind);
	if (check_pins(o, why, n))
		return -1;
	struct needs nd;
	find_needs(g, &nd);
	char *model = NULL; /* written first: whether it uses F decides an import */
	size_t len = 0;
	FILE *m = open_memstream(&model, &len);
	if (!m)
		return fail(why, n, "out of memory");
	write_model(m, g, &nd);
	if (fclose(m)) {
		free(model);
		return fail(why, n, "out of memory");
	}
	write_header(f, g, o, backend);
	write_imports(f, g, &nd, uses_F(model), o->cuda, g->broken != 0);
	write_settings(f, g, o);
	fwrite(model, 1, len, f);
	free(model);
	write_run(f, g, o, &nd);
	if (g->broken)
		write_expect_error(f, o, &nd, backend);
	else
		write_compare(f, o, &nd, backend);
	return ferror(f) ? fail(why, n, "write error") : 0;
}

char *emit_plain_string(const struct graph *g, const struct plain_opts *o, size_t *len, char *why, size_t n)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	if (!f) {
		fail(why, n, "out of memory");
		return NULL;
	}
	int rc = emit_plain(f, g, o, why, n);
	if (fclose(f) || rc) {
		if (!rc)
			fail(why, n, "out of memory");
		free(buf);
		return NULL;
	}
	if (len)
		*len = size;
	return buf;
}
