/* A campaign's corpus upkeep. Recovery: a corpus merge (libFuzzer's
 * -merge=1 of DIR into a fresh DIR.merge, swapped in) interrupted in an OUT
 * of an earlier runner left inputs in DIR.merge, put back at the start
 * (corpus_recover): nothing is lost. Sync: inputs are copied into a shared
 * directory under their content-hash names, written to a temporary name
 * and renamed, so runners on several nodes can publish into it at once;
 * finding folders likewise, each whole (findings_share). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../pipeline/atomic_file.h"
#include "campaign.h"
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

/* Copies the files of finding folder src (its subfolders aside: triage's,
 * redone where wanted) into a hidden folder beside dst, then renames it to dst:
 * whole or not at all. 1 when copied; 0 when src has no meta.json (a
 * folder an earlier version left unfinished), to has one by then (a target
 * filed the same signature meanwhile), or a copy failed. */
static int copy_finding(const char *src, const char *dst)
{
	char tmp[CAMPAIGN_PATH + 300], from[CAMPAIGN_PATH + 600], into[CAMPAIGN_PATH + 600];
	struct stat st;
	snprintf(from, sizeof from, "%s/meta.json", src);
	if (access(from, F_OK) || atomic_dir_open(dst, tmp, sizeof tmp))
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

unsigned findings_share(const char *from, const char *to) { return copy_missing(from, to, copy_finding); }
