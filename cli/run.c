/* `pt2fuzz run`: graphs (or emitted .py programs) through N workers, one
 * verdict line per input and a summary. Each job is a child process with its
 * own executor; they take inputs from a shared counter, so a slow compile
 * holds up one job only. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../harness/protocol.h"
#include "../harness/runtime.h"
#include "../harness/spawn.h"
#include "../pipeline/blame.h"
#include "../pipeline/cli.h"
#include "commands.h"
#include "../pipeline/bucket.h"
#include "../pipeline/findings.h"
#include "../pipeline/graphio.h"
#include "../pipeline/isolate.h"
#include "../pipeline/runopts.h"

struct shared_stats {
	unsigned next;             /* next input index to take */
	unsigned verdicts[V_COUNT];
	unsigned new_findings, known_findings, repeat_findings, errors;
};

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Files named on the command line, directories expanded (sorted, non-recursive). */
static char **collect_inputs(char **args, int nargs, unsigned *count)
{
	char **list = NULL;
	unsigned n = 0, cap = 0;
	for (int i = 0; i < nargs; i++) {
		struct stat st;
		if (stat(args[i], &st)) {
			fprintf(stderr, "pt2fuzz run: %s: %s\n", args[i], strerror(errno));
			continue;
		}
		DIR *d = S_ISDIR(st.st_mode) ? opendir(args[i]) : NULL;
		struct dirent *e;
		unsigned first = n;
		do {
			const char *name = NULL;
			char path[4096];
			if (d) {
				if (!(e = readdir(d)))
					break;
				if (e->d_name[0] == '.')
					continue;
				snprintf(path, sizeof path, "%s/%s", args[i], e->d_name);
				if (stat(path, &st) || !S_ISREG(st.st_mode))
					continue;
				name = path;
			} else {
				name = args[i];
			}
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				list = realloc(list, cap * sizeof *list);
			}
			list[n++] = strdup(name);
		} while (d);
		if (d) {
			closedir(d);
			qsort(list + first, n - first, sizeof *list, by_name);
		}
	}
	*count = n;
	return list;
}

static int is_program(const char *path)
{
	size_t l = strlen(path);
	return l > 3 && !strcmp(path + l - 3, ".py");
}

/* A .py that Python cannot even compile is no program to judge: an input
 * error, not an `invalid` verdict. */
static int not_python(const struct check_result *r)
{
	static const char *const unparsable[] = {"SyntaxError", "IndentationError", "TabError"};
	const struct mode_result *m = &r->run.m[RM_EAGER][0];
	for (unsigned i = 0; i < sizeof unparsable / sizeof *unparsable; i++)
		if (!strcmp(m->etype, unparsable[i]))
			return 1;
	return 0;
}

/* fresh: 1 for a new finding, 0 for a repeat; known: the upstream issue a
 * new finding matches (never shown as new), or NULL. */
static void print_verdict(const char *path, const struct verdict *v, const struct check_blame *blame, const char *finding, int fresh,
			  const char *known)
{
	printf("%s: %s", path, verdict_name(v->kind));
	if (v->kind != V_PASS && v->what != MM_NONE)
		printf("/%s", mismatch_name(v->what));
	if (v->kind != V_PASS && v->detail[0])
		printf(": %s", v->detail);
	if (finding && known)
		printf(" [known: %s] (%s %s)", known, fresh ? "finding" : "repeat", finding);
	else if (finding)
		printf(" [%s %s]", fresh ? "new finding" : "repeat", finding);
	if (v->grads_judged) /* backward mode: how many gradient outputs the oracle compared */
		printf(" (%u gradients compared)", v->grads_judged);
	if (blame && blame->status != BLAME_NONE)
		printf(" (%s)", blame->note);
	putchar('\n');
	fflush(stdout);
}

/* Files finding f of r (for graph g; NULL for a program text), counts it;
 * the folder into dir (size 4200), and *issue the known bug it matches. */
static int record_finding(struct finding_ctx *fc, const struct graph *g, const struct check_result *r,
			  const struct check_finding *f, struct shared_stats *st, char *dir, const char **issue)
{
	char why[600];
	struct finding_bucket b = {0};
	int fresh = findings_record(fc, g, r, f, dir, 4200, why, sizeof why);
	if (fresh < 0 || bucket_load(dir, &b, why, sizeof why))
		fprintf(stderr, "pt2fuzz run: %s\n", why);
	__atomic_fetch_add(fresh <= 0 ? &st->repeat_findings : b.known ? &st->known_findings : &st->new_findings, 1,
			   __ATOMIC_RELAXED);
	*issue = b.known ? b.known->issue : NULL;
	return fresh;
}

