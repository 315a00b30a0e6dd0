/* A campaign's corpus upkeep. Merge: libFuzzer's -merge=1 of DIR into a
 * fresh DIR.merge, which is then exchanged with DIR in one step
 * (renameat2 RENAME_EXCHANGE), so a running libFuzzer always finds DIR;
 * inputs written into the old DIR during the merge are moved over. An
 * interrupted merge is undone at the next start (corpus_recover): nothing
 * is lost. Sync: inputs are copied into a shared directory under their
 * content-hash names, written to a temporary name and renamed, so runners
 * on several nodes can publish into it at once; finding folders likewise,
 * each whole (findings_share). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../harness/protocol.h"
#include "../pipeline/atomic_file.h"
#include "campaign.h"
#include "../pipeline/graphio.h"

/* The files of a flat directory, then the directory. */
static void remove_dir(const char *dir)
{
	char path[CAMPAIGN_PATH + 300];
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path)
			unlink(path);
	if (d)
		closedir(d);
	rmdir(dir);
}

/* Moves the files of `from` that `to` lacks into `to` (those modified at
 * or after `since`, when since > 0). The number moved. */
static unsigned move_missing(const char *from, const char *to, long long since)
{
	char src[CAMPAIGN_PATH + 300], dst[CAMPAIGN_PATH + 300];
	unsigned n = 0;
	struct stat st;
	DIR *d = opendir(from);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.' || snprintf(src, sizeof src, "%s/%s", from, e->d_name) >= (int)sizeof src ||
		    snprintf(dst, sizeof dst, "%s/%s", to, e->d_name) >= (int)sizeof dst)
			continue;
		if (!access(dst, F_OK) || stat(src, &st) || (since > 0 && st.st_mtime < since))
			continue;
		n += rename(src, dst) == 0;
	}
	if (d)
		closedir(d);
	return n;
}

static void merge_dir(const char *dir, char *out, size_t n) { snprintf(out, n, "%.4100s.merge", dir); }

void corpus_recover(const char *dir)
{
	char merge[CAMPAIGN_PATH];
	merge_dir(dir, merge, sizeof merge);
	if (access(merge, F_OK))
		return;
	unsigned n = move_missing(merge, dir, 0);
	remove_dir(merge);
	if (n)
		fprintf(stderr, "pt2fuzz fuzz: %u inputs put back from an interrupted merge of %s\n", n, dir);
}

/* Exchanges two directories in one step; where the filesystem cannot (NFS),
 * in two renames. */
static int exchange(const char *a, const char *b)
{
	if (!renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	char side[CAMPAIGN_PATH + 16];
	snprintf(side, sizeof side, "%.4100s.swap", b);
	return rename(b, side) || rename(a, b) || rename(side, a) ? -1 : 0;
}

int corpus_merge_start(struct corpus_merge *m, const char *fuzzer, const char *dir, const char *crashes,
		       const struct target_args *ta, const char *log, int lock_shared)
{
	char lockpath[CAMPAIGN_PATH + 16];
	m->lock = -1;
	if (lock_shared) { /* one merger per shared corpus; the lock lives beside it, not in it */
		snprintf(lockpath, sizeof lockpath, "%.4100s.lock", dir);
		m->lock = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
		if (m->lock < 0 || flock(m->lock, LOCK_EX | LOCK_NB)) {
			if (m->lock >= 0)
				close(m->lock);
			m->lock = -1;
			return -1;
		}
	}
	corpus_recover(dir);
	snprintf(m->dir, sizeof m->dir, "%s", dir);
	merge_dir(dir, m->into, sizeof m->into);
	mkdir(m->into, 0777);
	m->before = count_files(dir);
	m->started = (long long)time(NULL);
	char *argv[CAMPAIGN_MAX_ARGS + 16];
	int n = 0;
	static char *const fixed[] = {"-merge=1", "-max_len=32768", "-timeout=900", "-rss_limit_mb=16384"};
	static char art[CAMPAIGN_PATH + 32];
	snprintf(art, sizeof art, "-artifact_prefix=%.4100s/", crashes); /* a merge's finding aborts: its input goes there */
	argv[n++] = (char *)fuzzer;
	for (unsigned i = 0; i < sizeof fixed / sizeof *fixed; i++)
		argv[n++] = fixed[i];
	argv[n++] = art;
	argv[n++] = m->into;
	argv[n++] = m->dir;
	argv[n++] = "-ignore_remaining_args=1";
	argv[n++] = "--heartbeat";
	argv[n++] = m->beat.path;
	for (int i = 0; i < ta->n; i++)
		argv[n++] = ta->v[i];
	argv[n] = NULL;
	heartbeat_arm(&m->beat, protocol_now_ms());
	int fd = open_log(log);
	m->pid = campaign_spawn(argv, fd, 10);
	if (fd >= 0)
		close(fd);
	if (m->pid < 0) {
		m->pid = 0;
		remove_dir(m->into);
		if (m->lock >= 0)
			close(m->lock);
		return -1;
	}
	return 0;
}

int corpus_merge_poll(struct corpus_merge *m, int wait)
{
	int status;
	if (!m->pid || waitpid(m->pid, &status, wait ? 0 : WNOHANG) != m->pid)
		return 0;
	kill(-m->pid, SIGKILL); /* its inner processes, when the merge itself was killed */
	m->pid = 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && count_files(m->into) && !exchange(m->into, m->dir)) {
		move_missing(m->into, m->dir, m->started - 2); /* arrived while the merge ran */
		m->after = count_files(m->dir);
	} else {
		m->after = m->before;
	}
	remove_dir(m->into);
	if (m->lock >= 0)
		close(m->lock);
	m->lock = -1;
	return 1;
}

