/* Background triage of a campaign's new findings: one `pt2fuzz triage` at a
 * time, at the lowest priority, with a worker of its own (never one of the
 * lender's), over a batch OUT/triage/batch-<time>/ of links to the findings
 * not yet triaged. Triage writes reduced/ and bisect.json into each finding
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

/* Links the pending findings into a new batch; how many. */
static unsigned make_batch(struct triager *t, const struct campaign_paths *p)
{
	char dir[CAMPAIGN_PATH + 16], real[PATH_MAX], target[CAMPAIGN_PATH + 300], link[CAMPAIGN_PATH + 600];
	unsigned n = 0;
	snprintf(dir, sizeof dir, "%s/triage", p->out);
	mkdir(dir, 0777);
	drop_unfinished(dir);
	snprintf(t->batch, sizeof t->batch, "%.4100s/batch-%lld", dir, (long long)time(NULL));
	DIR *d = opendir(p->findings);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (!is_pending(p->findings, e->d_name) ||
		    snprintf(target, sizeof target, "%s/%s", p->findings, e->d_name) >= (int)sizeof target ||
		    !realpath(target, real))
			continue;
		if (!n && mkdir(t->batch, 0777))
			break;
		snprintf(link, sizeof link, "%s/%s", t->batch, e->d_name);
		n += symlink(real, link) == 0;
	}
	if (d)
		closedir(d);
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
	t->pending = 0;
	DIR *d = opendir(p->findings);
	for (struct dirent *e; d && (e = readdir(d));)
		t->pending += is_pending(p->findings, e->d_name);
	if (d)
		closedir(d);
	if (!t->pending || !make_batch(t, p))
		return;
	char secs[32], log[CAMPAIGN_PATH + 16], *argv[CAMPAIGN_MAX_ARGS + 16];
	int n = 0;
	snprintf(secs, sizeof secs, "%lld", t->secs);
	snprintf(log, sizeof log, "%.4100s/triage/triage.log", p->out);
	char *fixed[] = {(char *)p->self, "triage", t->batch, "--jobs", "1", "--time", secs, "--reruns", "1"};
	for (unsigned i = 0; i < sizeof fixed / sizeof *fixed; i++)
		argv[n++] = fixed[i];
	for (int i = 0; i < ta->nrun; i++)
		argv[n++] = ta->run[i];
	argv[n] = NULL;
	/* Its own worker, at its own priority: not one the fuzz jobs wait for. */
	char *lender = getenv("PT2FUZZ_LENDER") ? strdup(getenv("PT2FUZZ_LENDER")) : NULL;
	unsetenv("PT2FUZZ_LENDER");
	int fd = open_log(log);
	t->pid = campaign_spawn(argv, fd, 19);
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
