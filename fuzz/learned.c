#include "learned.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../config/settings.h"
#include "../graph/op.h"
#include "../mutators/mutate.h"
#include "../mutators/rarity.h"
#include "../pipeline/atomic_file.h"

static void free_state(struct learned *l)
{
	free(l->seen);
	free(l->op_runs);
	free(l->op_repeats);
	free(l->pair_runs);
	free(l->mut_runs);
	free(l->mut_yields);
	free(l->set_runs);
	free(l->set_yields);
	memset(l, 0, sizeof *l);
}

/* A zero state shaped like `like`; 0, or -1 when out of memory. */
static int alloc_state(struct learned *l, const struct learned *like)
{
	l->seen_len = like->seen_len;
	l->seen = calloc(like->seen_len ? like->seen_len : 1, 1);
	l->op_runs = calloc(op_count(), sizeof *l->op_runs);
	l->op_repeats = calloc(op_count(), sizeof *l->op_repeats);
	l->pair_runs = calloc(rarity_pair_count(), sizeof *l->pair_runs);
	l->mut_runs = calloc(mutator_count(), sizeof *l->mut_runs);
	l->mut_yields = calloc(mutator_count(), sizeof *l->mut_yields);
	l->set_runs = calloc(setting_count(), sizeof *l->set_runs);
	l->set_yields = calloc(setting_count(), sizeof *l->set_yields);
	if (l->seen && l->op_runs && l->op_repeats && l->pair_runs && l->mut_runs && l->mut_yields && l->set_runs &&
	    l->set_yields)
		return 0;
	free_state(l);
	return -1;
}

int learned_open(struct learned_store *s, const char *dir, const struct learned *live, char *why, size_t n)
{
	memset(s, 0, sizeof *s);
	snprintf(s->dir, sizeof s->dir, "%s", dir);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(why, n, "cannot make %s: %s", dir, strerror(errno));
		return -1;
	}
	if (alloc_state(&s->base, live)) {
		snprintf(why, n, "out of memory for the learned state");
		return -1;
	}
	return 0;
}

void learned_close(struct learned_store *s) { free_state(&s->base); }

/* A damaged file is moved to NAME.damaged (kept for a look) and read as empty. */
static void set_aside(const char *path, const char *what)
{
	char to[4200];
	snprintf(to, sizeof to, "%.4100s.damaged", path);
	rename(path, to);
	fprintf(stderr, "pt2fuzz_fuzzer: %s %s: moved to %s; the learned state starts over\n", path, what, to);
}

static int op_or_input(const char *name) { return strcmp(name, "input") ? op_find(name) : -1; }

/* One counts.tsv line into cur; -1 when it is not a line this file holds.
 * Names no longer in the catalogues are skipped. */
static int read_line(char *line, struct learned *cur)
{
	char *f[5];
	unsigned nf = 0;
	for (char *save = NULL, *t = strtok_r(line, "\t\n", &save); t && nf < 5; t = strtok_r(NULL, "\t\n", &save))
		f[nf++] = t;
	char *end;
	if (nf == 3 && (!strcmp(f[0], "op") || !strcmp(f[0], "repeat"))) {
		unsigned long v = strtoul(f[2], &end, 10);
		int op = op_find(f[1]);
		if (*end || v > UINT32_MAX)
			return -1;
		if (op >= 0)
			(!strcmp(f[0], "op") ? cur->op_runs : cur->op_repeats)[op] = (uint32_t)v;
		return 0;
	}
	if (nf == 4 && !strcmp(f[0], "pair")) {
		unsigned long v = strtoul(f[3], &end, 10);
		int c = op_find(f[2]), p = op_or_input(f[1]);
		if (*end || v > UINT32_MAX)
			return -1;
		if (c >= 0 && (p >= 0 || !strcmp(f[1], "input")))
			cur->pair_runs[rarity_pair_slot(p, (unsigned)c)] = (uint32_t)v;
		return 0;
	}
	if (nf == 4 && (!strcmp(f[0], "mutator") || !strcmp(f[0], "setting"))) {
		char *end2;
		double runs = strtod(f[2], &end), yields = strtod(f[3], &end2);
		int mutator = !strcmp(f[0], "mutator"), i = mutator ? mutator_find(f[1]) : setting_find(f[1]);
		if (*end || *end2 || !(runs >= 0) || !(yields >= 0))
			return -1;
		if (i >= 0) {
			(mutator ? cur->mut_runs : cur->set_runs)[i] = runs;
			(mutator ? cur->mut_yields : cur->set_yields)[i] = yields;
		}
		return 0;
	}
	return -1;
}

