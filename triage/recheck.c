/* `pt2fuzz recheck DIR`: every finding of a findings directory rerun on the
 * torch installed now, under the settings it was found with, and judged by
 * the oracle: still failing, fixed or changed. The answer goes into each
 * finding's meta.json as "recheck". */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "../graph/fail.h"
#include "../pipeline/cli.h"
#include "../pipeline/findings.h"
#include "../pipeline/graphio.h"
#include "../pipeline/json_file.h"
#include "finding_list.h"
#include "reduce.h"
#include "triage_commands.h"

#define MAX_FINDINGS 1024

struct rechecked {
	char name[FINDING_NAME_MAX];
	int reduced;                /* the graph is reduced/graph.bin */
	struct finding_meta meta;   /* verdict and detail: the reduced graph's when reduced */
	struct check_cfg cfg;
	struct graph g;
	struct pool_result now;
	char error[600];            /* why it could not be read */
};

/* The graph to rerun (reduced/graph.bin when there is one) and what it
 * showed when found (reduce.json's verdict and detail for a reduced one). */
static int load_one(const char *dir, struct rechecked *r, const struct run_opts *ro, const struct cli *cl)
{
	char path[4300];
	struct stat st;
	if (findings_load(dir, &r->g, &r->meta, r->error, sizeof r->error))
		return -1;
	r->cfg = ro->check;
	reduce_cfg_from_meta(&r->cfg, &r->meta, cl);
	if (findings_path(path, sizeof path, dir, "reduced/graph.bin") || stat(path, &st))
		return 0;
	r->reduced = 1;
	if (graphio_load(path, &r->g, r->error, sizeof r->error))
		return -1;
	json_t *red = findings_path(path, sizeof path, dir, "reduced/reduce.json")
			      ? NULL
			      : json_file_load(path, r->error, sizeof r->error);
	if (!red)
		return -1;
	if (json_file_str(red, "verdict")[0])
		json_file_copy(red, "verdict", r->meta.verdict, sizeof r->meta.verdict);
	json_file_copy(red, "detail", r->meta.detail, sizeof r->meta.detail);
	json_decref(red);
	return 0;
}

/* The answers, in the summary's order. */
enum answer { A_FIXED, A_STILL, A_CHANGED, A_COUNT };
static const char *const answer_names[A_COUNT] = {"fixed", "still failing", "changed"};

/* The verdict now against the one found. */
static enum answer outcome(const struct rechecked *r)
{
	if (r->now.kind == V_PASS)
		return A_FIXED;
	return strcmp(verdict_name(r->now.kind), r->meta.verdict) ? A_CHANGED : A_STILL;
}

/* meta.json's "recheck", written back whole and atomically. */
static int record(const char *dir, const struct rechecked *r, const char *result, const char *at, char *why, size_t n)
{
	char path[4300];
	json_t *meta = findings_path(path, sizeof path, dir, "meta.json") ? NULL : json_file_load(path, why, n);
	if (!meta)
		return -1;
	json_t *rc = json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:s}", "torch", r->now.torch, "result", result, "verdict",
			       verdict_name(r->now.kind), "mismatch", mismatch_name(r->now.what), "detail",
			       json_file_text(r->now.detail), "graph", r->reduced ? "reduced" : "original", "at", at);
	int bad = !rc || json_object_set_new(meta, "recheck", rc) || json_file_write(path, meta, 1);
	json_decref(meta);
	return bad ? fail(why, n, "%s: cannot write: %s", path, strerror(errno)) : 0;
}

/* One rerun finding: its line, and its answer into meta.json. The answer,
 * or -1 (and an error line) when it did not run or cannot be recorded. */
