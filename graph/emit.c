/* Every piece of text in the program comes from this file, the catalogue's
 * spellings, or integers checked by the validator: nothing from a corpus file
 * is copied as text, so a hostile input cannot inject code. */
#include "emit.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "broken.h"
#include "op.h"

static const char *const fill_names[FILL_COUNT] = {"normal", "positive", "range", "perm"};

static void value_name(FILE *f, const struct graph *g, unsigned id)
{
	const struct value *v = &g->v[id];
	if (v->kind == VK_INPUT)
		fprintf(f, "x%u", id);
	else if (v->kind == VK_PARAM)
		fprintf(f, "self.p%u", id);
	else
		fprintf(f, "v%u", id);
}

static void milli(FILE *f, int64_t x)
{
	uint64_t a = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
	char frac[4];
	snprintf(frac, sizeof frac, "%03u", (unsigned)(a % 1000));
	for (int i = 2; i > 0 && frac[i] == '0'; i--)
		frac[i] = 0;
	fprintf(f, "%s%" PRIu64 ".%s", x < 0 ? "-" : "", a / 1000, frac);
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
				value_name(f, g, nd->in[0]);
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
	case AK_MILLI: milli(f, a); break;
	case AK_STR: fprintf(f, "'%s'", op->strs[a]); break;
	case AK_DTYPE: fputs(python ? dtype_info((unsigned)a)->torch : dtype_info((unsigned)a)->name, f); break;
	default: fprintf(f, "%lld", (long long)a); break;
	}
}

