/* What a campaign's jobs learn, kept for the jobs after them. libFuzzer's
 * -fork gives job k only min(k, 300) seconds, and on a target that takes
 * seconds an input a job runs a handful: what one job learned alone (which
 * features are new, which mutators yield, which ops and op pairs are rare)
 * would be gone before it steered anything. So each job starts from the
 * campaign's state, and adds what it learned, now and then and at its end,
 * while other jobs do the same:
 *   DIR/seen.bin    the (counter, bucket) bits seen, one byte per counter: OR-ed
 *   DIR/counts.tsv  op and op-pair runs, op runs in repeated findings
 *                   (rarity.h), mutator runs and yields and compile
 *                   settings' runs and yields (schedule.h), by name (a
 *                   catalogue that changed keeps what still has a name): each
 *                   job adds what it changed since its last look
 *   DIR/lock        held (flock) around each read, merge and write
 * Files are written whole (atomic_file.h). A damaged one is set aside with a
 * message and the state starts over: nothing else depends on it. */
#ifndef PT2FUZZ_LEARNED_H
#define PT2FUZZ_LEARNED_H
#include <stddef.h>
#include <stdint.h>

/* The job's own state, which learned_sync reads and updates in place. */
struct learned {
	uint8_t *seen;                 /* seen_len bytes */
	size_t seen_len;
	uint32_t *op_runs, *op_repeats; /* op_count() each */
	uint32_t *pair_runs;             /* rarity_pair_count() */
	double *mut_runs, *mut_yields; /* mutator_count() each */
	double *set_runs, *set_yields; /* setting_count() each */
};

/* What the state was at the last sync: the job's changes are the difference. */
struct learned_store {
	char dir[4096];
	struct learned base;
};

/* Makes DIR and a zero base shaped like live. 0, or -1 with why. */
int learned_open(struct learned_store *s, const char *dir, const struct learned *live, char *why, size_t n);

/* Under the lock: reads DIR, adds live's changes since the last sync (ORs
 * seen), writes it back when live changed anything, and leaves the result
 * in live and the base. 0, or -1 with why (live is left as it was). */
int learned_sync(struct learned_store *s, struct learned *live, char *why, size_t n);

void learned_close(struct learned_store *s);

#endif
