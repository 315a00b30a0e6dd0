/* The libFuzzer target: every input is a graph in the binary format, run
 * through a worker in eager, compiled and fp64 modes and judged; torch's
 * compiler coverage (and the graph's own features) go to libFuzzer as extra
 * counters, so inputs that reach new compiler paths grow the corpus. A
 * finding is written to the findings directory, then the target aborts so
 * that libFuzzer saves the crash input (and -fork goes on); with
 * --keep-going only a new finding does.
 *
 * Options (docs/fuzzing.md): after -ignore_remaining_args=1 on the command
 * line, and/or in PT2FUZZ_OPTIONS (inherited by -fork jobs):
 *   the `pt2fuzz run` options (--backend, --mode, --device, --findings, ...;
 *                   --hunt-known: also generate and keep components that
 *                   hold a known bug's trigger, which generation and mutation
 *                   avoid on the torch the bug was seen on, mutators/avoid.h),
 *   --no-coverage   pure generation: no feedback, every input freshly generated
 *   --no-configs    every graph made here keeps the default compile configuration
 *   --stats DIR     per-process statistics and exact compiler line sets
 *   --replay-cache DIR  feature maps of executed inputs, by hash: libFuzzer's
 *                   replays of corpus inputs (job starts, -merge) read them
 *                   instead of compiling again; a seed or corpus input that
 *                   was a finding is one again, uncompiled (pipeline/replay_cache.h)
 *   --size N        ops of each component of generated graphs (default 8)
 *   --components K  independent components of generated graphs (default 8):
 *                   one compile covers them all (docs/fuzzing.md)
 *   --near-invalid PCT  share of generated/mutated inputs made near-invalid
 *                   (one constraint broken on purpose: mutators/break.h; default 10)
 *   --learned DIR   feedback mode: the campaign's learned state (seen features,
 *                   op and op-pair runs, mutator yields), which each job starts
 *                   from and adds to (fuzz/learned.h)
 *   --keep-going    a finding that repeats a recorded one or matches a known
 *                   upstream bug is counted in its folder and the target goes
 *                   on (the input kept out of the corpus): such a crash input
 *                   adds nothing. Campaigns set it; without it (OSS-Fuzz,
 *                   reproducing a crash input) every finding aborts.
 *   --serve         a persistent target of `pt2fuzz fuzz` (fuzz/manager.h):
 *                   runs the inputs the manager sends on stdin, one at a
 *                   time, and replies with what libFuzzer would see
 *                   (fuzz/slot.h); exits when the manager closes the pipe
 *   --hang-rerun-within SEC  a served target's hang is run again given longer
 *                   (pipeline/hang_confirm.h) when that ends within SEC of
 *                   the input's start (below the campaign's watchdog) and
 *                   before --campaign-end-ms (CLOCK_MONOTONIC milliseconds) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include "../graph/broken.h"
#include "../graph/codec.h"
#include "../graph/compile_config.h"
#include "../harness/protocol.h"
#include "../harness/runtime.h"
#include "../mutators/avoid.h"
#include "../mutators/config_draw.h"
#include "../mutators/gen.h"
#include "../mutators/gen_fill.h"
#include "../mutators/rarity.h"
#include "../mutators/mutate.h"
#include "../mutators/schedule.h"
#include "../pipeline/bucket.h"
#include "../pipeline/check.h"
#include "../pipeline/cli.h"
#include "../pipeline/features.h"
#include "../pipeline/findings.h"
#include "../pipeline/isolate.h"
#include "../pipeline/replay_cache.h"
#include "../pipeline/atomic_file.h"
#include "../pipeline/runopts.h"
#include "known_breaks.h"
#include "learned.h"
#include "seed_energy.h"
#include "slot.h"
#include "target_options.h"
#include "torch_avoid.h"

/* Global and `used`: libFuzzer finds it by its section, and the compiler must
 * not drop the stores into it. */
__attribute__((used, section("__libfuzzer_extra_counters"))) uint8_t pt2fuzz_extra_counters[FEATURES_MAP];

