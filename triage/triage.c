/* `pt2fuzz triage DIR`: every finding in a findings directory reduced,
 * bisected and rerun, and grouped by bug: behaviour, missing-error and
 * error-mismatch findings by their bucket (pipeline/bucket.h: kind and
 * normalized error), the others by their reduced graph's signature (the same
 * bug under different surrounding graphs); DIR/triage.md has a row per
 * bucket, with the known upstream bug it matches. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../graph/op.h"
#include "../pipeline/atomic_file.h"
#include "../pipeline/bucket.h"
#include "../pipeline/check.h"
#include "../pipeline/op_names.h"
#include "bisect.h"
#include "finding_list.h"
#include "../pipeline/cli.h"
#include "triage_commands.h"
#include "../pipeline/graphio.h"
#include "../pipeline/json_file.h"
#include "reduce.h"

#define MAX_FINDINGS 1024

struct triaged {
	char name[FINDING_NAME_MAX];
	struct finding_meta meta;
	struct graph reduced;
	int reproduced;
	unsigned reruns_ok, reruns, ops_before;
	int from_reduced; /* reduction went on from an earlier triage's reduced/ */
	unsigned checks;
	struct finding_bucket found; /* meta.json's bucket */
	uint64_t bucket;           /* found's hash, or for kinds bucketed by signature the reduced graph's */
	struct pool_result verdict;
	struct bisect_result bisect;
};

/* An earlier reduction of the finding (reduced/graph.bin) and the key it
 * showed: 0 when there is none, or when it kept another verdict than the
 * finding's own (verdict: meta.json's; one of a graph's other findings).
 * Background triage reduces a campaign's findings as they come; triaging
 * the campaign's findings afterwards then starts from those graphs instead
 * of reducing again from scratch. */
static uint64_t earlier_reduction(const char *dir, const char *verdict, struct graph *g)
{
	char path[4200], why[600], key[20] = "", kept[32] = "";
	if (findings_path(path, sizeof path, dir, "reduced/graph.bin") || graphio_load(path, g, why, sizeof why) ||
	    findings_path(path, sizeof path, dir, "reduced/reduce.json"))
		return 0;
	json_t *j = json_file_load(path, why, sizeof why);
	if (!j)
		return 0;
	json_file_copy(j, "key", key, sizeof key);
	json_file_copy(j, "verdict", kept, sizeof kept);
	json_decref(j);
	return strcmp(kept, verdict) ? 0 : strtoull(key, NULL, 16);
}

