#include "blame.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include "../harness/malloc_check.h"
#include "op_names.h"

/* A program the current worker ran: its job with its own copies. */
struct entry {
	struct check_job j;
	struct graph g;
};

/* The current worker's history (one executor checks at a time per process:
 * a run job, a pool child, the libFuzzer target): the last BLAME_HISTORY
 * programs, newest at e[n - 1]. */
static _Thread_local struct {
	const struct executor *owner;
	unsigned starts; /* owner->starts when it began: another start is another worker */
	unsigned n;
	struct entry *e[BLAME_HISTORY];
} H;

/* Programs whose eager mode returned everywhere, by hash (direct-mapped):
 * eager failing on one of them later is suspect. */
#define EAGER_SEEN 1024
static _Thread_local uint64_t eager_ok[EAGER_SEEN];

static void entry_free(struct entry *e)
{
	if (e)
		free(e->j.program);
	free(e);
}

/* Clears the history when x or its worker is not the one it is about. */
static void follow(const struct executor *x)
{
	if (H.owner == x && H.starts == x->starts)
		return;
	for (unsigned i = 0; i < H.n; i++)
		entry_free(H.e[i]);
	H.n = 0;
	H.owner = x;
	H.starts = x->starts;
}

void blame_remember(const struct executor *x, const struct check_job *j)
{
	follow(x);
	struct entry *e = malloc(sizeof *e);
	char *prog = e ? malloc(j->len + 1) : NULL;
	if (!prog) {
		free(e);
		return;
	}
	memcpy(prog, j->program, j->len);
	prog[j->len] = 0;
	e->j = *j;
	e->j.program = prog;
	if (j->g) {
		e->g = *j->g;
		e->j.g = &e->g;
	}
	if (H.n == BLAME_HISTORY) {
		entry_free(H.e[0]);
		memmove(H.e, H.e + 1, (BLAME_HISTORY - 1) * sizeof *H.e);
		H.n--;
	}
	H.e[H.n++] = e;
}

static int eager_failed(const struct run_result *r)
{
	for (unsigned b = 0; b < r->nbind && b < G_MAX_BIND; b++)
		if (r->m[RM_EAGER][b].ran && !r->m[RM_EAGER][b].ok)
			return 1;
	return r->crashed && r->busy_mode == RM_EAGER;
}

static int eager_returned(const struct run_result *r)
{
	int any = 0;
	for (unsigned b = 0; b < r->nbind && b < G_MAX_BIND; b++) {
		if (r->m[RM_EAGER][b].ran && !r->m[RM_EAGER][b].ok)
			return 0;
		any |= r->m[RM_EAGER][b].ran;
	}
	return any && !r->crashed && !r->hung;
}

/* A crash, or eager failing where it should run: maybe another program's doing. */
static int suspect(const struct check_job *j, const struct check_result *r, uint64_t hash)
{
	if (r->run.crashed)
		return 1;
	if (r->v.kind != V_INVALID || j->cfg.oracle.broken || !eager_failed(&r->run))
		return 0;
	return j->g != NULL || eager_ok[hash % EAGER_SEEN] == hash;
}

/* The same failure again: a crash, or the same verdict and class. */
static int reproduces(const struct check_result *orig, const struct check_result *again)
{
	return (orig->run.crashed && again->run.crashed) ||
	       (again->v.kind != V_PASS && again->v.kind == orig->v.kind && again->v.what == orig->v.what);
}

static void note_add(struct check_blame *b, const char *fmt, const char *arg)
{
	size_t l = strlen(b->note);
	snprintf(b->note + l, sizeof b->note - l, fmt, arg);
}

/* An executor for replays: x's worker configuration, a worker of its own, no
 * coverage; on CUDA, under compute-sanitizer when installed. */
static int replayer(const struct executor *x, struct executor *f, struct check_blame *b)
{
	static char cmd[8400];
	char dev[64], why[600];
	struct executor_opts o = x->o;
	o.coverage = 0;
	if (!strncmp(executor_info(x, "device", dev, sizeof dev), "cuda", 4)) {
		const char *san = malloc_check_sanitizer();
		if (san) {
			snprintf(cmd, sizeof cmd, "%s %s", san, x->o.python);
			o.python = cmd;
		}
		note_add(b, "%s; ", san ? "replayed under compute-sanitizer" : "compute-sanitizer: absent, skipped");
	}
	if (executor_init(f, &o, why, sizeof why)) {
		note_add(b, "no replay: %s", why);
		return -1;
	}
	return 0;
}

