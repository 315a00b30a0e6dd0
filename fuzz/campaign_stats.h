/* A campaign's statistics across its target processes: each writes
 * stats/fuzzer-<pid>.tsv and stats/lines-<pid>-<n>.txt (pt2fuzz_fuzzer.c);
 * the campaign folds finished jobs' files into stats/totals.tsv and the
 * union of compiler lines into stats/lines.txt, and deletes what it folded,
 * so a long campaign keeps two files, and a restarted one resumes them. */
#ifndef PT2FUZZ_CAMPAIGN_STATS_H
#define PT2FUZZ_CAMPAIGN_STATS_H
#include <stdint.h>
#include <stdio.h>
#include "../harness/profile.h"
#include "../mutators/mutate.h"
#include "../oracles/oracle.h"

struct mutator_totals {
	char name[32];
	uint64_t tried, valid, fresh;
};

struct campaign_stats {
	uint64_t execs, rejected, near_invalid, replayed, starts, crashes, hangs, verdicts[V_COUNT];
	uint64_t isolated; /* parts checked alone by isolation (pipeline/isolate.h) */
	uint64_t avoided;  /* components of seeds and corpus inputs dropped as known bugs' triggers */
	uint64_t configured; /* runs of graphs with a compile configuration */
	uint64_t settings_dropped; /* settings of inputs made elsewhere that a target's torch or campaign lacks */
	struct mutator_totals mut[MUT_MAX];
	unsigned nmut;
	struct profile prof;      /* the jobs' time by row (PR_REST left 0) */
	/* The union of "path:line" strings: open addressing over an arena. */
	char **slots;
	size_t nslots, nlines;
};

/* Starts from dir's totals.tsv and lines.txt when they exist. */
void cstats_init(struct campaign_stats *s, const char *dir);

/* Folds the files of jobs that have exited (all of them when final) and every
 * complete line dump, deleting them; then rewrites totals.tsv and lines.txt. */
void cstats_collect(struct campaign_stats *s, const char *dir, int final);

void cstats_print(const struct campaign_stats *s, FILE *f);
void cstats_free(struct campaign_stats *s);

#endif