static struct run_opts RO;
static struct executor X;
static struct graph G;
static int no_coverage, keep_going;
static int serving;        /* --serve: the manager engine's persistent target (fuzz/slot.h) */
static long long hang_rerun_within_ms, campaign_end_ms; /* --hang-rerun-within, --campaign-end-ms; 0: none */
static int merging;        /* this process is a libFuzzer merge's inner step */
static int avoiding;       /* known bugs' triggers are avoided (no --hunt-known) */
static int controlling;    /* libFuzzer's -fork parent or -merge=1 outer process: runs no input */
static uint64_t born_usec; /* when LLVMFuzzerInitialize began */
static unsigned near_invalid = 10;
static const char *stats_dir;
static struct replay_cache replay;
static struct mut_schedule schedule; /* feedback mode: mutators drawn by recent yield */
static struct setting_schedule setting_yield; /* feedback mode: a configuration's settings, likewise */
static struct seed_energy energy;    /* feedback mode: recent finders mutated more */
static struct learned_store learned;  /* feedback mode with --learned: the campaign's state */
static struct learned live;           /* views of S and the schedule that learned_sync updates */

/* What this process has done, written to --stats DIR. */
static struct {
	uint64_t execs, rejected, near_invalid, replayed, verdicts[V_COUNT];
	uint64_t isolated;    /* parts of graphs judged alone (pipeline/isolate.h) */
	uint64_t avoided;     /* components of seeds and corpus inputs dropped: a known bug's trigger */
	uint64_t configured;  /* runs of a graph with a configuration other than the default */
	uint64_t settings_dropped; /* settings of inputs made elsewhere that this torch or campaign lacks */
	uint64_t mut_new[MUT_MAX];
	struct mutate_stats mut;
	/* bit k: counter bucket k seen at this index, by the campaign (its
	 * learned state: what the schedule and seed energy call new) and by this
	 * process's own runs (what may enter libFuzzer's corpus, so its replays
	 * are cached) */
	uint8_t seen[FEATURES_MAP], job_seen[FEATURES_MAP];
	int last_mutator;
	uint64_t last_hash;
	uint64_t finding_hash; /* the last input that was a finding */
	/* What the last mutation started from: libFuzzer mutates its mutants in
	 * turn (-mutate_depth), and a mutant that was a finding would pass its
	 * bug on to the next ones; with --keep-going they start from here. */
	uint8_t parent[CODEC_MAX_SIZE];
	size_t parent_len;
	/* per op, and per (producer, consumer) pair (rarity.h): how often they
	 * ran (feedback mode: the generator favors the rare), and per op how
	 * often it ran in an input that repeated a bug (drawn less) */
	uint32_t *op_runs, *pair_runs, *op_repeats;
	/* per setting, how often this job drew it (config_draw_use_counts):
	 * configurations, a seed's too, dealt across the catalogue */
	uint32_t setting_draws[SETTING_ROWS_MAX];
	int64_t stats_written_ms;
} S = {.last_mutator = -1};
enum { STATS_EVERY_MS = 10000 };

/* Each dump of the exact line set goes to its own file, renamed into place
 * complete, so the campaign can fold and delete it while jobs run. */