/* Files a result's findings (its verdict's, then its other outputs'),
 * counts them, and prints its verdict line; path names the input (label:
 * which part of it, or NULL). */
static void record(struct finding_ctx *fc, const char *path, const char *label, const struct graph *g,
		   const struct check_result *r, struct shared_stats *st)
{
	char dir[4200] = "", shown[4400];
	int fresh = 0;
	const char *issue = NULL;
	snprintf(shown, sizeof shown, "%s%s%s", path, label ? " " : "", label ? label : "");
	__atomic_fetch_add(&st->verdicts[r->v.kind], 1, __ATOMIC_RELAXED);
	fc->source = path;
	if (verdict_is_finding(r->v.kind) && fc->dir) {
		struct check_finding f;
		check_primary(r, &f);
		fresh = record_finding(fc, g, r, &f, st, dir, &issue);
	}
	print_verdict(shown, &r->v, &r->blame, dir[0] ? dir : NULL, fresh > 0, issue);
	for (unsigned i = 0; i < r->nmore && fc->dir; i++) { /* each its own line, as found */
		struct verdict also = r->more[i].v;
		also.grads_judged = 0;
		fresh = record_finding(fc, g, r, &r->more[i], st, dir, &issue);
		snprintf(shown, sizeof shown, "%s (also)", path);
		print_verdict(shown, &also, NULL, dir, fresh > 0, issue);
	}
}

/* A graph's exception pinned on its components (pipeline/isolate.h): each
 * part's findings filed and shown in place of the whole graph's. 1 when
 * that was done, 0 when the whole stands. */
static int record_parts(struct executor *x, struct finding_ctx *fc, const char *path, const struct graph *g,
			const struct check_result *r, const struct run_opts *ro, struct shared_stats *st)
{
	static struct check_part parts[4];
	char why[600], label[64];
	int np = isolate_parts(x, g, &ro->check, r, parts, 4, why, sizeof why);
	if (np < 0)
		fprintf(stderr, "pt2fuzz run: %s: isolating its components: %s\n", path, why);
	for (int i = 0; i < np; i++) {
		snprintf(label, sizeof label, "(%s %d of %d)", i + 1 < np ? "component" : "the rest", i + 1, np);
		record(fc, path, label, &parts[i].g, &parts[i].r, st);
		check_result_free(&parts[i].r);
	}
	return np > 0; /* each part a verdict in the totals, in place of the whole's */
}

