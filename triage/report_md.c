/* The report's Markdown (triage/report.h): PyTorch's torch.compile bug
 * template's sections, in its order. Every string from meta.json,
 * bisect.json or the worker is escaped where it could break the structure:
 * code fences longer than any backtick run inside, inline text with
 * Markdown's and HTML's active characters escaped, a title of known words. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "../graph/broken.h"
#include "../pipeline/findings.h"
#include "../pipeline/bucket.h"
#include "../pipeline/op_names.h"
#include "markdown.h"
#include "report.h"

#define INLINE_TRACE_LINES 50

/* ---- What the finding is ---- */

/* The first mode_result of mode m that raised, or NULL. */
static const struct mode_result *raised(const struct run_result *run, enum run_mode m)
{
	for (unsigned b = 0; b < run->nbind; b++)
		if (run->m[m][b].ran && !run->m[m][b].ok)
			return &run->m[m][b];
	return NULL;
}

/* An exception's type without its module, in place, kept to identifier
 * characters (it goes into the title). */
static void short_type(char *type)
{
	const char *dot = strrchr(type, '.');
	memmove(type, dot ? dot + 1 : type, strlen(dot ? dot + 1 : type) + 1);
	type[strspn(type, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")] = 0;
}

/* The error a wrapper such as BackendCompilerFailed carries: the type on the
 * first line of msg shaped "SomeError: ..." (out "" when none). */
static void wrapped_type(const char *msg, char *out, size_t n)
{
	out[0] = 0;
	for (const char *p = msg; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		size_t l = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");
		if (p[l] == ':' && ((l >= 5 && !strncmp(p + l - 5, "Error", 5)) || (l >= 9 && !strncmp(p + l - 9, "Exception", 9)))) {
			l = l < n ? l : n - 1;
			memcpy(out, p, l);
			out[l] = 0;
			short_type(out);
			return;
		}
	}
}

/* What went wrong, in words: "numeric mismatch vs fp64". */
static void describe_what(const struct report *rp, char *out, size_t n)
{
	static const struct { const char *verdict, *mismatch, *words; } table[] = {
		{"behaviour", "crashed", "torch.compile crashes the process"},
		{"hang", "", "torch.compile hangs"},
		{"numeric", "values", "numeric mismatch vs fp64"},
		{"numeric", "nonfinite", "NaN/Inf only in the compiled output"},
		{"numeric", "shape", "output shape differs from eager"},
		{"numeric", "dtype", "output dtype differs from eager"},
		{"numeric", "count-out", "output count differs from eager"},
		{"stride", "", "output strides differ from eager"},
		{"alias", "", "an output shares an input's memory in one mode only"},
	};
	char type[96], msg[1024], inner[96];
	json_file_copy(rp->meta, "exception", type, sizeof type);
	json_file_copy(rp->meta, "message", msg, sizeof msg);
	short_type(type);
	wrapped_type(msg, inner, sizeof inner);
	if (!strcmp(rp->verdict, "behaviour") && strcmp(rp->mismatch, "crashed")) {
		(void)!snprintf(out, n, "torch.compile raises %.60s%s%.60s%s", type[0] ? type : "an exception",
				inner[0] ? " (" : "", inner, inner[0] ? ")" : "");
		return;
	}
	if (!strcmp(rp->verdict, "missing-error")) {
		snprintf(out, n, "torch.compile does not raise eager's %s", type[0] ? type : "error");
		return;
	}
	if (!strcmp(rp->verdict, "error-mismatch")) {
		char eager[96];
		json_file_copy(rp->meta, "eager_exception", eager, sizeof eager);
		short_type(eager);
		(void)!snprintf(out, n, "torch.compile raises %.55s where eager raises %.55s", type[0] ? type : "an error",
				eager[0] ? eager : "another error");
		return;
	}
	snprintf(out, n, "%s", rp->verdict);
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (!strcmp(rp->verdict, table[i].verdict) && (!table[i].mismatch[0] || !strcmp(rp->mismatch, table[i].mismatch)))
			snprintf(out, n, "%s", table[i].words);
}

/* The component: the layer bisect blamed, else the backend. */
static const char *component(const struct report *rp, const struct check_cfg *c)
{
	static const char *const layers[] = {"dynamo", "aot_autograd", "decompositions", "partitioner", "inductor"};
	for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
		if (!strcmp(rp->layer, layers[i]))
			return layers[i];
	return c->backend;
}

static int dynamic_shapes(const struct report *rp, const struct check_cfg *c)
{
	return !strcmp(c->dynamic, "true") || (!strcmp(c->dynamic, "marks") && rp->g && rp->g->nsym > 0);
}

static int low_precision(const struct report *rp)
{
	for (unsigned i = 0; rp->g && i < rp->g->nvalues; i++)
		if (rp->g->v[i].dtype == DT_FLOAT16 || rp->g->v[i].dtype == DT_BFLOAT16)
			return 1;
	return 0;
}

static void write_title(FILE *f, const struct report *rp, const struct check_cfg *c)
{
	char what[160];
	describe_what(rp, what, sizeof what);
	fprintf(f, "[%s] %s", component(rp, c), what);
	const char *ops[G_MAX_NODES];
	unsigned nops = rp->g ? op_names(rp->g, NULL, ops, G_MAX_NODES) : 0;
	for (unsigned i = 0; i < nops && i < 5; i++)
		fprintf(f, "%s%s", i ? " + " : " in ", ops[i]);
	if (nops > 5)
		fprintf(f, " + %u more ops", nops - 5);
	fputs(dynamic_shapes(rp, c) ? " with dynamic shapes" : "", f);
	if (c->compile_mode)
		fprintf(f, " (mode=%s)", c->compile_mode);
	fputs("\n\n", f);
}

/* ---- The report's sections ---- */

static void write_exception(FILE *f, const struct mode_result *m)
{
	char *text = NULL;
	size_t len = 0;
	FILE *t = open_memstream(&text, &len);
	if (!t)
		return;
	fprintf(t, "%s: %s\n", m->etype, m->emsg);
	if (m->frames[0])
		fprintf(t, "\ninnermost frames:\n%s\n", m->frames);
	if (!fclose(t))
		md_fence(f, "", text, len);
	free(text);
}

static void write_observed(FILE *f, const struct report *rp)
{
	const struct check_result *r = &rp->r;
	const struct verdict *v = &r->v;
	fputs("**Observed** (pt2fuzz reran the finding's program for this report): ", f);
	if (v->kind == V_BEHAVIOUR && v->what == MM_RAISED && raised(&r->run, RM_COMPILED)) {
		fputs("compiled mode raises\n\n", f);
		write_exception(f, raised(&r->run, RM_COMPILED));
	} else if (v->kind == V_EXPORT && raised(&r->run, RM_COMPILED)) {
		fputs("eager mode runs; `torch.export.export` raises (before AOTInductor compiles anything)\n\n", f);
		write_exception(f, raised(&r->run, RM_COMPILED));
	} else if (v->kind == V_MISSING_ERROR && raised(&r->run, RM_EAGER)) {
		fputs("eager mode raises the error below; compiled mode returns without one.\n\n", f);
		write_exception(f, raised(&r->run, RM_EAGER));
	} else if (v->kind == V_ERROR_MISMATCH && raised(&r->run, RM_EAGER) && raised(&r->run, RM_COMPILED)) {
		fputs("eager mode raises the first error below; compiled mode raises the second, which is not an "
		      "instance of eager's type.\n\n", f);
		write_exception(f, raised(&r->run, RM_EAGER));
		write_exception(f, raised(&r->run, RM_COMPILED));
	} else if ((v->kind == V_BEHAVIOUR || v->kind == V_MEMORY) && r->run.crashed) {
		fprintf(f, "the process dies in compiled mode (%s %d, %s)%s%s.\n\n", r->run.term_signal ? "signal" : "exit code",
			r->run.term_signal ? r->run.term_signal : r->run.exit_code,
			r->run.term_signal ? strsignal(r->run.term_signal) : "no signal",
			r->run.heap_report[0] ? "; the allocator reports: " : "", r->run.heap_report);
	} else if (v->kind == V_NUMERIC && v->what == MM_VALUES) {
		fprintf(f, "at binding %d, output %d:\n\n| measure | value |\n| --- | --- |\n"
			   "| max abs difference, eager vs compiled | %.6g |\n| max rel difference | %.6g |\n"
			   "| RMSE of compiled vs fp64 reference | %.6g |\n| RMSE of eager vs fp64 reference | %.6g |\n\n",
			v->binding, v->output, v->max_abs, v->max_rel, v->res_rmse, v->ref_rmse);
	} else {
		fprintf(f, "verdict %s%s%s.\n\n", verdict_name(v->kind), v->what ? "/" : "", v->what ? mismatch_name(v->what) : "");
	}
	if (constraint_name(v->broken))
		fprintf(f, "The program's last op breaks one of its constraints on purpose (`EXPECT_ERROR = \"%s\"`: %s), "
			   "so eager mode must raise there, and compiled mode must raise an error of the same type.\n\n",
			constraint_name(v->broken), constraint_about(v->broken));
	fputs("pt2fuzz's oracle:\n\n", f);
	char line[400];
	int k = snprintf(line, sizeof line, "%s/%s: %s", verdict_name(v->kind), mismatch_name(v->what), v->detail);
	md_fence(f, "", line, k < 0 ? 0 : strnlen(line, sizeof line));
	if (strcmp(verdict_name(v->kind), rp->verdict)) {
		char detail[300];
		json_file_copy(rp->meta, "detail", detail, sizeof detail);
		fprintf(f, "The rerun's verdict differs from the one recorded when the fuzzer found it (%s: ", rp->verdict);
		md_text(f, detail);
		fputs("): the bug may depend on the machine or be flaky.\n\n", f);
	}
}

static void write_expected(FILE *f, const struct report *rp)
{
	/* Where eager raised, its error is what compiled mode should raise (meta.json's key for it). */
	static const struct { const char *verdict, *key, *before, *after; } errors[] = {
		{"missing-error", "exception", "compiled mode raises what eager mode raises, ", ", instead of returning a result"},
		{"error-mismatch", "eager_exception", "compiled mode raises an error of eager's type, ",
		 " (or of a subclass of it), as eager mode does"},
	};
	fputs("**Expected:** ", f);
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
		char type[96];
		if (strcmp(rp->verdict, errors[i].verdict))
			continue;
		json_file_copy(rp->meta, errors[i].key, type, sizeof type);
		fputs(errors[i].before, f);
		md_code(f, type[0] ? type : "the same error");
		fprintf(f, "%s.\n\n", errors[i].after);
		return;
	}
	fputs("compiled mode behaves as eager mode: it finishes without an exception, with eager's output count, "
	      "shapes, dtypes", f);
	fputs(!strcmp(rp->verdict, "stride") ? ", strides" : "", f);
	fputs(" and NaN/Inf positions whose values pass `torch._dynamo.utils.same(eager, compiled, fp64_ref=fp64)` "
	      "at its default tolerance.\n\n", f);
}

static void write_ablation(FILE *f, const struct report *rp, const struct check_cfg *c)
{
	fputs("**Ablation** (which backend, mode and settings show it; a setting `matters` when changing it makes the "
	      "bug go away):\n\n| configuration | result |\n| --- | --- |\n", f);
	if (!rp->bisect) {
		fprintf(f, "| backend=%s, mode=%s, dynamic=%s | %s |\n\nNot bisected: `pt2fuzz bisect` fills in the "
			   "other backends and settings.\n\n",
			c->backend, c->compile_mode ? c->compile_mode : "default", c->dynamic, verdict_name(rp->r.v.kind));
		return;
	}
	/* The backends' verdicts are bisect.json's "backends" object, the settings its top level. */
	const json_t *backends = json_object_get(rp->bisect, "backends");
	const struct { const json_t *in; const char *key, *row; } rows[] = {
		{backends, "eager", "backend=eager"}, {backends, "aot_eager", "backend=aot_eager"},
		{backends, "aot_eager_decomp_partition", "backend=aot_eager_decomp_partition"},
		{backends, "inductor", "backend=inductor"},
		{rp->bisect, "fallback_random", "fallback_random=False instead of True"},
		{rp->bisect, "max_autotune", "the other compile mode (default / max-autotune)"},
		{rp->bisect, "dynamic", "dynamic=False instead of the dynamic marks"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char val[64];
		json_file_copy(rows[i].in, rows[i].key, val, sizeof val);
		fprintf(f, "| %s | ", rows[i].row);
		md_text(f, val[0] ? val : "?");
		fputs(" |\n", f);
	}
	char pass[16];
	json_file_copy(rp->bisect, "pass", pass, sizeof pass);
	fputs("\nLayer at fault (pt2fuzz bisect): ", f);
	md_text(f, rp->layer[0] ? rp->layer : "?");
	if (!strcmp(pass, "backward"))
		fputs(", in the backward pass (a gradient diverged)", f);
	fputs(".\n\n", f);
}

static void write_rules(FILE *f, const struct report *rp)
{
	unsigned ties = 0;
	for (unsigned i = 0; rp->g && i < rp->g->nvalues; i++)
		ties += rp->g->v[i].out && rp->g->v[i].tie;
	fprintf(f, "**How the comparison follows PyTorch's rules for fuzzer reports:**\n\n"
		   "- Default tolerances: `same`'s `tol=1e-4` for float32 and float64, 1e-3 for float16, 1e-2 for "
		   "bfloat16; nothing is tuned per program.\n"
		   "- A higher-precision baseline: `torch._dynamo.utils.same(eager, compiled, fp64_ref=fp64)`, the fp64 "
		   "run being a float64 copy of the model on float64 inputs; float outputs fail only when compiled's RMSE "
		   "against it exceeds 2-3x eager's.\n"
		   "- No comparison of indices that ties decide (argmax/argmin, the indices of max/min/sort/topk): "
		   "%u such output(s) here, left out.\n"
		   "- Equal RNG state: `torch._inductor.config.fallback_random = True`, and `torch.manual_seed(SEED)` "
		   "before every run.\n"
		   "- Low precision: `torch._inductor.config.emulate_precision_casts = True` for float16/bfloat16 "
		   "graphs (%s).\n"
		   "- Compiled mode really compiles: `torch._dynamo.reset()` before the program, and Dynamo's count of "
		   "graphs handed to the backend is checked (here %u%s).\n\n",
		   ties, low_precision(rp) ? "on here" : "this graph has none", rp->r.run.compiled_graphs,
		   rp->r.run.compiled_graphs ? "" : ": the compile failed first");
}

static void write_trace_section(FILE *f, const struct report *rp)
{
	const struct exec_trace *t = &rp->trace;
	if (!t->len) {
		fputs("No TORCH_TRACE log: ", f);
		md_text(f, t->note[0] ? t->note : "the worker sent none");
		fputs(".\n\n", f);
		return;
	}
	fprintf(f, "TORCH_TRACE log of the rerun (%zu bytes): `trace/" REPORT_TRACE_FILE "` in the finding folder; "
		   "attach that file. Render it with [tlparse](https://github.com/meta-pytorch/tlparse): "
		   "`pip install tlparse && tlparse trace/" REPORT_TRACE_FILE " -o tl_out/`.",
		t->len);
	if (t->note[0]) {
		fputs(" (The trace was ", f);
		md_text(f, t->note);
		fputs(".)", f);
	}
	/* The first lines, each cut at 300 characters (payload lines can be long). */
	char *head = NULL;
	size_t len = 0;
	FILE *h = open_memstream(&head, &len);
	if (!h)
		return;
	const char *p = t->text;
	for (unsigned i = 0; i < INLINE_TRACE_LINES && *p; i++) {
		size_t l = strcspn(p, "\n");
		fprintf(h, "%.*s%s\n", (int)(l > 300 ? 300 : l), p, l > 300 ? " ..." : "");
		p += l + (p[l] == '\n');
	}
	if (!fclose(h)) {
		fprintf(f, "\n\n<details><summary>The first %d lines of the trace</summary>\n\n", INLINE_TRACE_LINES);
		md_fence(f, "", head, len);
		fputs("</details>\n\n", f);
	}
	free(head);
}

/* Whether the graph was reduced, and from how many ops: reduce.json's count,
 * else the original graph's (meta.json's nodes). */
static void write_reduction(FILE *f, const struct report *rp)
{
	double before = json_file_num(rp->reduce, "ops_before", json_file_num(rp->meta, "nodes", 0));
	if (!rp->reduced)
		fputs(rp->g ? " (not reduced)" : "", f);
	else if (before > rp->g->nnodes)
		fprintf(f, ", reduced by `pt2fuzz reduce` from %g ops", before);
	else
		fputs(", reduced by `pt2fuzz reduce`", f);
}

void report_write(FILE *f, const struct report *rp, const struct check_cfg *c)
{
	write_title(f, rp, c);
	fputs("<!-- pt2fuzz report: the line above is the issue's title, the rest its body (PyTorch's torch.compile "
	      "bug template). Add the label `topic: fuzzer`. -->\n\n", f);
	struct finding_bucket b;
	bucket_of(rp->meta, &b);
	if (b.known) { /* the issue is validated as pytorch#DIGITS (pipeline/known_bugs.c); the rest is escaped */
		fprintf(f, "> **Known upstream:** pytorch/pytorch#%s (", b.known->issue + strlen("pytorch#"));
		md_text(f, b.known->title);
		fputs("; seen on torch ", f);
		md_text(f, b.known->torch);
		fputs("). Add to that issue rather than filing a new one.\n\n", f);
	}
	fputs("### 🐛 Describe the bug\n\n", f);
	char torch_v[64], first_seen[64];
	json_file_copy(rp->meta, "torch", torch_v, sizeof torch_v);
	json_file_copy(rp->meta, "first_seen", first_seen, sizeof first_seen);
	if (rp->g)
		fprintf(f, "pt2fuzz, a coverage-guided fuzzer for torch.compile, generated a graph of %u op(s)", rp->g->nnodes);
	else
		fputs("pt2fuzz, a coverage-guided fuzzer for torch.compile, ran the program below", f);
	write_reduction(f, rp);
	fprintf(f, ". Eager mode and a float64 reference run it; `torch.compile(model, backend=\"%s\"", c->backend);
	if (c->compile_mode)
		fprintf(f, ", mode=\"%s\"", c->compile_mode);
	fputs(!strcmp(c->dynamic, "true") ? ", dynamic=True)`" : !strcmp(c->dynamic, "false") ? ", dynamic=False)`" : ")`", f);
	if (!strcmp(c->dynamic, "marks") && dynamic_shapes(rp, c))
		fputs(", with the inputs' dynamic dims marked by `torch._dynamo.maybe_mark_dynamic`,", f);
	fputs(" does not behave the same. The fuzzer first saw this on torch ", f);
	md_text(f, torch_v);
	fputs(" (", f);
	md_text(f, first_seen);
	fprintf(f, ", %g hit(s)).\n\n", json_file_num(rp->meta, "count", 1));
	report_write_reproducer(f, rp);
	write_observed(f, rp);
	write_expected(f, rp);
	write_ablation(f, rp, c);
	write_rules(f, rp);
	fputs("### Error logs\n\n", f);
	write_trace_section(f, rp);
	fputs("### Versions\n\n", f);
	md_fence(f, "", rp->env ? rp->env : "", rp->env ? rp->env_len : 0);
}

