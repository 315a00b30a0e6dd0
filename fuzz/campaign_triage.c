/* Background triage of a campaign's new findings: `pt2fuzz triage`
 * processes side by side, as many as the campaign's triage share, each with
 * one worker of its own over one finding: a batch
 * OUT/triage/batch-<time>-<slot>/ that links to it. Triage writes reduced/
 * and bisect.json into the finding through its link, and the batch's bucket
 * into the batch's triage.md; the finding is then marked with a .triaged
 * file. A batch cut short by a stop is done again after a restart. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "campaign.h"
#include "../pipeline/bucket.h"
#include "../pipeline/json_file.h"

/* Beyond twice a finding's triage time, a claim's runner is taken to have
 * stopped: a triage also starts its worker and bisects. */
#define TRIAGE_CLAIM_SLACK_SECS 600

static int is_pending(const char *findings, const char *name)
{
	char path[CAMPAIGN_PATH + 300];
	struct stat st;
	if (name[0] == '.' || snprintf(path, sizeof path, "%s/%s/meta.json", findings, name) >= (int)sizeof path ||
	    stat(path, &st))
		return 0;
	snprintf(path, sizeof path, "%s/%s/.triaged", findings, name);
	return access(path, F_OK) != 0;
}

/* Marks the findings a finished batch links to. */
static unsigned mark_batch(const char *batch)
{
	char link[CAMPAIGN_PATH + 300], mark[CAMPAIGN_PATH + 320];
	unsigned n = 0;
	DIR *d = opendir(batch);
	for (struct dirent *e; d && (e = readdir(d));) {
		FILE *f;
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "triage.md") ||
		    snprintf(link, sizeof link, "%s/%s", batch, e->d_name) >= (int)sizeof link ||
		    snprintf(mark, sizeof mark, "%s/.triaged", link) >= (int)sizeof mark || !(f = fopen(mark, "w")))
			continue;
		fclose(f);
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* Batches without triage.md were cut short: their links go. */
static void drop_unfinished(const char *triage_dir)
{
	char batch[CAMPAIGN_PATH + 300], path[CAMPAIGN_PATH + 600];
	DIR *d = opendir(triage_dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (strncmp(e->d_name, "batch-", 6) || snprintf(batch, sizeof batch, "%s/%s", triage_dir, e->d_name) >= (int)sizeof batch)
			continue;
		snprintf(path, sizeof path, "%s/triage.md", batch);
		if (!access(path, F_OK))
			continue;
		DIR *b = opendir(batch);
		for (struct dirent *l; b && (l = readdir(b));)
			if (l->d_name[0] != '.' && snprintf(path, sizeof path, "%s/%s", batch, l->d_name) < (int)sizeof path)
				unlink(path);
		if (b)
			closedir(b);
		rmdir(batch);
	}
	if (d)
		closedir(d);
}

/* A finding to triage, as batches choose them. */
struct candidate {
	char name[64]; /* "<kind>-<signature>" */
	uint64_t bucket;
	int later; /* its bucket shows in a reduced finding already */
	int nodes;
};

static int by_turn(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;
	return x->later != y->later ? x->later - y->later : x->nodes - y->nodes;
}

/* Room for one more element of size each in *a (count n, room *cap): 0, or -1 (out of memory). */
static int grow(void *a, unsigned n, unsigned *cap, size_t each)
{
	void **p = a;
	if (n < *cap)
		return 0;
	void *bigger = realloc(*p, (*cap ? 2 * *cap : 64) * each);
	if (!bigger)
		return -1;
	*p = bigger;
	*cap = *cap ? 2 * *cap : 64;
	return 0;
}

/* One pass over the findings: the pending ones of unknown bugs into *c
 * (known and reported bugs count by their bug already, and `pt2fuzz
 * triage` reduces them when asked), the buckets that have a reduced finding
 * into *reduced, both grown as needed, with their counts. */
