/* `pt2fuzz fuzz`: the node runner. Runs build/pt2fuzz_fuzzer as N
 * persistent targets under its own loop (fuzz/manager.h), from the seeds
 * into OUT/corpus and OUT/findings (findings do not stop it); new findings
 * are triaged in the background, and with --sync the corpus and findings
 * are shared with other runners (campaign_corpus.c). A status view
 * refreshes while it runs; stats/plot_data grows by a line per interval. A
 * stopped or killed campaign restarts from OUT: same command. Files:
 * campaign.h. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "../harness/protocol.h"
#include "../harness/runtime.h"
#include "../harness/scratch.h"
#include "../pipeline/atomic_file.h"
#include "../pipeline/bucket.h"
#include "campaign.h"
#include "crash_report.h"
#include "campaign_stats.h"
#include "../pipeline/cli.h"
#include "fuzz_command.h"
#include "manager.h"
#include "../mutators/config_draw.h"
#include "target_options.h"
#include "../pipeline/runopts.h"

struct settings {
	long long secs, jobs, sync_every, stats_every, triage_secs, watchdog;
	int triage;
	int no_coverage; /* --no-coverage: pure generation (the targets read it too) */
	unsigned long long seed; /* --seed, or drawn from the system's entropy */
};

/* The runner's own options; the target's (target_options.h) and the run
 * options go on to the targets. */
static const struct option own_options[] = {
	{"time", required_argument, NULL, 0},        {"out", required_argument, NULL, 0},
	{"jobs", required_argument, NULL, 0},        {"workers-per-gpu", required_argument, NULL, 0},
	{"seeds", required_argument, NULL, 0},       {"sync", required_argument, NULL, 0},
	{"sync-every", required_argument, NULL, 0},  {"stats-every", required_argument, NULL, 0},
	{"triage-time", required_argument, NULL, 0}, {"findings", required_argument, NULL, 0},
	{"no-triage", no_argument, NULL, 0},         {"watchdog", required_argument, NULL, 0},
	{"seed", required_argument, NULL, 0},        {NULL, 0, NULL, 0},
};
static const struct option *const fuzz_tables[] = {own_options, target_options, run_opts_table, NULL};
static const struct option *const target_tables[] = {target_options, run_opts_table, NULL};

static int in_table(const struct option *table, const char *name)
{
	for (; table->name; table++)
		if (!strcmp(table->name, name))
			return 1;
	return 0;
}

/* A target silent on one input this long is stuck: above the default
 * --timeout (120 s) times a slow configuration's factor (CONFIG_TIME_FACTOR_MAX, 4)
 * plus a worker's start-up. */
#define WATCHDOG_DEFAULT_S 600
/* A hang's rerun in a target ends this long before the deadline. */
#define HANG_RERUN_MARGIN_S 5
/* A stopped target has this long between SIGINT and SIGKILL. */
#define STOP_GRACE_MS 5000
/* A finding's temporary folder this old has no writer left: one is written in seconds. */
#define FINDINGS_TEMP_AGE 600

static volatile sig_atomic_t stop;
static void on_signal(int sig) { stop = sig; }

/* The directory holding this executable (the fuzzer target sits beside it). */
static void exe_path(char *out, size_t n, int dir_only)
{
	ssize_t k = readlink("/proc/self/exe", out, n - 1);
	out[k > 0 ? k : 0] = 0;
	char *slash = strrchr(out, '/');
	if (dir_only && slash)
		*slash = 0;
}

/* A campaign's seed when --seed gives none: from the system's entropy, so
 * that runners started together (a Slurm array, a resumed run) each draw
 * their own inputs. 63 bits: --seed reads it back. */
static unsigned long long entropy_seed(void)
{
	unsigned long long v;
	if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v)
		v = (unsigned long long)time(NULL) * 0x9e3779b97f4a7c15ull ^ (unsigned long long)getpid() ^
		    (unsigned long long)protocol_now_ms() << 20;
	return v & 0x7fffffffffffffffull;
}

