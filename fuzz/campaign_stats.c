#include "campaign_stats.h"
#include "../pipeline/atomic_file.h"
#include <dirent.h>
#include <stddef.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

static int line_add(struct campaign_stats *s, const char *line, size_t len)
{
	if (2 * (s->nlines + 1) > s->nslots) { /* grow: keep the table at most half full */
		size_t n = s->nslots ? 2 * s->nslots : 1u << 16;
		char **t = calloc(n, sizeof *t);
		if (!t)
			return -1;
		for (size_t i = 0; i < s->nslots; i++)
			if (s->slots[i]) {
				size_t j = XXH64(s->slots[i], strlen(s->slots[i]), 0) & (n - 1);
				while (t[j])
					j = (j + 1) & (n - 1);
				t[j] = s->slots[i];
			}
		free(s->slots);
		s->slots = t;
		s->nslots = n;
	}
	size_t j = XXH64(line, len, 0) & (s->nslots - 1);
	for (; s->slots[j]; j = (j + 1) & (s->nslots - 1))
		if (strlen(s->slots[j]) == len && !memcmp(s->slots[j], line, len))
			return 0;
	if (!(s->slots[j] = strndup(line, len)))
		return -1;
	s->nlines++;
	return 1;
}

static void fold_lines(struct campaign_stats *s, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	while (f && fgets(line, sizeof line, f)) {
		size_t l = strcspn(line, "\n");
		if (l)
			line_add(s, line, l);
	}
	if (f)
		fclose(f);
}

static struct mutator_totals *mutator_slot(struct campaign_stats *s, const char *name)
{
	for (unsigned i = 0; i < s->nmut; i++)
		if (!strcmp(s->mut[i].name, name))
			return &s->mut[i];
	if (s->nmut == MUT_MAX)
		return NULL;
	snprintf(s->mut[s->nmut].name, sizeof s->mut[0].name, "%.31s", name);
	return &s->mut[s->nmut++];
}

/* The counters of a fuzzer-<pid>.tsv and of totals.tsv, by key. */
static const struct {
	const char *key;
	size_t at; /* offsetof in struct campaign_stats */
} counters[] = {
	{"execs", offsetof(struct campaign_stats, execs)},
	{"rejected", offsetof(struct campaign_stats, rejected)},
	{"near_invalid", offsetof(struct campaign_stats, near_invalid)},
	{"replayed", offsetof(struct campaign_stats, replayed)},
	{"worker_starts", offsetof(struct campaign_stats, starts)},
	{"worker_crashes", offsetof(struct campaign_stats, crashes)},
	{"worker_hangs", offsetof(struct campaign_stats, hangs)},
	{"isolated", offsetof(struct campaign_stats, isolated)},
	{"avoided", offsetof(struct campaign_stats, avoided)},
	{"configured", offsetof(struct campaign_stats, configured)},
	{"settings_dropped", offsetof(struct campaign_stats, settings_dropped)},
};

static uint64_t *counter(struct campaign_stats *s, unsigned k) { return (uint64_t *)((char *)s + counters[k].at); }

/* A fuzzer-<pid>.tsv or totals.tsv: "key\tvalue" lines, verdict and mutator rows. */
static void fold_tsv(struct campaign_stats *s, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], a[64], b[64];
	unsigned long long x, y, z;
	while (f && fgets(line, sizeof line, f)) {
		if (profile_read_line(&s->prof, line))
			continue;
		if (sscanf(line, "mutator\t%63s\t%llu\t%llu\t%llu", a, &x, &y, &z) == 4) {
			struct mutator_totals *m = mutator_slot(s, a);
			if (m) {
				m->tried += x;
				m->valid += y;
				m->fresh += z;
			}
		} else if (sscanf(line, "verdict\t%63s\t%llu", a, &x) == 2) {
			for (unsigned k = 0; k < V_COUNT; k++)
				if (!strcmp(a, verdict_name((enum verdict_kind)k)))
					s->verdicts[k] += x;
		} else if (sscanf(line, "%63s\t%llu", b, &x) == 2) {
			for (unsigned k = 0; k < sizeof counters / sizeof *counters; k++)
				if (!strcmp(b, counters[k].key))
					*counter(s, k) += x;
		}
	}
	if (f)
		fclose(f);
}

