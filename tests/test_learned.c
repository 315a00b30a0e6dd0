/* A campaign's learned state (fuzz/learned.h): jobs that sync add up, each
 * job sees what the others added, a new job starts from all of it, and a
 * damaged file is set aside and the state starts over without losing the
 * parts that were whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../config/settings.h"
#include "../fuzz/learned.h"
#include "../graph/op.h"
#include "../mutators/mutate.h"
#include "../mutators/rarity.h"
#include "test.h"

#define SEEN 4096

struct job {
	struct learned live;
	struct learned_store store;
};

static void job_start(struct job *j, const char *dir)
{
	char why[600] = "";
	memset(j, 0, sizeof *j);
	j->live.seen = calloc(SEEN, 1);
	j->live.seen_len = SEEN;
	j->live.op_runs = calloc(op_count(), sizeof *j->live.op_runs);
	j->live.op_repeats = calloc(op_count(), sizeof *j->live.op_repeats);
	j->live.pair_runs = calloc(rarity_pair_count(), sizeof *j->live.pair_runs);
	j->live.mut_runs = calloc(mutator_count(), sizeof *j->live.mut_runs);
	j->live.mut_yields = calloc(mutator_count(), sizeof *j->live.mut_yields);
	j->live.set_runs = calloc(setting_count(), sizeof *j->live.set_runs);
	j->live.set_yields = calloc(setting_count(), sizeof *j->live.set_yields);
	if (!CHECK(!learned_open(&j->store, dir, &j->live, why, sizeof why)) || !CHECK(!learned_sync(&j->store, &j->live, why, sizeof why)))
		fprintf(stderr, "  %s\n", why);
}

static void job_sync(struct job *j)
{
	char why[600] = "";
	if (!CHECK(!learned_sync(&j->store, &j->live, why, sizeof why)))
		fprintf(stderr, "  %s\n", why);
}

static void job_end(struct job *j)
{
	learned_close(&j->store);
	free(j->live.seen);
	free(j->live.op_runs);
	free(j->live.op_repeats);
	free(j->live.pair_runs);
	free(j->live.mut_runs);
	free(j->live.mut_yields);
	free(j->live.set_runs);
	free(j->live.set_yields);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

TEST(learned_jobs_add_up_and_a_new_job_starts_from_all_of_them)
{
	char dir[] = "/tmp/pt2fuzz-learned.XXXXXX", path[200];
	CHECK(mkdtemp(dir) != NULL);
	unsigned mm = (unsigned)op_find("mm"), relu = (unsigned)op_find("relu"), grow = (unsigned)mutator_find("grow");
	unsigned pair = rarity_pair_slot((int)mm, relu), from_input = rarity_pair_slot(-1, mm);
	unsigned freezing = (unsigned)setting_find("inductor.freezing");
	static struct job a, b, c, d;
	job_start(&a, dir);
	job_start(&b, dir); /* both from the same (empty) state */
	a.live.op_runs[mm] += 3;
	a.live.op_repeats[mm] += 1;
	a.live.pair_runs[pair] += 2;
	a.live.seen[10] |= 1;
	a.live.mut_runs[grow] = 1, a.live.mut_yields[grow] = 1;
	a.live.set_runs[freezing] = 2, a.live.set_yields[freezing] = 1;
	b.live.op_runs[mm] += 5;
	b.live.op_repeats[mm] += 2;
	b.live.pair_runs[from_input] += 1;
	b.live.seen[10] |= 4;
	b.live.seen[20] |= 2;
	b.live.mut_runs[grow] = 2;
	b.live.set_runs[freezing] = 1;
	job_sync(&a);
	job_sync(&b);
	CHECK_EQ(b.live.op_runs[mm], 8); /* both jobs' runs */
	CHECK_EQ(b.live.op_repeats[mm], 3);
	CHECK_EQ(b.live.pair_runs[pair], 2);
	CHECK_EQ(b.live.pair_runs[from_input], 1);
	CHECK_EQ(b.live.seen[10], 5);
	CHECK(b.live.mut_runs[grow] == 3 && b.live.mut_yields[grow] == 1);
	CHECK(b.live.set_runs[freezing] == 3 && b.live.set_yields[freezing] == 1); /* a setting's yields too */
	job_sync(&a); /* a sees what b added, and adds nothing twice */
	CHECK_EQ(a.live.op_runs[mm], 8);
	CHECK_EQ(a.live.seen[20], 2);
	a.live.op_runs[relu] += 1;
	job_sync(&a);
	job_start(&c, dir);
	CHECK_EQ(c.live.op_runs[mm], 8);
	CHECK_EQ(c.live.op_repeats[mm], 3);
	CHECK_EQ(c.live.op_runs[relu], 1);
	CHECK_EQ(c.live.pair_runs[pair], 2);
	CHECK_EQ(c.live.seen[10], 5);
	CHECK(c.live.mut_runs[grow] == 3);
	CHECK(c.live.set_runs[freezing] == 3 && c.live.set_yields[freezing] == 1);

	/* Damage: a counts line no writer makes, and a seen file cut short. Each
	 * is moved aside with its name; the other file still counts. */
	snprintf(path, sizeof path, "%s/counts.tsv", dir);
	put(path, "op\tmm\t8\nop\tmm\tlots\n");
	job_start(&d, dir);
	CHECK_EQ(d.live.op_runs[mm], 0);
	CHECK_EQ(d.live.seen[10], 5);
	snprintf(path, sizeof path, "%s/counts.tsv.damaged", dir);
	CHECK(!access(path, F_OK));
	snprintf(path, sizeof path, "%s/seen.bin", dir);
	put(path, "short");
	d.live.op_runs[relu] += 2;
	job_sync(&d);
	CHECK_EQ(d.live.op_runs[relu], 2);
	CHECK_EQ(d.live.seen[10], 5); /* its own bits stay: they were learned, not read */
	snprintf(path, sizeof path, "%s/seen.bin.damaged", dir);
	CHECK(!access(path, F_OK));
	/* a name the catalogue no longer has is skipped, not damage */
	snprintf(path, sizeof path, "%s/counts.tsv", dir);
	put(path, "op\tno_such_op\t4\nop\trelu\t7\nrepeat\trelu\t5\nrepeat\tno_such_op\t1\nmutator\tno_such_mutator\t1.0\t0.5\n"
		"setting\tinductor.no_such_setting\t1.0\t0.5\nsetting\tinductor.freezing\t4.0\t2.0\n");
	job_sync(&d);
	CHECK_EQ(d.live.op_runs[relu], 7);
	CHECK_EQ(d.live.op_repeats[relu], 5);
	CHECK(d.live.set_runs[freezing] == 4 && d.live.set_yields[freezing] == 2);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	CHECK(!system(path));
	job_end(&a), job_end(&b), job_end(&c), job_end(&d);
}
