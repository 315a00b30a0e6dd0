#include "check_job.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../config/compile.h"
#include "../graph/compile_config.h"
#include "draws.h"
#include "known_bugs.h"
#include "op_names.h"

struct check_cfg check_cfg_for_graph(const struct check_cfg *c, const struct graph *g)
{
	struct check_cfg e = *c;
	/* an AOTInductor package runs forward only: backward mode keeps its own backend */
	if (!(c->pinned & PIN_BACKEND) && !(c->backward && g->config.backend == CB_AOTI))
		e.backend = compile_backend_name(g->config.backend);
	if (!(c->pinned & PIN_DYNAMIC))
		e.dynamic = compile_dynamic_name(g->config.dynamic);
	if (!c->compile_mode && g->config.mode && !strcmp(e.backend, "inductor"))
		e.compile_mode = compile_mode_name(g->config.mode);
	if (graph_config_backward(&g->config) && strcmp(e.backend, "aoti")) /* a pinned aoti runs forward only */
		e.backward = 1;
	return e;
}

/* What Dynamo raises under fullgraph where it would break the graph: an
 * exception class (among the error's classes) and, where the class is wider,
 * the words its message holds (NULL: any). */
static const struct graph_break_error {
	const char *type, *message;
} graph_break_errors[] = {
	{"torch._dynamo.exc.Unsupported", NULL},
	/* data-dependent control flow (a loss's check of its input's values) */
	{"torch._dynamo.exc.UserError", "Could not guard on data-dependent expression"},
};

