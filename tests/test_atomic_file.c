/* Files a crash must not leave half-written (pipeline/atomic_file.h), and
 * plot_data's rows, which go in whole. */
#include "test.h"
#include "../pipeline/atomic_file.h"
#include "../fuzz/campaign.h"
#include <dirent.h>
#include <sys/stat.h>
#include <errno.h>
#include <time.h>
#include <utime.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static void fresh_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/pt2fuzz-atomic.XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
}

/* Files in dir, counted, the hidden ones too. */
static int entries(void)
{
	int n = 0;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static void slurp(const char *path, char *out, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t k = f ? fread(out, 1, n - 1, f) : 0;
	out[k] = 0;
	if (f)
		fclose(f);
}

static void clean(const char *path)
{
	remove(path);
	CHECK_EQ(rmdir(dir), 0);
}

TEST(atomic_write_replaces_whole_and_leaves_no_temp)
{
	char path[128], got[64];
	fresh_dir();
	snprintf(path, sizeof path, "%s/meta.json", dir);
	CHECK_EQ(atomic_write(path, "{\"count\": 1}\n", 13, 1), 0);
	CHECK_EQ(atomic_write(path, "{\"count\": 2}\n", 13, 0), 0);
	slurp(path, got, sizeof got);
	CHECK(!strcmp(got, "{\"count\": 2}\n"));
	CHECK_EQ(entries(), 1);
	clean(path);
}

TEST(atomic_commit_of_a_failed_stream_keeps_the_old_file)
{
	char path[128], got[64];
	struct atomic_file a;
	fresh_dir();
	snprintf(path, sizeof path, "%s/totals.tsv", dir);
	CHECK_EQ(atomic_write(path, "execs\t5\n", 8, 0), 0);
	FILE *f = atomic_open(&a, path);
	CHECK(f != NULL);
	CHECK(strstr(a.tmp, "/.totals.tsv.tmp.") != NULL); /* hidden, beside the file */
	fputs("execs\t", f);
	CHECK_EQ(fgetc(f), EOF); /* reading a write-only stream: its error flag, as a failed write (ENOSPC) sets */
	CHECK(ferror(f));
	CHECK_EQ(atomic_commit(&a, 0), -1);
	slurp(path, got, sizeof got);
	CHECK(!strcmp(got, "execs\t5\n"));
	CHECK_EQ(entries(), 1);
	clean(path);
	CHECK_EQ(atomic_write("/nonexistent-dir/x", "x", 1, 0), -1);
}

TEST(atomic_sweep_removes_only_temporaries)
{
	static const char *const names[] = {".a1b2.tmp.4242", ".meta.json.tmp.7", ".lock", "a1b2", "x.tmp.12", ".y.tmp.", ".z.tmp.9x"};
	char path[128];
	fresh_dir();
	for (unsigned i = 0; i < sizeof names / sizeof *names; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		CHECK_EQ(atomic_write(path, "x", 1, 0), 0);
	}
	CHECK_EQ(atomic_sweep(dir, 0), 2);
	CHECK_EQ(entries(), 5);
	for (unsigned i = 0; i < sizeof names / sizeof *names; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		CHECK_EQ(access(path, F_OK) == 0, i >= 2);
		remove(path);
	}
	clean(path);
}

/* A finding's temporary folder (atomic_dir_open) a killed writer left: swept
 * whole, but only once old enough where other writers may be at work. */
TEST(atomic_sweep_removes_temporary_folders_once_old_enough)
{
	char tmp[200], file[300], path[200];
	fresh_dir();
	snprintf(path, sizeof path, "%s/numeric-0000000000000001", dir);
	CHECK_EQ(atomic_dir_open(path, tmp, sizeof tmp), 0);
	snprintf(file, sizeof file, "%s/repro.py", tmp);
	CHECK_EQ(atomic_write(file, "x", 1, 0), 0);
	CHECK_EQ(atomic_sweep(dir, 600), 0); /* a writer may still be filling it */
	struct utimbuf old = {time(NULL) - 700, time(NULL) - 700};
	CHECK_EQ(utime(tmp, &old), 0);
	CHECK_EQ(atomic_sweep(dir, 600), 1);
	CHECK_EQ(entries(), 0);
	/* A whole one is renamed into place; one there already is not replaced. */
	CHECK_EQ(atomic_dir_open(path, tmp, sizeof tmp), 0);
	CHECK_EQ(atomic_write(file, "x", 1, 0), 0);
	CHECK_EQ(atomic_dir_commit(tmp, path), 0);
	CHECK_EQ(atomic_dir_open(path, tmp, sizeof tmp), 0);
	CHECK_EQ(atomic_write(file, "x", 1, 0), 0);
	CHECK_EQ(atomic_dir_commit(tmp, path), -1);
	CHECK_EQ(errno, EEXIST);
	atomic_remove_dir(tmp);
	CHECK_EQ(entries(), 1);
	atomic_remove_dir(path);
	CHECK_EQ(rmdir(dir), 0);
}

/* What a target killed at the deadline was writing: its own temporaries
 * go at once, however young; another writer's stay. */
TEST(atomic_sweep_writer_removes_a_dead_writers_temporaries_only)
{
	char tmp[200], file[300], path[200], other[200];
	fresh_dir();
	snprintf(path, sizeof path, "%s/numeric-0000000000000002", dir);
	CHECK_EQ(atomic_dir_open(path, tmp, sizeof tmp), 0); /* .numeric-...tmp.<this pid> */
	snprintf(file, sizeof file, "%s/graph.bin", tmp);
	CHECK_EQ(atomic_write(file, "x", 1, 0), 0);
	snprintf(other, sizeof other, "%s/.numeric-0000000000000003.tmp.%ld", dir, (long)getpid() + 1);
	CHECK_EQ(mkdir(other, 0777), 0);
	CHECK_EQ(atomic_sweep_writer(dir, (long)getpid() + 2), 0);
	CHECK_EQ(atomic_sweep_writer(NULL, (long)getpid()), 0);
	CHECK_EQ(atomic_sweep_writer(dir, (long)getpid()), 1);
	CHECK(access(tmp, F_OK) != 0);
	CHECK_EQ(access(other, F_OK), 0);
	CHECK_EQ(entries(), 1);
	CHECK_EQ(rmdir(other), 0);
	CHECK_EQ(rmdir(dir), 0);
}

TEST(plot_resume_skips_a_row_cut_short)
{
	char path[128];
	struct plot_row r = {0}, last;
	fresh_dir();
	snprintf(path, sizeof path, "%s/plot_data", dir);
	r.unix_time = 1700000000, r.elapsed = 10, r.execs = 3;
	CHECK_EQ(plot_append(path, &r), 0);
	r.unix_time += 60, r.elapsed = 70, r.execs = 40;
	CHECK_EQ(plot_append(path, &r), 0);
	FILE *f = fopen(path, "a");
	fputs("1700000120, 13", f); /* a row a full disk cut short */
	fclose(f);
	plot_resume(path, &last);
	CHECK_EQ(last.unix_time, 1700000060);
	CHECK_EQ((int)last.elapsed, 70);
	CHECK_EQ(last.execs, 40);
	clean(path);
}
