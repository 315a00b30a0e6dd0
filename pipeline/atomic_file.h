/* Files a crash must not leave half-written (corpus inputs, findings,
 * stats, triage outputs, replay-cache entries): written to a temporary
 * name in the same directory, DIR/.NAME.tmp.PID (hidden: the campaign's corpus
 * moves and stats folding skip it), and renamed over PATH when complete, so
 * a reader sees the old file or the new one, never a part. */
#ifndef PT2FUZZ_ATOMIC_FILE_H
#define PT2FUZZ_ATOMIC_FILE_H
#include <stddef.h>
#include <stdint.h>
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

/* data as DIR/PREFIXHASH (its xxHash64 in 16 hex digits, libFuzzer's
 * naming of corpus and crash inputs), unless a file of that name is there. */
void atomic_save_by_hash(const char *dir, const char *prefix, const uint8_t *data, size_t size);

/* A folder written whole (a finding): its files go into DIR/.NAME.tmp.PID,
 * which is renamed to PATH when complete. 0, or -1 (errno set). */
int atomic_dir_open(const char *path, char *tmp, size_t n);

/* Renames tmp to path: 0; -1 with errno EEXIST when path is already there
 * (another writer's, whole), tmp then kept for the caller. */
int atomic_dir_commit(const char *tmp, const char *path);

/* Removes a flat folder: its files, then itself. */
void atomic_remove_dir(const char *dir);

/* Removes the temporary files and folders writers killed mid-write left in
 * dir that are at least min_age seconds old: 0 where none of its writers can
 * be running, more where other processes may be writing (a findings folder
 * runners share: none takes minutes over one). Returns how many. */
unsigned atomic_sweep(const char *dir, unsigned min_age);

/* Removes the temporaries in dir (NULL: none) of writer pid, a process
 * known to be dead (killed mid-write): what it left, whatever their age,
 * and nothing of another writer. Returns how many. */
unsigned atomic_sweep_writer(const char *dir, long pid);

#endif
