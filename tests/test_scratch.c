/* Workers' temporary folders (harness/scratch.h): the sweep removes a folder
 * whose lock nobody holds and an unlocked one past the grace period, and
 * keeps a locked one (its worker lives), a young unlocked one (a worker
 * starting), a file of that name and every other name. */
#include "test.h"
#include "../harness/scratch.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

static char root[64];

static void path_of(const char *name, char *out, size_t n) { snprintf(out, n, "%s/%s", root, name); }

static int exists(const char *name)
{
	char p[128];
	path_of(name, p, sizeof p);
	return access(p, F_OK) == 0;
}

/* A folder with a file in it, and its lock file when lock_file. */
static void folder(const char *name, int lock_file)
{
	char p[128], f[160];
	path_of(name, p, sizeof p);
	CHECK(mkdir(p, 0700) == 0);
	snprintf(f, sizeof f, "%s/kernel.cpp", p);
	FILE *k = fopen(f, "w");
	CHECK(k != NULL);
	if (k)
		fclose(k);
	if (lock_file) {
		snprintf(f, sizeof f, "%s/" SCRATCH_LOCK, p);
		int fd = open(f, O_CREAT | O_WRONLY, 0600);
		CHECK(fd >= 0);
		close(fd);
	}
}

static void age(const char *name, time_t seconds)
{
	char p[128];
	path_of(name, p, sizeof p);
	struct utimbuf t = {time(NULL) - seconds, time(NULL) - seconds};
	CHECK(utime(p, &t) == 0);
}

TEST(scratch_sweep_removes_the_folders_of_workers_that_are_gone)
{
	snprintf(root, sizeof root, "/tmp/pt2fuzz-sweep-test.XXXXXX");
	CHECK(mkdtemp(root) != NULL);
	folder(SCRATCH_PREFIX "dead", 1);
	folder(SCRATCH_PREFIX "live", 1);
	folder(SCRATCH_PREFIX "young", 0);
	folder(SCRATCH_PREFIX "old", 0);
	folder("other-dead", 1);
	age(SCRATCH_PREFIX "old", SCRATCH_GRACE_SECONDS + 60);
	age(SCRATCH_PREFIX "young", SCRATCH_GRACE_SECONDS - 60);
	char p[160];
	path_of(SCRATCH_PREFIX "note.log", p, sizeof p);
	FILE *f = fopen(p, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	/* the live worker's lock: another open file description holds it */
	path_of(SCRATCH_PREFIX "live/" SCRATCH_LOCK, p, sizeof p);
	int held = open(p, O_RDONLY);
	CHECK(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0);
	CHECK_EQ(scratch_sweep(root, 0), 2);
	CHECK(!exists(SCRATCH_PREFIX "dead"));
	CHECK(!exists(SCRATCH_PREFIX "old"));
	CHECK(exists(SCRATCH_PREFIX "live/kernel.cpp"));
	CHECK(exists(SCRATCH_PREFIX "young/kernel.cpp"));
	CHECK(exists(SCRATCH_PREFIX "note.log"));
	CHECK(exists("other-dead/kernel.cpp"));
	/* its worker gone, the live one goes at the next sweep; a name not a scratch folder's never */
	close(held);
	CHECK_EQ(scratch_sweep(root, 0), 1);
	CHECK(!exists(SCRATCH_PREFIX "live"));
	path_of("other-dead", p, sizeof p);
	scratch_remove(p);
	CHECK(exists("other-dead/kernel.cpp"));
	path_of(SCRATCH_PREFIX "young", p, sizeof p);
	scratch_remove(p);
	CHECK(!exists(SCRATCH_PREFIX "young"));
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	CHECK(system(cmd) == 0);
}