static int report_one(const char *root, struct rechecked *r, const char *at)
{
	char dir[4200], why[600] = "";
	if (!r->now.ran) {
		printf("%s: error: not run: %s\n", r->name, r->now.detail);
		return -1;
	}
	enum answer a = outcome(r);
	printf("%s: %s (%s%s%s", r->name, answer_names[a], verdict_name(r->now.kind), r->now.detail[0] ? ": " : "",
	       r->now.detail);
	if (a == A_STILL && strcmp(r->now.detail, r->meta.detail))
		printf("; detail changed, was: %s", r->meta.detail);
	else if (a == A_CHANGED)
		printf("; was %s", r->meta.verdict);
	printf(")%s\n", r->reduced ? " [reduced]" : "");
	if (findings_path(dir, sizeof dir, root, r->name) || record(dir, r, answer_names[a], at, why, sizeof why)) {
		printf("%s: error: %s\n", r->name, why);
		return -1;
	}
	return (int)a;
}

int cmd_recheck(int argc, char **argv)
{
	static struct run_opts ro;
	static struct rechecked rs[MAX_FINDINGS];
	static char names[MAX_FINDINGS][FINDING_NAME_MAX];
	static struct cli c;
	char why[600], dir[4200], at[32];
	if (cli_parse(&c, "pt2fuzz recheck", argc, argv, (const struct option *const[]){run_opts_table, NULL}, 0))
		return c.status;
	if (run_opts_parse(&c, &ro))
		return 2;
	if (c.npos != 1) {
		fprintf(stderr, "usage: pt2fuzz recheck %s\n", RECHECK_USAGE);
		return 2;
	}
	int listed = finding_list(c.pos[0], names, MAX_FINDINGS);
	if (listed <= 0) {
		fprintf(stderr, "pt2fuzz recheck: no findings in %s\n", c.pos[0]);
		return 1;
	}
	unsigned n = (unsigned)listed, nrun = 0, count[A_COUNT] = {0}, errors = 0;
	static struct rechecked *runs[MAX_FINDINGS];
	static const struct graph *gs[MAX_FINDINGS];
	static const struct check_cfg *cs[MAX_FINDINGS];
	static struct pool_result res[MAX_FINDINGS];
	/* The unreadable ones first, each a line; the others are rerun. */
	for (unsigned i = 0; i < n; i++) {
		struct rechecked *r = &rs[i];
		memcpy(r->name, names[i], sizeof r->name);
		if (findings_path(dir, sizeof dir, c.pos[0], r->name) || load_one(dir, r, &ro, &c)) {
			errors++;
			printf("%s: error: %s\n", r->name, r->error);
			continue;
		}
		runs[nrun] = r;
		gs[nrun] = &r->g;
		cs[nrun++] = &r->cfg;
	}
	fflush(stdout);
	struct pool pool;
	if (nrun && pool_start(&pool, ro.jobs, &ro, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz recheck: %s\n", why);
		return 1;
	}
	/* A batch of as many as there are workers at a time, so that lines come as they are known. */
	for (unsigned k = 0; k < nrun; k += ro.jobs) {
		unsigned batch = nrun - k < ro.jobs ? nrun - k : ro.jobs;
		if (pool_run(&pool, gs + k, cs + k, batch, res + k)) {
			fprintf(stderr, "pt2fuzz recheck: a worker pool process died\n");
			pool_stop(&pool);
			return 1;
		}
		time_t now = time(NULL);
		strftime(at, sizeof at, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
		for (unsigned j = k; j < k + batch; j++) {
			runs[j]->now = res[j];
			int a = report_one(c.pos[0], runs[j], at);
			if (a < 0)
				errors++;
			else
				count[a]++;
		}
		fflush(stdout);
	}
	if (nrun)
		pool_stop(&pool);
	printf("recheck: %u findings: %u %s, %u %s, %u %s", n, count[A_FIXED], answer_names[A_FIXED], count[A_STILL],
	       answer_names[A_STILL], count[A_CHANGED], answer_names[A_CHANGED]);
	if (errors)
		printf(", %u errors", errors);
	printf("\n");
	return errors ? 1 : 0;
}
