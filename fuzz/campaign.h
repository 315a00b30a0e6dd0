/* The node runner (`pt2fuzz fuzz`), split by concern:
 *   campaign.c         the command: options, the manager engine's loop (manager.h), the end
 *   campaign_node.c    what the node has (cores, GPUs, memory) and who holds OUT
 *   campaign_view.c    the terminal view, stats/plot_data
 *   campaign_corpus.c  sync with other runners (corpus, findings)
 *   campaign_triage.c  background reduction and triage of new findings
 *   campaign_stats.c   per-target statistics folded into totals (campaign_stats.h)
 *   campaign_profile.c where the seconds went: the summary's profile line */
#ifndef PT2FUZZ_CAMPAIGN_H
#define PT2FUZZ_CAMPAIGN_H
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>
#include "../harness/profile.h"
#include "../oracles/oracle.h"
#include "../pipeline/bucket.h"

#define CAMPAIGN_PATH 4200
#define CAMPAIGN_MAX_ARGS 512

/* Where a campaign's files are. */
struct campaign_paths {
	char out[CAMPAIGN_PATH], corpus[CAMPAIGN_PATH], findings[CAMPAIGN_PATH], crashes[CAMPAIGN_PATH],
		stats[CAMPAIGN_PATH], log[CAMPAIGN_PATH], plot_data[CAMPAIGN_PATH], fuzzer[CAMPAIGN_PATH],
		seeds[CAMPAIGN_PATH], self[CAMPAIGN_PATH], replay[CAMPAIGN_PATH], learned[CAMPAIGN_PATH];
	const char *sync;    /* a corpus shared with other runners, or NULL */
};

/* The options that go to every pt2fuzz_fuzzer process (v: the command line
 * minus the runner's own options) and to the background triage (run: the
 * run options only). */
struct target_args {
	char *v[CAMPAIGN_MAX_ARGS], *run[CAMPAIGN_MAX_ARGS];
	int n, nrun;
};

/* --- campaign_node.c --- */

/* Default worker count: one per core on a GPU node (several per GPU, as
 * GPU and host memory allow); a quarter of the cores on a CPU machine. */
unsigned node_default_jobs(unsigned per_gpu);

/* Takes OUT/.lock (waiting a little for a killed runner's helpers to go),
 * first killing what a previous runner of OUT left behind (processes whose
 * environment holds its PT2FUZZ_CAMPAIGN token), and puts our own token in
 * the environment. The lock fd, or -1 with a message. */
int node_claim(const char *out);

/* SIGKILLs what this runner started that still runs (its token in the
 * environment), itself aside: the workers of targets killed in the middle
 * of an input, and their compile subprocesses. The number killed. */
unsigned node_sweep(void);

/* --- campaign_view.c --- */

unsigned count_files(const char *dir);

/* A point of the campaign's curve, as stats/plot_data keeps it. */
struct plot_row {
	long long unix_time;
	double elapsed;              /* seconds, over every run of this OUT */
	unsigned long long execs;    /* over every run */
	double rate;                 /* execs per second since the previous row */
	unsigned corpus;
	unsigned long long features; /* the manager's feature map */
	unsigned long long lines;    /* distinct compiler lines */
	unsigned findings[V_COUNT];
	struct findings_census census; /* bugs by class (pipeline/bucket.h); not in plot_data */
	unsigned workers;            /* worker processes alive */
};

/* The last row of plot_data (zero when there is none): a restarted campaign
 * continues from its elapsed time and execs. */
void plot_resume(const char *path, struct plot_row *last);
int plot_append(const char *path, const struct plot_row *r);

struct view {
	const char *out;
	double secs, limit;          /* this run's seconds, its length (0: unbounded) */
	const char *engine;          /* "3 target processes started" */
	struct plot_row row;
	const char *workers;         /* "one per slot, ..." */
	const char *background;      /* triage and sync state */
	unsigned restarts;           /* stuck targets the watchdog killed */
};

/* The status: a block redrawn in place on a terminal, else one line. */
void view_draw(FILE *f, int tty, const struct view *v);
void view_clear(FILE *f, int tty);

/* --- campaign_profile.c --- */

/* Where a run's seconds went: the jobs' rows over their capacity (jobs
 * times the run's wall time; the set-up before the engine started counted
 * as worker start for every job), the rest being the manager's and the
 * target processes' own, and background triage beside them (it runs in
 * parallel). Prints the summary's profile line to f and writes the table
 * to tsv (key, title, seconds, share of the capacity). */
