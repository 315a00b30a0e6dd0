/* A campaign's corpus upkeep. Recovery: a corpus merge (libFuzzer's
 * -merge=1 of DIR into a fresh DIR.merge, swapped in) interrupted in an OUT
 * of an earlier runner left inputs in DIR.merge, put back at the start
 * (corpus_recover): nothing is lost. Sync: inputs are copied into a shared
 * directory under their content-hash names, written to a temporary name
 * and renamed, so runners on several nodes can publish into it at once;
 * finding folders likewise, each whole (findings_share), and what triage
 * made of them, with claims that keep two runners from triaging one finding
 * at once (triage_claim). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "../pipeline/atomic_file.h"
#include "campaign.h"
#include "../pipeline/findings.h"
#include "../pipeline/graphio.h"

/* Moves the files of `from` that `to` lacks into `to`. The number moved. */
static unsigned move_missing(const char *from, const char *to)
{
	char src[CAMPAIGN_PATH + 300], dst[CAMPAIGN_PATH + 300];
	unsigned n = 0;
	struct stat st;
	DIR *d = opendir(from);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.' || snprintf(src, sizeof src, "%s/%s", from, e->d_name) >= (int)sizeof src ||
		    snprintf(dst, sizeof dst, "%s/%s", to, e->d_name) >= (int)sizeof dst)
			continue;
		if (!access(dst, F_OK) || stat(src, &st))
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
	unsigned n = move_missing(merge, dir);
	atomic_remove_dir(merge);
	if (n)
		fprintf(stderr, "pt2fuzz fuzz: %u inputs put back from an interrupted merge of %s\n", n, dir);
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

/* Calls copy(src, dst) for each entry of from (hidden ones aside) that to
 * lacks, to made if need be. The number copy says it copied (1). */
static unsigned copy_missing(const char *from, const char *to, int (*copy)(const char *src, const char *dst))
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
			n += (unsigned)copy(src, dst);
	}
	if (d)
		closedir(d);
	return n;
}

/* a failed copy is tried again at the next sync */
static int publish_input(const char *src, const char *dst) { return !copy_file(src, dst); }

unsigned corpus_publish(const char *dir, const char *shared) { return copy_missing(dir, shared, publish_input); }

/* Copies the regular files of folder src into a hidden folder beside dst,
 * then renames it to dst: whole or not at all. 1 when copied; 0 when dst
 * is there by then (another writer's) or a copy failed. */
static int copy_folder(const char *src, const char *dst)
{
	char tmp[CAMPAIGN_PATH + 300], from[CAMPAIGN_PATH + 600], into[CAMPAIGN_PATH + 600];
	struct stat st;
	if (atomic_dir_open(dst, tmp, sizeof tmp))
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
	if (ok && !atomic_dir_commit(tmp, dst))
		return 1;
	atomic_remove_dir(tmp);
	return 0;
}

/* A finding folder's files (its subfolders and hidden files aside: triage's,
 * shared by triage_publish and triage_import), whole. 0 as well when src
 * has no meta.json (a folder an earlier version left unfinished). */
static int copy_finding(const char *src, const char *dst)
{
	char meta[CAMPAIGN_PATH + 320];
	snprintf(meta, sizeof meta, "%s/meta.json", src);
	return !access(meta, F_OK) && copy_folder(src, dst);
}

unsigned findings_share(const char *from, const char *to) { return copy_missing(from, to, copy_finding); }

/* --- triage state --- */

#define TRIAGED ".triaged"
#define CLAIM ".triage-claim"

static int has(const char *dir, const char *name, const char *file)
{
	char path[CAMPAIGN_PATH + 400];
	return snprintf(path, sizeof path, "%s/%s/%s", dir, name, file) < (int)sizeof path && !access(path, F_OK);
}

/* Copies what triage left in finding folder from into to: reduced/ (whole,
 * unless to has its own), bisect.json, meta.json's triage fields, and the
 * mark last, so that whoever sees the mark sees the rest. 1 when done. */
static int copy_triage(const char *from, const char *to)
{
	char src[CAMPAIGN_PATH + 300], dst[CAMPAIGN_PATH + 300], why[600];
	snprintf(src, sizeof src, "%s/reduced", from);
	snprintf(dst, sizeof dst, "%s/reduced", to);
	if (!access(src, F_OK) && access(dst, F_OK) && !copy_folder(src, dst))
		return 0;
	snprintf(src, sizeof src, "%s/bisect.json", from);
	snprintf(dst, sizeof dst, "%s/bisect.json", to);
	if (!access(src, F_OK) && copy_file(src, dst))
		return 0;
	if (findings_take_triage(from, to, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz fuzz: %s\n", why);
		return 0;
	}
	snprintf(dst, sizeof dst, "%s/" TRIAGED, to);
	return !atomic_write(dst, "", 0, 0);
}

unsigned triage_publish(const char *findings, const char *shared)
{
	char from[CAMPAIGN_PATH + 300], to[CAMPAIGN_PATH + 300];
	unsigned n = 0;
	DIR *d = opendir(findings);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.' || !has(findings, e->d_name, TRIAGED) || !has(shared, e->d_name, "meta.json") ||
		    has(shared, e->d_name, TRIAGED) || snprintf(from, sizeof from, "%s/%s", findings, e->d_name) >= (int)sizeof from ||
		    snprintf(to, sizeof to, "%s/%s", shared, e->d_name) >= (int)sizeof to)
			continue;
		n += (unsigned)copy_triage(from, to);
	}
	if (d)
		closedir(d);
	return n;
}

int triage_import(const char *shared, const char *findings, const char *name)
{
	char from[CAMPAIGN_PATH + 300], to[CAMPAIGN_PATH + 300];
	if (!has(shared, name, TRIAGED) || has(findings, name, TRIAGED) ||
	    snprintf(from, sizeof from, "%s/%s", shared, name) >= (int)sizeof from ||
	    snprintf(to, sizeof to, "%s/%s", findings, name) >= (int)sizeof to)
		return 0;
	return copy_triage(from, to);
}

int triage_claim(const char *shared, const char *findings, const char *name, const char *me, long long stale_secs)
{
	char folder[CAMPAIGN_PATH + 300], local[CAMPAIGN_PATH + 300], path[CAMPAIGN_PATH + 400], held[512];
	struct stat st;
	if (snprintf(folder, sizeof folder, "%s/%s", shared, name) >= (int)sizeof folder ||
	    snprintf(local, sizeof local, "%s/%s", findings, name) >= (int)sizeof local)
		return 1;
	/* published now, not at the next sync, so that the claim has a place */
	if (access(folder, F_OK) && !copy_finding(local, folder) && access(folder, F_OK))
		return 1;
	snprintf(path, sizeof path, "%s/" CLAIM, folder);
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0666);
	if (fd >= 0) {
		int ok = write(fd, me, strlen(me)) == (ssize_t)strlen(me);
		close(fd);
		if (!ok) /* a half claim would hold the others off for good */
			unlink(path);
		return 1;
	}
	if (errno != EEXIST)
		return 1;
	FILE *f = fopen(path, "r");
	size_t len = f ? fread(held, 1, sizeof held - 1, f) : 0;
	if (f)
		fclose(f);
	held[len] = 0;
	/* ours (a restarted runner's), or left by a runner that stopped before it finished */
	if (!strcmp(held, me) || (!stat(path, &st) && time(NULL) - st.st_mtime > stale_secs))
		return !atomic_write(path, me, strlen(me), 0);
	return 0;
}
