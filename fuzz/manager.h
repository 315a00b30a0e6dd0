/* `pt2fuzz fuzz`'s engine: one process owns the loop that libFuzzer's
 * -fork would spread over short jobs. It keeps the corpus (in memory, and
 * OUT/corpus in libFuzzer's format: one input per file, named by its hash,
 * so a resumed campaign, or libFuzzer, reads it back), the feature map
 * the inputs reached (an input that reached new code enters the corpus:
 * features_novelty),
 * the seed energy and the mutator schedule (learned across the campaign,
 * fuzz/learned.h), and N persistent target processes (fuzz/slot_pool.h), each
 * running one input at a time with one worker for its life. docs/engine.md
 * says why. */
#ifndef PT2FUZZ_MANAGER_H
#define PT2FUZZ_MANAGER_H
#include <stddef.h>
#include <stdint.h>
#include "../graph/rng.h"
#include "../mutators/mutate.h"
#include "../mutators/schedule.h"
#include "../pipeline/features.h"
#include "learned.h"
#include "seed_energy.h"
#include "slot_pool.h"

struct check_cfg;

struct manager_config {
	unsigned jobs;           /* persistent target processes */
	unsigned near_invalid;   /* percent of mutants made near-invalid */
	unsigned size, components; /* of generated graphs (--size, --components) */
	unsigned target;         /* enum graph_target: the slots' device */
	int backward, aoti;      /* --mode backward; --backend aoti */
	unsigned config_pct;     /* generated graphs with a configuration (0: --no-configs) */
	char *const *argv;       /* a slot's command line (pt2fuzz_fuzzer ... --serve) */
	const char *corpus, *crashes, *learned, *stats;
	const char *const *seed_dirs; /* run once at the start, after the corpus; NULL ones skipped */
	unsigned nseed_dirs;
	int log_fd;              /* the slots' stderr */
	int place;               /* --device cuda:auto: each slot on a GPU by free memory (placement.h) */
	int64_t watchdog_ms;     /* a slot in one input longer is killed and replaced (0: never) */
	const char *findings;    /* where the watchdog files its hang findings */
	const char *device;      /* the slots' --device (cuda:auto: placement's cuda:N instead) */
	const struct check_cfg *check; /* the slots' configuration, for those findings' programs */
	int no_coverage;         /* --no-coverage: after the corpus and seeds, every input freshly generated */
	const char *torch;       /* the slots' torch ("2.11.0+cu130"), or NULL when unknown: what the draw avoids */
	int hunt_known;          /* --hunt-known: known bugs' triggers are drawn */
	uint64_t seed;           /* --seed: where the mutants' and fresh graphs' draws start */
};

/* One input of the corpus. */
struct manager_input {
	uint8_t *data;
	size_t size;
};

/* The inputs the manager mutates, and the choice among them. */
struct manager_corpus {
	struct manager_input *in;
	unsigned n, cap;
};

struct manager {
	struct manager_config c;
	struct manager_corpus corpus;
	char **queue;            /* files to run before mutating: the corpus folder's, the seeds' */
	unsigned nqueue, next, ncorpus_files; /* the first ncorpus_files are the corpus folder's */
	uint64_t *imported;      /* hashes of the names of other runners' inputs queued (manager_import), sorted */
	unsigned nimported;
	uint8_t seen[FEATURES_MAP], map[FEATURES_MAP];
	struct mut_schedule schedule;
	struct setting_schedule settings;
	struct seed_energy energy;
	struct mutate_stats mut;
	uint64_t mut_new[MUT_MAX];
	struct learned_store store;
	struct learned live;     /* its seen is learned_seen: the campaign's, not the novelty map */
	uint8_t learned_seen[FEATURES_MAP];
	uint32_t *op_runs, *pair_runs, *op_repeats;
	uint32_t setting_draws[SETTING_ROWS_MAX]; /* config_draw_use_counts: the configurations dealt */
	int64_t synced_ms;
	struct rng draws;        /* seeds for the mutators, from c.seed: runners and runs each draw their own */
	unsigned long long execs, kept, new_findings, slot_starts, slot_deaths, slot_hangs;
	unsigned active;         /* the slots fed inputs: c.jobs, fewer once manager_retire gave some up */
	uint64_t cut_usec;       /* manager_end: time inside inputs whose targets it killed, unrecorded by them */
	unsigned cut;            /* those inputs */
	struct slot_pool pool;  /* the slots, their processes and the inputs they run */
};

/* Lists the corpus and seed folders, sets the mutators up from the
 * campaign's learned state and starts the slots. 0, or -1 with why. */
int manager_begin(struct manager *m, const struct manager_config *c, char *why, size_t n);

/* Waits up to wait_ms for replies, takes them in, and hands every idle slot
 * its next input (restarting slots that ended). */
void manager_step(struct manager *m, int wait_ms);

/* Feeds only the first `active` slots from now on: each of the others
 * ends its process once its input is done, so that its core (and GPU
 * memory) can go to triage's wrap-up. */
void manager_retire(struct manager *m, unsigned active);

/* Queues the inputs of dir (other runners' corpus: --sync) that are
 * neither in the corpus folder nor imported before, to run as the seeds
 * run: their features count, and one that adds features is kept. The
 * number queued. */
unsigned manager_import(struct manager *m, const char *dir);

/* Stops the slots (an input running after grace_ms is cut off: its time so
 * far is cut_usec), syncs the learned state and writes the manager's
 * statistics. */
void manager_end(struct manager *m, int grace_ms);

/* --- pure parts (manager_pick.c) --- */

/* Adds a copy of data to c. 0, or -1 (out of memory). */
int manager_corpus_add(struct manager_corpus *c, const uint8_t *data, size_t size);
void manager_corpus_free(struct manager_corpus *c);

/* The input to mutate next into buf (capacity cap), for draw: a corpus
 * input drawn uniformly, or on every other draw, while a recent finder has
 * energy left, that finder (seed_energy.h). Its size; 0 when the corpus is
 * empty and no finder has energy (the mutator then generates). */
size_t manager_pick(const struct manager_corpus *c, struct seed_energy *e, uint64_t draw, uint8_t *buf, size_t cap);

#endif
