/* `pt2fuzz report FINDING [--out FILE] [run options]`: the GitHub issue text
 * that PyTorch's torch.compile bug template asks of fuzzer reports (docs/
 * triage.md, "Reports"). Reruns the finding's reduced graph (else the
 * original, else its repro.py) once with TORCH_TRACE on, asks the same
 * worker for collect_env, runs the graph's plain repro alone, and writes
 * FINDING/report.md, FINDING/trace/ and FINDING/plain.py. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../graph/compile_config.h"
#include "../graph/fail.h"
#include "../pipeline/atomic_file.h"
#include "../pipeline/cli.h"
#include "triage_commands.h"
#include "../pipeline/findings.h"
#include "../pipeline/graphio.h"
#include "report.h"
#include "../pipeline/runopts.h"
#include "reduce.h"

static struct graph G;

/* dir/name into out; -1 when it does not fit. */
static int path_in(char *out, size_t n, const char *dir, const char *name)
{
	int k = snprintf(out, n, "%s/%s", dir, name);
	return k < 0 || (size_t)k >= n ? -1 : 0;
}

static char *read_in(const char *dir, const char *name, size_t *len, char *why, size_t n)
{
	char path[4200];
	return path_in(path, sizeof path, dir, name) ? NULL : (char *)graphio_read_file(path, 16u << 20, len, why, n);
}

/* dir/name's JSON object; NULL with a reason (errno ENOENT when it is absent). */
static json_t *json_in(const char *dir, const char *name, char *why, size_t n)
{
	char path[4200];
	if (!path_in(path, sizeof path, dir, name))
		return json_file_load(path, why, n);
	fail(why, n, "%s/%s: path too long", dir, name);
	errno = ENAMETOOLONG;
	return NULL;
}

static int exists_in(const char *dir, const char *name)
{
	char path[4200];
	return !path_in(path, sizeof path, dir, name) && access(path, F_OK) == 0;
}

static int verdict_by_name(const char *s)
{
	for (int k = 0; k < V_COUNT; k++)
		if (!strcmp(s, verdict_name((enum verdict_kind)k)))
			return k;
	return -1;
}

/* meta.json (required), bisect.json and reduced/reduce.json (optional), the
 * graph (reduced/graph.bin, else graph.bin; neither: the program repro.py). */
static int load_finding(struct report *rp, char **program, size_t *program_len, char *why, size_t n)
{
	rp->meta = json_in(rp->dir, "meta.json", why, n);
	if (!rp->meta)
		return -1;
	json_file_copy(rp->meta, "verdict", rp->verdict, sizeof rp->verdict);
	json_file_copy(rp->meta, "mismatch", rp->mismatch, sizeof rp->mismatch);
	int k = verdict_by_name(rp->verdict);
	if (k < 0 || !verdict_is_finding((enum verdict_kind)k) || !json_file_str(rp->meta, "backend")[0])
		return fail(why, n, "%s/meta.json: not a finding's metadata (no finding verdict or no backend)", rp->dir);
	/* Absent is "not triaged yet"; present but broken is an error, not a report that says less. */
	if (!(rp->bisect = json_in(rp->dir, "bisect.json", why, n)) && errno != ENOENT)
		return -1;
	if (!(rp->reduce = json_in(rp->dir, "reduced/reduce.json", why, n)) && errno != ENOENT)
		return -1;
	json_file_copy(rp->bisect, "layer", rp->layer, sizeof rp->layer);
	static const char *const graphs[] = {"reduced/graph.bin", "graph.bin"};
	for (unsigned i = 0; i < 2 && !rp->g; i++) {
		char path[4200];
		if (!exists_in(rp->dir, graphs[i]))
			continue;
		if (path_in(path, sizeof path, rp->dir, graphs[i]) || graphio_load(path, &G, why, n))
			return -1;
		rp->g = &G;
		rp->reduced = i == 0;
	}
	if (!rp->g && !(*program = read_in(rp->dir, "repro.py", program_len, why, n)))
		return -1;
	return 0;
}

/* The backend, mode, dynamic setting and pins: the command line's, else meta.json's. */
static int finding_cfg(const struct report *rp, const struct cli *cl, struct check_cfg *c, char *why, size_t n)
{
	static struct finding_meta m;
	if (findings_meta_read(rp->meta, rp->dir, &m, why, n))
		return -1;
	reduce_cfg_from_meta(c, &m, cl);
	return check_cfg_validate(c, why, n); /* meta.json's words reach the program as text */
}

/* One traced rerun and collect_env, through one worker. */
static int rerun(struct report *rp, const struct run_opts *ro, char *program, size_t program_len, char *why,
		 size_t n)
{
	struct executor x;
	if (executor_init(&x, &ro->exec, why, n))
		return -1;
	x.trace = &rp->trace;
	int rc = rp->g ? check_graph(&x, rp->g, &ro->check, &rp->r, why, n)
				: check_program(&x, program, program_len, &ro->check, &rp->r, why, n);
	x.trace = NULL;
	executor_info(&x, "device", rp->device, sizeof rp->device);
	if (!rc)
		rc = executor_collect_env(&x, &rp->env, &rp->env_len, why, n);
	executor_free(&x);
	return rc;
}

