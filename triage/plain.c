#include "plain.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../graph/emit.h"
#include "../graph/emit_plain.h"
#include "../graph/fail.h"
#include "../pipeline/findings.h"
#include "../pipeline/graphio.h"
#include "run_program.h"

char *plain_program(const struct graph *g, const json_t *meta, const struct check_cfg *c, unsigned binding, int cuda,
		    size_t *len, char *why, size_t n)
{
	if (c->backward) {
		fail(why, n, "backward mode: a plain program compares forward() only");
		return NULL;
	}
	/* meta.json's words name the program only where they are plain words */
	const char *signature = json_file_str(meta, "signature"), *verdict = json_file_str(meta, "verdict"),
		   *mismatch = json_file_str(meta, "mismatch");
	struct plain_opts o = {c->backend,
			       c->compile_mode,
			       c->dynamic,
			       binding,
			       cuda,
			       emit_safe_name(signature) ? signature : NULL,
			       emit_safe_name(verdict) ? verdict : NULL,
			       !strcmp(verdict, "stride"),
			       !strcmp(verdict, "alias"),
			       !strcmp(mismatch, "nonfinite"),
			       c->inductor,
			       c->ninductor};
	return emit_plain_string(g, &o, len, why, n);
}

unsigned plain_binding(const json_t *meta, const struct graph *g)
{
	double b = json_file_num(meta, "binding", 0);
	return b >= 0 && b < g->nbind ? (unsigned)b : 0;
}

/* The configuration meta.json records, where rq does not set it; its pins. */
static int cfg_of_finding(const json_t *meta, const char *dir, const struct plain_request *rq, struct check_cfg *c,
			  char *why, size_t n)
{
	static struct finding_meta m;
	check_default_cfg(c);
	if (findings_meta_read(meta, dir, &m, why, n))
		return -1;
	c->backend = rq->backend ? rq->backend : c->backend;
	c->compile_mode = rq->mode;
	c->dynamic = rq->dynamic ? rq->dynamic : c->dynamic;
	findings_cfg_apply(&m,
			   (rq->backend ? GIVEN_BACKEND : 0) | (rq->mode ? GIVEN_MODE : 0) |
				   (rq->dynamic ? GIVEN_DYNAMIC : 0),
			   c);
	return check_cfg_validate(c, why, n);
}

char *plain_of_finding(const char *dir, const struct plain_request *rq, size_t *len, char *why, size_t n)
{
	static struct graph g;
	char path[4200], device[32];
	json_t *meta = findings_path(path, sizeof path, dir, "meta.json") ? NULL : json_file_load(path, why, n);
	if (!meta)
		return NULL;
	int reduced = rq->graph != PLAIN_ORIGINAL && !findings_path(path, sizeof path, dir, "reduced/graph.bin") &&
		      access(path, F_OK) == 0;
	struct check_cfg c;
	char *prog = NULL;
	if (rq->graph == PLAIN_REDUCED && !reduced)
		fail(why, n, "%s has no reduced/graph.bin (run `pt2fuzz reduce` first)", dir);
	else if (!reduced && findings_path(path, sizeof path, dir, "graph.bin"))
		fail(why, n, "%s: path too long", dir);
	else if (graphio_load(path, &g, why, n) == 0 && cfg_of_finding(meta, dir, rq, &c, why, n) == 0) {
		json_file_copy(meta, "device", device, sizeof device);
		int cuda = rq->cuda >= 0 ? rq->cuda : !strncmp(device, "cuda", 4);
		unsigned binding = rq->binding >= 0 ? (unsigned)rq->binding : plain_binding(meta, &g);
		prog = plain_program(&g, meta, &c, binding, cuda, len, why, n);
	}
	json_decref(meta);
	return prog;
}

/* The last max bytes of f's contents, NUL-terminated, malloc'd ("" when empty). */
static char *tail_of(FILE *f, long max)
{
	long size = fseek(f, 0, SEEK_END) ? 0 : ftell(f);
	long from = size > max ? size - max : 0;
	char *buf = malloc((size_t)(size - from) + 1);
	size_t got = buf && !fseek(f, from, SEEK_SET) ? fread(buf, 1, (size_t)(size - from), f) : 0;
	if (buf)
		buf[got] = 0;
	return buf;
}

/* The line at p, cut to fit out. */
static void copy_line(char *out, size_t n, const char *p)
{
	snprintf(out, n, "%.*s", (int)strcspn(p, "\n"), p);
}

/* The line the program's compiled run is on (0: none; a near-invalid
 * graph's program expects that run to raise). */
static unsigned compiled_line(const char *prog)
{
	const char *at = strstr(prog, "\ncompiled = run(");
	unsigned line = 1;
	for (const char *p = prog; at && p <= at; p++)
		line += *p == '\n';
	return at ? line : 0;
}

/* The last traceback in err: its exception line (the first after its frames
 * that is not indented), and whether its outermost frame in the program is
 * the compiled run's line. */
