#include "findings.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "../config/pins.h"
#include "../config/settings.h"
#include "../graph/broken.h"
#include "../graph/codec.h"
#include "../graph/compile_config.h"
#include "../graph/fail.h"
#include "../graph/op.h"
#include "atomic_file.h"
#include "bucket.h"
#include "graphio.h"
#include "json_file.h"

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

/* meta.json (docs/formats.md), its keys in that order. Strings from the
 * worker, the command line and the oracle go through json_file_text: they
 * need not be UTF-8. */
static json_t *meta_json(const struct finding_ctx *fc, const struct graph *g, const struct check_result *r,
			 const struct check_finding *f, const char *name, const char *first_seen)
{
	const struct verdict *v = &f->v;
	const struct mode_result *m = raising_mode(r), *eager = raised_in(r, RM_EAGER);
	char norm[256], val[256];
	oracle_normalize_message(m ? m->emsg : "", norm, sizeof norm);
	json_t *meta = json_object(), *ops = json_array();
	int bad = !meta;
	/* The configuration (a graph's own where the command line left it open). */
	const struct check_cfg ran = g ? check_cfg_for_graph(fc->cfg, g) : *fc->cfg;
	/* What was found; which pass diverged (gradients are compared in backward mode only). */
	bad |= json_object_update_new(
		meta, json_pack("{s:s, s:s, s:s, s:o, s:s, s:s, s:i, s:s}", "signature", name, "verdict", verdict_name(v->kind),
				"mismatch", mismatch_name(v->what), "detail", json_file_text(v->detail), "pass",
				v->backward ? "backward" : "forward", "passes",
				ran.backward ? FINDINGS_BACKWARD_PASSES : "forward", "count", 1, "first_seen", first_seen));
	/* Where, and by how much. */
	bad |= json_object_update_new(
		meta, json_pack("{s:i, s:i, s:o, s:o, s:o, s:o}", "binding", v->binding, "output", v->output, "max_abs",
				json_file_real(v->max_abs), "max_rel", json_file_real(v->max_rel), "rmse_compiled_vs_fp64",
				json_file_real(v->res_rmse), "rmse_eager_vs_fp64", json_file_real(v->ref_rmse)));
	/* The exception; for a near-invalid graph, the constraint it breaks and the error eager raised for it. */
	bad |= json_object_update_new(
		meta, json_pack("{s:o, s:o, s:o, s:s, s:o, s:i}", "exception", json_file_text(m ? m->etype : ""), "message",
				json_file_text(m ? m->emsg : ""), "normalized_message", json_file_text(norm), "expect_error",
				constraint_name(v->broken) ? constraint_name(v->broken) : "", "eager_exception",
				json_file_text(eager ? eager->etype : ""), "signal", r->run.term_signal));
	for (unsigned i = 0; i < f->nops; i++) /* the differing output's component's (op_names.h) */
		bad |= json_array_append_new(ops, json_string(f->ops[i]));
	bad |= json_object_set_new(meta, "ops", ops);
	if (g) {
		snprintf(val, sizeof val, "%016llx", (unsigned long long)codec_hash(g));
		bad |= json_object_update_new(meta, json_pack("{s:i, s:i, s:s}", "nodes", (int)g->nnodes, "bindings",
							      (int)g->nbind, "graph_hash", val));
	}
	/* The worker's versions and settings, as its hello said them. */
	static const char *const keys[] = {"torch", "triton", "cuda", "python", "gpu", "aoti_runner", "aoti_cxx", "malloc_check"};
	for (unsigned i = 0; i < sizeof keys / sizeof keys[0]; i++)
		bad |= json_object_set_new(meta, keys[i], json_file_text(fc->x ? executor_info(fc->x, keys[i], val, sizeof val) : ""));
	/* The device the worker resolved ("auto" becomes cpu or cuda). */
	const char *device = fc->x && executor_info(fc->x, "device", val, sizeof val)[0] ? val : fc->device ? fc->device : "";
	bad |= json_object_set_new(meta, "device", json_file_text(device));
	/* The configuration; blame confirmation (pipeline/blame.h): how a crash was pinned on this program. */
	bad |= json_object_update_new(
		meta, json_pack("{s:o, s:s, s:o, s:s, s:o, s:o, s:i, s:o}", "backend", json_file_text(ran.backend), "mode",
				ran.compile_mode ? ran.compile_mode : "default", "dynamic",
				json_file_text(ran.dynamic), "confirmation", blame_status_name(r->blame.status),
				"confirmation_note", json_file_text(r->blame.note), "heap_report",
				json_file_text(r->run.heap_report), "compiled_graphs", (int)r->run.compiled_graphs, "source",
				json_file_text(fc->source ? fc->source : "")));
	char words[1024];
	bad |= json_object_set_new(meta, "config", /* the text form's words, "" for the default or no graph */
				   json_file_text(g ? graph_config_text(&g->config, words, sizeof words) : ""));
	json_t *pinned = json_array();
	for (unsigned i = 0; pinned && i < fc->cfg->ninductor; i++)
		bad |= json_array_append_new(pinned, json_file_text(fc->cfg->inductor[i]));
	bad |= json_object_set_new(meta, "pinned", pinned);
	bad |= bucket_store(meta);
	if (bad) {
		json_decref(meta);
		return NULL;
	}
	return meta;
}

