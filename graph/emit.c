/* Every piece of text in the program comes from this file, the fixed Python
 * linked into the binary (graph/emit_*.py), the rows of fills and layouts
 * (fills.c), the catalogue's spellings, or integers checked by the validator: nothing from a corpus file is copied as
 * text, so a hostile input cannot inject code. */
#include "emit.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "../config/compile.h"
#include "../config/pins.h"
#include "../config/settings.h"
#include "broken.h"
#include "compile_config.h"
#include "eager_reference.h"
#include "fills.h"
#include "op.h"
#include "real.h"

static const char *const value_prefix[VK_COUNT] = {
	[VK_INPUT] = "x", [VK_PARAM] = "self.p", [VK_NODE] = "v", [VK_BUFFER] = "self.b"};

void emit_value_name(FILE *f, const struct graph *g, unsigned id) { fprintf(f, "%s%u", value_prefix[g->v[id].kind], id); }

void emit_milli(FILE *f, int64_t x)
{
	uint64_t a = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
	char frac[4];
	snprintf(frac, sizeof frac, "%03u", (unsigned)(a % 1000));
	for (int i = 2; i > 0 && frac[i] == '0'; i--)
		frac[i] = 0;
	fprintf(f, "%s%" PRIu64 ".%s", x < 0 ? "-" : "", a / 1000, frac);
}

void emit_real(FILE *f, int64_t bits, int python)
{
	char buf[48];
	real_format(buf, sizeof buf, real_value(bits), python);
	fputs(buf, f);
}

void emit_attr(FILE *f, const struct graph *g, const struct node *nd, unsigned i, int python)
{
	const struct op_def *op = op_get(nd->op);
	struct attr_spec s;
	op_attr_spec(op, &s);
	enum attr_kind k = attr_kind_at(&s, i);
	int64_t a = nd->attr[i];
	if (s.list >= 0 && i == s.nscalar) { /* the whole list */
		unsigned len = (unsigned)a;
		fputs(python ? "(" : "[", f);
		for (unsigned j = 0; j < len; j++) {
			int64_t x = nd->attr[i + 1 + j];
			if (j)
				fputs(", ", f);
			if (k == AK_SHAPE && x <= -2 && python) {
				emit_value_name(f, g, nd->in[0]);
				fprintf(f, ".size(%lld)", (long long)(-x - 2));
			} else if (k == AK_SHAPE && x <= -2) {
				fprintf(f, "@%lld", (long long)(-x - 2));
			} else {
				fprintf(f, "%lld", (long long)x);
			}
		}
		fputs(python ? (len == 1 ? ",)" : ")") : "]", f);
		return;
	}
	switch (k) {
	case AK_BOOL: fputs(a ? "True" : "False", f); break;
	case AK_MILLI: emit_milli(f, a); break;
	case AK_REAL: emit_real(f, a, python); break;
	case AK_STR: fprintf(f, "'%s'", op->strs[a]); break;
	case AK_DTYPE: fputs(python ? dtype_info((unsigned)a)->torch : dtype_info((unsigned)a)->name, f); break;
	default: fprintf(f, "%lld", (long long)a); break;
	}
}

/* Expands a spelling's directives for node k. A number input (op_def.number)
 * stands where attribute 0 would. */
static void spell(FILE *f, const struct graph *g, unsigned k, const char *fmt)
{
	const struct node *nd = &g->n[k];
	const struct op_def *op = op_get(nd->op);
	int number = op->number && nd->nin > op->nin_max;
	struct attr_spec s;
	op_attr_spec(op, &s);
	for (const char *p = fmt; *p; p++) {
		if (*p == '@' && p[1] >= '0' && p[1] <= '9') {
			emit_value_name(f, g, nd->in[p[1] - '0']);
			p++;
		} else if (*p == '#' && p[1] >= '0' && p[1] <= '9') {
			unsigned i = (unsigned)(p[1] - '0');
			p++;
			if (p[1] >= '0' && p[1] <= '9')
				i = i * 10 + (unsigned)(*++p - '0');
			if (s.list >= 0 && i > s.nscalar)
				i = s.nscalar; /* a list is named by its first slot */
			if (number)
				emit_value_name(f, g, nd->in[op->nin_max]);
			else
				emit_attr(f, g, nd, i, 1);
		} else if (*p == '#' && p[1] == 'T') {
			fputs(dtype_info(g->v[nd->in[0]].dtype)->torch, f);
			p++;
		} else if (*p == '#' && p[1] == 'm') {
			fprintf(f, "self.m%u", k);
			p++;
		} else {
			fputc(*p, f);
		}
	}
}

