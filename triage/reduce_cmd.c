/* `pt2fuzz reduce`: the command around reduce_graph — a finding folder or a
 * graph file in, a folder with the reduced graph.bin, repro.py and
 * reduce.json out. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../graph/codec.h"
#include "../graph/emit.h"
#include "../pipeline/atomic_file.h"
#include "../pipeline/check.h"
#include "../pipeline/cli.h"
#include "triage_commands.h"
#include "../pipeline/findings.h"
#include "../pipeline/graphio.h"
#include "../pipeline/json_file.h"
#include "reduce.h"

static int write_text(const char *dir, const char *name, const void *buf, size_t len)
{
	char path[4200];
	if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
		return -1;
	return atomic_write(path, buf, len, 1);
}

int reduce_write(const char *dir, const struct graph *g, const struct check_cfg *c, const struct reduce_stats *st)
{
	static uint8_t enc[CODEC_MAX_SIZE];
	size_t elen = codec_encode(g, enc, sizeof enc), plen = 0;
	char *prog = check_program_text(g, c, &plen), key[17], path[4200]; /* what the reduction's checks ran */
	snprintf(key, sizeof key, "%016llx", (unsigned long long)st->last.key);
	json_t *json = json_pack("{s:i, s:i, s:f, s:i, s:i, s:i, s:i, s:s, s:s, s:s, s:o, s:s, s:o, s:o, s:f, s:f, s:f}",
				 "ops_before", (int)st->ops_before, "ops_after", (int)st->ops_after, "seconds",
				 round(st->seconds * 10) / 10, "checks", (int)st->checks, "cache_hits", (int)st->cache_hits,
				 "refused", (int)st->refused, "not_run", (int)st->not_run, "key", key, "verdict",
				 verdict_name(st->last.kind), "mismatch", mismatch_name(st->last.what), "backend",
				 json_file_text(c->backend), "mode", c->compile_mode ? c->compile_mode : "default", "dynamic",
				 json_file_text(c->dynamic), "detail", json_file_text(st->last.detail), "eager_rmse",
				 st->last.ref_rmse, "compiled_rmse", st->last.res_rmse, "tol", st->last.tol);
	int rc = !json || !prog || !elen || (mkdir(dir, 0777) && errno != EEXIST) ||
		 write_text(dir, "graph.bin", enc, elen) || write_text(dir, "repro.py", prog, plen) ||
		 snprintf(path, sizeof path, "%s/reduce.json", dir) >= (int)sizeof path || json_file_write(path, json, 1);
	json_decref(json);
	free(prog);
	return rc ? -1 : 0;
}

void reduce_write_taken(const struct graph *cur, const struct reduce_stats *st, void *arg)
{
	const struct reduce_out *o = arg;
	struct reduce_stats own = *st;
	if (o->ops_before)
		own.ops_before = o->ops_before;
	if (reduce_write(o->dir, cur, o->c, &own))
		fprintf(stderr, "pt2fuzz reduce: cannot write %s\n", o->dir);
}

/* The configuration a finding was found under, unless the command line says
 * otherwise; and the finding itself, where its graph's first verdict is
 * another's. */
void reduce_cfg_from_meta(struct check_cfg *c, const struct finding_meta *m, const struct cli *cl)
{
	findings_cfg_apply(m,
			   (cli_opt(cl, "backend") ? GIVEN_BACKEND : 0) | (cli_opt(cl, "mode") ? GIVEN_MODE : 0) |
				   (cli_opt(cl, "dynamic") ? GIVEN_DYNAMIC : 0),
			   c);
	snprintf(c->want.verdict, sizeof c->want.verdict, "%s", m->verdict);
	c->want.output = m->output;
}

int cmd_reduce(int argc, char **argv)
{
	static struct run_opts ro;
	static struct graph g, out;
	static struct finding_meta meta;
	static const struct option options[] = {
		{"out", required_argument, NULL, 0}, {"time", required_argument, NULL, 0}, {NULL, 0, NULL, 0}};
	static struct cli c;
	char **args, why[600], outdir[4200];
	long long secs;
	if (cli_parse(&c, "pt2fuzz reduce", argc, argv, (const struct option *const[]){options, run_opts_table, NULL}, 0))
		return c.status;
	args = c.pos;
	if (run_opts_parse(&c, &ro) || cli_num(&c, "time", 600, 1, 86400, &secs))
		return 2;
	if (c.npos != 1) {
		fprintf(stderr, "usage: pt2fuzz reduce %s\n", REDUCE_USAGE);
		return 2;
	}
	struct stat st;
	int is_finding = !stat(args[0], &st) && S_ISDIR(st.st_mode);
	meta.output = -1;
	if (is_finding ? findings_load(args[0], &g, &meta, why, sizeof why) : graphio_load(args[0], &g, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz reduce: %s\n", why);
		return 1;
	}
	if (is_finding)
		reduce_cfg_from_meta(&ro.check, &meta, &c);
	snprintf(outdir, sizeof outdir, "%s", cli_opt(&c, "out") ? cli_opt(&c, "out") : "reduced");
	if (is_finding && !cli_opt(&c, "out") && snprintf(outdir, sizeof outdir, "%s/reduced", args[0]) < 0)
		return 1;
	struct pool pool;
	struct reduce_stats rs;
	if (pool_start(&pool, ro.jobs, &ro, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz reduce: %s\n", why);
		return 1;
	}
	struct reduce_out written = {outdir, &ro.check, 0};
	int rc = reduce_graph(&pool, &g, &ro.check, 0, meta.output, (double)secs, &out, &rs, reduce_write_taken, &written);
	pool_stop(&pool);
	if (rc) {
		fprintf(stderr, "pt2fuzz reduce: a worker pool process died\n");
		return 1;
	}
	if (!rs.reproduced) {
		fprintf(stderr, "pt2fuzz reduce: %s does not reproduce a finding (verdict %s%s%s)\n", args[0],
			verdict_name(rs.last.kind), rs.last.detail[0] ? ": " : "", rs.last.detail);
		return 1;
	}
	if (reduce_write(outdir, &out, &ro.check, &rs)) {
		fprintf(stderr, "pt2fuzz reduce: cannot write %s\n", outdir);
		return 1;
	}
	printf("%s: %s/%s\n", outdir, verdict_name(rs.last.kind), mismatch_name(rs.last.what));
	printf("reduced %u ops -> %u ops in %.0f s (%u checks", rs.ops_before, rs.ops_after, rs.seconds, rs.checks);
	if (rs.not_run)
		printf(", %u not run: cut at the deadline, or no worker", rs.not_run);
	printf(")\n");
	return 0;
}