static void scan_findings(const char *findings, struct candidate **c, unsigned *nc, uint64_t **reduced, unsigned *nr)
{
	char dir[CAMPAIGN_PATH + 300], path[CAMPAIGN_PATH + 600], why[300];
	unsigned cap = 0, rcap = 0;
	DIR *d = opendir(findings);
	for (struct dirent *e; d && (e = readdir(d));) {
		json_t *meta;
		if (e->d_name[0] == '.' || snprintf(dir, sizeof dir, "%s/%s", findings, e->d_name) >= (int)sizeof dir ||
		    snprintf(path, sizeof path, "%s/meta.json", dir) >= (int)sizeof path ||
		    !(meta = json_file_load(path, why, sizeof why)))
			continue;
		struct finding_bucket b;
		bucket_of(meta, &b);
		int nodes = (int)json_file_num(meta, "nodes", G_MAX_NODES);
		json_decref(meta);
		snprintf(path, sizeof path, "%s/reduced/graph.bin", dir);
		if (!access(path, F_OK) && !grow(reduced, *nr, &rcap, sizeof **reduced))
			(*reduced)[(*nr)++] = b.hash;
		if (b.known || strlen(e->d_name) >= sizeof (*c)->name || !is_pending(findings, e->d_name) ||
		    grow(c, *nc, &cap, sizeof **c))
			continue;
		struct candidate *k = &(*c)[(*nc)++];
		snprintf(k->name, sizeof k->name, "%.63s", e->d_name);
		k->bucket = b.hash;
		k->nodes = nodes;
	}
	if (d)
		closedir(d);
}

/* Whether a running slot triages bucket. */
static int running_bucket(const struct triager *t, uint64_t bucket)
{
	for (unsigned i = 0; i < t->slots; i++)
		if (t->slot[i].pid && t->slot[i].bucket == bucket)
			return 1;
	return 0;
}

/* Another runner's word on a finding (--sync, shared: its findings
 * folder): 1 when it has triaged it (taken now) or triages it now, so
 * that we do not; else 0, the claim then ours. */
static int settled_elsewhere(struct triager *t, const char *shared, const char *findings, const char *name)
{
	if (!shared)
		return 0;
	if (triage_import(shared, findings, name)) {
		t->imported++;
		return 1;
	}
	return !triage_claim(shared, findings, name, t->me, 2 * t->secs + TRIAGE_CLAIM_SLACK_SECS);
}

/* The findings to triage next, in triager_poll's order, at most want, into
 * pick (their buckets in bucket); how many. *pending: the findings of
 * unknown bugs not yet triaged, here or by another runner. */
static unsigned choose(struct triager *t, const char *findings, const char *shared, char (*pick)[64],
		       uint64_t *bucket, unsigned want, unsigned *pending)
{
	unsigned n = 0, nc = 0, nr = 0;
	struct candidate *c = NULL;
	uint64_t *reduced = NULL;
	scan_findings(findings, &c, &nc, &reduced, &nr);
	*pending = nc;
	for (unsigned i = 0; i < nc; i++) {
		c[i].later = 0;
		for (unsigned j = 0; j < nr && !c[i].later; j++)
			c[i].later = reduced[j] == c[i].bucket;
	}
	free(reduced);
	if (nc)
		qsort(c, nc, sizeof *c, by_turn);
	for (unsigned i = 0; i < nc && n < want; i++) {
		int taken = (c[i].later && c[0].later != c[i].later) || /* later ones only when nothing else waits */
			    running_bucket(t, c[i].bucket);
		for (unsigned j = 0; j < i && !taken; j++)
			taken = c[j].bucket == c[i].bucket; /* one finding a bucket: its smallest */
		if (taken)
			continue;
		if (settled_elsewhere(t, shared, findings, c[i].name)) {
			(*pending)--;
			continue;
		}
		snprintf(pick[n], sizeof pick[n], "%s", c[i].name);
		bucket[n++] = c[i].bucket;
	}
	free(c);
	return n;
}