/* Raises count in an existing meta.json: parsed, the integer field set, the
 * bucket and known bug set afresh (a folder from before buckets, a list that
 * has grown since), the whole written back atomically. Returns the old count; 0 when there is no
 * meta.json yet, or none that holds a count (a crash before the first was
 * written, a corrupt file): the caller then writes the finding whole. */
static unsigned bump_count(const char *dir)
{
	char path[4200], why[300];
	json_t *meta = findings_path(path, sizeof path, dir, "meta.json") ? NULL : json_file_load(path, why, sizeof why);
	json_t *count = json_object_get(meta, "count");
	json_int_t old = json_is_integer(count) ? json_integer_value(count) : 0;
	if (old > 0 && old < UINT_MAX && !json_integer_set(count, old + 1) && !bucket_store(meta))
		json_file_write(path, meta, 1);
	json_decref(meta);
	return old > 0 && old < UINT_MAX ? (unsigned)old : 0;
}

/* One writer at a time per signature: the folder's .lock held, its fd
 * returned (-1 when it cannot be). */
static int lock_finding(const char *dir)
{
	char lockpath[4300];
	int lock = findings_path(lockpath, sizeof lockpath, dir, ".lock") ? -1 : open(lockpath, O_CREAT | O_RDWR | O_CLOEXEC, 0666);
	if (lock >= 0 && flock(lock, LOCK_EX)) {
		close(lock);
		return -1;
	}
	return lock;
}

static void unlock_finding(int lock)
{
	flock(lock, LOCK_UN);
	close(lock);
}

int findings_mark(const char *dir, char *why, size_t n)
{
	char path[4200];
	if (findings_path(path, sizeof path, dir, "meta.json"))
		return fail(why, n, "%s: path too long", dir);
	int lock = lock_finding(dir);
	if (lock < 0)
		return fail(why, n, "%s: cannot lock", dir);
	json_t *meta = json_file_load(path, why, n);
	int rc = !meta ? -1 : bucket_store(meta) || json_file_write(path, meta, 1) ? fail(why, n, "%s: cannot write", path) : 0;
	json_decref(meta);
	unlock_finding(lock);
	return rc;
}

int findings_take_triage(const char *from, const char *to, char *why, size_t n)
{
	static const char *const fields[] = {"known", "reduced_bucket"};
	char path[4200];
	json_t *src = findings_path(path, sizeof path, from, "meta.json") ? NULL : json_file_load(path, why, n);
	if (!src)
		return -1;
	int lock = findings_path(path, sizeof path, to, "meta.json") ? -1 : lock_finding(to);
	json_t *dst = lock < 0 ? NULL : json_file_load(path, why, n);
	int rc = dst ? 0 : -1;
	for (unsigned i = 0; dst && i < sizeof fields / sizeof *fields; i++) {
		json_t *v = json_object_get(src, fields[i]);
		if (v && json_object_set(dst, fields[i], v))
			rc = -1;
	}
	if (dst && (rc || json_file_write(path, dst, 1)))
		rc = fail(why, n, "%s: cannot write", path);
	else if (lock < 0)
		fail(why, n, "%s: cannot lock", to);
	json_decref(dst);
	json_decref(src);
	if (lock >= 0)
		unlock_finding(lock);
	return rc;
}