void emit_shape(FILE *f, const struct value *v, unsigned b)
{
	fputc('(', f);
	for (unsigned d = 0; d < v->rank; d++)
		fprintf(f, "%s%d", d ? ", " : "", (int)v->dim[b][d]);
	fputs(v->rank == 1 ? ",)" : ")", f);
}

/* fill()'s arguments after the shape: dtype, fill kind, lo, hi. */
static void fill_args(FILE *f, const struct value *v)
{
	int bounds = fill_has_bounds(v->fill);
	fprintf(f, ", %s, \"%s\", %lld, %lld", dtype_info(v->dtype)->torch, fill_name(v->fill),
		(long long)(bounds ? v->lo : 0), (long long)(bounds ? v->hi : 0));
}

/* SHARES: input index -> the index of the input whose memory it shares
 * (layout SAME or VIEW: graph_input_partner), for make_inputs. */
static void emit_shares(FILE *f, const struct graph *g)
{
	int16_t index[G_MAX_VALUES];
	unsigned ninput = 0, nshared = 0;
	fputs("# input index -> the input whose memory it shares (layout same: that tensor; view: x[...])\nSHARES = {", f);
	for (unsigned i = 0; i < g->nvalues; i++) {
		if (g->v[i].kind != VK_INPUT)
			continue;
		index[i] = (int16_t)ninput;
		int partner = layout_rows[g->v[i].layout].share ? graph_input_partner(g, i) : -1;
		if (partner >= 0)
			fprintf(f, "%s%u: %d", nshared++ ? ", " : "", ninput, index[partner]);
		ninput++;
	}
	fputs("}\n", f);
}

int emit_remutated_input(const struct graph *g)
{
	if (g->broken || graph_has_shared_inputs(g) || graph_config_on(&g->config, "inductor.freezing") ||
	    graph_config_on(&g->config, "mode.inference_inputs"))
		return -1;
	int pick = -1;
	for (unsigned i = 0; i < g->nvalues; i++) {
		const struct value *v = &g->v[i];
		if (v->kind != VK_INPUT)
			continue;
		if (graph_leaf_written(g, i, NULL)) /* the first call's write would reach the judged call */
			return -1;
		if (pick < 0 && graph_users(g, i) && v->layout != IL_NUMBER && v->layout != IL_EXPANDED)
			pick = (int)i;
	}
	return pick;
}

/* REMUTATE: emit_remutated_input's input index, or None. */
static void emit_remutate(FILE *f, const struct graph *g)
{
	int pick = emit_remutated_input(g);
	unsigned index = 0;
	for (int i = 0; i < pick; i++)
		index += g->v[i].kind == VK_INPUT;
	fputs("# the input that compiled mode's judged call gets changed in place after a first call on it (the other\n"
	      "# modes get it changed alike), or None\nREMUTATE = ", f);
	if (pick < 0)
		fputs("None\n", f);
	else
		fprintf(f, "%u\n", index);
	fprintf(f, "# its new values' generator: seed SEED * SEED_STRIDE + binding + REMUTATE_DRAW\nREMUTATE_DRAW = %u\n",
		EMIT_REMUTATE_DRAW);
}

static void input_spec(FILE *f, const struct value *v, unsigned b)
{
	fputc('(', f);
	emit_shape(f, v, b);
	fill_args(f, v);
	fprintf(f, ", \"%s\")", layout_name(v->layout));
}

/* The directives of a row's Python (fills.h) as the names fill() and
 * lay_out() give them; %X is the drawn tensor t after the row's suffix. */
