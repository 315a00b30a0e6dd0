#include "check.h"
#include <stdlib.h>
#include <string.h>
#include "../graph/broken.h"
#include "../graph/emit.h"
#include "../graph/op.h"

void check_default_cfg(struct check_cfg *c)
{
	memset(c, 0, sizeof *c);
	c->backend = "inductor";
	c->dynamic = "marks";
	c->modes = (1u << RM_EAGER) | (1u << RM_COMPILED) | (1u << RM_FP64);
	oracle_default_opts(&c->oracle);
}

static int safe_word(const char *s)
{
	return s && *s && strlen(s) < 64 &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") == strlen(s);
}

int check_cfg_validate(const struct check_cfg *c, char *why, size_t n)
{
	static const char *const dyn[] = {"marks", "true", "false"};
	if (!safe_word(c->backend))
		return fail(why, n, "backend name '%s' is not a plain word", c->backend ? c->backend : "");
	if (c->compile_mode && !safe_word(c->compile_mode))
		return fail(why, n, "mode name '%s' is not a plain word", c->compile_mode);
	if (c->compile_mode && strcmp(c->backend, "inductor"))
		return fail(why, n, "--mode applies to the inductor backend only");
	int known = 0;
	for (unsigned i = 0; i < 3; i++)
		known |= c->dynamic && !strcmp(c->dynamic, dyn[i]);
	if (!known)
		return fail(why, n, "dynamic must be marks, true or false");
	for (unsigned i = 0; i < c->ninductor; i++) {
		const char *eq = strchr(c->inductor[i], '=');
		if (!eq || eq == c->inductor[i] || strchr(c->inductor[i], '\n'))
			return fail(why, n, "inductor setting '%s' is not name=value", c->inductor[i]);
	}
	return 0;
}

static int name_cmp(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

unsigned check_op_names(const struct graph *g, const char **names, unsigned cap)
{
	unsigned k = 0;
	for (unsigned i = 0; i < g->nnodes && k < cap; i++)
		names[k++] = op_get(g->n[i].op)->name;
	qsort(names, k, sizeof *names, name_cmp);
	unsigned u = 0;
	for (unsigned i = 0; i < k; i++)
		if (!u || strcmp(names[u - 1], names[i]))
			names[u++] = names[i];
	return u;
}

static int run_and_judge(struct executor *x, const struct check_cfg *c, unsigned nbind, const uint8_t *compare,
			 unsigned ncompare, const char **ops, unsigned nops, struct check_result *out, char *why, size_t n)
{
	struct exec_request rq = {out->program, out->program_len, c->modes,     c->backend, c->compile_mode,
				  c->dynamic,   c->inductor,      c->ninductor, c->backward, nbind};
	if (executor_run(x, &rq, &out->run, why, n))
		return -1;
	oracle_judge(&out->run, compare, ncompare, &c->oracle, &out->v);
	out->signature = verdict_is_finding(out->v.kind) ? oracle_signature(&out->v, &out->run, ops, nops) : 0;
	return 0;
}

/* In backward mode, g itself, or when it marks no leaf, a copy with every
 * float leaf marked that can be: `run --mode backward` works on any graph. */
static const struct graph *with_grads(const struct graph *g, int backward)
{
	static _Thread_local struct graph marked;
	if (!backward || graph_ngrads(g))
		return g;
	marked = *g;
	for (unsigned i = 0; i < marked.nvalues && graph_ngrads(&marked) < G_MAX_GRADS; i++)
		if (value_is_leaf(&marked.v[i]) && dtype_is_float(marked.v[i].dtype))
			graph_set_grad(&marked, i, 1, NULL, 0); /* refused where it reaches an op without a derivative */
	return &marked;
}

int check_graph(struct executor *x, const struct graph *g, const struct check_cfg *c, struct check_result *out,
		char *why, size_t n)
{
	struct emit_opts eo = {c->backend, c->compile_mode, c->backward};
	g = with_grads(g, c->backward);
	memset(out, 0, sizeof *out);
	out->program = emit_program_string(g, &eo, &out->program_len);
	if (!out->program)
		return fail(why, n, "emission failed");
	uint8_t compare[RESULT_MAX_OUT];
	unsigned k = 0;
	for (unsigned i = 0; i < g->nvalues && k < RESULT_MAX_OUT; i++)
		if (g->v[i].out)
			compare[k++] = !g->v[i].tie;
	for (unsigned i = 0; i < g->nvalues && k < RESULT_MAX_OUT && c->backward; i++)
		if (g->v[i].grad)
			compare[k++] = (uint8_t)graph_grad_compared(g, i);
	const char *ops[G_MAX_NODES];
	unsigned nops = check_op_names(g, ops, G_MAX_NODES);
	struct check_cfg cg = *c;
	for (unsigned i = 0; i < g->nvalues; i++)
		if (dtype_is_float(g->v[i].dtype) && cg.oracle.tol[g->v[i].dtype] > cg.oracle.noref_tol)
			cg.oracle.noref_tol = cg.oracle.tol[g->v[i].dtype];
	cg.oracle.broken = g->broken;
	return run_and_judge(x, &cg, g->nbind, compare, k, ops, nops, out, why, n);
}

/* An emitted program's bindings: its BINDINGS line (emit.c); 0 if none. */
static unsigned program_bindings(const char *prog)
{
	const char *p = strstr(prog, "\nBINDINGS = ");
	unsigned nb = 0;
	return p && sscanf(p, "\nBINDINGS = %u", &nb) == 1 && nb <= G_MAX_BIND ? nb : 0;
}

/* The constraint an emitted program breaks: its EXPECT_ERROR line (emit.c). */
static unsigned expected_error(const char *prog)
{
	const char *p = strstr(prog, "\nEXPECT_ERROR = \"");
	char name[32];
	int c = p && sscanf(p, "\nEXPECT_ERROR = \"%31[a-z_]\"", name) == 1 ? constraint_find(name) : -1;
	return c < 0 ? C_NONE : (unsigned)c;
}

int check_program(struct executor *x, char *prog, size_t len, const struct check_cfg *c, struct check_result *out,
		  char *why, size_t n)
{
	memset(out, 0, sizeof *out);
	out->program = prog;
	out->program_len = len;
	struct check_cfg cg = *c;
	cg.oracle.broken = (uint8_t)expected_error(prog);
	return run_and_judge(x, &cg, program_bindings(prog), NULL, 0, NULL, 0, out, why, n);
}

void check_result_free(struct check_result *r)
{
	free(r->program);
	r->program = NULL;
}
