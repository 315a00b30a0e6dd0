#include "findings.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "../graph/broken.h"
#include "../graph/codec.h"
#include "../graph/fail.h"
#include "../graph/op.h"
#include "atomic_file.h"
#include "graphio.h"

void findings_name(const struct verdict *v, uint64_t sig, char *out, size_t n)
{
	snprintf(out, n, "%s-%016llx", verdict_name(v->kind), (unsigned long long)sig);
}

int findings_path(char *out, size_t n, const char *dir, const char *name)
{
	int k = snprintf(out, n, "%s/%s", dir, name);
	return k < 0 || (size_t)k >= n ? -1 : 0;
}

static int write_file(const char *dir, const char *name, const void *buf, size_t len)
{
	char path[4200];
	return findings_path(path, sizeof path, dir, name) ? -1 : atomic_write(path, buf, len, 1);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, double x)
{
	if (x != x || x > 1e308 || x < -1e308)
		fputs("null", f);
	else
		fprintf(f, "%.6g", x);
}

/* The first exception of mode m, or NULL. */
static const struct mode_result *raised_in(const struct check_result *r, enum run_mode m)
{
	for (unsigned b = 0; b < r->run.nbind; b++)
		if (r->run.m[m][b].ran && !r->run.m[m][b].ok)
			return &r->run.m[m][b];
	return NULL;
}

/* The mode whose exception names the finding (compiled, else eager). */
static const struct mode_result *raising_mode(const struct check_result *r)
{
	const struct mode_result *m = raised_in(r, RM_COMPILED);
	return m ? m : raised_in(r, RM_EAGER);
}