static int parse_settings(const struct cli *c, struct settings *s)
{
	long long per_gpu, seed;
	if (cli_num(c, "workers-per-gpu", 0, 0, 256, &per_gpu) ||
	    cli_num(c, "time", 600, 0, 365LL * 86400, &s->secs) ||
	    cli_num(c, "jobs", node_default_jobs((unsigned)per_gpu), 1, 256, &s->jobs) ||
	    cli_num(c, "sync-every", 1800, 10, 365LL * 86400, &s->sync_every) ||
	    cli_num(c, "stats-every", 60, 1, 86400, &s->stats_every) ||
	    cli_num(c, "triage-time", 300, 1, 86400, &s->triage_secs) ||
	    cli_num(c, "watchdog", WATCHDOG_DEFAULT_S, 0, 86400, &s->watchdog) ||
	    cli_num(c, "seed", 0, 0, LLONG_MAX, &seed))
		return -1;
	s->seed = cli_opt(c, "seed") ? (unsigned long long)seed : entropy_seed();
	s->triage = !cli_flag(c, "no-triage");
	s->no_coverage = cli_flag(c, "no-coverage");
	return 0;
}

/* Makes dir (if need be) and checks that we may write into it: a
 * read-only or foreign OUT fails here, with its reason, not in every job. */
static int writable_dir(const char *dir)
{
	if ((mkdir(dir, 0777) && errno != EEXIST) || access(dir, W_OK | X_OK)) {
		fprintf(stderr, "pt2fuzz fuzz: cannot write into %s: %s\n", dir, strerror(errno));
		return -1;
	}
	return 0;
}

static int make_paths(const struct cli *c, struct campaign_paths *p)
{
	const char *out = cli_opt(c, "out") ? cli_opt(c, "out") : "out";
	struct {
		char *path;
		const char *name;
		int dir;
	} subs[] = {{p->corpus, "corpus", 1}, {p->findings, "findings", 1}, {p->crashes, "crashes", 1},
		    {p->stats, "stats", 1},   {p->log, "fuzzer.log", 0},    {p->plot_data, "stats/plot_data", 0},
		    {p->replay, "replay", 1},      {p->learned, "learned", 1}};
	snprintf(p->out, sizeof p->out, "%.4000s", out);
	exe_path(p->self, sizeof p->self, 0);
	char dir[CAMPAIGN_PATH];
	exe_path(dir, sizeof dir, 1);
	snprintf(p->seeds, sizeof p->seeds, "%.4000s/seeds", dir);
	snprintf(p->fuzzer, sizeof p->fuzzer, "%.4000s/pt2fuzz_fuzzer", dir);
	if (cli_opt(c, "seeds"))
		snprintf(p->seeds, sizeof p->seeds, "%.4000s", cli_opt(c, "seeds"));
	p->sync = cli_opt(c, "sync");
	if (cli_opt(c, "findings")) /* several runners may share one (pipeline/findings.h) */
		snprintf(p->findings, sizeof p->findings, "%.4000s", cli_opt(c, "findings"));
	if (access(p->fuzzer, X_OK)) {
		fprintf(stderr, "pt2fuzz fuzz: %s: %s (it is built with clang: `make`)\n", p->fuzzer, strerror(errno));
		return -1;
	}
	if (writable_dir(p->out))
		return -1;
	for (unsigned i = 0; i < sizeof subs / sizeof *subs; i++) {
		if (subs[i].path != p->findings || !p->findings[0])
			snprintf(subs[i].path, CAMPAIGN_PATH, "%.4000s/%s", p->out, subs[i].name);
		if (subs[i].dir && writable_dir(subs[i].path))
			return -1;
	}
	if (p->sync && writable_dir(p->sync))
		return -1;
	return 0;
}

/* An option for the target (run: and for triage) as given: "--name=value",
 * or "--name" and its value. */
static void add_target_arg(struct target_args *ta, int run, char *arg, char *value)
{
	for (char *a = arg; a && ta->n < CAMPAIGN_MAX_ARGS && ta->nrun < CAMPAIGN_MAX_ARGS; a = a == arg ? value : NULL) {
		ta->v[ta->n++] = a;
		if (run)
			ta->run[ta->nrun++] = a;
	}
}