static void python_word(FILE *f, char c, const void *row)
{
	static const char *const words[128] = {
		['S'] = "shape", ['L'] = "lo", ['H'] = "hi + 1", ['N'] = "math.prod(shape)", ['C'] = "lo / 1000",
		['R'] = "tuple(range(t.dim() - 1, -1, -1))",
	};
	if (c == 'X') {
		fputc('t', f);
		fills_spell(f, ((const struct layout_row *)row)->suffix, python_word, row);
	} else {
		fputs((unsigned char)c < 128 && words[(unsigned char)c] ? words[(unsigned char)c] : "?", f);
	}
}

/* FILLS, LAYOUTS, ONE_ROW and SHARE: the rows of fills.c as fill() and
 * lay_out() (graph/emit_fill.py) and make_inputs read them. */
static void emit_input_tables(FILE *f)
{
	fputs("# fill -> its draw on the CPU, in the dtype it makes (fill() converts)\nFILLS = {\n", f);
	for (unsigned k = 0; k < FILL_COUNT; k++) {
		fprintf(f, "    \"%s\": lambda shape, lo, hi, gen: ", fill_rows[k].name);
		fills_spell(f, fill_rows[k].draw, python_word, NULL);
		fputs(",\n", f);
	}
	fputs("}\n# layout -> the drawn tensor t, on the device, laid out for an input of this shape\nLAYOUTS = {\n", f);
	for (unsigned k = 0; k < IL_COUNT; k++) {
		const struct layout_row *l = &layout_rows[k];
		fprintf(f, "    \"%s\": lambda t, shape: ", l->name);
		fills_spell(f, l->remake ? l->remake : "%X", python_word, l);
		fprintf(f, l->remake ? ",  # %s\n" : ",\n", l->about);
	}
	fputs("}\n# the layouts drawn with dim 0 of size 1\nONE_ROW = (", f);
	for (unsigned k = 0, n = 0; k < IL_COUNT; k++)
		if (layout_rows[k].one_row)
			fprintf(f, "%s\"%s\",", n++ ? " " : "", layout_rows[k].name);
	fputs(")\n# layout -> another input's tensor x made this input's (SHARES)\nSHARE = {", f);
	for (unsigned k = 0, n = 0; k < IL_COUNT; k++)
		if (layout_rows[k].share)
			fprintf(f, "%s\"%s\": lambda x: x%s", n++ ? ", " : "", layout_rows[k].name, layout_rows[k].share);
	fputs("}\n", f);
}

/* The harness program draws a leaf with its fill() (graph/emit_fill.py). */
static void harness_draw(FILE *f, const struct graph *g, unsigned id)
{
	fputs("fill(", f);
	emit_shape(f, &g->v[id], 0);
	fill_args(f, &g->v[id]);
	fputs(", gen)", f);
}

/* An integer parameter is a buffer by another name (parameters are float). */
void emit_model_state(FILE *f, const struct graph *g, emit_draw_fn *draw)
{
	for (unsigned i = 0; i < g->nvalues; i++) {
		const struct value *v = &g->v[i];
		if (v->kind == VK_PARAM && dtype_is_float(v->dtype))
			fprintf(f, "        self.p%u = torch.nn.Parameter(", i);
		else if (v->kind == VK_PARAM || v->kind == VK_BUFFER)
			fprintf(f, "        self.register_buffer(\"%c%u\", ", v->kind == VK_PARAM ? 'p' : 'b', i);
		else
			continue;
		draw(f, g, i);
		fputs(")\n", f);
	}
	for (unsigned k = 0; k < g->nnodes; k++) {
		const struct op_def *op = op_get(g->n[k].op);
		if (!op->ctor)
			continue;
		fprintf(f, "        self.m%u = ", k);
		spell(f, g, k, op->ctor);
		fputc('\n', f);
	}
}

