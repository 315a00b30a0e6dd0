/* Files a crash must not leave half-written (corpus inputs, findings,
 * stats, triage outputs, replay-cache entries): written to a temporary
 * name in the same directory, DIR/.NAME.tmp.PID (hidden: the campaign's corpus
 * moves and stats folding skip it), and renamed over PATH when complete, so
 * a reader sees the old file or the new one, never a part. */
#ifndef PT2FUZZ_ATOMIC_FILE_H
#define PT2FUZZ_ATOMIC_FILE_H
#include <stddef.h>
#include <stdio.h>

struct atomic_file {
	FILE *f; /* write into this, then atomic_commit */
	char path[4200], tmp[4300];
};

/* Opens a's temporary file for PATH; a->f, or NULL (errno set). */
FILE *atomic_open(struct atomic_file *a, const char *path);

/* Closes a->f and renames it over PATH (0), or removes it (-1, errno set)
 * when a write failed (ENOSPC). durable: fsync the file before the rename
 * and the directory after, for what must outlive a power cut (findings). */
int atomic_commit(struct atomic_file *a, int durable);

/* The whole of buf as PATH, as above. */
int atomic_write(const char *path, const void *buf, size_t len, int durable);

/* Removes the temporary files writers killed mid-write left in dir; only
 * where none of its writers can be running. Returns how many. */
unsigned atomic_sweep(const char *dir);

#endif