/* The target's options: --findings, then ours minus the runner's own. */
static void target_args(const struct cli *c, const struct campaign_paths *p, long long jobs, struct target_args *ta)
{
	ta->n = ta->nrun = 0;
	add_target_arg(ta, 1, "--findings", (char *)p->findings);
	add_target_arg(ta, 0, "--replay-cache", (char *)p->replay); /* a resumed campaign replays its corpus: from the cache */
	add_target_arg(ta, 0, "--learned", (char *)p->learned); /* the campaign's learned state (fuzz/learned.h) */
	add_target_arg(ta, 0, "--keep-going", NULL);                 /* only a new finding counts as one */
	/* compilation is CPU-bound: each worker gets the cores over the jobs (none given for one job) */
	static char threads[24];
	unsigned nthreads = compile_threads_for((unsigned)jobs, sysconf(_SC_NPROCESSORS_ONLN));
	if (nthreads && !cli_opt(c, "compile-threads")) {
		snprintf(threads, sizeof threads, "%u", nthreads);
		add_target_arg(ta, 1, "--compile-threads", threads);
	}
	if (!cli_opt(c, "device") && runtime_gpu_count() > 1) /* node_default_jobs counts workers for every GPU: spread them */
		add_target_arg(ta, 1, "--device", "cuda:auto");
	for (int i = 0; i < c->ngiven; i++) {
		const char *name = c->opts[c->given[i].opt].name;
		if (!in_table(own_options, name))
			add_target_arg(ta, in_table(run_opts_table, name), c->given[i].arg,
				       c->given[i].split ? (char *)c->given[i].value : NULL);
	}
}

/* The worker configuration the jobs will ask for: the target's options
 * (and PT2FUZZ_OPTIONS), coverage on, as pt2fuzz_fuzzer.c sets it. */
static int job_worker_opts(const struct target_args *ta, struct run_opts *ro)
{
	static char *v[CAMPAIGN_MAX_ARGS * 2];
	static char env[8192];
	static struct cli c;
	int n = 0;
	for (int i = 0; i < ta->n; i++)
		v[n++] = ta->v[i];
	snprintf(env, sizeof env, "%s", getenv("PT2FUZZ_OPTIONS") ? getenv("PT2FUZZ_OPTIONS") : "");
	char *save = NULL;
	for (char *t = strtok_r(env, " \t", &save); t && n < CAMPAIGN_MAX_ARGS * 2; t = strtok_r(NULL, " \t", &save))
		v[n++] = t;
	if (cli_parse(&c, "pt2fuzz fuzz", n, v, target_tables, 0) || run_opts_parse(&c, ro))
		return -1;
	ro->exec.coverage = 1;
	return 0;
}

/* The workers of the node that triage has, out of --jobs: one in
 * TRIAGE_SHARE, so that reduction keeps up with the unknown buckets the
 * node finds (CHANGELOG.md, 2026-11-28, has how many a GPU node finds, and
 * how long one reduction takes) rather than living on what the jobs leave
 * over; on a node of fewer jobs triage runs one worker beside them at their own
 * priority. */
#define TRIAGE_SHARE 4
static long long triage_share(const struct settings *s)
{
	long long share = s->triage && s->jobs >= TRIAGE_SHARE ? s->jobs / TRIAGE_SHARE : 0;
	return share < TRIAGE_SLOTS_MAX ? share : TRIAGE_SLOTS_MAX;
}

/* Everything a running campaign keeps track of. */
struct run {
	struct campaign_paths p;
	struct settings s;
	struct target_args ta;
	struct campaign_stats cs;
	struct profile prof_before;  /* cs.prof as earlier runs left it: the summary's profile is this run's */
	uint64_t target_execs_before; /* cs.execs likewise: whether this run ran an input */
	int64_t ready_ms;            /* when the engine could start (set-up done) */
	struct triager triage;
	/* The last share of --time goes to triage when unknown findings wait
	 * (wrap_up_due), on some of the jobs' slots. */
	int wrapping_up;
	struct wrap_up_mark {    /* when, the jobs' slots handed, triage's own, what it had run */
		int64_t from_ms;
		unsigned handed, own;
		uint64_t ran_usec;
	} wrap_up;
	uint64_t wrap_up_usec;   /* manager_wrap_up_used: the profile's wrap_up row */
	uint64_t cut_usec;       /* inputs cut off at the deadline: the profile's cut row */
	struct plot_row base, row;   /* where earlier runs ended; the last row appended */
	int64_t win_ms[128];         /* (time, execs) once per loop, for the rate shown */
	unsigned long long win_execs[128];
	unsigned win_n;
	/* The manager's counts: inputs run, features seen, target processes started. */
	unsigned long long execs, features, target_starts;
	unsigned restarts;           /* stuck targets the watchdog killed */
	/* The sync (manager_sync): inputs and findings published and imported;
	 * last_sync: when it last ran. */
	unsigned published, findings_published, imported, findings_imported;
	int64_t last_sync;
	int64_t t0, deadline, last_row; /* deadline: t0 + --time (0: none) */
	int log;                     /* OUT/fuzzer.log */
};