/* Expands a spelling's directives for node k. */
static void spell(FILE *f, const struct graph *g, unsigned k, const char *fmt)
{
	const struct node *nd = &g->n[k];
	struct attr_spec s;
	op_attr_spec(op_get(nd->op), &s);
	for (const char *p = fmt; *p; p++) {
		if (*p == '@' && p[1] >= '0' && p[1] <= '9') {
			value_name(f, g, nd->in[p[1] - '0']);
			p++;
		} else if (*p == '#' && p[1] >= '0' && p[1] <= '9') {
			unsigned i = (unsigned)(p[1] - '0');
			p++;
			if (p[1] >= '0' && p[1] <= '9')
				i = i * 10 + (unsigned)(*++p - '0');
			if (s.list >= 0 && i > s.nscalar)
				i = s.nscalar; /* a list is named by its first slot */
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

static void shape_tuple(FILE *f, const struct value *v, unsigned b)
{
	fputc('(', f);
	for (unsigned d = 0; d < v->rank; d++)
		fprintf(f, "%s%d", d ? ", " : "", (int)v->dim[b][d]);
	fputs(v->rank == 1 ? ",)" : ")", f);
}

static void fill_spec(FILE *f, const struct value *v, unsigned b)
{
	fputc('(', f);
	shape_tuple(f, v, b);
	fprintf(f, ", %s, \"%s\", %lld, %lld)", dtype_info(v->dtype)->torch, fill_names[v->fill],
		(long long)(v->fill >= FILL_RANGE ? v->lo : 0), (long long)(v->fill >= FILL_RANGE ? v->hi : 0));
}

static const char prelude[] =
	"import copy\n"
	"import os\n"
	"\n"
	"import torch\n"
	"import torch.nn.functional as F\n"
	"\n"
	"DEVICE = os.environ.get(\"PT2FUZZ_DEVICE\") or (\"cuda\" if torch.cuda.is_available() else \"cpu\")\n";

static const char helpers[] =
	"\n"
	"\n"
	"def fill(shape, dtype, kind, lo, hi, gen):\n"
	"    \"\"\"Seeded tensor contents: normal, positive, integers in [lo, hi], or distinct integers.\"\"\"\n"
	"    if kind == \"normal\":\n"
	"        return torch.randn(shape, generator=gen).to(dtype)\n"
	"    if kind == \"positive\":\n"
	"        return (torch.rand(shape, generator=gen) + 0.5).to(dtype)\n"
	"    if kind == \"perm\":\n"
	"        n = 1\n"
	"        for s in shape:\n"
	"            n *= s\n"
	"        return torch.randperm(hi + 1, generator=gen)[:n].reshape(shape).to(dtype)\n"
	"    return torch.randint(lo, hi + 1, shape, generator=gen).to(dtype)\n";

static const char tail[] =
	"\n"
	"\n"
	"def make_inputs(binding=0, device=DEVICE):\n"
	"    gen = torch.Generator().manual_seed(SEED * 1000003 + binding)\n"
	"    return [fill(*spec, gen).to(device) for spec in INPUTS[binding]]\n"
	"\n"
	"\n"
	"def mark_dynamic(inputs):\n"
	"    if BACKEND == \"aoti\":  # torch.export takes them as dynamic_shapes; marks would change its choices\n"
	"        return inputs\n"
	"    for i, dims in DYNAMIC.items():\n"
	"        for d in dims:\n"
	"            torch._dynamo.maybe_mark_dynamic(inputs[i], d)\n"
	"    return inputs\n"
	"\n"
	"\n"
	"def run(model, inputs):\n"
	"    torch.manual_seed(SEED)\n"
	"    out = model(*inputs)\n"
	"    return list(out) if isinstance(out, (tuple, list)) else [out]\n"
	"\n"
	"\n"
	"def grad_leaves(model, inputs):\n"
	"    \"\"\"The tensors backward mode differentiates: GRADS' inputs and parameters, and no others.\"\"\"\n"
	"    for p in model.parameters():\n"
	"        p.requires_grad_(False)\n"
	"    leaves = [inputs[g] if isinstance(g, int) else getattr(model, g) for g in GRADS]\n"
	"    for t in leaves:\n"
	"        t.requires_grad_(True)\n"
	"    return leaves\n"
	"\n"
	"\n"
	"def upstream(k, out):\n"
	"    \"\"\"Output k's seeded upstream gradient: drawn in float64 on the CPU, then cast, so every mode gets the same values.\"\"\"\n"
	"    gen = torch.Generator().manual_seed(SEED * 1000003 + 7919 * (k + 1))\n"
	"    return torch.randn(out.shape, generator=gen, dtype=torch.float64).to(out.dtype).to(out.device)\n"
	"\n"
	"\n"
	"def run_backward(model, inputs):\n"
	"    \"\"\"Forward, then the gradients of sum((out * upstream).sum()) over the outputs that require grad,\n"
	"    with respect to grad_leaves (zeros where one is unused): the outputs, then the gradients.\"\"\"\n"
	"    leaves = grad_leaves(model, inputs)\n"
	"    with torch.enable_grad():\n"
	"        outs = run(model, inputs)\n"
	"        terms = [(o * upstream(k, o)).sum() for k, o in enumerate(outs)\n"
	"                 if isinstance(o, torch.Tensor) and o.requires_grad]\n"
	"        grads = torch.autograd.grad(sum(terms), leaves, allow_unused=True) if terms and leaves else [None] * len(leaves)\n"
	"    return outs + [torch.zeros_like(t) if g is None else g for t, g in zip(leaves, grads)]\n"
	"\n"
	"\n"
	"def to_fp64(x):\n"
	"    return x.to(torch.float64) if x.is_floating_point() else x\n"
	"\n"
	"\n"
	"def max_abs_diff(a, b):\n"
	"    try:\n"
	"        return (a.double() - b.double()).abs().nan_to_num(float(\"inf\")).max().item()\n"
	"    except Exception:\n"
	"        return float(\"nan\")\n"
	"\n"
	"\n"
	"def first_line(e):\n"
	"    return str(e).strip().splitlines()[0] if str(e).strip() else \"\"\n"
	"\n"
	"\n"
	"def check_error(model, compiled, b):\n"
	"    \"\"\"EXPECT_ERROR: eager must raise, and compiled mode an error of the same type.\"\"\"\n"
	"    try:\n"
	"        run(model, make_inputs(b))\n"
	"    except Exception as e:\n"
	"        expected = e\n"
	"    else:\n"
	"        print(f\"INVALID binding {b}: eager did not raise ({EXPECT_ERROR} is not broken)\")\n"
	"        return 2\n"
	"    try:\n"
	"        run(compiled, mark_dynamic(make_inputs(b)))\n"
	"    except Exception as e:\n"
	"        if isinstance(e, type(expected)):\n"
	"            return 0\n"
	"        print(f\"MISMATCH error-mismatch binding {b}: eager raised {type(expected).__name__}, \"\n"
	"              f\"compiled {type(e).__name__}: {first_line(e)}\")\n"
	"        return 1\n"
	"    print(f\"MISMATCH missing-error binding {b}: eager raised {type(expected).__name__}: \"\n"
	"          f\"{first_line(expected)}; compiled returned\")\n"
	"    return 1\n"
	"\n"
	"\n"
	"class ExportFailed(Exception):\n"
	"    \"\"\"torch.export rejected a program that eager runs (BACKEND aoti).\"\"\"\n"
	"\n"
	"\n"
	"def aoti_package(model, inputs):\n"
	"    \"\"\"torch.export (DYNAMIC dims as Dim.AUTO), AOTInductor's package, its loader; and\n"
	"    whether export kept those dims dynamic (else the package fits these shapes only).\"\"\"\n"
	"    import tempfile\n"
	"\n"
	"    dims = tuple({d: torch.export.Dim.AUTO for d in DYNAMIC.get(i, ())} or None for i in range(len(inputs)))\n"
	"    try:\n"
	"        exported = torch.export.export(model, tuple(inputs), dynamic_shapes=dims if DYNAMIC else None)\n"
	"    except Exception as e:\n"
	"        raise ExportFailed(f\"{type(e).__name__}: {first_line(e)}\") from e\n"
	"    user = set(exported.graph_signature.user_inputs)\n"
	"    vals = [n.meta[\"val\"] for n in exported.graph.nodes if n.op == \"placeholder\" and n.name in user]\n"
	"    concrete = torch.fx.experimental.symbolic_shapes.is_concrete_int\n"
	"    kept = not any(concrete(vals[i].shape[d]) for i, ds in DYNAMIC.items() for d in ds)\n"
	"    path = os.path.join(tempfile.mkdtemp(), \"model.pt2\")\n"
	"    package = torch._inductor.aoti_compile_and_package(exported, package_path=path)\n"
	"    return torch._inductor.aoti_load_package(package), kept\n"
	"\n"
	"\n"
	"def compile_model(model):\n"
	"    \"\"\"torch.compile; with BACKEND aoti, an AOTInductor package built at the first call (one\n"
	"    per input shapes where export specialized a dynamic dim), as pt2fuzz's worker does.\"\"\"\n"
	"    if BACKEND != \"aoti\":\n"
	"        return torch.compile(model, backend=BACKEND, mode=MODE)\n"
	"    packages = {}\n"
	"\n"
	"    def run_package(*inputs):\n"
	"        key = None if None in packages else tuple(x.shape for x in inputs)\n"
	"        if key not in packages:\n"
	"            packages[key], kept = aoti_package(model, inputs)\n"
	"            packages[None if kept else key] = packages[key]\n"
	"        return packages[key](*inputs)\n"
	"\n"
	"    return run_package\n"
	"\n"
	"\n"
	"def main():\n"
	"    import torch._dynamo.utils\n"
	"    import torch._inductor.config\n"
	"\n"
	"    torch._inductor.config.fallback_random = True\n"
	"    if LOW_PRECISION:\n"
	"        torch._inductor.config.emulate_precision_casts = True\n"
	"    torch._dynamo.config.capture_dynamic_output_shape_ops = DATA_DEPENDENT\n"
	"    torch._dynamo.config.capture_scalar_outputs = DATA_DEPENDENT\n"
	"    torch.set_grad_enabled(False)\n"
	"    model = Model().eval().to(DEVICE)\n"
	"    fp64_model = copy.deepcopy(model).to(torch.float64)\n"
	"    compiled = compile_model(model)\n"
	"    forward = run_backward if GRADS else run\n"
	"    for b in range(BINDINGS):\n"
	"        if EXPECT_ERROR:\n"
	"            rc = check_error(model, compiled, b)\n"
	"            if rc:\n"
	"                return rc\n"
	"            continue\n"
	"        eager = forward(model, make_inputs(b))\n"
	"        try:\n"
	"            got = forward(compiled, mark_dynamic(make_inputs(b)))\n"
	"        except ExportFailed as e:\n"
	"            print(f\"MISMATCH export binding {b}: {e}\")\n"
	"            return 1\n"
	"        except Exception as e:\n"
	"            print(f\"MISMATCH behaviour binding {b}: {type(e).__name__}: {first_line(e)}\")\n"
	"            return 1\n"
	"        ref = forward(fp64_model, [to_fp64(x) for x in make_inputs(b)])\n"
	"        nfwd = len(eager) - len(GRADS)\n"
	"        for i, (e, c, r) in enumerate(zip(eager, got, ref)):\n"
	"            if COMPARE[i] and not torch._dynamo.utils.same(e, c, fp64_ref=r, equal_nan=True):\n"
	"                where = f\"output {i}\" if i < nfwd else f\"backward gradient of {GRADS[i - nfwd]}\"\n"
	"                print(f\"MISMATCH numeric binding {b} {where}: max abs diff {max_abs_diff(e, c)}\")\n"
	"                return 1\n"
	"    print(\"PASS\")\n"
	"    return 0\n"
	"\n"
	"\n"
	"if __name__ == \"__main__\":\n"
	"    raise SystemExit(main())\n";

/* Backend and mode names reach the program as string literals: letters,
 * digits, '_', '-', '.' only. */
static int safe_name(const char *s)
{
	if (!*s || strlen(s) > 64)
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") == strlen(s);
}

/* GRADS: the leaves backward mode differentiates, in value order: a
 * forward() input by its index, a parameter by its name. Empty: forward only. */
static void emit_grads(FILE *f, const struct graph *g, int backward)
{
	fputs("# backward: gradients of these (forward() input index, or parameter name) follow the outputs\nGRADS = (", f);
	unsigned k = 0;
	for (unsigned i = 0, input = 0; i < g->nvalues; i++) {
		const struct value *v = &g->v[i];
		if (backward && v->grad && v->kind == VK_INPUT)
			fprintf(f, "%s%u", k++ ? ", " : "", input);
		else if (backward && v->grad)
			fprintf(f, "%s\"p%u\"", k++ ? ", " : "", i);
		input += v->kind == VK_INPUT;
	}
	fputs(k == 1 ? ",)\n" : ")\n", f);
}

int emit_program(FILE *f, const struct graph *g, const struct emit_opts *o)
{
	const char *backend = o && o->backend ? o->backend : "inductor";
	const char *mode = o && o->mode ? o->mode : NULL;
	if (!safe_name(backend) || (mode && !safe_name(mode)))
		return -1;
	int low = 0, datadep = 0;
	for (unsigned i = 0; i < g->nvalues; i++) {
		low |= dtype_is_low_precision(g->v[i].dtype);
		datadep |= g->v[i].datadep;
	}

	fprintf(f, "# pt2fuzz program: %u ops, %u inputs. Run it: python3 this.py (PASS or MISMATCH ...\n"
		   "# on the last line). Env: PT2FUZZ_DEVICE, PT2FUZZ_BACKEND, PT2FUZZ_MODE.\n",
		g->nnodes, g->nvalues - g->nnodes);
	fputs(prelude, f);
	/* Backend and mode names are the caller's choice among known ones (checked by the CLI). */
	fprintf(f, "BACKEND = os.environ.get(\"PT2FUZZ_BACKEND\", \"%s\")\n", backend);
	if (mode)
		fprintf(f, "MODE = os.environ.get(\"PT2FUZZ_MODE\", \"%s\") or None\n", mode);
	else
		fputs("MODE = os.environ.get(\"PT2FUZZ_MODE\") or None\n", f);
	fprintf(f, "SEED = %u\nBINDINGS = %u\nLOW_PRECISION = %s\n", g->seed, g->nbind, low ? "True" : "False");
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
				fill_spec(f, &g->v[i], b);
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
	int backward = o && o->backward;
	unsigned nout = graph_noutputs(g) + (backward ? graph_ngrads(g) : 0);
	fputs("}\n# per output, then per gradient (GRADS): compared, or not (it may legitimately differ, e.g. tie-broken\n"
	      "# indices, and the gradient through them)\nCOMPARE = (", f);
	for (unsigned i = 0, k = 0; i < g->nvalues; i++)
		if (g->v[i].out)
			fprintf(f, "%s%s", k++ ? ", " : "", g->v[i].tie ? "False" : "True");
	for (unsigned i = 0; i < g->nvalues && backward; i++)
		if (g->v[i].grad)
			fputs(graph_grad_compared(g, i) ? ", True" : ", False", f);
	fputs(nout == 1 ? ",)\n" : ")\n", f);
	emit_grads(f, g, backward);
	fputs(helpers, f);

	fputs("\n\nclass Model(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
	      "        gen = torch.Generator().manual_seed(SEED)\n"
	      "        torch.manual_seed(SEED)  # module initializers\n", f);
	for (unsigned i = 0; i < g->nvalues; i++) {
		const struct value *v = &g->v[i];
		if (v->kind != VK_PARAM)
			continue;
		if (dtype_is_float(v->dtype)) {
			fprintf(f, "        self.p%u = torch.nn.Parameter(fill(", i);
		} else {
			fprintf(f, "        self.register_buffer(\"p%u\", fill(", i);
		}
		shape_tuple(f, v, 0);
		fprintf(f, ", %s, \"%s\", %lld, %lld, gen))\n", dtype_info(v->dtype)->torch, fill_names[v->fill],
			(long long)(v->fill >= FILL_RANGE ? v->lo : 0), (long long)(v->fill >= FILL_RANGE ? v->hi : 0));
	}
	for (unsigned k = 0; k < g->nnodes; k++) {
		const struct op_def *op = op_get(g->n[k].op);
		if (!op->ctor)
			continue;
		fprintf(f, "        self.m%u = ", k);
		spell(f, g, k, op->ctor);
		fputc('\n', f);
	}
	fputs("\n    def forward(self", f);
	for (unsigned i = 0; i < g->nvalues; i++)
		if (g->v[i].kind == VK_INPUT)
			fprintf(f, ", x%u", i);
	fputs("):\n", f);
	for (unsigned k = 0; k < g->nnodes; k++) {
		const struct node *nd = &g->n[k];
		const struct op_def *op = op_get(nd->op);
		fputs("        ", f);
		for (unsigned j = 0; j < nd->nout; j++)
			fprintf(f, "%sv%u", j ? ", " : "", nd->out0 + j);
		fputs(nd->nout == 1 && op->tuple ? ", = " : " = ", f);
		spell(f, g, k, op->py ? op->py : "#m(@0)");
		fputc('\n', f);
	}
	fputs("        return (", f);
	for (unsigned i = 0, k = 0; i < g->nvalues; i++)
		if (g->v[i].out)
			fprintf(f, "%sv%u", k++ ? ", " : "", i);
	fputs(graph_noutputs(g) == 1 ? ",)\n" : ")\n", f);
	fputs(tail, f);
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