/* DIR's files into cur (zero where missing or damaged). */
static void read_state(const char *dir, struct learned *cur)
{
	char path[4200], line[1024];
	snprintf(path, sizeof path, "%s/seen.bin", dir);
	FILE *f = fopen(path, "rb");
	if (f) {
		size_t got = fread(cur->seen, 1, cur->seen_len, f);
		int longer = fgetc(f) != EOF;
		fclose(f);
		if (got != cur->seen_len || longer) {
			memset(cur->seen, 0, cur->seen_len);
			set_aside(path, "is not the coverage map's size");
		}
	}
	snprintf(path, sizeof path, "%s/counts.tsv", dir);
	f = fopen(path, "r");
	if (!f)
		return;
	unsigned lineno = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		if (read_line(line, cur)) {
			fclose(f);
			memset(cur->op_runs, 0, op_count() * sizeof *cur->op_runs);
			memset(cur->op_repeats, 0, op_count() * sizeof *cur->op_repeats);
			memset(cur->pair_runs, 0, rarity_pair_count() * sizeof *cur->pair_runs);
			memset(cur->mut_runs, 0, mutator_count() * sizeof *cur->mut_runs);
			memset(cur->mut_yields, 0, mutator_count() * sizeof *cur->mut_yields);
			memset(cur->set_runs, 0, setting_count() * sizeof *cur->set_runs);
			memset(cur->set_yields, 0, setting_count() * sizeof *cur->set_yields);
			snprintf(line, sizeof line, "has a line it cannot hold (line %u)", lineno);
			set_aside(path, line);
			return;
		}
	}
	fclose(f);
}

static int write_counts(const char *dir, const struct learned *l)
{
	char path[4200];
	struct atomic_file a;
	snprintf(path, sizeof path, "%s/counts.tsv", dir);
	FILE *f = atomic_open(&a, path);
	if (!f)
		return -1;
	for (unsigned i = 0; i < op_count(); i++)
		if (l->op_runs[i])
			fprintf(f, "op\t%s\t%u\n", op_get(i)->name, l->op_runs[i]);
	for (unsigned i = 0; i < op_count(); i++)
		if (l->op_repeats[i])
			fprintf(f, "repeat\t%s\t%u\n", op_get(i)->name, l->op_repeats[i]);
	for (unsigned p = 0; p <= op_count(); p++)
		for (unsigned c = 0; c < op_count(); c++) {
			int producer = p < op_count() ? (int)p : -1;
			uint32_t v = l->pair_runs[rarity_pair_slot(producer, c)];
			if (v)
				fprintf(f, "pair\t%s\t%s\t%u\n", producer < 0 ? "input" : op_get(p)->name, op_get(c)->name, v);
		}
	for (unsigned m = 0; m < mutator_count(); m++)
		fprintf(f, "mutator\t%s\t%.6f\t%.6f\n", mutator_name(m), l->mut_runs[m], l->mut_yields[m]);
	for (unsigned i = 0; i < setting_count(); i++)
		if (l->set_runs[i] > 0 || l->set_yields[i] > 0)
			fprintf(f, "setting\t%s\t%.6f\t%.6f\n", setting_get(i)->name, l->set_runs[i], l->set_yields[i]);
	return atomic_commit(&a, 0);
}

