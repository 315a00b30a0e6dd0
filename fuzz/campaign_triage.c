/* Background triage of a campaign's new findings: one `pt2fuzz triage` at a
 * time, with its share of the node's workers (never the lender's), over a
 * batch OUT/triage/batch-<time>/ of links to findings not yet triaged. Triage writes reduced/ and bisect.json into each finding
 * through its link, and the batch's buckets into the batch's triage.md; a
 * finding is then marked with a .triaged file. A batch cut short by a stop
 * is done again after a restart. */
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

/* Links the findings to triage next into a new batch (triager_poll's
 * order); how many. *pending: the findings of unknown bugs not yet triaged. */
static unsigned make_batch(struct triager *t, const struct campaign_paths *p, unsigned *pending)
{
	char dir[CAMPAIGN_PATH + 16], real[PATH_MAX], target[CAMPAIGN_PATH + 300], link[CAMPAIGN_PATH + 600];
	unsigned n = 0, nc = 0, nr = 0;
	struct candidate *c = NULL;
	uint64_t *reduced = NULL;
	scan_findings(p->findings, &c, &nc, &reduced, &nr);
	*pending = nc;
	for (unsigned i = 0; i < nc; i++) {
		c[i].later = 0;
		for (unsigned j = 0; j < nr && !c[i].later; j++)
			c[i].later = reduced[j] == c[i].bucket;
	}
	free(reduced);
	if (nc) {
		qsort(c, nc, sizeof *c, by_turn);
		snprintf(dir, sizeof dir, "%s/triage", p->out);
		mkdir(dir, 0777);
		drop_unfinished(dir);
		snprintf(t->batch, sizeof t->batch, "%.4100s/batch-%lld", dir, (long long)time(NULL));
	}
	for (unsigned i = 0; i < nc && n < TRIAGE_BATCH; i++) {
		int taken = c[i].later && c[0].later != c[i].later; /* later ones only when nothing else waits */
		for (unsigned j = 0; j < i && !taken; j++)
			taken = c[j].bucket == c[i].bucket; /* one finding a bucket: its smallest */
		if (taken || snprintf(target, sizeof target, "%s/%s", p->findings, c[i].name) >= (int)sizeof target ||
		    !realpath(target, real))
			continue;
		if (!n && mkdir(t->batch, 0777))
			break;
		snprintf(link, sizeof link, "%s/%s", t->batch, c[i].name);
		n += symlink(real, link) == 0;
	}
	free(c);
	return n;
}

void triager_poll(struct triager *t, const struct campaign_paths *p, const struct target_args *ta, int may_start)
{
	int status;
	if (t->pid && waitpid(t->pid, &status, WNOHANG) == t->pid) {
		t->pid = 0;
		t->ran_usec += profile_clock_usec() - t->since_usec;
		t->done += mark_batch(t->batch);
	}
	if (t->pid || !may_start)
		return;
	/* A new batch only when the findings changed since the last look:
	 * choosing one reads every meta.json. */
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
	if (!make_batch(t, p, &t->pending))
		return;
	char secs[32], log[CAMPAIGN_PATH + 16], *argv[CAMPAIGN_MAX_ARGS + 16];
	int n = 0;
	snprintf(secs, sizeof secs, "%lld", t->secs);
	snprintf(log, sizeof log, "%.4100s/triage/triage.log", p->out);
	char njobs[16];
	snprintf(njobs, sizeof njobs, "%u", t->jobs ? t->jobs : 1);
	char *fixed[] = {(char *)p->self, "triage", t->batch, "--jobs", njobs, "--time", secs, "--reruns", "1"};
	for (unsigned i = 0; i < sizeof fixed / sizeof *fixed; i++)
		argv[n++] = fixed[i];
	for (int i = 0; i < ta->nrun; i++)
		argv[n++] = ta->run[i];
	argv[n] = NULL;
	/* Its own workers, at the jobs' priority (its share of the node): not ones the fuzz jobs wait for. */
	char *lender = getenv("PT2FUZZ_LENDER") ? strdup(getenv("PT2FUZZ_LENDER")) : NULL;
	unsetenv("PT2FUZZ_LENDER");
	int fd = open_log(log);
	t->pid = campaign_spawn(argv, fd, 0);
	if (t->pid < 0)
		t->pid = 0;
	t->since_usec = profile_clock_usec();
	if (fd >= 0)
		close(fd);
	if (lender)
		setenv("PT2FUZZ_LENDER", lender, 1);
	free(lender);
}

void triager_stop(struct triager *t)
{
	if (t->pid) {
		campaign_stop_group(t->pid, 0);
		t->ran_usec += profile_clock_usec() - t->since_usec;
	}
	t->pid = 0;
}