/* A new finding's files, meta.json last, into folder dir. */
static int write_finding(const struct finding_ctx *fc, const struct graph *g, const struct check_result *r,
			 const struct check_finding *f, const char *name, const char *dir)
{
	char first[64], path_meta[4400];
	time_t now = time(NULL);
	strftime(first, sizeof first, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	int rc = write_file(dir, "repro.py", r->program, r->program_len);
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
	json_t *meta = meta_json(fc, g, r, f, name, first);
	rc |= !meta || findings_path(path_meta, sizeof path_meta, dir, "meta.json") || json_file_write(path_meta, meta, 1);
	json_decref(meta);
	return rc;
}

/* Moves the files of folder tmp into dir, meta.json last: for a folder a
 * writer of an earlier version left without meta.json. */
static int move_into(const char *tmp, const char *dir)
{
	char from[4400], to[4400];
	int rc = 0;
	DIR *d = opendir(tmp);
	for (struct dirent *e; d && (e = readdir(d));)
		if (e->d_name[0] != '.' && strcmp(e->d_name, "meta.json"))
			rc |= findings_path(from, sizeof from, tmp, e->d_name) || findings_path(to, sizeof to, dir, e->d_name) ||
			      rename(from, to);
	if (d)
		closedir(d);
	return !d || rc || findings_path(from, sizeof from, tmp, "meta.json") ||
	       findings_path(to, sizeof to, dir, "meta.json") || rename(from, to);
}

/* A hit of the signature whose folder dir is: under its lock, the count of
 * the whole finding there bumped, or, where dir holds none (a part an
 * earlier version left) and tmp is given, tmp's files completing it. The old
 * count (0: not there whole), or -1 when it cannot be locked or completed. */
static long repeat(const char *dir, const char *tmp)
{
	int lock = lock_finding(dir);
	if (lock < 0)
		return -1;
	long count = bump_count(dir);
	if (!count && tmp && move_into(tmp, dir))
		count = -1;
	unlock_finding(lock);
	return count;
}

int findings_record(const struct finding_ctx *fc, const struct graph *g, const struct check_result *r,
		    const struct check_finding *f, char *path, size_t pathlen, char *why, size_t n)
{
	char name[64], dir[4200], tmp[4300];
	findings_name(&f->v, f->signature, name, sizeof name);
	if (mkdir(fc->dir, 0777) && errno != EEXIST)
		return fail(why, n, "%s: %s", fc->dir, strerror(errno));
	if (findings_path(dir, sizeof dir, fc->dir, name))
		return fail(why, n, "%s: path too long", fc->dir);
	snprintf(path, pathlen, "%s", dir);
	long count = access(dir, F_OK) ? 0 : repeat(dir, NULL);
	if (count)
		return count < 0 ? fail(why, n, "%s: cannot lock", dir) : 0;
	/* A new signature: written whole under a temporary name and renamed
	 * into place, so a writer killed midway leaves no folder without
	 * meta.json (the campaign sweeps the temporary one). */
	if (atomic_dir_open(dir, tmp, sizeof tmp))
		return fail(why, n, "%s: %s", dir, strerror(errno));
	int rc = write_finding(fc, g, r, f, name, tmp);
	if (!rc && !atomic_dir_commit(tmp, dir))
		return 1;
	if (!rc && errno == EEXIST) /* filed meanwhile by another writer, or a part an earlier version left */
		rc = (count = repeat(dir, tmp)) < 0;
	atomic_remove_dir(tmp);
	if (rc)
		return fail(why, n, "%s: could not write the finding", dir);
	return count == 0;
}

/* Whether a meta.json's finding was found in backward mode. */
static int backward_mode(const json_t *meta)
{
	return !strcmp(json_file_str(meta, "passes"), FINDINGS_BACKWARD_PASSES);
}

int findings_pins_load(const json_t *meta, struct finding_pins *p, char *why, size_t n)
{
	json_t *pinned = json_object_get(meta, "pinned");
	p->n = 0;
	if (json_array_size(pinned) > CHECK_MAX_INDUCTOR)
		return fail(why, n, "meta.json pins %zu settings, more than %d", json_array_size(pinned), CHECK_MAX_INDUCTOR);
	for (size_t i = 0; i < json_array_size(pinned); i++) {
		const char *pin = json_string_value(json_array_get(pinned, i));
		char name[PIN_NAME_MAX], py[SETTING_PYTHON_MAX];
		if (!pin || strlen(pin) >= sizeof p->pin[0])
			return fail(why, n, "meta.json's pinned setting %zu is not a string of under %zu bytes", i,
				    sizeof p->pin[0]);
		if (pin_python(pin, name, sizeof name, py, sizeof py, why, n))
			return -1;
		strcpy(p->pin[p->n++], pin);
	}
	return 0;
}

void findings_pins_apply(const struct finding_pins *p, struct check_cfg *c)
{
	if (c->ninductor)
		return;
	for (unsigned i = 0; i < p->n; i++)
		c->inductor[c->ninductor++] = p->pin[i];
}

int findings_meta_read(const json_t *meta, const char *dir, struct finding_meta *m, char *why, size_t n)
{
	memset(m, 0, sizeof *m);
	json_file_copy(meta, "verdict", m->verdict, sizeof m->verdict);
	json_file_copy(meta, "mismatch", m->mismatch, sizeof m->mismatch);
	json_file_copy(meta, "backend", m->backend, sizeof m->backend);
	json_file_copy(meta, "mode", m->mode, sizeof m->mode);
	json_file_copy(meta, "dynamic", m->dynamic, sizeof m->dynamic);
	json_file_copy(meta, "detail", m->detail, sizeof m->detail);
	json_file_copy(meta, "pass", m->pass, sizeof m->pass);
	m->backward = backward_mode(meta);
	m->output = (int)json_file_num(meta, "output", -1);
	m->count = (unsigned)json_file_num(meta, "count", 1);
	if (findings_pins_load(meta, &m->pins, why, n))
		return -1;
	if (!m->verdict[0] || !m->backend[0])
		return fail(why, n, "%s/meta.json: no verdict or backend", dir);
	if (!strcmp(m->mode, "default"))
		m->mode[0] = 0;
	if (!m->dynamic[0])
		snprintf(m->dynamic, sizeof m->dynamic, "marks");
	return 0;
}

int findings_load(const char *dir, struct graph *g, struct finding_meta *m, char *why, size_t n)
{
	char path[4200];
	memset(m, 0, sizeof *m);
	if (findings_path(path, sizeof path, dir, "graph.bin") || graphio_load(path, g, why, n))
		return -1;
	json_t *meta = findings_path(path, sizeof path, dir, "meta.json") ? NULL : json_file_load(path, why, n);
	if (!meta)
		return -1;
	int rc = findings_meta_read(meta, dir, m, why, n);
	json_decref(meta);
	return rc;
}

void findings_cfg_apply(const struct finding_meta *m, unsigned given, struct check_cfg *c)
{
	if (!(given & GIVEN_BACKEND))
		c->backend = m->backend;
	if (!(given & GIVEN_MODE)) {
		c->compile_mode = m->mode[0] ? m->mode : NULL;
		c->backward = m->backward;
	}
	if (!(given & GIVEN_DYNAMIC))
		c->dynamic = m->dynamic;
	findings_pins_apply(&m->pins, c);
	c->pinned |= PIN_BACKEND | PIN_DYNAMIC; /* meta.json's are what the graph ran under */
}
