/* Where a fuzzing job's seconds go: time sorted into rows (worker start,
 * each mode, each compile stage, protocol, judging), added up per job from
 * every request's round trip and the worker's own timings (struct
 * run_result's stage_usec and per-mode microseconds). A campaign adds the
 * jobs' profiles up; the rest of their wall time is libFuzzer's and the
 * forks' (profile_shares). */
#ifndef PT2FUZZ_PROFILE_H
#define PT2FUZZ_PROFILE_H
#include <stdint.h>
#include <stdio.h>
#include "result.h"

enum profile_row {
	PR_START,    /* starting a worker */
	PR_SETUP,    /* the worker's request less its modes: the program's exec, its models, the reply */
	PR_EAGER,
	PR_DYNAMO,   /* the compile's stages (enum worker_stage) */
	PR_AOT_AUTOGRAD,
	PR_LOWERING,
	PR_CODEGEN,
	PR_KERNELS,
	PR_COMPILED, /* compiled mode less its compile stages: the compiled runs (and the compile,
		      * where torch's timers are absent) */
	PR_FP64,
	PR_PROTOCOL, /* round trips less the worker's request: messages, parsing, waiting */
	PR_JUDGE,    /* the oracles' comparison */
	/* the fuzz target's own work around the requests (fuzz/pt2fuzz_fuzzer.c) */
	PR_REPLAY,   /* inputs answered from the replay cache, and inputs that did not decode */
	PR_MUTATE,   /* the custom mutator and crossover */
	PR_FINDINGS, /* recording findings and matching them to buckets */
	PR_STATS,    /* writing stats and line dumps, syncing the learned state */
	PR_MERGE,    /* a libFuzzer -merge=1 process's life less its requests (none in a campaign) */
	PR_LIBFUZZER, /* any other target process's life less its rows: in a campaign, waiting
		       * for the manager's next input; under plain libFuzzer, libFuzzer's own work */
	PR_WRAP_UP,  /* job slots the manager handed to triage's wrap-up, while its reductions ran there */
	PR_CUT,      /* inputs the manager cut off at the deadline: their targets killed before recording them */
	PR_REST,     /* the wall time nothing above holds: outside the target processes, slots
		      * starting or idle (profile_shares) */
	PR_COUNT
};

struct profile {
	uint64_t usec[PR_COUNT];
};

/* The clock the rows are measured by (monotonic, microseconds). */
uint64_t profile_clock_usec(void);

/* "worker_start", "eager", ...: the rows' keys in stats files. */
const char *profile_row_key(unsigned row);
/* "worker start", "libFuzzer and fork", ...: as a table shows them. */
const char *profile_row_title(unsigned row);

/* Adds one request's time: r as the executor returned it, the round trips
 * of its parts that replied (replied_usec) and of a part that crashed or
 * hung (lost_usec: the mode that was running gets it). */
void profile_add_request(struct profile *p, const struct run_result *r, uint64_t replied_usec, uint64_t lost_usec);

/* p over a capacity of wall_usec (a campaign: its jobs times its wall
 * time): out is p with PR_REST set to what no row holds, never negative.
 * Returns the total the shares are of: wall_usec, or the rows' sum where
 * that is larger (clocks of several processes), so that out adds up to it. */
uint64_t profile_shares(const struct profile *p, uint64_t wall_usec, struct profile *out);

/* "profile_KEY\tusec" lines (PR_REST, which is computed, left out), and
 * adding such a line to p: 1 when line was one. */
void profile_write(const struct profile *p, FILE *f);
int profile_read_line(struct profile *p, const char *line);

#endif
