/* Workers' temporary folders. Each worker keeps its compile dumps, trace logs
 * and AOTInductor builds in a folder of its own, $TMPDIR/pt2fuzz-scratch-*,
 * and holds a lock on the folder's .lock while it lives
 * (harness/worker_scratch.py). Workers are killed, never asked to exit, so
 * the C side removes the folders: the executor its worker's when it stops it,
 * and a sweep those whose worker is gone (a lock dies with its process,
 * whatever pid namespace that ran in). */
#ifndef PT2FUZZ_SCRATCH_H
#define PT2FUZZ_SCRATCH_H

#define SCRATCH_PREFIX "pt2fuzz-scratch-"
#define SCRATCH_LOCK ".lock"
/* A folder without its lock may be a worker's between making it and locking it. */
#define SCRATCH_GRACE_SECONDS 600

/* Where workers make their folders: $TMPDIR, else /tmp (Python's tempfile's first choices). */
const char *scratch_root(void);

/* Removes dir and all in it, if its name is a scratch folder's (a worker's
 * hello names it: the worker's word is not trusted further). */
void scratch_remove(const char *dir);

/* Removes root's scratch folders whose lock nobody holds, and unlocked ones
 * older than the grace period. A worker just killed may still hold its lock
 * for a moment: the sweep tries again for up to wait_ms while some folder is
 * locked. Returns how many it removed. */
unsigned scratch_sweep(const char *root, unsigned wait_ms);

#endif