static void dump_lines(void)
{
	static unsigned seq;
	char path[4096], why[300];
	struct atomic_file a;
	snprintf(path, sizeof path, "%s/lines-%d-%u.txt", stats_dir, (int)getpid(), seq++);
	FILE *f = atomic_open(&a, path);
	if (!f)
		return;
	if (executor_dump_lines(&X, f, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz_fuzzer: %s\n", why);
		fclose(f);
		remove(a.tmp);
		return;
	}
	atomic_commit(&a, 0);
}

static void write_stats(void)
{
	char path[4096];
	struct atomic_file a;
	if (!stats_dir)
		return;
	dump_lines();
	snprintf(path, sizeof path, "%s/fuzzer-%d.tsv", stats_dir, (int)getpid());
	FILE *f = atomic_open(&a, path);
	if (!f)
		return;
	fprintf(f, "execs\t%llu\nrejected\t%llu\nnear_invalid\t%llu\nreplayed\t%llu\n"
		   "worker_starts\t%u\nworker_crashes\t%u\nworker_hangs\t%u\nisolated\t%llu\n"
		   "avoided\t%llu\nconfigured\t%llu\nsettings_dropped\t%llu\n",
		(unsigned long long)S.execs, (unsigned long long)S.rejected, (unsigned long long)S.near_invalid,
		(unsigned long long)S.replayed, X.starts, X.crashes, X.hangs,
		(unsigned long long)S.isolated, (unsigned long long)S.avoided, (unsigned long long)S.configured,
		(unsigned long long)S.settings_dropped);
	for (unsigned k = 0; k < V_COUNT; k++)
		fprintf(f, "verdict\t%s\t%llu\n", verdict_name((enum verdict_kind)k), (unsigned long long)S.verdicts[k]);
	for (unsigned m = 0; m < mutator_count(); m++)
		fprintf(f, "mutator\t%s\t%llu\t%llu\t%llu\n", mutator_name(m), (unsigned long long)S.mut.tried[m],
			(unsigned long long)S.mut.valid[m], (unsigned long long)S.mut_new[m]);
	profile_write(&X.prof, f);
	atomic_commit(&a, 0);
	S.stats_written_ms = protocol_now_ms();
}

/* Adds the time since t0 to one of the target's own rows of the profile. */
static void spent(enum profile_row row, uint64_t t0)
{
	X.prof.usec[row] += profile_clock_usec() - t0;
}

/* This process's time that no other row holds is libFuzzer's own: a
 * merge's steps (the slot whose job it merges waits for it), or what a job
 * or a first-pass process does around the inputs. Set at each checkpoint,
 * so a process stopped by SIGKILL keeps most of it; what is left outside
 * every process is the campaign's "rest". */
static void note_own_time(void)
{
	enum profile_row own = merging ? PR_MERGE : PR_LIBFUZZER;
	uint64_t held = 0, life = profile_clock_usec() - born_usec;
	if (controlling)
		return; /* its life is the campaign's, not a slot's */
	for (unsigned k = 0; k < PR_REST; k++)
		held += k == own ? 0 : X.prof.usec[k];
	X.prof.usec[own] = life > held ? life - held : 0;
}

/* The counts for the campaign, and what this job learned into its state.
 * Its own time shows in the next stats written (none after the last). */
static void checkpoint(void)
{
	char why[600];
	uint64_t t0 = profile_clock_usec();
	note_own_time();
	write_stats();
	if (learned.dir[0]) {
		if (learned_sync(&learned, &live, why, sizeof why))
			fprintf(stderr, "pt2fuzz_fuzzer: %s\n", why);
		schedule_refresh(&schedule); /* the runs and yields may have changed */
		setting_schedule_refresh(&setting_yield);
	}
	spent(PR_STATS, t0);
}

/* At exit the worker is stopped here, its group awaited and its folder
 * removed (harness/executor.h), not left to exit by itself on the closed
 * pipe, where its own removal of the folder races its compile subprocesses. */
static void stop_executor(void)
{
	executor_free(&X);
}

/* Our options: those after -ignore_remaining_args=1, then PT2FUZZ_OPTIONS. */
static int collect_options(int argc, char **argv, char **out, int cap)
{
	int n = 0, ours = 0;
	for (int i = 1; i < argc; i++) {
		if (ours && n < cap)
			out[n++] = argv[i];
		ours |= !strcmp(argv[i], "-ignore_remaining_args=1");
	}
	const char *env = getenv("PT2FUZZ_OPTIONS");
	char *copy = env ? strdup(env) : NULL, *save = NULL;
	for (char *t = copy ? strtok_r(copy, " \t", &save) : NULL; t && n < cap; t = strtok_r(NULL, " \t", &save))
		out[n++] = t;
	return n;
}

/* A hash of what may shape an input's features: the map's layout, and all
 * options but those that only say where things go. */
static uint64_t options_hash(int n, char **opts)
{
	static const char *const where[] = {"--stats", "--findings", "--replay-cache", "--learned"};
	static const uint32_t layout[] = {SHM_COVERAGE, SHM_COMPILER_SLOTS, SHM_KERNEL_SLOTS, SHM_DECISION_SLOTS};
	uint64_t h = XXH64(layout, sizeof layout, 0);
	for (int i = 0; i < n; i++) {
		int skip = 0;
		for (unsigned k = 0; k < sizeof where / sizeof *where; k++)
			skip |= !strcmp(opts[i], where[k]);
		if (skip)
			i++; /* and its value */
		else
			h = XXH64(opts[i], strlen(opts[i]), h + (uint64_t)i);
	}
	return h;
}

/* The torch the worker runs ("2.11.0+cu130"), which known bugs' triggers are for. */
static char worker_torch[64];

/* The worker's torch ("" until one started). */
static const char *torch_of_worker(void)
{
	if (!worker_torch[0])
		executor_info(&X, "torch", worker_torch, sizeof worker_torch);
	return worker_torch;
}

/* Starts (or borrows) the worker when none runs; says so the first time. */
static void worker_up(void)
{
	static int announced;
	char why[600], v[128], d[64];
	if (X.pid)
		return;
	if (executor_start(&X, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz_fuzzer: %s\n", why);
		exit(1);
	}
	if (announced++)
		return;
	fprintf(stderr, "pt2fuzz_fuzzer: worker ready: torch %s on %s, backend %s%s%s, coverage feedback %s, "
			"near-invalid %u%%\n",
		executor_info(&X, "torch", v, sizeof v), executor_info(&X, "device", d, sizeof d), RO.check.backend,
		RO.check.compile_mode ? ", mode " : "", RO.check.compile_mode ? RO.check.compile_mode : "",
		no_coverage ? "off (pure generation)" : "on", near_invalid);
}

/* Whether a libFuzzer flag -NAME=VALUE is given with a value other than 0
 * (libFuzzer stops at -ignore_remaining_args=1; our options follow it). */
static int libfuzzer_flag(int argc, char **argv, const char *name)
{
	size_t n = strlen(name);
	for (int i = 1; i < argc && strcmp(argv[i], "-ignore_remaining_args=1"); i++)
		if (argv[i][0] == '-' && !strncmp(argv[i] + 1, name, n) && argv[i][1 + n] == '=' && strcmp(argv[i] + 2 + n, "0"))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char *opts[256];
	static struct cli c;
	born_usec = profile_clock_usec();
	int n = collect_options(*argc, *argv, opts, 256);
	struct target_numbers num;
	char why[600];
	/* libFuzzer's fork and merge modes add their own arguments to a job's
	 * command line: what is not a --option is theirs, and left alone. */
	if (cli_parse(&c, "pt2fuzz_fuzzer", n, opts, (const struct option *const[]){target_options, run_opts_table, NULL},
		      CLI_PASS_DASH))
		exit(2);
	long long within_s;
	if (run_opts_parse(&c, &RO) || target_numbers_parse(&c, &num) ||
	    cli_num(&c, "hang-rerun-within", 0, 0, 365LL * 86400, &within_s) ||
	    cli_num(&c, "campaign-end-ms", 0, 0, INT64_MAX / 2, &campaign_end_ms))
		exit(2);
	hang_rerun_within_ms = within_s * 1000;
	gen_set_campaign_shape((unsigned)num.size, (unsigned)num.components);
	near_invalid = (unsigned)num.near_invalid;
	no_coverage = cli_flag(&c, "no-coverage");
	/* Not in a merge's inner process: an input there counts by the features
	 * it shows, whatever it returns, and a finding must abort to be left out
	 * of the merged corpus, where its mutants would all repeat it. */
	merging = libfuzzer_flag(*argc, *argv, "merge_inner"); /* -merge=1's child, -fork's merges */
	controlling = !merging && (libfuzzer_flag(*argc, *argv, "fork") || libfuzzer_flag(*argc, *argv, "merge"));
	keep_going = cli_flag(&c, "keep-going") && !merging;
	avoiding = !cli_flag(&c, "hunt-known");
	/* mutations start the worker first (worker_up): its hello says which torch */
	torch_avoid_use(torch_of_worker, !avoiding, RO.exec.aoti_runner, RO.findings);
	stats_dir = cli_opt(&c, "stats");
	replay.dir = cli_opt(&c, "replay-cache");
	replay.config = options_hash(n, opts);
	RO.exec.coverage = 1; /* traced either way: the exact line sets measure both modes */
	/* What the mutators generate fits the device: its sizes, its ops, and backward mode. */
	const char *dev = RO.exec.device;
	int gpu = !strncmp(dev, "cuda", 4) || (!strcmp(dev, "auto") && runtime_gpu_count());
	gen_set_campaign(gpu ? TARGET_GPU : TARGET_CPU, RO.check.backward);
	config_draw_set_campaign(cli_flag(&c, "no-configs") ? 0 : CONFIG_DRAW_PCT, RO.exec.aoti_runner,
				 RO.check.backward, torch_of_worker);
	/* The worker starts with the first input that runs, not
	 * here: libFuzzer's -fork parent and -merge=1 outer process call this too
	 * but never run an input, and a worker they held would sit idle while the
	 * jobs and merges that do run inputs wait for one. */
	if (executor_init(&X, &RO.exec, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz_fuzzer: %s\n", why);
		exit(1);
	}
	config_draw_use_counts(S.setting_draws);
	if (!no_coverage) {
		S.op_runs = calloc(op_count(), sizeof *S.op_runs);
		S.pair_runs = calloc(rarity_pair_count(), sizeof *S.pair_runs);
		S.op_repeats = calloc(op_count(), sizeof *S.op_repeats);
		if (!S.op_runs || !S.pair_runs || !S.op_repeats) {
			fprintf(stderr, "pt2fuzz_fuzzer: out of memory\n");
			exit(1);
		}
		rarity_use(S.op_runs, S.pair_runs, S.op_repeats);
		schedule_init(&schedule);
		mutate_use_weights(schedule.weight);
		setting_schedule_init(&setting_yield);
		config_draw_use_weights(setting_yield.weight);
		live = (struct learned){S.seen, sizeof S.seen, S.op_runs, S.op_repeats, S.pair_runs,
					schedule.runs, schedule.yields, setting_yield.runs, setting_yield.yields};
		const char *dir = cli_opt(&c, "learned");
		if (dir && (learned_open(&learned, dir, &live, why, sizeof why) || learned_sync(&learned, &live, why, sizeof why))) {
			fprintf(stderr, "pt2fuzz_fuzzer: %s\n", why); /* a job without the campaign's state still fuzzes */
			learned_close(&learned);
			learned.dir[0] = 0;
		}
		schedule_refresh(&schedule);
		setting_schedule_refresh(&setting_yield);
	}
	atexit(stop_executor);
	atexit(checkpoint); /* first: its line dump asks the worker */
	serving = cli_flag(&c, "serve");
	if (serving) /* libFuzzer's loop never starts: the manager's is the loop */
		exit(slot_serve(LLVMFuzzerTestOneInput, pt2fuzz_extra_counters, FEATURES_MAP) ? 1 : 0);
	return 0;
}

/* The line a campaign shows for a recorded finding (fuzz/campaign.c echoes
 * "pt2fuzz: new finding"): one of a known upstream bug is never new.
 * Whether it was new: recorded for the first time, and not a known bug. */
static int say_finding(int saved, const char *dir, const char *why, const char *detail)
{
	struct finding_bucket b = {0};
	char ignored[300];
	if (saved > 0 && !bucket_load(dir, &b, ignored, sizeof ignored) && b.known) {
		fprintf(stderr, "pt2fuzz: known finding %s [known: %s]: %s\n", dir, b.known->issue, detail);
		return 0;
	}
	fprintf(stderr, "pt2fuzz: %s finding %s: %s\n", saved > 0 ? "new" : saved == 0 ? "repeated" : "unsaved",
		saved >= 0 ? dir : why, detail);
	return saved != 0; /* an unsaved one is kept as libFuzzer's crash input */
}

/* A finding of near-invalid graph g, filed in dir, that is a known bug:
 * its broken node's op and constraint are not made again (fuzz/known_breaks.h). */
static void learn_break(const struct graph *g, const char *dir)
{
	struct finding_bucket b = {0};
	char ignored[300];
	if (!g->broken || !g->nnodes || bucket_load(dir, &b, ignored, sizeof ignored) || !b.known)
		return;
	const char *op = op_get(g->n[g->nnodes - 1].op)->name, *c = constraint_name(g->broken);
	if (c && known_breaks_add(RO.findings, torch_of_worker(), op, c, b.known->issue))
		fprintf(stderr, "pt2fuzz_fuzzer: cannot add to %s/%s\n", RO.findings, KNOWN_BREAKS_FILE);
}

/* What filing a check's findings found: bits of FOUND_ANY (a finding),
 * FOUND_NEW (a new one). */
enum { FOUND_ANY = 1, FOUND_NEW = 2 };

/* Files the findings of result r of graph g: its verdict's and its other
 * outputs'. FOUND_ bits. */
static int record_result(struct finding_ctx *fc, const struct graph *g, const struct check_result *r)
{
	char dir[4200] = "", why[600];
	struct check_finding f;
	check_primary(r, &f);
	int found = 0;
	for (unsigned i = 0; i <= r->nmore; i++) {
		const struct check_finding *each = i ? &r->more[i - 1] : &f;
		if (!verdict_is_finding(each->v.kind))
			continue;
		int saved = findings_record(fc, g, r, each, dir, sizeof dir, why, sizeof why);
		found |= FOUND_ANY | (say_finding(saved, dir, why, each->v.detail) ? FOUND_NEW : 0);
		if (saved >= 0 && avoiding)
			learn_break(g, dir);
	}
	return found;
}

/* Files the findings of G's check r, its exception first pinned on the
 * component that raised it (pipeline/isolate.h), the other components
 * judged without it: one known bug hides nothing beside it. FOUND_ bits. */
static int record_findings(struct finding_ctx *fc, const struct check_result *r)
{
	static struct check_part parts[4];
	char why[600];
	int np = isolate_applies(&G, r) ? isolate_parts(&X, &G, &RO.check, r, parts, 4, why, sizeof why) : 0;
	if (np < 0) {
		fprintf(stderr, "pt2fuzz_fuzzer: %s\n", why);
		exit(1);
	}
	int found = 0;
	for (int i = 0; i < np; i++) {
		S.isolated++;
		found |= record_result(fc, &parts[i].g, &parts[i].r);
		check_result_free(&parts[i].r);
	}
	return np ? found : verdict_is_finding(r->v.kind) ? record_result(fc, &G, r) : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct check_result r;
	char why[600];
	uint64_t t0 = profile_clock_usec();
	if (codec_decode(&G, data, size, why, sizeof why)) {
		S.rejected++;
		spent(PR_REPLAY, t0);
		return -1; /* never enters the corpus */
	}
	uint64_t hash = XXH64(data, size, 0);
	int made_here = hash == S.last_hash, which = made_here ? S.last_mutator : -1;
	S.last_mutator = -1;
	/* An input run before (libFuzzer replays its corpus at each job's start
	 * and in -merge, where the campaign's first pass ran the seeds): the
	 * map it made then stands in for running it again; a finding stays out
	 * of the corpus as it did then, found and counted already. */
	enum replay_entry before = replay_cache_load(&replay, hash, pt2fuzz_extra_counters, FEATURES_MAP);
	if (before != REPLAY_NONE) {
		S.replayed++;
		if (before == REPLAY_MAP)
			features_novel(pt2fuzz_extra_counters, S.seen); /* known, not new */
		spent(PR_REPLAY, t0);
		if (before == REPLAY_MAP || keep_going)
			return before == REPLAY_MAP ? 0 : -1;
		fprintf(stderr, "pt2fuzz_fuzzer: a finding when it ran before (%s): left out again\n", replay.dir);
		checkpoint();
		abort();
	}
	worker_up();
	/* A seed or corpus input may hold a known bug's trigger (it was made
	 * before the bug was known, or by hand): that component could only
	 * find the bug again, so it is dropped like a mutant's; an input of
	 * triggers alone runs one fresh component instead (drawn from its
	 * hash, so that a replay runs the same). */
	if (avoiding && !made_here) {
		unsigned dropped = avoid_drop(&G);
		S.avoided += dropped;
		if (dropped && !G.nnodes) {
			struct gen_opts o;
			struct rng rg;
			gen_default_opts(&o);
			o.components = 1;
			rng_seed(&rg, hash);
			gen_fill_components(&G, &rg, &o);
		}
	}
	/* A seed or corpus input without a configuration gets one as a generated
	 * graph would (drawn from its hash, for the campaign's device): seeds are
	 * most of a short campaign's runs. None with --no-configs. One made
	 * elsewhere (another runner's torch, the manager's draws) runs without the
	 * settings this worker's torch or the campaign lacks. */
	if (!made_here) {
		struct gen_opts o;
		gen_default_opts(&o);
		if (graph_config_is_default(&G.config)) {
			struct rng rg;
			rng_seed(&rg, hash ^ 0xc0f1);
			config_draw_graph(&G, &rg, o.config_pct, o.target);
		} else {
			S.settings_dropped += config_drop_disallowed(&G.config, o.target);
		}
	}
	if (serving && hang_rerun_within_ms) {
		int64_t until = protocol_now_ms() + hang_rerun_within_ms;
		RO.check.hang_rerun_until_ms = campaign_end_ms && campaign_end_ms < until ? campaign_end_ms : until;
	}
	if (check_graph(&X, &G, &RO.check, &r, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz_fuzzer: %s\n", why);
		exit(1);
	}
	/* An earlier input of this worker found, by replay, to cause this one's
	 * failure (pipeline/blame.h): its finding is filed now; this input goes on
	 * with the verdict it had alone. */
	if (r.blame.culprit && verdict_is_finding(r.blame.culprit->v.kind)) {
		char dir[4200] = "";
		struct finding_ctx fc = {RO.findings, &RO.check, &X, RO.exec.device, "libFuzzer (an earlier input, by replay)"};
		uint64_t t = profile_clock_usec();
		struct check_finding f;
		check_primary(r.blame.culprit, &f);
		int saved = findings_record(&fc, r.blame.culprit_graph, r.blame.culprit, &f, dir, sizeof dir, why, sizeof why);
		say_finding(saved, dir, why, f.v.detail);
		spent(PR_FINDINGS, t);
	}
	S.execs++;
	S.near_invalid += G.broken != 0;
	S.configured += !graph_config_is_default(&G.config);
	if (S.op_runs)
		rarity_count(&G, S.op_runs, S.pair_runs);
	S.verdicts[r.v.kind]++;
	uint8_t *map = executor_coverage(&X);
	features_graph(&G, map);
	if (r.v.kind == V_PASS)
		features_near_miss(&G, r.v.nearest_output, r.v.nearest, map);
	/* Yields are new code, not new count buckets or graph features, which
	 * nearly every input brings: those would score every mutator and
	 * setting alike. */
	unsigned new_code;
	int fresh = features_novelty(map, S.seen, &new_code) == NOVEL_CODE, fresh_here = features_novel(map, S.job_seen);
	if (fresh && which >= 0)
		S.mut_new[which]++;
	if (which >= 0)
		schedule_note(&schedule, (unsigned)which, new_code, verdict_is_finding(r.v.kind));
	setting_schedule_note(&setting_yield, &G.config, new_code, verdict_is_finding(r.v.kind));
	if (fresh && made_here && !verdict_is_finding(r.v.kind)) /* a finding is not mutated further */
		energy_reward(&energy, data, size);
	if (no_coverage)
		pt2fuzz_extra_counters[0] = 1; /* one constant feature: the seeds are kept, nothing else */
	else
		memcpy(pt2fuzz_extra_counters, map, FEATURES_MAP);
	/* Keep what libFuzzer saw for inputs it may replay: the ones that may
	 * enter the corpus, and the corpus's own (not made here). A served
	 * target makes no input, and most of what its manager sends are
	 * mutants: it keeps the ones new to its runs, which the manager's
	 * corpus holds, so that a resumed campaign replays them. */
	if (((fresh_here && !no_coverage) || (!made_here && !serving)) && !verdict_is_finding(r.v.kind))
		replay_cache_store(&replay, hash, pt2fuzz_extra_counters, FEATURES_MAP);
	/* Often enough that a job stopped at the campaign's deadline (SIGKILL,
	 * no atexit) loses at most a few seconds of counts. */
	if (S.execs % 50 == 0 || protocol_now_ms() - S.stats_written_ms >= STATS_EVERY_MS)
		checkpoint();
	/* An eager error in one component (invalid) is pinned on it too, and
	 * the others judged: the input is a finding when one of them is. */
	int found = verdict_is_finding(r.v.kind) ? FOUND_ANY : 0;
	if (found || isolate_applies(&G, &r)) {
		struct finding_ctx fc = {RO.findings, &RO.check, &X, RO.exec.device, "libFuzzer"};
		uint64_t t = profile_clock_usec();
		found = record_findings(&fc, &r);
		spent(PR_FINDINGS, t);
	}
	if (found) {
		int fresh_finding = found & FOUND_NEW;
		S.finding_hash = hash;
		if (!made_here) /* a seed or corpus input, which merges replay */
			replay_cache_store_finding(&replay, hash);
		if (!fresh_finding && S.op_repeats)
			rarity_count(&G, S.op_repeats, NULL);
		checkpoint();
		if ((keep_going && !fresh_finding) || serving) {
			/* Counted in its folder; no features, so libFuzzer keeps it out
			 * of the corpus (clang 14's ignores the -1), where merges would
			 * compile it again and its mutants repeat it. A served target
			 * goes on after a new finding too: its manager keeps the input
			 * (SLOT_NEW_FINDING), and an abort would cost a worker start. */
			memset(pt2fuzz_extra_counters, 0, FEATURES_MAP);
			check_result_free(&r);
			return serving && fresh_finding ? SLOT_NEW_FINDING : -1;
		}
		abort(); /* libFuzzer saves the input as crash-<sha1> */
	}
	check_result_free(&r);
	return 0;
}

static size_t mutate_input(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	size_t n;
	worker_up(); /* the mutant runs next; its worker's torch says which triggers to avoid */
	if (no_coverage) { /* pure generation: the input is ignored */
		n = gen_fresh_bytes(data, max_size, seed, near_invalid, RO.check.backward);
		S.last_mutator = -1;
		return n ? n : size;
	}
	int which = -1;
	if (S.parent_len && S.parent_len <= max_size && XXH64(data, size, 0) == S.finding_hash) {
		memcpy(data, S.parent, S.parent_len); /* not a mutant of a finding: of its parent */
		size = S.parent_len;
	}
	size = energy_choose(&energy, data, size, max_size, seed);
	S.parent_len = size <= sizeof S.parent ? size : 0;
	memcpy(S.parent, data, S.parent_len);
	size = gen_keep_component_bytes(data, size, seed); /* the one this mutant steers; fresh ones beside it */
	n = mutate_bytes(data, size, max_size, seed, near_invalid, &which, &S.mut);
	n = gen_fill_bytes(data, n, max_size, seed); /* every compile covers the campaign's components */
	S.last_mutator = which;
	S.last_hash = XXH64(data, n, 0);
	return n;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	uint64_t t0 = profile_clock_usec();
	size_t n = mutate_input(data, size, max_size, seed);
	spent(PR_MUTATE, t0);
	return n;
}

static size_t cross_inputs(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out, size_t max_out,
			   unsigned int seed)
{
	if (no_coverage)
		return mutate_input(out, 0, max_out, seed);
	worker_up(); /* as in mutate_input */
	int which = -1;
	if (S.parent_len && XXH64(d1, s1, 0) == S.finding_hash) {
		d1 = S.parent; /* as in LLVMFuzzerCustomMutator */
		s1 = S.parent_len;
	}
	size_t n = crossover_bytes(d1, s1, d2, s2, out, max_out, seed, near_invalid, &which, &S.mut);
	n = gen_fill_bytes(out, n, max_out, seed);
	S.last_mutator = which;
	S.last_hash = XXH64(out, n, 0);
	return n;
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
				 size_t max_out, unsigned int seed)
{
	uint64_t t0 = profile_clock_usec();
	size_t n = cross_inputs(d1, s1, d2, s2, out, max_out, seed);
	spent(PR_MUTATE, t0);
	return n;
}