static int has_class(const char *bases, const char *type)
{
	size_t n = strlen(type);
	for (const char *p = bases; (p = strstr(p, type)); p += n)
		if ((p == bases || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
	return 0;
}

int check_fullgraph_break(const struct graph *g, const struct run_result *run, const struct verdict *v)
{
	if (!g || !g->config.fullgraph || (v->kind != V_BEHAVIOUR && v->kind != V_ERROR_MISMATCH) ||
	    v->what != MM_RAISED || v->binding < 0 || v->binding >= G_MAX_BIND)
		return 0;
	const struct mode_result *c = &run->m[RM_COMPILED][v->binding];
	for (size_t i = 0; i < sizeof graph_break_errors / sizeof graph_break_errors[0]; i++)
		if (has_class(c->ebases, graph_break_errors[i].type) &&
		    (!graph_break_errors[i].message || strstr(c->emsg, graph_break_errors[i].message)))
			return c->ran && !c->ok;
	return 0;
}

void check_cfg_save(const struct check_cfg *c, struct check_cfg_store *s)
{
	snprintf(s->backend, sizeof s->backend, "%.63s", c->backend);
	snprintf(s->mode, sizeof s->mode, "%.63s", c->compile_mode ? c->compile_mode : "");
	snprintf(s->dynamic, sizeof s->dynamic, "%.15s", c->dynamic);
	s->modes = c->modes;
	s->backward = c->backward;
	s->hunt_known = c->hunt_known;
	s->cut_ms = c->cut_ms;
	s->pinned = c->pinned;
	s->oracle = c->oracle;
	s->want = c->want;
	s->ninductor = c->ninductor;
	for (unsigned i = 0; i < c->ninductor; i++)
		snprintf(s->inductor[i], sizeof s->inductor[i], "%.127s", c->inductor[i]);
}

void check_cfg_load(const struct check_cfg_store *s, struct check_cfg *c)
{
	memset(c, 0, sizeof *c);
	c->backend = s->backend;
	c->compile_mode = s->mode[0] ? s->mode : NULL;
	c->dynamic = s->dynamic;
	c->modes = s->modes;
	c->backward = s->backward;
	c->hunt_known = s->hunt_known;
	c->cut_ms = s->cut_ms;
	c->pinned = s->pinned;
	c->oracle = s->oracle;
	c->want = s->want;
	c->ninductor = s->ninductor;
	for (unsigned i = 0; i < s->ninductor; i++)
		c->inductor[i] = s->inductor[i];
}

int check_job_run(struct executor *x, const struct check_job *j, struct check_result *out, char *why, size_t n)
{
	struct check_cfg c;
	check_cfg_load(&j->cfg, &c);
	memset(out, 0, sizeof *out);
	struct exec_request rq = {j->program, j->len,   c.modes,     c.backend, c.compile_mode,
				  c.dynamic,  c.inductor, c.ninductor, c.backward, j->nbind, j->time_factor,
				  c.cut_ms};
	if (executor_run(x, &rq, &out->run, why, n))
		return -1;
	uint64_t t0 = profile_clock_usec();
	struct emit_opts eo = {c.backend, c.compile_mode, c.backward, c.dynamic};
	uint8_t judged[RESULT_MAX_OUT];
	memcpy(judged, j->compare, sizeof judged);
	if (j->g && !c.hunt_known) { /* the worker's torch, known once it ran, says whose draws differ */
		char torch[64];
		draws_layout_only(j->g, &eo, executor_info(x, "torch", torch, sizeof torch), judged, j->ncompare);
		c.oracle.padded_known = known_stride_bug(known_bugs(NULL, 0), torch, "* (" ORACLE_PADDED_LAYOUT ")") != NULL;
	}
	/* AOTInductor's runner hands back copies of every output: by design they share nothing */
	c.oracle.check_aliases = c.oracle.check_aliases && strcmp(c.backend, "aoti");
	const uint8_t *compare = j->compare_all ? NULL : judged;
	oracle_judge(&out->run, compare, j->ncompare, &c.oracle, &out->v);
	if (check_fullgraph_break(j->g, &out->run, &out->v)) {
		char why_pass[sizeof out->v.detail];
		snprintf(why_pass, sizeof why_pass, "fullgraph: Dynamo broke the graph (%.200s)", out->v.detail);
		memset(&out->v, 0, sizeof out->v);
		out->v.kind = V_PASS;
		out->v.binding = out->v.output = out->v.nearest_output = -1;
		snprintf(out->v.detail, sizeof out->v.detail, "%s", why_pass);
	}
	if (verdict_is_finding(out->v.kind)) {
		out->nops = j->g ? op_names_of_output(j->g, &eo, out->v.output, out->ops, G_MAX_NODES) : 0;
		out->signature = oracle_signature(&out->v, &out->run, out->ops, out->nops);
		struct verdict each[CHECK_MAX_MORE + 1];
		unsigned nf = oracle_judge_each(&out->run, compare, j->ncompare, &c.oracle, each, CHECK_MAX_MORE + 1);
		for (unsigned i = 0; i < nf && out->nmore < CHECK_MAX_MORE; i++) {
			struct check_finding *f = &out->more[out->nmore];
			f->v = each[i];
			f->nops = j->g ? op_names_of_output(j->g, &eo, f->v.output, f->ops, G_MAX_NODES) : 0;
			f->signature = oracle_signature(&f->v, &out->run, f->ops, f->nops);
			int repeat = f->signature == out->signature;
			for (unsigned k = 0; k < out->nmore && !repeat; k++)
				repeat = out->more[k].signature == f->signature;
			out->nmore += !repeat;
		}
	}
	x->prof.usec[PR_JUDGE] += profile_clock_usec() - t0;
	return 0;
}

void check_primary(const struct check_result *r, struct check_finding *f)
{
	f->v = r->v;
	f->signature = r->signature;
	f->nops = r->nops;
	memcpy(f->ops, r->ops, r->nops * sizeof *r->ops);
}

const char *blame_status_name(enum blame_status s)
{
	static const char *const names[] = {[BLAME_NONE] = "", [BLAME_CONFIRMED] = "confirmed", [BLAME_MOVED] = "moved",
					    [BLAME_UNCONFIRMED] = "unconfirmed", [BLAME_CULPRIT] = "culprit",
					    [BLAME_SLOW] = "slow"};
	return (unsigned)s < sizeof names / sizeof *names ? names[s] : "";
}

void check_result_free(struct check_result *r)
{
	free(r->program);
	r->program = NULL;
	if (r->blame.culprit) {
		check_result_free(r->blame.culprit);
		free(r->blame.culprit);
	}
	free(r->blame.culprit_graph);
	r->blame.culprit = NULL;
	r->blame.culprit_graph = NULL;
}

void check_forget_values(struct run_result *r)
{
	for (unsigned m = 0; m < RM_COUNT; m++)
		for (unsigned b = 0; b < G_MAX_BIND; b++)
			for (unsigned k = 0; k < r->m[m][b].nout && k < RESULT_MAX_OUT; k++) {
				r->m[m][b].out[k].has_values = 0;
				r->m[m][b].out[k].f = NULL;
				r->m[m][b].out[k].i = NULL;
			}
}