void emit_forward(FILE *f, const struct graph *g)
{
	fputs("    def forward(self", f);
	for (unsigned i = 0; i < g->nvalues; i++)
		if (g->v[i].kind == VK_INPUT)
			fprintf(f, ", x%u", i);
	fputs("):\n", f);
	for (unsigned k = 0; k < g->nnodes; k++) {
		const struct node *nd = &g->n[k];
		const struct op_def *op = op_get(nd->op);
		const char *py = op->py ? op->py : "#m(@0)";
		if (*py == '!') { /* a statement writing input 0: the node's value is input 0 */
			fputs("        ", f);
			spell(f, g, k, py + 1);
			fprintf(f, "\n        v%u = ", nd->out0);
			emit_value_name(f, g, nd->in[0]);
			fputc('\n', f);
			continue;
		}
		fputs("        ", f);
		for (unsigned j = 0; j < nd->nout; j++)
			fprintf(f, "%sv%u", j ? ", " : "", nd->out0 + j);
		fputs(nd->nout == 1 && op->tuple ? ", = " : " = ", f);
		spell(f, g, k, py);
		fputc('\n', f);
	}
	fputs("        return (", f);
	for (unsigned i = 0, k = 0; i < g->nvalues; i++)
		if (g->v[i].out)
			fprintf(f, "%sv%u", k++ ? ", " : "", i);
	fputs(graph_noutputs(g) == 1 ? ",)\n" : ")\n", f);
}

/* The program's fixed text, graph/emit_*.py, linked in by graph/emit_blob.S. */
extern const char pt2fuzz_emit_imports_py[], pt2fuzz_emit_imports_py_end[];
extern const char pt2fuzz_emit_special_py[], pt2fuzz_emit_special_py_end[];
extern const char pt2fuzz_emit_nonfinite_py[], pt2fuzz_emit_nonfinite_py_end[];
extern const char pt2fuzz_emit_fill_py[], pt2fuzz_emit_fill_py_end[];
extern const char pt2fuzz_emit_model_init_py[], pt2fuzz_emit_model_init_py_end[];
extern const char pt2fuzz_emit_runner_py[], pt2fuzz_emit_runner_py_end[];
extern const char pt2fuzz_emit_inference_py[], pt2fuzz_emit_inference_py_end[];
extern const char pt2fuzz_emit_upcast_py[], pt2fuzz_emit_upcast_py_end[];

static void paste(FILE *f, const char *start, const char *end)
{
	fwrite(start, 1, (size_t)(end - start), f);
}

void emit_special_helper(FILE *f) { paste(f, pt2fuzz_emit_special_py, pt2fuzz_emit_special_py_end); }

void emit_nonfinite_helper(FILE *f) { paste(f, pt2fuzz_emit_nonfinite_py, pt2fuzz_emit_nonfinite_py_end); }

void emit_inference_helper(FILE *f) { paste(f, pt2fuzz_emit_inference_py, pt2fuzz_emit_inference_py_end); }

void emit_upcast_helper(FILE *f, const struct graph *g)
{
	emit_eager_reference(f, g);
	fputs("\n\n", f);
	paste(f, pt2fuzz_emit_upcast_py, pt2fuzz_emit_upcast_py_end);
}

int emit_safe_name(const char *s)
{
	if (!*s || strlen(s) > 64)
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") == strlen(s);
}

/* A leaf as the program's lists name it: a forward() input by its index, a
 * parameter or buffer by its attribute name. */
static void leaf_ref(FILE *f, const struct graph *g, unsigned id, unsigned input, unsigned k)
{
	if (g->v[id].kind == VK_INPUT)
		fprintf(f, "%s%u", k ? ", " : "", input);
	else
		fprintf(f, "%s\"%c%u\"", k ? ", " : "", g->v[id].kind == VK_PARAM ? 'p' : 'b', id);
}

/* A loaded AOTInductor package holds its own copy of the module's state:
 * with that backend only written inputs are compared. */
unsigned emit_written_leaves(const struct graph *g, const struct emit_opts *o, uint16_t *ids)
{
	int state_too = !o || !o->backend || strcmp(o->backend, "aoti");
	unsigned k = 0;
	for (unsigned i = 0; i < g->nvalues; i++)
		if (graph_leaf_written(g, i, NULL) && (g->v[i].kind == VK_INPUT || state_too))
			ids[k++] = (uint16_t)i;
	return k;
}

/* What the program returns, in order, as value ids into ids (room for
 * 3 * G_MAX_VALUES): forward()'s outputs, then the written leaves, then the
 * graded leaves; *nout and *nwritten count the first two. Their count. */