/* FINDING/trace/REPORT_TRACE_FILE, or no file when the trace is empty. */
static int save_trace(const struct report *rp, char *why, size_t n)
{
	char dir[4200], path[4300];
	if (path_in(dir, sizeof dir, rp->dir, "trace") || path_in(path, sizeof path, dir, REPORT_TRACE_FILE))
		return fail(why, n, "%s: path too long", rp->dir);
	if (!rp->trace.len)
		return remove(path) && errno != ENOENT ? fail(why, n, "%s: %s", path, strerror(errno)) : 0;
	if (mkdir(dir, 0777) && errno != EEXIST)
		return fail(why, n, "%s: %s", dir, strerror(errno));
	if (atomic_write(path, rp->trace.text, rp->trace.len, 0))
		return fail(why, n, "%s: cannot write: %s", path, strerror(errno));
	return 0;
}

/* The plain repro: the rerun graph's plain program at the binding the rerun
 * showed the finding at (else meta.json's), on the rerun's device, run alone
 * and judged; saved as FINDING/plain.py, and reduced/plain.py for a reduced
 * graph. No plain program (no graph, backward mode, aoti) is no error: the
 * report says why. */
static int make_plain(struct report *rp, const struct run_opts *ro, char *why, size_t n)
{
	const struct verdict *v = &rp->r.v;
	if (!rp->g) {
		snprintf(rp->plain_why, sizeof rp->plain_why, "the finding is a program without a graph");
		return 0;
	}
	rp->plain_binding = verdict_is_finding(v->kind) && v->binding >= 0 && v->binding < rp->g->nbind
				    ? (unsigned)v->binding : plain_binding(rp->meta, rp->g);
	rp->plain = plain_program(rp->g, rp->meta, &ro->check, rp->plain_binding, !strncmp(rp->device, "cuda", 4),
				  &rp->plain_len, rp->plain_why, sizeof rp->plain_why);
	if (!rp->plain)
		return 0;
	/* the worker's limit for this graph (its configuration's slow compiles), and Python's start */
	long long limit_s = ro->exec.timeout_ms / 1000 * graph_config_time_factor(&rp->g->config) + 60;
	if (plain_run(rp->plain, rp->plain_len, limit_s, &rp->plain_run, why, n))
		return -1;
	rp->plain_shows = plain_shows(&rp->plain_run, rp->meta, rp->plain_why, sizeof rp->plain_why);
	static const char *const saved[] = {"plain.py", "reduced/plain.py"};
	for (unsigned i = 0; i < 1u + (unsigned)rp->reduced; i++) {
		char path[4200];
		if (path_in(path, sizeof path, rp->dir, saved[i]) || atomic_write(path, rp->plain, rp->plain_len, 0))
			return fail(why, n, "%s/%s: cannot write: %s", rp->dir, saved[i], strerror(errno));
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	static struct run_opts ro;
	static struct report rp;
	char why[800], **args, default_out[4200], *program = NULL;
	size_t program_len = 0;
	static const struct option options[] = {{"out", required_argument, NULL, 0}, {NULL, 0, NULL, 0}};
	static struct cli c;
	if (cli_parse(&c, "pt2fuzz report", argc, argv, (const struct option *const[]){options, run_opts_table, NULL}, 0))
		return c.status;
	if (run_opts_parse(&c, &ro))
		return 2;
	args = c.pos;
	if (c.npos != 1) {
		fprintf(stderr, "usage: pt2fuzz report FINDING [--out FILE] [run options]\n");
		return 2;
	}
	rp.dir = args[0];
	const char *out = cli_opt(&c, "out");
	if (!out && path_in(default_out, sizeof default_out, rp.dir, "report.md")) {
		fprintf(stderr, "pt2fuzz report: %s: path too long\n", rp.dir);
		return 2;
	}
	out = out ? out : default_out;
	int rc = load_finding(&rp, &program, &program_len, why, sizeof why) ||
		 finding_cfg(&rp, &c, &ro.check, why, sizeof why) ||
		 rerun(&rp, &ro, program, program_len, why, sizeof why) || save_trace(&rp, why, sizeof why) ||
		 make_plain(&rp, &ro, why, sizeof why);
	struct atomic_file a;
	FILE *f = rc ? NULL : atomic_open(&a, out);
	if (f) {
		report_write(f, &rp, &ro.check);
		rc = atomic_commit(&a, 0) ? fail(why, sizeof why, "%s: write error: %s", out, strerror(errno)) : 0;
	} else if (!rc) {
		rc = fail(why, sizeof why, "%s: %s", out, strerror(errno));
	}
	if (rc)
		fprintf(stderr, "pt2fuzz report: %s\n", why);
	else
		fprintf(stderr, "pt2fuzz report: wrote %s (rerun: %s; trace: %zu bytes; plain repro: %s%s%s)\n", out,
			verdict_name(rp.r.v.kind), rp.trace.len,
			rp.plain_shows ? "reproduces alone" : rp.plain ? "does not reproduce alone, " : "none, ",
			rp.plain_shows ? "" : rp.plain_why, rp.plain ? ", saved as plain.py" : "");
	if (program != rp.r.program) /* check_program did not take it */
		free(program);
	check_result_free(&rp.r);
	json_decref(rp.meta);
	json_decref(rp.bisect);
	json_decref(rp.reduce);
	free(rp.trace.text);
	free(rp.env);
	free(rp.plain);
	return rc ? 1 : 0;
}