/* A line for the campaign's output and OUT/fuzzer.log. */
static void say(struct run *r, int tty, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(struct run *r, int tty, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	view_clear(stderr, tty);
	fprintf(stderr, "pt2fuzz fuzz: %s\n", line);
	dprintf(r->log, "pt2fuzz fuzz: %s\n", line);
}

/* Milliseconds left before the deadline (a large number without one). */
static int64_t time_left_ms(const struct run *r, int64_t now) { return r->deadline ? r->deadline - now : INT64_MAX / 2; }

static void background_text(const struct run *r, char *out, size_t n)
{
	int k = snprintf(out, n, "triage %u of %u running, %u pending, %u done", r->triage.running, r->triage.slots,
			 r->triage.pending, r->triage.done);
	if (r->s.watchdog && k > 0 && (size_t)k < n)
		k += snprintf(out + k, n - (size_t)k, "; watchdog %llds", r->s.watchdog);
	if (r->p.sync && k > 0 && (size_t)k < n)
		snprintf(out + k, n - (size_t)k, "; sync %s: %u published", r->p.sync, r->published);
}

/* The present state as a row (folding the jobs' statistics first when
 * asked); its rate is since the last row appended. */
static struct plot_row take_row(struct run *r, int fold)
{
	struct plot_row w = r->row;
	if (fold)
		cstats_collect(&r->cs, r->p.stats, 0);
	w.unix_time = (long long)time(NULL);
	w.elapsed = r->base.elapsed + (double)(protocol_now_ms() - r->t0) / 1000.0;
	w.execs = r->base.execs + r->execs;
	w.rate = w.elapsed > r->row.elapsed && r->row.unix_time ? (double)(w.execs - r->row.execs) / (w.elapsed - r->row.elapsed) : 0;
	w.corpus = count_files(r->p.corpus);
	w.features = r->features ? r->features : r->row.features;
	w.lines = r->cs.nlines;
	findings_census(r->p.findings, &w.census);
	memcpy(w.findings, w.census.by_kind, sizeof w.findings);
	w.workers = (unsigned)r->s.jobs; /* one per slot, kept for the campaign */
	return w;
}

/* Execs per second over the last two minutes or so (an input of a slow
 * compile takes many seconds, so shorter windows jump). */
static double recent_rate(struct run *r, unsigned long long execs, int64_t now)
{
	unsigned slot = r->win_n++ % 128, oldest = r->win_n > 128 ? r->win_n % 128 : 0;
	r->win_ms[slot] = now;
	r->win_execs[slot] = execs;
	return now > r->win_ms[oldest] ? (double)(execs - r->win_execs[oldest]) * 1000.0 / (double)(now - r->win_ms[oldest]) : 0;
}

static void draw(struct run *r, int tty, double rate)
{
	char behind[600], engine[80];
	snprintf(engine, sizeof engine, "%llu target processes started", r->target_starts);
	struct view v = {r->p.out, (double)(protocol_now_ms() - r->t0) / 1000.0, (double)r->s.secs, engine,
			 take_row(r, 0), "one per slot, kept for the campaign", behind, r->restarts};
	v.row.rate = rate;
	background_text(r, behind, sizeof behind);
	view_draw(stderr, tty, &v);
}

#define TRIAGE_MARGIN_S 5 /* a triage ends this long before the deadline, its reduction written */
#define TRIAGE_MIN_S 15   /* less is not worth a worker's start */

/* A triage that starts now ends, with what it has reduced, before the
 * deadline: its --time is what is left of the campaign's, at most
 * --triage-time. Whether that is long enough to start one. */
static int triage_bound(struct run *r, int64_t now)
{
	long long left = r->deadline ? time_left_ms(r, now) / 1000 - TRIAGE_MARGIN_S : r->s.triage_secs;
	r->triage.secs = left < r->s.triage_secs ? left : r->s.triage_secs;
	return r->triage.secs >= TRIAGE_MIN_S;
}

/* Periodic work: the stats row, triage. Past the deadline nothing new
 * starts: the end would only kill it. */
static void tick(struct run *r, int64_t now)
{
	int may_start = time_left_ms(r, now) > 0;
	if (now - r->last_row >= r->s.stats_every * 1000) {
		r->row = take_row(r, 1);
		plot_append(r->p.plot_data, &r->row);
		r->last_row = now;
	}
	if (r->s.triage)
		triager_poll(&r->triage, &r->p, &r->ta, may_start && triage_bound(r, now));
}

/* A campaign's summary counts a bug new only once it is reduced: the last
 * 1/TRIAGE_WRAP_UP of --time goes to triage on the jobs' slots while
 * findings of unknown bugs are not yet triaged (running or waiting). A
 * finding made later could not be reduced in time anyway. */
#define TRIAGE_WRAP_UP 5
static int wrap_up_due(const struct run *r, int64_t now)
{
	return r->s.triage && r->deadline && time_left_ms(r, now) <= r->s.secs * 1000 / TRIAGE_WRAP_UP &&
	       r->triage.pending > 0;
}

/* The slots triage takes in its wrap-up: the jobs' and its own. */
static unsigned wrap_up_slots(const struct run *r)
{
	long long slots = r->s.jobs - triage_share(&r->s) + r->triage.slots;
	return slots < TRIAGE_SLOTS_MAX ? (unsigned)slots : TRIAGE_SLOTS_MAX;
}

/* The exchange with the runners sharing --sync DIR: its corpus's new
 * inputs published into DIR, its findings into DIR.findings (beside DIR,
 * which holds inputs only); the others' findings copied into the
 * findings folder (a signature filed there is a repeat for our targets)
 * and their inputs queued for the slots (m; NULL once it has stopped). */
static void manager_sync(struct run *r, struct manager *m)
{
	char shared[CAMPAIGN_PATH + 16];
	snprintf(shared, sizeof shared, "%.4100s.findings", r->p.sync);
	r->published += corpus_publish(r->p.corpus, r->p.sync);
	r->findings_published += findings_share(r->p.findings, shared);
	r->findings_imported += findings_share(shared, r->p.findings);
	r->triage.published += triage_publish(r->p.findings, shared);
	triager_refresh(&r->triage); /* the imported findings, and the others' triages of ours */
	if (m)
		r->imported += manager_import(m, r->p.sync);
	r->last_sync = protocol_now_ms();
}

/* Triage's wrap-up: triage takes as many slots as
 * findings wait (at most wrap_up_slots), the jobs' slots it needs beyond
 * its own are retired, and the others go on fuzzing to the deadline. */
static void manager_wrap_up(struct run *r, struct manager *m, int tty, int64_t now)
{
	unsigned take = wrap_up_slots(r), own = r->triage.slots;
	if (take > r->triage.pending)
		take = r->triage.pending > own ? r->triage.pending : own;
	unsigned handed = take - own < m->c.jobs ? take - own : m->c.jobs;
	r->wrapping_up = 1;
	say(r, tty, "wrap-up: %u findings of unknown bugs not yet triaged (%u being triaged); the last %lld s go to "
		    "triage on %u slots, %u of them the jobs'; the other %u jobs fuzz on",
	    r->triage.pending, r->triage.running, (long long)(time_left_ms(r, now) / 1000), take, handed, m->c.jobs - handed);
	r->triage.slots = take;
	triager_refresh(&r->triage);
	manager_retire(m, m->c.jobs - handed);
	r->wrap_up = (struct wrap_up_mark){now, handed, own, r->triage.ran_usec};
}

/* Of the jobs' slots handed to triage, the time its reductions ran there
 * (they run inputs: not time outside them): what triage ran in the wrap-up
 * beyond what its own slots could, at most what was handed. */
static uint64_t manager_wrap_up_used(const struct run *r, int64_t now)
{
	const struct wrap_up_mark *w = &r->wrap_up;
	uint64_t span = (uint64_t)(now - w->from_ms) * 1000, ran = r->triage.ran_usec - w->ran_usec;
	uint64_t own = (uint64_t)w->own * span, handed = (uint64_t)w->handed * span;
	uint64_t beyond = ran > own ? ran - own : 0;
	return beyond < handed ? beyond : handed;
}

/* The manager engine (fuzz/manager.h) until the deadline or a signal; in
 * triage's wrap-up some of its slots go to triage. With the periodic work
 * (stats rows, triage) and, with --sync, an exchange with the other runners
 * every --sync-every seconds. When it cannot start, its reason is said. */
static void run_manager(struct run *r, const struct run_opts *ro, const struct target_numbers *num, int configs, int tty)
{
	static struct manager m;
	char *argv[CAMPAIGN_MAX_ARGS + 16], why[600];
	int n = 0;
	char *fixed[] = {r->p.fuzzer, "-ignore_remaining_args=1", "--stats", r->p.stats, "--serve"};
	for (unsigned i = 0; i < sizeof fixed / sizeof *fixed; i++)
		argv[n++] = fixed[i];
	for (int i = 0; i < r->ta.n; i++)
		argv[n++] = r->ta.v[i];
	/* A hang's rerun ends before the watchdog would kill its slot, and before
	 * the deadline cuts it off: the first verdict is never lost to it. */
	static char within[32], end[32];
	snprintf(within, sizeof within, "%lld", r->s.watchdog ? r->s.watchdog * 3 / 4 : 365LL * 86400);
	argv[n++] = "--hang-rerun-within";
	argv[n++] = within;
	if (r->deadline) {
		snprintf(end, sizeof end, "%lld", (long long)(r->deadline - HANG_RERUN_MARGIN_S * 1000));
		argv[n++] = "--campaign-end-ms";
		argv[n++] = end;
	}
	argv[n] = NULL;
	const char *seeds[] = {r->p.seeds};
	const char *dev = ro->exec.device;
	int gpu = !strncmp(dev, "cuda", 4) || (!strcmp(dev, "auto") && runtime_gpu_count()); /* as the target decides */
	char torch[64];
	if (runtime_torch_version(torch, sizeof torch, why, sizeof why)) {
		torch[0] = 0;
		say(r, tty, "the installed torch's version is unknown (%s): inputs are drawn for any torch", why);
	}
	struct manager_config mc = {(unsigned)r->s.jobs, (unsigned)num->near_invalid, (unsigned)num->size,
				    (unsigned)num->components, gpu ? TARGET_GPU : TARGET_CPU, ro->check.backward,
				    ro->exec.aoti_runner, configs ? CONFIG_DRAW_PCT : 0, argv, r->p.corpus,
				    r->p.crashes, r->p.learned, r->p.stats, seeds, 1, r->log,
				    !strcmp(dev, "cuda:auto"), r->s.watchdog * 1000, r->p.findings, dev, &ro->check,
				    r->s.no_coverage, torch[0] ? torch : NULL, ro->check.hunt_known, r->s.seed};
	if (manager_begin(&m, &mc, why, sizeof why)) {
		say(r, tty, "%s", why);
		return;
	}
	say(r, tty, "engine manager: %u inputs of %s and %u of the seed folders run first, then mutants", m.ncorpus_files,
	    r->p.corpus, m.nqueue - m.ncorpus_files);
	if (r->p.sync)
		manager_sync(r, &m);
	int64_t last_draw = 0;
	for (int64_t now; !stop && time_left_ms(r, now = protocol_now_ms()) > 0;) {
		if (!r->wrapping_up && wrap_up_due(r, now))
			manager_wrap_up(r, &m, tty, now);
		if (r->p.sync && now - r->last_sync >= r->s.sync_every * 1000)
			manager_sync(r, &m);
		manager_step(&m, 200);
		r->execs = m.execs;
		r->features = features_seen_count(m.seen);
		r->target_starts = m.slot_starts;
		r->restarts = (unsigned)m.slot_hangs; /* the watchdog's kills, shown as they come */
		now = protocol_now_ms();
		double rate = recent_rate(r, r->base.execs + r->execs, now);
		tick(r, now);
		if (now - last_draw >= (tty ? 2000 : 30000)) {
			draw(r, tty, rate);
			last_draw = now;
		}
	}
	char gpus[2048];
	slot_pool_placement_text(&m.pool, gpus, sizeof gpus);
	manager_end(&m, STOP_GRACE_MS);
	r->cut_usec = m.cut_usec;
	view_clear(stderr, tty);
	say(r, tty, "engine manager: %llu replies, %llu inputs kept (the corpus's again and new ones), %llu new findings, "
		    "%llu target processes started (%llu ended while running an input, %llu stuck ones killed by the watchdog); "
		    "%u inputs cut off at the deadline (%.1f s in them)",
	    m.execs, m.kept, m.new_findings, m.slot_starts, m.slot_deaths, m.slot_hangs, m.cut, (double)m.cut_usec / 1e6);
	if (gpus[0])
		say(r, tty, "engine manager: GPUs: %s", gpus);
	r->restarts = (unsigned)m.slot_hangs;
	if (r->p.sync) {
		manager_sync(r, NULL); /* what the last interval kept and found */
		say(r, tty, "sync %s: %u inputs and %u findings published, %u inputs and %u findings imported; triage: %u "
			    "published, %u taken",
		    r->p.sync, r->published, r->findings_published, r->imported, r->findings_imported, r->triage.published,
		    r->triage.imported);
	}
}

/* Returns how many inputs this run executed. */
static unsigned long long summary(struct run *r)
{
	cstats_collect(&r->cs, r->p.stats, 1);
	r->row = take_row(r, 0);
	plot_append(r->p.plot_data, &r->row);
	double wall = (double)(protocol_now_ms() - r->t0) / 1000.0;
	/* the manager's count, or the targets' where they folded more (stats of
	 * a killed run's targets, read at this run's start) */
	uint64_t ran = r->cs.execs - r->target_execs_before;
	unsigned long long run_execs = r->row.execs - r->base.execs;
	if (run_execs < ran)
		run_execs = ran;
	unsigned total = 0;
	for (unsigned k = 0; k < V_COUNT; k++)
		total += r->row.findings[k];
	fprintf(stderr, "\npt2fuzz campaign summary\n");
	fprintf(stderr, "  time            %.0f s (campaign %.0f s over every run of %s)\n", wall, r->row.elapsed, r->p.out);
	fprintf(stderr, "  seed            %llu\n", r->s.seed);
	fprintf(stderr, "  execs           %llu (%.2f/s) this run, %llu in all\n", run_execs, wall > 0 ? (double)run_execs / wall : 0,
		r->base.execs + run_execs);
	fprintf(stderr, "  corpus          %u inputs in %s\n  features        %llu (the manager's feature map)\n",
		r->row.corpus, r->p.corpus, r->row.features);
	const struct findings_census *cs = &r->row.census;
	fprintf(stderr, "  findings        %u in %s (triaged %u", total, r->p.findings, r->triage.done);
	fprintf(stderr, r->p.sync ? " here, %u by other runners)\n" : ")\n", r->triage.imported);
	fprintf(stderr, "  bugs            %u new (reduced), %u awaiting triage, %u known upstream, %u reported by pt2fuzz\n",
		cs->bugs, cs->awaiting, cs->known, cs->reported);
	fprintf(stderr, "  crash inputs    %u in %s\n", count_files(r->p.crashes), r->p.crashes);
	if (r->restarts)
		fprintf(stderr, "  watchdog        %u stalled jobs restarted (no progress for %lld s)\n", r->restarts, r->s.watchdog);
	cstats_print(&r->cs, stderr);
	struct profile run = r->cs.prof;
	for (unsigned k = 0; k < PR_COUNT; k++)
		run.usec[k] -= r->prof_before.usec[k];
	run.usec[PR_WRAP_UP] += r->wrap_up_usec;
	run.usec[PR_CUT] += r->cut_usec;
	char tsv[CAMPAIGN_PATH + 16];
	snprintf(tsv, sizeof tsv, "%.4100s/profile.tsv", r->p.stats);
	campaign_profile_report(&run, (unsigned)r->s.jobs, (uint64_t)(wall * 1e6), (uint64_t)(r->ready_ms - r->t0) * 1000,
				r->triage.ran_usec, stderr, tsv);
	fprintf(stderr, "  plot            %s (`pt2fuzz plot %s`)\n", r->p.plot_data, r->p.out);
	if (!run_execs)
		fprintf(stderr, "  (no input ran: see %s)\n", r->p.log);
	return run_execs;
}

int cmd_fuzz(int argc, char **argv)
{
	static struct run r;
	static struct run_opts ro;
	static struct cli c;
	r.t0 = protocol_now_ms(); /* --time counts from here: start-up and wrap-up are inside it */
	if (cli_parse(&c, "pt2fuzz fuzz", argc, argv, fuzz_tables, CLI_PASS_DASH))
		return c.status;
	if (c.npos || c.npass) {
		/* -flag=value set aside: said as libFuzzer's, which the campaign's own loop does not read */
		if (c.npass)
			fprintf(stderr, "pt2fuzz fuzz: '%s': libFuzzer's flags are not a campaign's (its loop is its own)\n",
				c.pass[0]);
		else
			fprintf(stderr, "pt2fuzz fuzz: unexpected argument '%s'\n", c.pos[0]);
		return 2;
	}
	struct target_numbers num;
	if (parse_settings(&c, &r.s) || run_opts_parse(&c, &ro) || target_numbers_parse(&c, &num) ||
	    make_paths(&c, &r.p))
		return 2;
	r.deadline = r.s.secs ? r.t0 + r.s.secs * 1000 : 0;
	int lock = node_claim(r.p.out);
	r.log = open_log(r.p.log);
	if (lock < 0 || r.log < 0)
		return 1;
	target_args(&c, &r.p, r.s.jobs, &r.ta);
	corpus_recover(r.p.corpus);
	/* What a runner killed mid-write left (node_claim has stopped all its
	 * processes); the findings folder may be another runner's too. */
	unsigned swept = atomic_sweep(r.p.corpus, 0) + atomic_sweep(r.p.stats, 0) + atomic_sweep(r.p.replay, 0) +
			 atomic_sweep(r.p.learned, 0) + atomic_sweep(r.p.findings, FINDINGS_TEMP_AGE);
	if (swept)
		fprintf(stderr, "pt2fuzz fuzz: removed %u half-written temporary files and folders of the previous run\n",
			swept);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	crash_report_install("pt2fuzz fuzz", r.log);
	/* The manager's slots run with the targets' options as the targets
	 * parse them (cuda:auto added on a node of several GPUs): cli_parse
	 * says why they do not parse. */
	if (job_worker_opts(&r.ta, &ro))
		return 1;
	plot_resume(r.p.plot_data, &r.base);
	if (r.base.elapsed > 0) /* a run killed before its first exec resumes too */
		fprintf(stderr, "pt2fuzz fuzz: resuming %s after %.0f s and %llu execs\n", r.p.out, r.base.elapsed, r.base.execs);
	fprintf(stderr,
		"pt2fuzz fuzz: %lld s, %lld jobs, engine manager: persistent targets, a worker each, seeds %s, output %s "
		"(targets' log: %s), seed %llu (`--seed %llu` makes the same draws)\n",
		r.s.secs, r.s.jobs, r.p.seeds, r.p.out, r.p.log, r.s.seed, r.s.seed);
	r.ready_ms = protocol_now_ms();
	cstats_init(&r.cs, r.p.stats);
	r.prof_before = r.cs.prof;
	r.target_execs_before = r.cs.execs;
	r.triage.secs = r.s.triage_secs;
	r.triage.slots = triage_share(&r.s) ? (unsigned)triage_share(&r.s) : 1;
	r.last_row = r.t0 - r.s.stats_every * 1000; /* a first row at once */
	int tty = isatty(2);
	run_manager(&r, &ro, &num, !cli_flag(&c, "no-configs"), tty);
	view_clear(stderr, tty);
	triager_stop(&r.triage); /* triage's last reductions counted: then what ran on the handed slots */
	if (r.wrapping_up)
		r.wrap_up_usec = manager_wrap_up_used(&r, protocol_now_ms());
	node_sweep(); /* what the targets left in groups of their own (slot_stop kills their workers) */
	scratch_sweep(scratch_root(), 2000); /* and the killed workers' temporary folders */
	unsigned long long ran = summary(&r);
	cstats_free(&r.cs);
	close(r.log);
	close(lock);
	/* Findings are success for a campaign; one that never ran an input (its
	 * engine could not start, or every input outlasted --time) is not. */
	return ran ? 0 : 1;
}