static unsigned returned_values(const struct graph *g, const struct emit_opts *o, uint16_t *ids, unsigned *nout,
				unsigned *nwritten)
{
	unsigned k = 0;
	for (unsigned i = 0; i < g->nvalues; i++)
		if (g->v[i].out)
			ids[k++] = (uint16_t)i;
	*nout = k;
	*nwritten = emit_written_leaves(g, o, ids + k);
	k += *nwritten;
	for (unsigned i = 0; i < g->nvalues && o && o->backward; i++)
		if (g->v[i].grad)
			ids[k++] = (uint16_t)i;
	return k;
}

unsigned emit_compared(const struct graph *g, const struct emit_opts *o, uint8_t *cmp, unsigned cap)
{
	uint16_t ids[3 * G_MAX_VALUES];
	unsigned nout, nwritten, n = returned_values(g, o, ids, &nout, &nwritten), k;
	for (k = 0; k < n && k < cap; k++) {
		int tied = 0;
		if (k < nout)
			tied = g->v[ids[k]].tie;
		else if (k < nout + nwritten)
			graph_leaf_written(g, ids[k], &tied);
		else
			tied = !graph_grad_compared(g, ids[k]);
		cmp[k] = (uint8_t)!tied;
	}
	return k;
}

unsigned emit_returned_values(const struct graph *g, const struct emit_opts *o, uint16_t *ids)
{
	unsigned nout, nwritten;
	return returned_values(g, o, ids, &nout, &nwritten);
}

/* MUTATED: the written leaves, compared after the call like outputs. */
static void emit_mutated(FILE *f, const struct graph *g, const uint16_t *ids, unsigned nids)
{
	fputs("# leaves forward() writes in place (forward() input index, or attribute name): compared after the call\n"
	      "MUTATED = (", f);
	for (unsigned i = 0, input = 0, k = 0; i < g->nvalues; i++) {
		if (k < nids && ids[k] == i) {
			leaf_ref(f, g, i, input, k);
			k++;
		}
		input += g->v[i].kind == VK_INPUT;
	}
	fputs(nids == 1 ? ",)\n" : ")\n", f);
}

/* GRADS: the leaves backward mode differentiates, in value order: a
 * forward() input by its index, a parameter by its name. Empty: forward only. */
/* The leaves pick marks, as a tuple of leaf_ref's. */
static void emit_leaf_tuple(FILE *f, const struct graph *g, const uint8_t *pick)
{
	unsigned k = 0;
	fputc('(', f);
	for (unsigned i = 0, input = 0; i < g->nvalues; i++) {
		if (pick[i])
			leaf_ref(f, g, i, input, k++);
		input += g->v[i].kind == VK_INPUT;
	}
	fputs(k == 1 ? ",)\n" : ")\n", f);
}

static void emit_grads(FILE *f, const struct graph *g, int backward)
{
	uint8_t pick[G_MAX_VALUES];
	for (unsigned i = 0; i < g->nvalues; i++)
		pick[i] = backward && g->v[i].grad;
	fputs("# backward: gradients of these (forward() input index, or parameter name) follow the outputs\nGRADS = ", f);
	emit_leaf_tuple(f, g, pick);
}

/* NOT_DIFFERENTIABLE: the parameters eager has no derivative for where they
 * go (a loss weight, running statistics: graph_grad_undefined), which do not
 * require grad under mode.enable_grad. */
static void emit_not_differentiable(FILE *f, const struct graph *g)
{
	uint8_t pick[G_MAX_VALUES];
	for (unsigned i = 0; i < g->nvalues; i++)
		pick[i] = g->v[i].kind == VK_PARAM && graph_grad_undefined(g, i, NULL, 0);
	fputs("# parameters eager cannot differentiate where they go: no grad under mode.enable_grad\n"
	      "NOT_DIFFERENTIABLE = ", f);
	emit_leaf_tuple(f, g, pick);
}

/* The last pin of o that sets setting name (the one in force, as the worker sets them in
 * order), or -1. */
