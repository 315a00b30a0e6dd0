#include "atomic_file.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

FILE *atomic_open(struct atomic_file *a, const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	a->f = NULL;
	if (snprintf(a->path, sizeof a->path, "%s", path) >= (int)sizeof a->path ||
	    snprintf(a->tmp, sizeof a->tmp, "%.*s.%s.tmp.%d", (int)(base - path), path, base, (int)getpid()) >=
		    (int)sizeof a->tmp) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return a->f = fopen(a->tmp, "wb");
}

/* The directory of path, so that a rename into it is on disk too. */
static void sync_dir(const char *path)
{
	char dir[4200];
	const char *slash = strrchr(path, '/');
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int atomic_commit(struct atomic_file *a, int durable)
{
	if (!a->f)
		return -1;
	int bad = ferror(a->f) || fflush(a->f) || (durable && fsync(fileno(a->f)));
	int err = errno;
	bad |= fclose(a->f);
	a->f = NULL;
	if (bad || rename(a->tmp, a->path)) {
		err = bad ? err : errno;
		remove(a->tmp);
		errno = err;
		return -1;
	}
	if (durable)
		sync_dir(a->path);
	return 0;
}

int atomic_write(const char *path, const void *buf, size_t len, int durable)
{
	struct atomic_file a;
	if (!atomic_open(&a, path))
		return -1;
	fwrite(buf, 1, len, a.f); /* a short write sets the error flag atomic_commit checks */
	return atomic_commit(&a, durable);
}

int atomic_dir_open(const char *path, char *tmp, size_t n)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	int k = snprintf(tmp, n, "%.*s.%s.tmp.%d", (int)(base - path), path, base, (int)getpid());
	if (k < 0 || (size_t)k >= n) {
		errno = ENAMETOOLONG;
		return -1;
	}
	atomic_remove_dir(tmp); /* this pid's, from a run killed before it */
	return mkdir(tmp, 0777);
}

int atomic_dir_commit(const char *tmp, const char *path)
{
	if (!rename(tmp, path)) {
		sync_dir(path);
		return 0;
	}
	if (errno == ENOTEMPTY)
		errno = EEXIST;
	return -1;
}

void atomic_remove_dir(const char *dir)
{
	char path[4400];
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path)
			unlink(path);
	if (d)
		closedir(d);
	rmdir(dir);
}

/* The writer's pid in a temporary's name (".NAME.tmp.PID"), or -1 where name is none. */
static long temp_writer(const char *name)
{
	const char *t = strstr(name, ".tmp.");
	if (name[0] != '.' || !t || !t[5] || strspn(t + 5, "0123456789") != strlen(t + 5))
		return -1;
	return strtol(t + 5, NULL, 10);
}

/* Removes dir's temporaries at least min_age seconds old, of writer pid (-1: any). */
static unsigned sweep(const char *dir, unsigned min_age, long pid)
{
	char path[4400];
	unsigned n = 0;
	struct stat st;
	time_t now = time(NULL);
	DIR *d = dir ? opendir(dir) : NULL;
	for (struct dirent *e; d && (e = readdir(d));) {
		long writer = temp_writer(e->d_name);
		if (writer < 0 || (pid >= 0 && writer != pid) ||
		    snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path || lstat(path, &st) ||
		    now - st.st_mtime < (time_t)min_age)
			continue;
		if (S_ISDIR(st.st_mode)) {
			atomic_remove_dir(path);
			n += access(path, F_OK) != 0;
		} else {
			n += unlink(path) == 0;
		}
	}
	if (d)
		closedir(d);
	return n;
}

unsigned atomic_sweep(const char *dir, unsigned min_age) { return sweep(dir, min_age, -1); }

unsigned atomic_sweep_writer(const char *dir, long pid) { return pid > 0 ? sweep(dir, 0, pid) : 0; }

void atomic_save_by_hash(const char *dir, const char *prefix, const uint8_t *data, size_t size)
{
	char path[4400];
	struct atomic_file a;
	snprintf(path, sizeof path, "%s/%s%016llx", dir, prefix, (unsigned long long)XXH64(data, size, 0));
	if (!access(path, F_OK))
		return;
	FILE *f = atomic_open(&a, path);
	if (f && fwrite(data, 1, size, f) == size)
		atomic_commit(&a, 0);
	else if (f) {
		fclose(f);
		remove(a.tmp);
	}
}
