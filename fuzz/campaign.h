/* The node runner (`pt2fuzz fuzz`), split by concern:
 *   campaign.c         the command: options, rounds of libFuzzer -fork, the main loop
 *   campaign_node.c    what the node has (cores, GPUs, memory) and who holds OUT
 *   campaign_view.c    libFuzzer's status lines, the terminal view, stats/plot_data
 *   campaign_corpus.c  corpus merge (-merge=1 into a fresh dir, swapped in) and sync (corpus, findings)
 *   campaign_triage.c  background reduction and triage of new findings
 *   campaign_stats.c   per-job statistics folded into totals (campaign_stats.h)
 *   campaign_profile.c where the seconds went: the summary's profile line
 *   campaign_first_pass.c  the seeds run in parallel before libFuzzer's first merge
 * With --engine manager, manager.c's loop over persistent targets runs in
 * place of the rounds (manager.h); the rest of the runner is the same. */
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
 * minus the runner's own options), to the background triage (run: the run
 * options only), and to libFuzzer in each round (libfuzzer: the -flag=value
 * arguments). */
struct target_args {
	char *v[CAMPAIGN_MAX_ARGS], *run[CAMPAIGN_MAX_ARGS], *libfuzzer[CAMPAIGN_MAX_ARGS];
	int n, nrun, nlibfuzzer;
};

/* What libFuzzer's fork-mode status lines say about the current round. */
struct progress {
	unsigned long long execs, features, corpus, crashes, job;
	int seen;
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

void progress_parse(const char *line, struct progress *p);

unsigned count_files(const char *dir);

/* A point of the campaign's curve, as stats/plot_data keeps it. */
struct plot_row {
	long long unix_time;
	double elapsed;              /* seconds, over every run of this OUT */
	unsigned long long execs;    /* over every run */
	double rate;                 /* execs per second since the previous row */
	unsigned corpus;
	unsigned long long features; /* libFuzzer's ft */
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
	const char *engine;          /* "round 2, libFuzzer job 7", "3 target processes started" */
	struct plot_row row;
	const char *workers;         /* "16 lent, 2 idle, ..." */
	const char *background;      /* merge and triage state */
	unsigned restarts;           /* jobs the watchdog restarted */
};

/* The status: a block redrawn in place on a terminal, else one line. */
void view_draw(FILE *f, int tty, const struct view *v);
void view_clear(FILE *f, int tty);

/* --- campaign_profile.c --- */

/* Where a run's seconds went: the jobs' rows over their capacity (jobs
 * times the run's wall time; the time before libFuzzer started, waiting for
 * a worker, counted as worker start for every job), the rest being
 * libFuzzer's and the forks', and background triage beside them (it runs in
 * parallel). Prints the summary's profile line to f and writes the table
 * to tsv (key, title, seconds, share of the capacity). */
void campaign_profile_report(const struct profile *jobs_run, unsigned jobs, uint64_t wall_usec, uint64_t startup_usec,
			     uint64_t triage_usec, FILE *f, const char *tsv);

/* --- campaign_watchdog.c --- */

/* A job's heartbeat file, touched by its pt2fuzz_fuzzer processes at
 * every input (--heartbeat). */
struct heartbeat {
	char path[CAMPAIGN_PATH];    /* set by the owner before heartbeat_arm */
	struct timespec seen;        /* the file's mtime when last looked at */
	int64_t last_ms;             /* when it last moved (protocol_now_ms() based) */
};

/* Creates h->path (if need be) and starts the clock at now. */
void heartbeat_arm(struct heartbeat *h, int64_t now);

/* Progress seen another way (the job's own output). */
void heartbeat_note(struct heartbeat *h, int64_t now);

/* Milliseconds since the job last showed progress. */
int64_t heartbeat_quiet_ms(struct heartbeat *h, int64_t now);

/* --- campaign_corpus.c --- */

struct corpus_merge {
	pid_t pid;                   /* 0 when none runs */
	long long started;           /* unix time */
	char dir[CAMPAIGN_PATH], into[CAMPAIGN_PATH];
	unsigned before, after;      /* inputs, of the last merge */
	int lock;                    /* held while merging a shared corpus */
	struct heartbeat beat;       /* its processes' progress (path set by the caller) */
};

/* Puts back what an interrupted merge of dir left in dir.merge. */
void corpus_recover(const char *dir);

/* Starts `fuzzer -merge=1 DIR.merge DIR` in the background (log appended
 * to log; the input of a finding that aborts it into crashes), its
 * processes beating m->beat (path set by the caller). For a shared corpus
 * (lock_shared), only when no other runner is merging it. 0 when started. */
int corpus_merge_start(struct corpus_merge *m, const char *fuzzer, const char *dir, const char *crashes,
		       const struct target_args *ta, const char *log, int lock_shared);

/* When the merge has ended: swaps the merged corpus in (inputs that arrived
 * meanwhile are kept) and returns 1; 0 while it runs. */
int corpus_merge_poll(struct corpus_merge *m, int wait);

/* Copies into shared the inputs of dir it does not have (atomically, by
 * name: names are content hashes). The number copied. */
unsigned corpus_publish(const char *dir, const char *shared);

/* Copies into `to` the finding folders of `from` (findings/<kind>-<signature>,
 * pipeline/findings.h) it lacks, each whole: a reader sees none of a folder
 * or all of it, and a target that files the same signature in `to`
 * afterwards counts a repeat, not a new finding. Folders still being filed
 * (no meta.json yet) wait for the next call. The number copied. */
unsigned findings_share(const char *from, const char *to);

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
};