static char *meta_json(const struct finding_ctx *fc, const struct graph *g, const struct check_result *r,
		       const char *name, unsigned count, const char *first_seen, size_t *len)
{
	char *buf = NULL, val[256];
	FILE *f = open_memstream(&buf, len);
	if (!f)
		return NULL;
	const struct verdict *v = &r->v;
	fputs("{\n  \"signature\": ", f);
	json_str(f, name);
	fputs(",\n  \"verdict\": ", f);
	json_str(f, verdict_name(v->kind));
	fputs(",\n  \"mismatch\": ", f);
	json_str(f, mismatch_name(v->what));
	fputs(",\n  \"detail\": ", f);
	json_str(f, v->detail);
	/* Which pass diverged (gradients are compared in backward mode only). */
	fprintf(f, ",\n  \"pass\": \"%s\",\n  \"passes\": \"%s\"", v->backward ? "backward" : "forward",
		fc->cfg->backward ? FINDINGS_BACKWARD_PASSES : "forward");
	fprintf(f, ",\n  \"count\": %u,\n  \"first_seen\": ", count);
	json_str(f, first_seen);
	fprintf(f, ",\n  \"binding\": %d,\n  \"output\": %d,\n  \"max_abs\": ", v->binding, v->output);
	json_num(f, v->max_abs);
	fputs(",\n  \"max_rel\": ", f);
	json_num(f, v->max_rel);
	fputs(",\n  \"rmse_compiled_vs_fp64\": ", f);
	json_num(f, v->res_rmse);
	fputs(",\n  \"rmse_eager_vs_fp64\": ", f);
	json_num(f, v->ref_rmse);
	const struct mode_result *m = raising_mode(r);
	fputs(",\n  \"exception\": ", f);
	json_str(f, m ? m->etype : "");
	fputs(",\n  \"message\": ", f);
	json_str(f, m ? m->emsg : "");
	char norm[256];
	oracle_normalize_message(m ? m->emsg : "", norm, sizeof norm);
	fputs(",\n  \"normalized_message\": ", f);
	json_str(f, norm);
	/* A near-invalid graph: the constraint it breaks, and the error eager raised for it. */
	fputs(",\n  \"expect_error\": ", f);
	json_str(f, constraint_name(v->broken) ? constraint_name(v->broken) : "");
	fputs(",\n  \"eager_exception\": ", f);
	json_str(f, raised_in(r, RM_EAGER) ? raised_in(r, RM_EAGER)->etype : "");
	fprintf(f, ",\n  \"signal\": %d,\n  \"ops\": [", r->run.term_signal);
	if (g) {
		const char *ops[G_MAX_NODES];
		unsigned nops = check_op_names(g, ops, G_MAX_NODES);
		for (unsigned i = 0; i < nops; i++) {
			fputs(i ? ", " : "", f);
			json_str(f, ops[i]);
		}
		fprintf(f, "],\n  \"nodes\": %u,\n  \"bindings\": %u,\n  \"graph_hash\": \"%016llx\"", g->nnodes, g->nbind,
			(unsigned long long)codec_hash(g));
	} else {
		fputs("]", f);
	}
	static const char *const keys[] = {"torch", "triton", "cuda", "python", "gpu", "aoti_runner", "aoti_cxx", "malloc_check"};
	for (unsigned i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		fprintf(f, ",\n  \"%s\": ", keys[i]);
		json_str(f, fc->x ? executor_info(fc->x, keys[i], val, sizeof val) : "");
	}
	/* The device the worker resolved ("auto" becomes cpu or cuda). */
	fputs(",\n  \"device\": ", f);
	json_str(f, fc->x && executor_info(fc->x, "device", val, sizeof val)[0] ? val : fc->device ? fc->device : "");
	fputs(",\n  \"backend\": ", f);
	json_str(f, fc->cfg->backend);
	fputs(",\n  \"mode\": ", f);
	json_str(f, fc->cfg->compile_mode ? fc->cfg->compile_mode : "default");
	fputs(",\n  \"dynamic\": ", f);
	json_str(f, fc->cfg->dynamic);
	/* Blame confirmation (pipeline/blame.h): how a crash was pinned on this program. */
	fputs(",\n  \"confirmation\": ", f);
	json_str(f, blame_status_name(r->blame.status));
	fputs(",\n  \"confirmation_note\": ", f);
	json_str(f, r->blame.note);
	fputs(",\n  \"heap_report\": ", f);
	json_str(f, r->run.heap_report);
	fprintf(f, ",\n  \"compiled_graphs\": %u,\n  \"source\": ", r->run.compiled_graphs);
	json_str(f, fc->source ? fc->source : "");
	fputs("\n}\n", f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Raises the count in an existing meta.json; returns the old count (0 when
 * there is no meta.json yet, e.g. after a crash while writing the first). */
static unsigned bump_count(const char *dir)
{
	char path[4200], buf[16384];
	FILE *f = findings_path(path, sizeof path, dir, "meta.json") ? NULL : fopen(path, "r");
	if (!f)
		return 0;
	size_t len = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[len] = 0;
	char *c = strstr(buf, "\"count\": ");
	if (!c)
		return 0;
	char *end;
	unsigned old = (unsigned)strtoul(c + 9, &end, 10);
	char *out = NULL;
	size_t olen = 0;
	FILE *m = open_memstream(&out, &olen);
	if (!m)
		return old;
	fprintf(m, "%.*s\"count\": %u%s", (int)(c - buf), buf, old + 1, end);
	if (!fclose(m))
		write_file(dir, "meta.json", out, olen);
	free(out);
	return old;
}

int findings_record(const struct finding_ctx *fc, const struct graph *g, const struct check_result *r, char *path,
		    size_t pathlen, char *why, size_t n)
{
	char name[64], dir[4200];
	findings_name(&r->v, r->signature, name, sizeof name);
	if (mkdir(fc->dir, 0777) && errno != EEXIST)
		return fail(why, n, "%s: %s", fc->dir, strerror(errno));
	if (findings_path(dir, sizeof dir, fc->dir, name))
		return fail(why, n, "%s: path too long", fc->dir);
	snprintf(path, pathlen, "%s", dir);
	int fresh = mkdir(dir, 0777) == 0;
	if (!fresh && errno != EEXIST)
		return fail(why, n, "%s: %s", dir, strerror(errno));
	/* One writer at a time per signature. */
	char lockpath[4300];
	int lock = findings_path(lockpath, sizeof lockpath, dir, ".lock") ? -1 : open(lockpath, O_CREAT | O_RDWR | O_CLOEXEC, 0666);
	if (lock < 0 || flock(lock, LOCK_EX)) {
		if (lock >= 0)
			close(lock);
		return fail(why, n, "%s: cannot lock", dir);
	}
	unsigned count = fresh ? 0 : bump_count(dir);
	int rc = 0;
	if (!count) { /* the first hit (or a crash before meta.json): write everything */
		char first[64];
		time_t now = time(NULL);
		strftime(first, sizeof first, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
		rc |= write_file(dir, "repro.py", r->program, r->program_len);
		if (g) {
			static uint8_t enc[CODEC_MAX_SIZE];
			size_t len = codec_encode(g, enc, sizeof enc);
			rc |= !len || write_file(dir, "graph.bin", enc, len);
		}
		if (fc->x) {
			static char log[EXEC_LOG_RING + 1];
			size_t len = executor_log(fc->x, log, sizeof log);
			rc |= write_file(dir, "worker.log", log, len);
		}
		size_t mlen;
		char *meta = meta_json(fc, g, r, name, 1, first, &mlen);
		rc |= !meta || write_file(dir, "meta.json", meta, mlen);
		free(meta);
	}
	flock(lock, LOCK_UN);
	close(lock);
	if (rc)
		return fail(why, n, "%s: could not write the finding", dir);
	return count == 0;
}

int findings_backward_mode(const char *json)
{
	char passes[32];
	findings_json_str(json, "passes", passes, sizeof passes);
	return !strcmp(passes, FINDINGS_BACKWARD_PASSES);
}

void findings_json_str(const char *json, const char *key, char *out, size_t n)
{
	char pat[80];
	snprintf(pat, sizeof pat, "\"%.70s\": \"", key);
	const char *p = strstr(json, pat);
	size_t k = 0;
	for (p = p ? p + strlen(pat) : NULL; p && *p && *p != '"' && k + 1 < n; p++) {
		if (*p == '\\' && p[1])
			p++;
		out[k++] = *p == 'n' && p[-1] == '\\' ? '\n' : *p;
	}
	if (n)
		out[k] = 0;
}

static long json_long(const char *json, const char *key, long dflt)
{
	char pat[80];
	snprintf(pat, sizeof pat, "\"%.70s\": ", key);
	const char *p = strstr(json, pat);
	return p ? strtol(p + strlen(pat), NULL, 10) : dflt;
}

int findings_load(const char *dir, struct graph *g, struct finding_meta *m, char *why, size_t n)
{
	char path[4200];
	size_t len;
	memset(m, 0, sizeof *m);
	if (findings_path(path, sizeof path, dir, "graph.bin") || graphio_load(path, g, why, n))
		return -1;
	char *json = findings_path(path, sizeof path, dir, "meta.json") ? NULL
					: (char *)graphio_read_file(path, 1 << 20, &len, why, n);
	if (!json)
		return -1;
	findings_json_str(json, "verdict", m->verdict, sizeof m->verdict);
	findings_json_str(json, "mismatch", m->mismatch, sizeof m->mismatch);
	findings_json_str(json, "backend", m->backend, sizeof m->backend);
	findings_json_str(json, "mode", m->mode, sizeof m->mode);
	findings_json_str(json, "dynamic", m->dynamic, sizeof m->dynamic);
	findings_json_str(json, "detail", m->detail, sizeof m->detail);
	findings_json_str(json, "pass", m->pass, sizeof m->pass);
	m->backward = findings_backward_mode(json);
	m->output = (int)json_long(json, "output", -1);
	m->count = (unsigned)json_long(json, "count", 1);
	free(json);
	if (!m->verdict[0] || !m->backend[0])
		return fail(why, n, "%s/meta.json: no verdict or backend", dir);
	if (!strcmp(m->mode, "default"))
		m->mode[0] = 0;
	if (!m->dynamic[0])
		snprintf(m->dynamic, sizeof m->dynamic, "marks");
	return 0;
}