static void write_totals(struct campaign_stats *s, const char *dir)
{
	char path[4096];
	struct atomic_file a;
	snprintf(path, sizeof path, "%s/totals.tsv", dir);
	FILE *f = atomic_open(&a, path);
	if (!f)
		return;
	for (unsigned k = 0; k < sizeof counters / sizeof *counters; k++)
		fprintf(f, "%s\t%llu\n", counters[k].key, (unsigned long long)*counter(s, k));
	for (unsigned k = 0; k < V_COUNT; k++)
		fprintf(f, "verdict\t%s\t%llu\n", verdict_name((enum verdict_kind)k), (unsigned long long)s->verdicts[k]);
	for (unsigned i = 0; i < s->nmut; i++)
		fprintf(f, "mutator\t%s\t%llu\t%llu\t%llu\n", s->mut[i].name, (unsigned long long)s->mut[i].tried,
			(unsigned long long)s->mut[i].valid, (unsigned long long)s->mut[i].fresh);
	profile_write(&s->prof, f);
	atomic_commit(&a, 0);
}

static int by_string(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void write_lines(const struct campaign_stats *s, const char *dir)
{
	char path[4096];
	struct atomic_file a;
	char **all = malloc((s->nlines + 1) * sizeof *all);
	size_t n = 0;
	for (size_t i = 0; all && i < s->nslots; i++)
		if (s->slots[i])
			all[n++] = s->slots[i];
	snprintf(path, sizeof path, "%s/lines.txt", dir);
	FILE *f = all ? atomic_open(&a, path) : NULL;
	if (f) {
		qsort(all, n, sizeof *all, by_string);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%s\n", all[i]);
		atomic_commit(&a, 0);
	}
	free(all);
}

void cstats_init(struct campaign_stats *s, const char *dir)
{
	char path[4096];
	memset(s, 0, sizeof *s);
	snprintf(path, sizeof path, "%s/totals.tsv", dir);
	fold_tsv(s, path);
	snprintf(path, sizeof path, "%s/lines.txt", dir);
	fold_lines(s, path);
	/* What a killed run's targets last wrote belongs to that run: folded
	 * now, it is not counted as this run's (node_claim has stopped them,
	 * though one may not be reaped yet: liveness is not asked). */
	cstats_collect(s, dir, 1);
}

void cstats_collect(struct campaign_stats *s, const char *dir, int final)
{
	DIR *d = opendir(dir);
	char path[4096];
	int pid, seq, end;
	for (struct dirent *e; d && (e = readdir(d));) {
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		end = 0;
		if (sscanf(e->d_name, "lines-%d-%d.txt%n", &pid, &seq, &end) == 2 && !e->d_name[end]) {
			fold_lines(s, path);
			unlink(path);
		} else if (sscanf(e->d_name, "fuzzer-%d.tsv%n", &pid, &end) == 1 && !e->d_name[end] &&
			   (final || kill(pid, 0) != 0)) {
			fold_tsv(s, path);
			unlink(path);
		}
	}
	if (d)
		closedir(d);
	write_totals(s, dir);
	write_lines(s, dir);
}

void cstats_print(const struct campaign_stats *s, FILE *f)
{
	fprintf(f, "  compiler lines  %zu distinct (torch's compiler, all jobs)\n", s->nlines);
	if (s->avoided)
		fprintf(f, "  known avoided   %llu components of seeds and corpus inputs dropped: a known bug's trigger\n",
			(unsigned long long)s->avoided);
	if (s->configured)
		fprintf(f, "  configured      %llu runs of graphs with a compile configuration\n",
			(unsigned long long)s->configured);
	if (s->settings_dropped)
		fprintf(f, "  settings dropped %llu of inputs made elsewhere: not in this torch or campaign\n",
			(unsigned long long)s->settings_dropped);
	fprintf(f, "  verdicts       ");
	for (unsigned k = 0; k < V_COUNT; k++)
		if (s->verdicts[k])
			fprintf(f, " %s %llu", verdict_name((enum verdict_kind)k), (unsigned long long)s->verdicts[k]);
	fprintf(f, "\n  workers         %llu taken by the jobs, %llu crashed, %llu hung\n", (unsigned long long)s->starts,
		(unsigned long long)s->crashes, (unsigned long long)s->hangs);
	fprintf(f, "  mutators        %-12s %8s %8s %8s\n", "", "tried", "valid", "new cov");
	for (unsigned i = 0; i < s->nmut; i++)
		fprintf(f, "                  %-12s %8llu %8llu %8llu\n", s->mut[i].name, (unsigned long long)s->mut[i].tried,
			(unsigned long long)s->mut[i].valid, (unsigned long long)s->mut[i].fresh);
}

void cstats_free(struct campaign_stats *s)
{
	for (size_t i = 0; i < s->nslots; i++)
		free(s->slots[i]);
	free(s->slots);
	memset(s, 0, sizeof *s);
}
