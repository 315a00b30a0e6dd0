#include "check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../config/compile.h"
#include "../config/pins.h"
#include "../config/settings.h"
#include "../graph/broken.h"
#include "../graph/compile_config.h"
#include "../graph/emit.h"
#include "../graph/fail.h"
#include "../oracles/signature.h"
#include "blame.h"
#include "hang_confirm.h"
#include "op_names.h"

void check_default_cfg(struct check_cfg *c)
{
	memset(c, 0, sizeof *c);
	c->backend = "inductor";
	c->dynamic = "marks";
	c->modes = (1u << RM_EAGER) | (1u << RM_COMPILED) | (1u << RM_FP64) | (1u << RM_NUDGED);
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
		char name[PIN_NAME_MAX], py[SETTING_PYTHON_MAX];
		if (pin_python(c->inductor[i], name, sizeof name, py, sizeof py, why, n))
			return -1;
	}
	return 0;
}

/* Runs j, confirms a hang (c's hang_rerun_until_ms) or what may be an
 * earlier program's fault, remembers j in x's history; the result owns j's
 * program. */
static int run_confirmed(struct executor *x, struct check_job *j, const struct check_cfg *c, struct check_result *out,
			 char *why, size_t n)
{
	int rc = check_job_run(x, j, out, why, n);
	if (!rc) {
		hang_confirm(x, j, c->hang_rerun_until_ms, out);
		if (out->blame.status == BLAME_NONE)
			blame_confirm(x, j, out);
		blame_remember(x, j);
	}
	out->program = j->program;
	out->program_len = j->len;
	return rc;
}

/* `run --mode backward` works on any graph. */
const struct graph *check_with_grads(const struct graph *g, int backward)
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

/* The program g runs as under c: its configuration into *cg and *eo, the
 * graph it emits (check_with_grads) into *ran. The program (malloc'd), or NULL. */
static char *emit_for(const struct graph *g, const struct check_cfg *c, struct check_cfg *cg, struct emit_opts *eo,
		      const struct graph **ran, size_t *len)
{
	*cg = check_cfg_for_graph(c, g);
	*eo = (struct emit_opts){cg->backend, cg->compile_mode, cg->backward, cg->dynamic, cg->inductor, cg->ninductor};
	*ran = check_with_grads(g, cg->backward);
	return emit_program_string(*ran, eo, len);
}

char *check_program_text(const struct graph *g, const struct check_cfg *c, size_t *len)
{
	struct check_cfg cg;
	struct emit_opts eo;
	return emit_for(g, c, &cg, &eo, &g, len);
}

/* The time factor of g's configuration as it runs under cg: with the mode cg gives it (pinned, or none
 * for a backend other than Inductor). */
static unsigned time_factor(const struct graph *g, const struct check_cfg *cg)
{
	struct graph_config ran = g->config;
	int mode = cg->compile_mode ? compile_mode_find(cg->compile_mode) : CM_DEFAULT;
	ran.mode = (uint8_t)(mode < 0 ? CM_DEFAULT : mode);
	return graph_config_time_factor(&ran);
}

int check_hung(const struct graph *g, const struct check_cfg *c, const char *detail, struct check_result *out,
	       char *why, size_t n)
{
	struct check_cfg cg;
	struct emit_opts eo;
	memset(out, 0, sizeof *out);
	out->program = emit_for(g, c, &cg, &eo, &g, &out->program_len);
	if (!out->program)
		return fail(why, n, "emission failed");
	out->v.kind = V_HANG;
	out->v.binding = out->v.output = out->v.nearest_output = -1;
	snprintf(out->v.detail, sizeof out->v.detail, "%s", detail);
	out->nops = op_names_of_output(g, &eo, -1, out->ops, G_MAX_NODES);
	out->signature = oracle_signature(&out->v, &out->run, out->ops, out->nops);
	return 0;
}