static int pin_of(const struct emit_opts *o, const char *name)
{
	int last = -1;
	for (unsigned i = 0; o && i < o->npins; i++) {
		char pin[PIN_NAME_MAX], py[SETTING_PYTHON_MAX], why[8];
		if (!pin_python(o->pins[i], pin, sizeof pin, py, sizeof py, why, sizeof why) && !strcmp(pin, name))
			last = (int)i;
	}
	return last;
}

/* COMPILE_DYNAMIC, FULLGRAPH and CONFIG: the rest of the graph's compile
 * configuration (settings that do not apply to an AOTInductor package are
 * left out under the aoti backend), then the pins over it. The graph's names
 * and values come from the catalogue, never from the input. -1 for a pin
 * pin_python refuses. */
static int emit_compile_config(FILE *f, const struct graph *g, const char *backend, const char *dynamic,
			       const struct emit_opts *o)
{
	fprintf(f, "COMPILE_DYNAMIC = \"%s\"\nFULLGRAPH = %s\n", dynamic, g->config.fullgraph ? "True" : "False");
	fputs("# compile settings, set for the compile (module.attribute of torch._inductor, _dynamo, _functorch config)\n"
	      "CONFIG = {", f);
	unsigned k = 0;
	for (unsigned i = 0; i < g->config.nsettings; i++) {
		const struct setting *s = setting_get(g->config.set[i].id);
		char py[SETTING_PYTHON_MAX];
		if ((!strcmp(backend, "aoti") && (s->effects & EFFECT_NOT_AOTI)) || pin_of(o, s->name) >= 0)
			continue;
		setting_value_python(s, g->config.set[i].value, py, sizeof py);
		fprintf(f, "%s\"%s\": %s", k++ ? ", " : "", s->name, py);
	}
	for (unsigned i = 0; o && i < o->npins; i++) {
		char name[PIN_NAME_MAX], py[SETTING_PYTHON_MAX], why[8];
		if (pin_python(o->pins[i], name, sizeof name, py, sizeof py, why, sizeof why))
			return -1;
		if (pin_of(o, name) != (int)i)
			continue;
		fprintf(f, "%s\"%s\": %s", k++ ? ", " : "", name, py);
	}
	fputs("}\n", f);
	return 0;
}