static void read_traceback(const char *err, unsigned compiled, struct plain_run *r)
{
	static const char head[] = "Traceback (most recent call last):\n", frame[] = "  File \"<stdin>\", line ";
	const char *tb = NULL;
	for (const char *p = strstr(err, head); p; p = strstr(p + 1, head))
		tb = p;
	if (!tb)
		return;
	const char *p = tb + strlen(head), *f = strstr(p, frame);
	while (*p == ' ' || *p == '\n')
		p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
	copy_line(r->raised, sizeof r->raised, p);
	r->in_compiled = compiled && f && f < p && strtoul(f + strlen(frame), NULL, 10) == compiled;
}

void plain_read(const char *prog, int status, const char *out, const char *err, struct plain_run *r)
{
	memset(r, 0, sizeof *r);
	r->status = status;
	size_t k = strlen(out); /* the last line that is not empty */
	while (k && out[k - 1] == '\n')
		k--;
	const char *last = k ? memrchr(out, '\n', k) : NULL;
	last = last ? last + 1 : out;
	snprintf(r->last, sizeof r->last, "%.*s", (int)(out + k - last), last);
	read_traceback(err, compiled_line(prog), r);
}

int plain_run(const char *prog, size_t len, long long secs, struct plain_run *r, char *why, size_t n)
{
	FILE *out = tmpfile(), *err = tmpfile();
	int status = out && err ? run_program(prog, len, NULL, 0, secs, fileno(out), fileno(err), why, n)
			       : fail(why, n, "no temporary file for the plain program's output");
	char *text = status >= 0 ? tail_of(out, 1 << 16) : NULL, *errs = status >= 0 ? tail_of(err, 1 << 20) : NULL;
	if (text && errs)
		plain_read(prog, status, text, errs, r);
	else if (status >= 0)
		status = fail(why, n, "out of memory");
	free(text);
	free(errs);
	if (out)
		fclose(out);
	if (err)
		fclose(err);
	return status < 0 ? -1 : 0;
}

/* What a run shows a finding by: a MISMATCH line, the compiled run's
 * exception, a signal, the timeout. */
enum plain_sign { SIGN_MISMATCH, SIGN_RAISED, SIGN_SIGNAL, SIGN_TIMEOUT };

static const struct {
	const char *verdict, *mismatch; /* mismatch "" for any */
	enum plain_sign sign;
} signs[] = {
	{"numeric", "", SIGN_MISMATCH},    {"missing-error", "", SIGN_MISMATCH}, {"error-mismatch", "", SIGN_MISMATCH},
	{"behaviour", "crashed", SIGN_SIGNAL}, {"behaviour", "", SIGN_RAISED}, {"memory", "", SIGN_SIGNAL},
	{"hang", "", SIGN_TIMEOUT},         {"stride", "", SIGN_MISMATCH}, {"alias", "", SIGN_MISMATCH},
};

/* What the run did, in words. */
static void describe(const struct plain_run *r, char *out, size_t n)
{
	if (r->status == 124)
		snprintf(out, n, "it timed out");
	else if (r->status > 128)
		snprintf(out, n, "it died of signal %d", r->status - 128);
	else if (r->raised[0])
		snprintf(out, n, "%s raised %s", r->in_compiled ? "its compiled run" : "it", r->raised);
	else if (r->last[0])
		snprintf(out, n, "its last line is \"%s\"", r->last);
	else
		snprintf(out, n, "it printed nothing (exit status %d)", r->status);
}

int plain_shows(const struct plain_run *r, const json_t *meta, char *why_not, size_t n)
{
	const char *verdict = json_file_str(meta, "verdict"), *mismatch = json_file_str(meta, "mismatch");
	const char *exception = json_file_str(meta, "exception");
	size_t i = 0, nsigns = sizeof signs / sizeof signs[0];
	while (i < nsigns && (strcmp(verdict, signs[i].verdict) || (signs[i].mismatch[0] && strcmp(mismatch, signs[i].mismatch))))
		i++;
	if (i == nsigns) {
		snprintf(why_not, n, "a plain program cannot show a %s finding", verdict);
		return 0;
	}
	size_t tl = strlen(exception);
	int shows = 0;
	switch (signs[i].sign) {
	case SIGN_MISMATCH: { /* a near-invalid graph's program names the kind (and compiled's type): the finding's */
		char want[200];
		const char *dot = strrchr(exception, '.'), *type = dot ? dot + 1 : exception;
		if (!strcmp(verdict, "numeric"))
			snprintf(want, sizeof want, "MISMATCH");
		else if (!strcmp(verdict, "error-mismatch"))
			snprintf(want, sizeof want, "MISMATCH error-mismatch: compiled raises %.100s:", type);
		else
			snprintf(want, sizeof want, "MISMATCH %s", verdict);
		shows = !strncmp(r->last, want, strlen(want));
		break;
	}
	case SIGN_RAISED:
		shows = r->in_compiled && tl && !strncmp(r->raised, exception, tl) && (!r->raised[tl] || r->raised[tl] == ':');
		break;
	case SIGN_SIGNAL: shows = r->status > 128; break;
	case SIGN_TIMEOUT: shows = r->status == 124; break;
	}
	if (!shows) {
		char did[400];
		describe(r, did, sizeof did);
		snprintf(why_not, n, "%s%s%s", did, signs[i].sign == SIGN_RAISED ? ", where the finding's compiled run raises " : "",
			 signs[i].sign == SIGN_RAISED ? exception : "");
	}
	return shows;
}