void check_nudging(struct check_cfg *c, const struct graph *g, const struct emit_opts *eo)
{
	/* nudged inputs tell ill-conditioning apart in floats only where nothing
	 * jumps, judged per component: a step in one says nothing of another's
	 * floats; in ints made from floats they show where rounding decides */
	uint8_t member[G_MAX_NODES];
	uint16_t ids[3 * G_MAX_VALUES];
	unsigned returned = emit_returned_values(g, eo, ids), smooth = 0;
	memset(c->oracle.stepped, 0, sizeof c->oracle.stepped);
	for (unsigned k = 0; k < returned && k < RESULT_MAX_OUT; k++) {
		c->oracle.stepped[k] = graph_component_nodes(g, ids[k], member) && graph_has_step(g, member);
		smooth += !c->oracle.stepped[k];
	}
	c->oracle.nudge_floats = !g->broken && smooth;
	c->oracle.nudge_ints = !g->broken && !graph_reads_bits(g);
	if (!c->oracle.nudge_floats && !c->oracle.nudge_ints) /* a nudged run nothing would judge */
		c->modes &= ~(1u << RM_NUDGED);
}

int check_graph(struct executor *x, const struct graph *g, const struct check_cfg *c, struct check_result *out,
		char *why, size_t n)
{
	static _Thread_local struct check_job j;
	struct check_cfg cg;
	struct emit_opts eo;
	memset(out, 0, sizeof *out);
	memset(&j, 0, sizeof j);
	j.program = emit_for(g, c, &cg, &eo, &g, &j.len);
	if (!j.program)
		return fail(why, n, "emission failed");
	j.ncompare = emit_compared(g, &eo, j.compare, RESULT_MAX_OUT);
	j.nbind = g->nbind;
	j.g = g;
	j.time_factor = time_factor(g, &cg);
	/* a configuration that trades precision for speed is judged as float16 is: every float
	 * output, and the positions where eager agrees with fp64, at float16's tolerance at least */
	if (graph_config_effects(&g->config) & EFFECT_NUMERICS)
		for (unsigned d = 0; d < DT_COUNT; d++)
			if (dtype_is_inexact(d) && cg.oracle.tol[d] < cg.oracle.tol[DT_FLOAT16])
				cg.oracle.tol[d] = cg.oracle.tol[DT_FLOAT16];
	for (unsigned i = 0; i < g->nvalues; i++)
		if (dtype_is_inexact(g->v[i].dtype) && cg.oracle.tol[g->v[i].dtype] > cg.oracle.coarse_tol)
			cg.oracle.coarse_tol = cg.oracle.tol[g->v[i].dtype];
	cg.oracle.broken = g->broken;
	check_nudging(&cg, g, &eo);
	uint16_t written[G_MAX_VALUES];
	cg.oracle.written = (uint8_t)emit_written_leaves(g, &eo, written);
	cg.oracle.views_known = 1;
	cg.oracle.leaf_views = 0;
	uint16_t returned[3 * G_MAX_VALUES];
	unsigned nreturned = emit_returned_values(g, &eo, returned);
	for (unsigned k = 0; k < nreturned && k < 64; k++) /* the returns whose memory is a leaf's, by the catalogue's views */
		if (g->v[g->v[returned[k]].root].kind != VK_NODE)
			cg.oracle.leaf_views |= 1ull << k;
	check_cfg_save(&cg, &j.cfg);
	return run_confirmed(x, &j, c, out, why, n);
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
	static _Thread_local struct check_job j;
	memset(out, 0, sizeof *out);
	memset(&j, 0, sizeof j);
	j.program = prog;
	j.len = len;
	j.nbind = program_bindings(prog);
	j.compare_all = 1;
	struct check_cfg cg = *c;
	cg.oracle.broken = (uint8_t)expected_error(prog);
	cg.oracle.nudge_floats = 0; /* no graph to tell whether anything jumps: nothing to nudge for */
	cg.modes &= ~(1u << RM_NUDGED);
	check_cfg_save(&cg, &j.cfg);
	return run_confirmed(x, &j, c, out, why, n);
}