int emit_program(FILE *f, const struct graph *g, const struct emit_opts *o)
{
	const struct graph_config *gc = &g->config;
	const char *backend = o && o->backend ? o->backend : compile_backend_name(gc->backend);
	const char *mode = o && o->mode ? o->mode
			 : gc->mode && !strcmp(backend, "inductor") ? compile_mode_name(gc->mode) : NULL;
	const char *dynamic = o && o->dynamic ? o->dynamic : compile_dynamic_name(gc->dynamic);
	if (!emit_safe_name(backend) || (mode && !emit_safe_name(mode)) || compile_dynamic_find(dynamic) < 0)
		return -1;
	int low = graph_config_autocast(gc), datadep = 0; /* autocast: float16/bfloat16 values */
	for (unsigned i = 0; i < g->nvalues; i++) {
		low |= dtype_is_low_precision(g->v[i].dtype);
		datadep |= g->v[i].datadep;
	}

	fprintf(f, "# pt2fuzz program: %u ops, %u inputs. Run it: python3 this.py (PASS or MISMATCH ...\n"
		   "# on the last line). Env: PT2FUZZ_DEVICE, PT2FUZZ_BACKEND, PT2FUZZ_MODE.\n",
		g->nnodes, g->nvalues - g->nnodes);
	paste(f, pt2fuzz_emit_imports_py, pt2fuzz_emit_imports_py_end);
	/* Backend and mode names are the caller's choice among known ones (checked by the CLI). */
	fprintf(f, "BACKEND = os.environ.get(\"PT2FUZZ_BACKEND\", \"%s\")\n", backend);
	if (mode)
		fprintf(f, "MODE = os.environ.get(\"PT2FUZZ_MODE\", \"%s\") or None\n", mode);
	else
		fputs("MODE = os.environ.get(\"PT2FUZZ_MODE\") or None\n", f);
	if (emit_compile_config(f, g, backend, dynamic, o))
		return -1;
	fprintf(f, "SEED = %u\n# binding b's inputs: a generator seeded SEED * SEED_STRIDE + b\nSEED_STRIDE = %u\n", g->seed,
		EMIT_SEED_STRIDE);
	fprintf(f, "BINDINGS = %u\nLOW_PRECISION = %s\n", g->nbind, low ? "True" : "False");
	/* The constraint's name comes from the catalogue of constraints, never from the input. */
	if (g->broken)
		fprintf(f, "# the last op breaks this constraint on purpose: %s, so eager raises\nEXPECT_ERROR = \"%s\"\n",
			constraint_about(g->broken), constraint_name(g->broken));
	else
		fputs("EXPECT_ERROR = None\n", f);
	fprintf(f, "# ops whose output shapes depend on the data: Dynamo captures them only when told to\n"
		   "DATA_DEPENDENT = %s\n", datadep ? "True" : "False");

	fputs("# forward() inputs at each binding: (shape, dtype, fill, lo, hi)\nINPUTS = [\n", f);
	for (unsigned b = 0; b < g->nbind; b++) {
		fputs("    [", f);
		int first = 1;
		for (unsigned i = 0; i < g->nvalues; i++)
			if (g->v[i].kind == VK_INPUT) {
				fputs(first ? "" : ", ", f);
				input_spec(f, &g->v[i], b);
				first = 0;
			}
		fputs("],\n", f);
	}
	fputs("]\n# input index -> dims marked dynamic\nDYNAMIC = {", f);
	unsigned ninput = 0, ndyn = 0;
	for (unsigned i = 0; i < g->nvalues; i++) {
		const struct value *v = &g->v[i];
		if (v->kind != VK_INPUT)
			continue;
		if (v->dyn) {
			fprintf(f, "%s%u: (", ndyn++ ? ", " : "", ninput);
			for (unsigned d = 0, k = 0; d < v->rank; d++)
				if (v->dyn >> d & 1)
					fprintf(f, "%s%u", k++ ? ", " : "", d);
			fputs(v->dyn & (v->dyn - 1) ? ")" : ",)", f);
		}
		ninput++;
	}
	fputs("}\n", f);
	emit_shares(f, g);
	emit_remutate(f, g);
	int backward = o && o->backward;
	uint16_t written[G_MAX_VALUES];
	unsigned nwritten = emit_written_leaves(g, o, written);
	uint8_t cmp[G_MAX_VALUES + G_MAX_GRADS];
	unsigned nout = emit_compared(g, o, cmp, sizeof cmp);
	fputs("# per output, then per written leaf (MUTATED), then per gradient (GRADS): compared, or not (it may\n"
	      "# legitimately differ, e.g. tie-broken indices, and what is computed from them)\nCOMPARE = (", f);
	for (unsigned k = 0; k < nout; k++)
		fprintf(f, "%s%s", k ? ", " : "", cmp[k] ? "True" : "False");
	fputs(nout == 1 ? ",)\n" : ")\n", f);
	emit_mutated(f, g, written, nwritten);
	emit_grads(f, g, backward);
	emit_not_differentiable(f, g);
	fputs("\n\n", f);
	emit_special_helper(f);
	fputs("\n\n", f);
	emit_input_tables(f);
	fputs("\n\n", f);
	paste(f, pt2fuzz_emit_fill_py, pt2fuzz_emit_fill_py_end);
	fputs("\n\n", f);
	paste(f, pt2fuzz_emit_model_init_py, pt2fuzz_emit_model_init_py_end);
	emit_model_state(f, g, harness_draw);
	fputc('\n', f);
	emit_forward(f, g);
	fputs("\n\n", f);
	emit_inference_helper(f);
	fputs("\n\n", f);
	emit_upcast_helper(f, g);
	fputs("\n\n", f);
	emit_nonfinite_helper(f);
	fputs("\n\n", f);
	paste(f, pt2fuzz_emit_runner_py, pt2fuzz_emit_runner_py_end);
	return ferror(f) ? -1 : 0;
}

char *emit_program_string(const struct graph *g, const struct emit_opts *o, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	if (!f)
		return NULL;
	int rc = emit_program(f, g, o);
	if (fclose(f) || rc) {
		free(buf);
		return NULL;
	}
	if (len)
		*len = n;
	return buf;
}