/* Reduce (going on from reduced/ when it still shows its key), bisect, rerun one finding. */
static int triage_one(struct pool *p, const char *dir, struct triaged *t, const struct run_opts *ro,
		      const struct cli *cl, double secs, unsigned reruns)
{
	static struct graph g;
	char why[600], path[4200];
	struct check_cfg c = ro->check;
	if (findings_load(dir, &g, &t->meta, why, sizeof why) || findings_mark(dir, why, sizeof why) ||
	    bucket_load(dir, &t->found, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz triage: %s\n", why);
		return 0;
	}
	reduce_cfg_from_meta(&c, &t->meta, cl);
	t->ops_before = g.nnodes;
	struct reduce_stats rs;
	static struct graph earlier;
	uint64_t key = earlier_reduction(dir, t->meta.verdict, &earlier);
	/* The earlier graph has its own outputs: the finding's output index is the original's. */
	if (findings_path(path, sizeof path, dir, "reduced")) {
		fprintf(stderr, "pt2fuzz triage: %s: path too long\n", dir);
		return 0;
	}
	struct reduce_out written = {path, &c, t->ops_before};
	if (key && reduce_graph(p, &earlier, &c, key, -1, secs, &t->reduced, &rs, reduce_write_taken, &written))
		return -1;
	t->from_reduced = key && rs.reproduced;
	unsigned tried = key && !t->from_reduced ? rs.checks : 0; /* the earlier graph that no longer showed it */
	if (!t->from_reduced &&
	    reduce_graph(p, &g, &c, 0, t->meta.output, secs, &t->reduced, &rs, reduce_write_taken, &written))
		return -1;
	t->checks = tried + rs.checks;
	rs.ops_before = t->ops_before;
	t->reproduced = rs.reproduced;
	t->verdict = rs.last;
	if (!rs.reproduced)
		return 0;
	c.want.key = rs.last.key; /* bisection and reruns follow what the reduction kept */
	if (reduce_write(path, &t->reduced, &c, &rs))
		fprintf(stderr, "pt2fuzz triage: cannot write %s\n", path);
	/* The reduced graph's bucket, and whether its ops are a known bug's,
	 * before bisection: a campaign's triage cut short at its deadline has
	 * classed what it reduced. */
	t->bucket = t->found.by_error ? t->found.hash : rs.last.signature;
	const char *ops[G_MAX_NODES];
	unsigned nops = op_names(&t->reduced, NULL, ops, G_MAX_NODES);
	if (bucket_store_known_reduced(dir, ops, nops, t->bucket, &t->found.known, why, sizeof why))
		fprintf(stderr, "pt2fuzz triage: %s\n", why);
	if (bisect_graph(p, &t->reduced, &c, rs.last.key, !strcmp(t->meta.pass, "backward"), &t->bisect))
		return -1;
	if (findings_path(path, sizeof path, dir, "bisect.json") || bisect_write(path, &t->bisect))
		fprintf(stderr, "pt2fuzz triage: cannot write %s/bisect.json\n", dir);
	/* Reruns tell flaky findings apart: all must show the same key. */
	static struct graph copies[POOL_MAX];
	struct pool_result res[POOL_MAX];
	t->reruns = reruns < POOL_MAX ? reruns : POOL_MAX;
	for (unsigned i = 0; i < t->reruns; i++)
		copies[i] = t->reduced;
	if (pool_check(p, copies, t->reruns, &c, res))
		return -1;
	for (unsigned i = 0; i < t->reruns; i++)
		t->reruns_ok += res[i].key == rs.last.key;
	return 0;
}

static void op_list(const struct graph *g, char *out, size_t n)
{
	const char *ops[G_MAX_NODES];
	unsigned k = op_names(g, NULL, ops, G_MAX_NODES);
	size_t len = 0;
	out[0] = 0;
	for (unsigned i = 0; i < k && len + 1 < n; i++)
		len += (size_t)snprintf(out + len, n - len, "%s%s", i ? ", " : "", ops[i]);
}

/* s in a Markdown table cell: '|' escaped, cut to fit. */
static void cell(const char *s, char *out, size_t n)
{
	size_t o = 0;
	for (; *s && o + 3 < n; s++) {
		if (*s == '|' || *s == '\\')
			out[o++] = '\\';
		out[o++] = *s;
	}
	out[o] = 0;
}

static void write_markdown(FILE *f, const char *dir, struct triaged *ts, unsigned n)
{
	fprintf(f, "# Triage of %s\n\n%u findings. One row per bucket, one bug: behaviour, missing-error and "
		   "error-mismatch findings with the same normalized error, other findings whose reduced graphs share "
		   "a signature.\n\n", dir, n);
	fprintf(f, "| bucket | kind | layer | ops (reduced) | count | reduced size | flaky | findings | known | error (normalized) |\n");
	fprintf(f, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
	unsigned nb = 0, nknown = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!ts[i].reproduced)
			continue;
		int first = 1;
		for (unsigned j = 0; j < i && first; j++)
			first = !(ts[j].reproduced && ts[j].bucket == ts[i].bucket);
		if (!first)
			continue;
		unsigned count = 0, size = ts[i].reduced.nnodes, flaky = 0;
		char ops[600], members[2048] = "";
		size_t ml = 0;
		for (unsigned j = i; j < n; j++) {
			if (!ts[j].reproduced || ts[j].bucket != ts[i].bucket)
				continue;
			count += ts[j].meta.count;
			size = ts[j].reduced.nnodes < size ? ts[j].reduced.nnodes : size;
			flaky |= ts[j].reruns_ok < ts[j].reruns;
			if (ml + 80 < sizeof members)
				ml += (size_t)snprintf(members + ml, sizeof members - ml, "%s`%s`", ml ? " " : "", ts[j].name);
		}
		op_list(&ts[i].reduced, ops, sizeof ops);
		char error[900];
		const char *colon = strstr(ts[i].found.text, ": ");
		cell(ts[i].found.by_error && colon ? colon + 2 : "", error, sizeof error);
		const struct known_bug *known = ts[i].found.known;
		fprintf(f, "| %016llx | %s/%s | %s | %s | %u | %u ops | %s | %s | %s | %s |\n", (unsigned long long)ts[i].bucket,
			verdict_name(ts[i].verdict.kind), mismatch_name(ts[i].verdict.what), ts[i].bisect.layer, ops, count,
			size, flaky ? "yes" : "no", members, known ? known->issue : "", error);
		nb++;
		nknown += known != NULL;
	}
	unsigned lost = 0;
	for (unsigned i = 0; i < n; i++)
		lost += !ts[i].reproduced;
	fprintf(f, "\n%u buckets, %u of them known upstream (pipeline/known_bugs.txt, --known).", nb, nknown);
	if (lost) {
		fprintf(f, " %u findings did not reproduce (flaky or environment-dependent):", lost);
		for (unsigned i = 0; i < n; i++)
			if (!ts[i].reproduced)
				fprintf(f, " `%s`", ts[i].name);
	}
	fprintf(f, "\n\nEach finding's folder holds `reduced/` (graph.bin, repro.py, reduce.json) and "
		   "`bisect.json`; `pt2fuzz report FINDING` writes its issue text.\n");
}