/* Marks the findings of the triage processes that have ended; with
 * may_start, fills the free slots with findings not yet triaged, each a
 * batch of one link under OUT/triage/: unknown buckets first, one finding
 * each, the smallest graph of its bucket, none whose bucket a running slot
 * has; buckets already reduced only when nothing else waits; known and
 * reported bugs never (they count by their bug: `pt2fuzz triage` reduces
 * them when asked). Slots run side by side, each with one worker, so that
 * reduction keeps pace with the buckets the node finds. */
void triager_poll(struct triager *t, const struct campaign_paths *p, const struct target_args *ta, int may_start);
void triager_stop(struct triager *t);
/* The next poll chooses again, though no finding changed (more slots). */
void triager_refresh(struct triager *t);

/* --- campaign_first_pass.c --- */
/* libFuzzer's -fork begins each round with a merge of the corpus and the
 * seeds in one process, where every input no job has run yet compiles in
 * turn while the other jobs' slots wait. The first pass runs the seed folders' inputs before,
 * as many target processes at once as the campaign has jobs: the replay
 * cache they fill (maps, and findings) makes that merge a read. */
#define FIRST_PASS_SLOTS 256
#define FIRST_PASS_CHUNK 128 /* inputs one process runs at most */
struct first_pass {
	char **files;                /* the inputs, from the folders */
	unsigned n, next;            /* next: the first not yet handed to a process */
	unsigned slots, processes, aborted, failed, stuck; /* aborted: by a new finding */
	int lent;                    /* workers are lent: a process costs no worker start */
	pid_t pid[FIRST_PASS_SLOTS]; /* 0: a free slot */
	struct heartbeat beat[FIRST_PASS_SLOTS];
};

/* Lists the regular files of dirs (NULL ones skipped), to run in slots
 * processes at once, with lent workers or not. 0, or -1 (out of memory). */
int first_pass_begin(struct first_pass *fp, const char *const *dirs, unsigned ndirs, unsigned slots, int lent);

/* Reaps the processes that ended, stops one silent for quiet_ms (0: never),
 * and starts the next inputs in free slots; output to log_fd. 1 while
 * inputs remain or run. */
int first_pass_step(struct first_pass *fp, const struct campaign_paths *p, const struct target_args *ta, int log_fd,
		    int64_t quiet_ms);

/* Stops what still runs; frees the list. */
void first_pass_end(struct first_pass *fp);

/* Starts argv[0] with stdout and stderr on out_fd, in a process group of
 * its own (so that its helpers can be stopped with it) that is sent
 * SIGTERM when we die, at the given niceness. The pid, or -1. */
pid_t campaign_spawn(char *const *argv, int out_fd, int nice_level);

/* Stops a process group started by campaign_spawn: SIGINT to the leader
 * (libFuzzer prints its final stats), then SIGKILL to the group after
 * grace_ms. Returns the leader's wait status. */
int campaign_stop_group(pid_t pid, int grace_ms);

#endif