/* One job: its own worker; inputs by the shared counter. */
static int run_job(struct run_opts *ro, char **inputs, unsigned ninputs, struct shared_stats *st)
{
	struct executor x;
	char why[600];
	if (executor_init(&x, &ro->exec, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz run: %s\n", why);
		return 1;
	}
	static struct graph g;
	struct finding_ctx fc = {ro->findings, &ro->check, &x, ro->exec.device, NULL};
	struct { /* the inputs checked last, newest at nran - 1, with the verdict counted for each */
		unsigned input;
		enum verdict_kind kind;
	} ran[BLAME_HISTORY];
	unsigned nran = 0;
	for (;;) {
		unsigned i = __atomic_fetch_add(&st->next, 1, __ATOMIC_RELAXED);
		if (i >= ninputs)
			break;
		struct check_result r;
		int have_graph = !is_program(inputs[i]), rc;
		if (have_graph) {
			if (graphio_load(inputs[i], &g, why, sizeof why)) {
				printf("%s: error: %s\n", inputs[i], why);
				__atomic_fetch_add(&st->errors, 1, __ATOMIC_RELAXED);
				continue;
			}
			rc = check_graph(&x, &g, &ro->check, &r, why, sizeof why);
		} else {
			size_t len;
			char *prog = (char *)graphio_read_file(inputs[i], 1 << 20, &len, why, sizeof why);
			rc = prog ? check_program(&x, prog, len, &ro->check, &r, why, sizeof why) : -1;
			if (!rc && not_python(&r)) {
				snprintf(why, sizeof why, "not a program Python can compile: %s: %.400s",
					 r.run.m[RM_EAGER][0].etype, r.run.m[RM_EAGER][0].emsg);
				rc = -1;
			}
		}
		if (rc) {
			printf("%s: error: %s\n", inputs[i], why);
			__atomic_fetch_add(&st->errors, 1, __ATOMIC_RELAXED);
			check_result_free(&r);
			if (!x.pid && strstr(why, "did not start")) /* no torch: nothing else will run either */
				break;
			continue;
		}
		/* An earlier input found to cause this one's failure: its finding, under its own name,
		 * and in the totals in place of the verdict it had. */
		if (r.blame.culprit && r.blame.culprit_age <= nran) {
			unsigned k = nran - r.blame.culprit_age;
			__atomic_fetch_sub(&st->verdicts[ran[k].kind], 1, __ATOMIC_RELAXED);
			record(&fc, inputs[ran[k].input], NULL, r.blame.culprit_graph, r.blame.culprit, st);
			ran[k].kind = r.blame.culprit->v.kind;
		}
		if (!have_graph || !isolate_applies(&g, &r) || !record_parts(&x, &fc, inputs[i], &g, &r, ro, st))
			record(&fc, inputs[i], NULL, have_graph ? &g : NULL, &r, st);
		if (nran == BLAME_HISTORY)
			memmove(ran, ran + 1, --nran * sizeof *ran);
		ran[nran].input = i;
		ran[nran++].kind = r.v.kind;
		check_result_free(&r);
	}
	executor_free(&x);
	return 0;
}

/* A job process: run_job over the shared input list, its lines whole. */
struct job_start {
	struct run_opts *ro;
	char **inputs;
	unsigned ninputs;
	struct shared_stats *st;
};

static int job_main(void *arg)
{
	struct job_start *j = arg;
	setvbuf(stdout, NULL, _IOLBF, 0);
	return run_job(j->ro, j->inputs, j->ninputs, j->st);
}

int cmd_run(int argc, char **argv)
{
	static struct run_opts ro;
	static struct cli c;
	if (cli_parse(&c, "pt2fuzz run", argc, argv, (const struct option *const[]){run_opts_table, NULL}, 0))
		return c.status;
	if (run_opts_parse(&c, &ro))
		return 2;
	ro.check.hang_rerun_until_ms = HANG_RERUN_ANY_TIME; /* a hang is judged again given longer */
	unsigned ninputs;
	char **inputs = collect_inputs(c.pos, c.npos, &ninputs);
	if (!ninputs) {
		fprintf(stderr, "pt2fuzz run: no inputs (usage: pt2fuzz run %s)\n", RUN_USAGE);
		return 2;
	}
	struct shared_stats *st =
		mmap(NULL, sizeof *st, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memset(st, 0, sizeof *st);
	int64_t t0 = protocol_now_ms();
	unsigned jobs = ro.jobs < ninputs ? ro.jobs : ninputs;
	struct job_start js = {&ro, inputs, ninputs, st};
	struct spawn_opts so = SPAWN_OPTS;
	so.fn = job_main;
	so.arg = &js;
	for (unsigned j = 0; j < jobs; j++) {
		char why[128];
		if (spawn(&so, why, sizeof why) < 0)
			fprintf(stderr, "pt2fuzz run: %s\n", why);
	}
	int status, failed_jobs = 0;
	while (wait(&status) > 0)
		failed_jobs += !WIFEXITED(status) || WEXITSTATUS(status);
	double secs = (double)(protocol_now_ms() - t0) / 1000.0;
	unsigned judged = 0;
	for (unsigned k = 0; k < V_COUNT; k++)
		judged += st->verdicts[k];
	printf("run: %u inputs in %.1f s (%.2f graphs/s, %u jobs):", ninputs, secs, secs > 0 ? judged / secs : 0, jobs);
	for (unsigned k = 0; k < V_COUNT; k++)
		if (st->verdicts[k])
			printf(" %s %u", verdict_name((enum verdict_kind)k), st->verdicts[k]);
	if (st->errors)
		printf(" errors %u", st->errors);
	printf("\nfindings: %u new, %u known, %u repeats%s%s\n", st->new_findings, st->known_findings, st->repeat_findings,
	       ro.findings ? " in " : "", ro.findings ? ro.findings : "");
	for (unsigned i = 0; i < ninputs; i++)
		free(inputs[i]);
	free(inputs);
	unsigned errors = st->errors;
	munmap(st, sizeof *st);
	return errors || failed_jobs ? 1 : 0;
}
