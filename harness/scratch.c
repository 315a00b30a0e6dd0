#include "scratch.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *scratch_root(void)
{
	const char *tmp = getenv("TMPDIR");
	return tmp && *tmp ? tmp : "/tmp";
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *at)
{
	(void)st, (void)type, (void)at;
	remove(path);
	return 0;
}

static int is_scratch_name(const char *name) { return !strncmp(name, SCRATCH_PREFIX, strlen(SCRATCH_PREFIX)); }

void scratch_remove(const char *dir)
{
	const char *base = strrchr(dir, '/');
	if (is_scratch_name(base ? base + 1 : dir))
		nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

enum folder_state { FOLDER_KEEP, FOLDER_GONE, FOLDER_LOCKED };

/* Removes one folder if its worker is gone. */
static enum folder_state sweep_one(const char *folder)
{
	struct stat st;
	if (lstat(folder, &st) || !S_ISDIR(st.st_mode))
		return FOLDER_KEEP; /* a file of that name is not a worker's */
	char lock[4096];
	if (snprintf(lock, sizeof lock, "%.4000s/" SCRATCH_LOCK, folder) >= (int)sizeof lock || strlen(folder) > 4000)
		return FOLDER_KEEP;
	int fd = open(lock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		if (errno != ENOENT || time(NULL) - st.st_mtime < SCRATCH_GRACE_SECONDS)
			return FOLDER_KEEP;
		scratch_remove(folder);
		return FOLDER_GONE;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		return FOLDER_LOCKED;
	}
	scratch_remove(folder);
	close(fd);
	return FOLDER_GONE;
}

unsigned scratch_sweep(const char *root, unsigned wait_ms)
{
	unsigned removed = 0;
	for (unsigned waited = 0;; waited += 50) {
		unsigned locked = 0;
		DIR *d = opendir(root);
		for (struct dirent *e; d && (e = readdir(d));) {
			if (!is_scratch_name(e->d_name))
				continue;
			char folder[4096];
			if (snprintf(folder, sizeof folder, "%s/%s", root, e->d_name) >= (int)sizeof folder)
				continue;
			enum folder_state s = sweep_one(folder);
			removed += s == FOLDER_GONE;
			locked += s == FOLDER_LOCKED;
		}
		if (d)
			closedir(d);
		if (!locked || waited >= wait_ms)
			return removed;
		usleep(50 * 1000);
	}
}