/* Starts `pt2fuzz triage` over finding name in slot s. 0, or -1. */
static int start_slot(struct triager *t, unsigned s, const char *name, uint64_t bucket, const struct campaign_paths *p,
		      const struct target_args *ta)
{
	struct triage_slot *sl = &t->slot[s];
	char dir[CAMPAIGN_PATH + 16], real[PATH_MAX], target[CAMPAIGN_PATH + 300], link[CAMPAIGN_PATH + 600];
	snprintf(dir, sizeof dir, "%s/triage", p->out);
	mkdir(dir, 0777);
	snprintf(sl->batch, sizeof sl->batch, "%.4090s/batch-%lld-%u", dir, (long long)time(NULL), s);
	if (snprintf(target, sizeof target, "%s/%s", p->findings, name) >= (int)sizeof target || !realpath(target, real) ||
	    mkdir(sl->batch, 0777))
		return -1;
	snprintf(link, sizeof link, "%s/%s", sl->batch, name);
	if (symlink(real, link))
		return -1;
	char secs[32], log[CAMPAIGN_PATH + 16], *argv[CAMPAIGN_MAX_ARGS + 16];
	int n = 0;
	snprintf(secs, sizeof secs, "%lld", t->secs);
	snprintf(log, sizeof log, "%.4100s/triage/triage.log", p->out);
	char *fixed[] = {(char *)p->self, "triage", sl->batch, "--jobs", "1", "--time", secs, "--reruns", "1"};
	for (unsigned i = 0; i < sizeof fixed / sizeof *fixed; i++)
		argv[n++] = fixed[i];
	for (int i = 0; i < ta->nrun; i++)
		argv[n++] = ta->run[i];
	argv[n] = NULL;
	/* Its own worker, at the jobs' priority (its share of the node). */
	int fd = open_log(log);
	sl->pid = campaign_spawn(argv, fd, 0);
	if (sl->pid < 0)
		sl->pid = 0;
	sl->bucket = bucket;
	sl->since_usec = profile_clock_usec();
	if (fd >= 0)
		close(fd);
	t->running += sl->pid != 0;
	return sl->pid ? 0 : -1;
}

void triager_poll(struct triager *t, const struct campaign_paths *p, const struct target_args *ta, int may_start)
{
	int status;
	char shared[CAMPAIGN_PATH + 16], host[256] = "", out[PATH_MAX];
	snprintf(shared, sizeof shared, "%.4100s.findings", p->sync ? p->sync : "");
	if (!t->me[0]) {
		gethostname(host, sizeof host - 1);
		snprintf(t->me, sizeof t->me, "%.255s:%.300s", host, realpath(p->out, out) ? out : p->out);
	}
	for (unsigned i = 0; i < t->slots; i++) {
		struct triage_slot *sl = &t->slot[i];
		if (sl->pid && waitpid(sl->pid, &status, WNOHANG) == sl->pid) {
			sl->pid = 0;
			t->running--;
			t->ran_usec += profile_clock_usec() - sl->since_usec;
			t->done += mark_batch(sl->batch);
			if (p->sync)
				t->published += triage_publish(p->findings, shared);
		}
	}
	if (!may_start)
		return;
	if (!t->tidied) {
		char dir[CAMPAIGN_PATH + 16];
		snprintf(dir, sizeof dir, "%s/triage", p->out);
		drop_unfinished(dir);
		t->tidied = 1;
	}
	/* New batches only when the findings changed since the last look:
	 * choosing reads every meta.json. */
	unsigned folders = 0; /* with meta.json: one being written is seen once it is */
	char path[CAMPAIGN_PATH + 600];
	DIR *d = opendir(p->findings);
	for (struct dirent *e; d && (e = readdir(d));)
		folders += e->d_name[0] != '.' &&
			   snprintf(path, sizeof path, "%s/%s/meta.json", p->findings, e->d_name) < (int)sizeof path &&
			   !access(path, F_OK);
	if (d)
		closedir(d);
	if (folders == t->folders && t->done == t->done_seen)
		return;
	t->folders = folders;
	t->done_seen = t->done;
	char pick[TRIAGE_SLOTS_MAX][64];
	uint64_t bucket[TRIAGE_SLOTS_MAX];
	/* chosen with the slots full too: pending tells the wrap-up what waits */
	unsigned n = choose(t, p->findings, p->sync ? shared : NULL, pick, bucket,
			    t->slots > t->running ? t->slots - t->running : 0, &t->pending);
	for (unsigned i = 0, s = 0; i < n; i++) {
		while (s < t->slots && t->slot[s].pid)
			s++;
		if (s == t->slots || start_slot(t, s, pick[i], bucket[i], p, ta))
			break;
	}
}

void triager_stop(struct triager *t)
{
	for (unsigned i = 0; i < t->slots; i++)
		if (t->slot[i].pid) {
			campaign_stop_group(t->slot[i].pid, 0);
			t->ran_usec += profile_clock_usec() - t->slot[i].since_usec;
			t->slot[i].pid = 0;
		}
	t->running = 0;
}

void triager_refresh(struct triager *t) { t->folders = UINT_MAX; }