void campaign_profile_report(const struct profile *jobs_run, unsigned jobs, uint64_t wall_usec, uint64_t startup_usec,
			     uint64_t triage_usec, FILE *f, const char *tsv);

/* --- campaign_corpus.c --- */

/* Puts back what a corpus merge of dir interrupted by an earlier version's
 * runner left in dir.merge. */
void corpus_recover(const char *dir);

/* Copies into shared the inputs of dir it does not have (atomically, by
 * name: names are content hashes). The number copied. */
unsigned corpus_publish(const char *dir, const char *shared);

/* Copies into `to` the finding folders of `from` (findings/<kind>-<signature>,
 * pipeline/findings.h) it lacks, each whole: a reader sees none of a folder
 * or all of it, and a target that files the same signature in `to`
 * afterwards counts a repeat, not a new finding. Folders still being filed
 * (no meta.json yet) wait for the next call. The number copied. */
unsigned findings_share(const char *from, const char *to);

/* Triage's results, shared as its findings are (shared: the sync
 * directory's DIR.findings). A triaged finding is marked with a .triaged
 * file, written after the rest (reduced/, bisect.json, meta.json's
 * triage fields). */

/* Copies what triage made of findings' triaged folders into their copies
 * in shared that are not yet marked. The number copied. */
unsigned triage_publish(const char *findings, const char *shared);

/* Takes another runner's triage of finding name: copies it from shared
 * into findings when shared's copy is marked and ours is not. 1 when
 * taken. */
int triage_import(const char *shared, const char *findings, const char *name);

/* Whether this runner (me: its host and OUT) may triage finding name now:
 * a .triage-claim file in shared's copy of it (published first if shared
 * lacks it) says who does. 1 when the claim is ours (made now, or left by
 * ourselves before a restart, or taken over from a claim older than
 * stale_secs, whose runner stopped) or cannot be made; 0 when another
 * runner holds it. */
int triage_claim(const char *shared, const char *findings, const char *name, const char *me, long long stale_secs);

/* Appends its text to a file opened O_APPEND; -1 when it cannot. */
int open_log(const char *path);

/* --- campaign_triage.c --- */

#define TRIAGE_SLOTS_MAX 32
/* One `pt2fuzz triage` with one worker over one finding (a batch of one link). */
struct triage_slot {
	pid_t pid;                   /* 0 when the slot is free */
	uint64_t bucket;             /* its finding's */
	uint64_t since_usec;         /* when it began (profile_clock_usec) */
	char batch[CAMPAIGN_PATH];
};

struct triager {
	struct triage_slot slot[TRIAGE_SLOTS_MAX];
	unsigned slots;              /* at once: the campaign's triage share */
	unsigned running, done, pending; /* processes; findings triaged; of unknown bugs, waiting */
	unsigned folders, done_seen; /* the findings folders and done when batches were last chosen */
	int tidied;                  /* batches cut short by an earlier stop dropped */
	long long secs;              /* per finding */
	uint64_t ran_usec;           /* how long triage processes ran, summed */
	unsigned imported, published; /* triages taken from and given to the --sync runners */
	char me[600];                /* this runner, in its claims: host and OUT */
};

/* Marks the findings of the triage processes that have ended; with
 * may_start, fills the free slots with findings not yet triaged, each a
 * batch of one link under OUT/triage/: unknown buckets first, one finding
 * each, the smallest graph of its bucket, none whose bucket a running slot
 * has; buckets already reduced only when nothing else waits; known and
 * reported bugs never (they count by their bug: `pt2fuzz triage` reduces
 * them when asked). Slots run side by side, each with one worker, so that
 * reduction keeps pace with the buckets the node finds. With --sync, a
 * finding another runner has triaged is taken from it, one another runner
 * triages now is left to it, and a finished triage is published at once. */
void triager_poll(struct triager *t, const struct campaign_paths *p, const struct target_args *ta, int may_start);
void triager_stop(struct triager *t);
/* The next poll chooses again, though no finding changed (more slots). */
void triager_refresh(struct triager *t);

/* Starts argv[0] with stdout and stderr on out_fd, in a process group of
 * its own (so that its helpers can be stopped with it) that is sent
 * SIGTERM when we die, at the given niceness. The pid, or -1. */
pid_t campaign_spawn(char *const *argv, int out_fd, int nice_level);

/* Stops a process group started by campaign_spawn: SIGINT to the leader,
 * then SIGKILL to the group after
 * grace_ms. Returns the leader's wait status. */
int campaign_stop_group(pid_t pid, int grace_ms);

#endif