/* Runs j in a fresh worker of f (after the entries before, if any). */
static int replay(struct executor *f, const struct check_job *before, const struct check_job *j,
		  struct check_result *rb, struct check_result *r, struct check_blame *b)
{
	char why[600];
	executor_stop(f);
	if ((before && check_job_run(f, before, rb, why, sizeof why)) ||
	    (!(before && rb->run.crashed) && check_job_run(f, j, r, why, sizeof why))) {
		note_add(b, "replay failed: %s", why);
		return -1;
	}
	if (before)
		check_forget_values(&rb->run);
	check_forget_values(&r->run);
	return 0;
}

/* Makes e's result the culprit of out: its own crash (rb), or the failure
 * of the program after it (r). */
static void blame_on(struct check_result *out, const struct entry *e, unsigned age, struct check_result *rb,
		     const struct check_result *r)
{
	struct check_result *c = calloc(1, sizeof *c);
	char *prog = c ? malloc(e->j.len + 1) : NULL;
	struct graph *g = e->j.g && prog ? malloc(sizeof *g) : NULL;
	if (!prog || (e->j.g && !g)) {
		free(c);
		free(prog);
		note_add(&out->blame, "%s", "; out of memory for the culprit's result");
		return;
	}
	if (rb->run.crashed) {
		*c = *rb;
	} else {
		c->run = r->run;
		oracle_judge_later_crash(&r->v, &c->v);
		c->nops = e->j.g ? op_names(e->j.g, NULL, c->ops, G_MAX_NODES) : 0; /* a crash: not about one output */
		c->signature = oracle_signature(&c->v, &c->run, c->ops, c->nops);
	}
	memcpy(prog, e->j.program, e->j.len + 1);
	c->program = prog;
	c->program_len = e->j.len;
	c->blame.status = BLAME_CULPRIT;
	snprintf(c->blame.note, sizeof c->blame.note,
		 "found by replay in a fresh worker (%s); it had run %u before the program that failed",
		 rb->run.crashed ? "it crashed alone" : "the program after it failed again", age);
	if (g)
		*g = *e->j.g;
	out->blame.culprit = c;
	out->blame.culprit_graph = g;
	out->blame.culprit_age = age;
	out->blame.status = BLAME_MOVED;
}

void blame_confirm(const struct executor *x, const struct check_job *j, struct check_result *out)
{
	follow(x);
	uint64_t hash = XXH64(j->program, j->len, 0);
	if (eager_returned(&out->run))
		eager_ok[hash % EAGER_SEEN] = hash;
	if (!suspect(j, out, hash))
		return;
	struct check_blame *b = &out->blame;
	if (!H.n) { /* it ran first in a fresh worker: it was alone */
		b->status = BLAME_CONFIRMED;
		note_add(b, "%s", "confirmed: the first program of a fresh worker");
		return;
	}
	struct executor f;
	static _Thread_local struct check_result alone, rb, r;
	b->status = BLAME_UNCONFIRMED;
	if (replayer(x, &f, b))
		return;
	if (replay(&f, NULL, j, NULL, &alone, b))
		goto done;
	if (reproduces(out, &alone)) {
		b->status = BLAME_CONFIRMED;
		note_add(b, "%s", "confirmed: it failed again alone in a fresh worker");
		goto done;
	}
	unsigned tried = 0;
	for (unsigned age = 1; age <= H.n && b->status == BLAME_UNCONFIRMED; age++, tried++) {
		const struct entry *e = H.e[H.n - age];
		if (replay(&f, &e->j, j, &rb, &r, b))
			break;
		if (rb.run.crashed || reproduces(out, &r))
			blame_on(out, e, age, &rb, &r);
	}
	char msg[160];
	if (b->status == BLAME_MOVED) {
		snprintf(msg, sizeof msg, "not reproduced alone in a fresh worker; the program run %u before it is the cause",
			 b->culprit_age);
		out->run = alone.run;
		out->v = alone.v;
		out->signature = alone.signature;
		out->nops = alone.nops;
		memcpy(out->ops, alone.ops, sizeof out->ops);
	} else {
		snprintf(msg, sizeof msg, "unconfirmed: not reproduced alone in a fresh worker, nor after any of the %u "
			 "programs its worker ran before it", tried);
	}
	note_add(b, "%s", msg);
done:
	executor_free(&f);
}