/* Copies an input under its own name (readers never see half a file). */
static int copy_file(const char *from, const char *to)
{
	char why[300];
	size_t len;
	uint8_t *buf = graphio_read_file(from, 1 << 20, &len, why, sizeof why);
	int rc = !buf || atomic_write(to, buf, len, 0);
	free(buf);
	return rc;
}

/* Calls copy(src, dst, to, name) for each entry of from (hidden ones aside)
 * that to lacks, to made if need be. The number copy says it copied (1). */
static unsigned copy_missing(const char *from, const char *to,
			     int (*copy)(const char *src, const char *dst, const char *to, const char *name))
{
	char src[CAMPAIGN_PATH + 300], dst[CAMPAIGN_PATH + 300];
	unsigned n = 0;
	mkdir(to, 0777);
	DIR *d = opendir(from);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.' || snprintf(src, sizeof src, "%s/%s", from, e->d_name) >= (int)sizeof src ||
		    snprintf(dst, sizeof dst, "%s/%s", to, e->d_name) >= (int)sizeof dst)
			continue;
		if (access(dst, F_OK))
			n += (unsigned)copy(src, dst, to, e->d_name);
	}
	if (d)
		closedir(d);
	return n;
}

/* fails when a shared merge swapped the directory meanwhile: next time */
static int publish_input(const char *src, const char *dst, const char *to, const char *name)
{
	(void)to, (void)name;
	return !copy_file(src, dst);
}

unsigned corpus_publish(const char *dir, const char *shared) { return copy_missing(dir, shared, publish_input); }

/* Copies the files of finding folder src (its subfolders aside: triage's,
 * redone where wanted) into a hidden folder of to, then renames it to dst:
 * whole or not at all. 1 when copied; 0 when src is still being filed (no
 * meta.json: findings_record writes it last), to has one by then (a target
 * filed the same signature meanwhile), or a copy failed. */
static int copy_finding(const char *src, const char *dst, const char *to, const char *name)
{
	char tmp[CAMPAIGN_PATH + 300], from[CAMPAIGN_PATH + 600], into[CAMPAIGN_PATH + 600];
	struct stat st;
	snprintf(from, sizeof from, "%s/meta.json", src);
	if (access(from, F_OK) || snprintf(tmp, sizeof tmp, "%s/.%s.tmp.%d", to, name, (int)getpid()) >= (int)sizeof tmp ||
	    mkdir(tmp, 0777))
		return 0;
	DIR *d = opendir(src);
	int ok = d != NULL;
	for (struct dirent *e; d && ok && (e = readdir(d));) {
		snprintf(from, sizeof from, "%s/%s", src, e->d_name);
		snprintf(into, sizeof into, "%s/%s", tmp, e->d_name);
		if (e->d_name[0] != '.' && !stat(from, &st) && S_ISREG(st.st_mode))
			ok = !copy_file(from, into);
	}
	if (d)
		closedir(d);
	if (ok && !rename(tmp, dst))
		return 1;
	remove_dir(tmp);
	return 0;
}

unsigned findings_share(const char *from, const char *to) { return copy_missing(from, to, copy_finding); }