/* Adds live's change since base to each of n decayed counts (none below 0);
 * whether live changed any. */
static int add_changes(double *cur, const double *live, const double *base, unsigned n)
{
	int changed = 0;
	for (unsigned i = 0; i < n; i++) {
		double v = cur[i] + live[i] - base[i];
		changed |= live[i] != base[i];
		cur[i] = v > 0 ? v : 0;
	}
	return changed;
}

int learned_sync(struct learned_store *s, struct learned *live, char *why, size_t n)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/lock", s->dir);
	int lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lock < 0 || flock(lock, LOCK_EX)) {
		snprintf(why, n, "cannot lock %s: %s", path, strerror(errno));
		if (lock >= 0)
			close(lock);
		return -1;
	}
	struct learned cur;
	if (alloc_state(&cur, live)) {
		snprintf(why, n, "out of memory for the learned state");
		close(lock);
		return -1;
	}
	read_state(s->dir, &cur);
	int seen_changed = 0, counts_changed = 0;
	for (size_t i = 0; i < live->seen_len; i++) {
		seen_changed |= live->seen[i] & ~cur.seen[i]; /* the file lacks a bit: found, or the file was lost */
		cur.seen[i] |= live->seen[i];
	}
	for (unsigned i = 0; i < op_count(); i++) {
		counts_changed |= live->op_runs[i] != s->base.op_runs[i];
		cur.op_runs[i] += live->op_runs[i] - s->base.op_runs[i];
		counts_changed |= live->op_repeats[i] != s->base.op_repeats[i];
		cur.op_repeats[i] += live->op_repeats[i] - s->base.op_repeats[i];
	}
	for (unsigned i = 0; i < rarity_pair_count(); i++) {
		counts_changed |= live->pair_runs[i] != s->base.pair_runs[i];
		cur.pair_runs[i] += live->pair_runs[i] - s->base.pair_runs[i];
	}
	counts_changed |= add_changes(cur.mut_runs, live->mut_runs, s->base.mut_runs, mutator_count());
	counts_changed |= add_changes(cur.mut_yields, live->mut_yields, s->base.mut_yields, mutator_count());
	counts_changed |= add_changes(cur.set_runs, live->set_runs, s->base.set_runs, setting_count());
	counts_changed |= add_changes(cur.set_yields, live->set_yields, s->base.set_yields, setting_count());
	int rc = 0;
	snprintf(path, sizeof path, "%s/seen.bin", s->dir);
	if ((seen_changed && atomic_write(path, cur.seen, cur.seen_len, 0)) || (counts_changed && write_counts(s->dir, &cur))) {
		snprintf(why, n, "cannot write the learned state into %s: %s", s->dir, strerror(errno));
		rc = -1; /* the job keeps its own state; the next sync tries again */
	}
	close(lock);
	if (rc) {
		free_state(&cur);
		return -1;
	}
	memcpy(live->seen, cur.seen, live->seen_len);
	memcpy(live->op_runs, cur.op_runs, op_count() * sizeof *cur.op_runs);
	memcpy(live->op_repeats, cur.op_repeats, op_count() * sizeof *cur.op_repeats);
	memcpy(live->pair_runs, cur.pair_runs, rarity_pair_count() * sizeof *cur.pair_runs);
	memcpy(live->mut_runs, cur.mut_runs, mutator_count() * sizeof *cur.mut_runs);
	memcpy(live->mut_yields, cur.mut_yields, mutator_count() * sizeof *cur.mut_yields);
	memcpy(live->set_runs, cur.set_runs, setting_count() * sizeof *cur.set_runs);
	memcpy(live->set_yields, cur.set_yields, setting_count() * sizeof *cur.set_yields);
	free_state(&s->base);
	s->base = cur;
	return 0;
}