int cmd_triage(int argc, char **argv)
{
	static struct run_opts ro;
	static struct triaged ts[MAX_FINDINGS];
	char **args, why[600], path[4200];
	long long secs, reruns;
	static const struct option options[] = {
		{"time", required_argument, NULL, 0}, {"reruns", required_argument, NULL, 0}, {NULL, 0, NULL, 0}};
	static struct cli c;
	if (cli_parse(&c, "pt2fuzz triage", argc, argv, (const struct option *const[]){options, run_opts_table, NULL}, 0))
		return c.status;
	if (run_opts_parse(&c, &ro) || cli_num(&c, "time", 300, 1, 86400, &secs) ||
	    cli_num(&c, "reruns", 3, 1, POOL_MAX, &reruns))
		return 2;
	args = c.pos;
	if (c.npos != 1) {
		fprintf(stderr, "usage: pt2fuzz triage %s\n", TRIAGE_USAGE);
		return 2;
	}
	static char names[MAX_FINDINGS][FINDING_NAME_MAX];
	int listed = finding_list(args[0], names, MAX_FINDINGS);
	if (listed <= 0) {
		fprintf(stderr, "pt2fuzz triage: no findings in %s\n", args[0]);
		return 1;
	}
	unsigned n = (unsigned)listed;
	for (unsigned i = 0; i < n; i++)
		memcpy(ts[i].name, names[i], sizeof ts[i].name);
	struct pool pool;
	if (pool_start(&pool, ro.jobs, &ro, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz triage: %s\n", why);
		return 1;
	}
	for (unsigned i = 0; i < n; i++) {
		findings_path(path, sizeof path, args[0], ts[i].name);
		if (triage_one(&pool, path, &ts[i], &ro, &c, (double)secs, (unsigned)reruns)) {
			fprintf(stderr, "pt2fuzz triage: a worker pool process died\n");
			pool_stop(&pool);
			return 1;
		}
		printf("%s: %s, %u ops -> %u%s, %u checks, layer %s, reruns %u/%u\n", ts[i].name,
		       ts[i].reproduced ? verdict_name(ts[i].verdict.kind) : "not reproduced", ts[i].ops_before,
		       ts[i].reproduced ? ts[i].reduced.nnodes : ts[i].ops_before,
		       ts[i].from_reduced ? " (from reduced/)" : "", ts[i].checks,
		       ts[i].reproduced ? ts[i].bisect.layer : "-", ts[i].reruns_ok, ts[i].reruns);
		fflush(stdout);
	}
	pool_stop(&pool);
	/* A batch counts as done once triage.md exists (fuzz/campaign_triage.c): never half of one. */
	struct atomic_file a;
	FILE *f = findings_path(path, sizeof path, args[0], "triage.md") ? NULL : atomic_open(&a, path);
	if (f)
		write_markdown(f, args[0], ts, n);
	if (!f || atomic_commit(&a, 1)) {
		fprintf(stderr, "pt2fuzz triage: %s: cannot write: %s\n", path, strerror(errno));
		return 1;
	}
	printf("wrote %s\n", path);
	return 0;
}
