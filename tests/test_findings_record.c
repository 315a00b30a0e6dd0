/* A finding's folder (pipeline/findings.h) is there whole or not at all: a
 * writer that fails or is killed midway leaves no folder without meta.json
 * for the readers (triage, the census, the sync) to trip on, and a folder an
 * earlier version left without one is completed at the next hit. */
#include "test.h"
#include "../pipeline/findings.h"
#include "../pipeline/json_file.h"
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];
static char program[8192];

static void fresh_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/pt2fuzz-findings.XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
}

/* Entries of folder d, the hidden ones too. */
static int entries(const char *d)
{
	int n = 0;
	DIR *h = opendir(d);
	for (struct dirent *e; h && (e = readdir(h));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (h)
		closedir(h);
	return n;
}

static void rm_rf(const char *path)
{
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
	CHECK_EQ(system(cmd), 0);
}

/* findings_record of a numeric finding with an 8 KiB repro: its return. */
static int record(char *out, size_t n)
{
	static struct check_result r;
	static struct check_cfg cfg;
	char why[300];
	memset(program, 'x', sizeof program);
	cfg.backend = "inductor";
	cfg.dynamic = "marks";
	r.v.kind = V_NUMERIC;
	r.signature = 0x5678;
	r.program = program;
	r.program_len = sizeof program;
	struct finding_ctx fc = {.dir = dir, .cfg = &cfg};
	struct check_finding f;
	check_primary(&r, &f);
	return findings_record(&fc, NULL, &r, &f, out, n, why, sizeof why);
}

static long count_of(const char *folder)
{
	char path[4300], why[300];
	snprintf(path, sizeof path, "%s/meta.json", folder);
	json_t *meta = json_file_load(path, why, sizeof why);
	long count = meta ? (long)json_file_num(meta, "count", 0) : -1;
	json_decref(meta);
	return count;
}

TEST(findings_record_that_fails_midway_leaves_no_folder)
{
	char out[4200];
	fresh_dir();
	/* Files may not pass 4 KiB: the 8 KiB repro's write fails, as on a full disk. */
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit lim = {4096, 4096};
		signal(SIGXFSZ, SIG_IGN);
		setrlimit(RLIMIT_FSIZE, &lim);
		_exit(record(out, sizeof out) == -1 ? 0 : 1);
	}
	int status = 0;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(entries(dir), 0); /* no part of the folder, not even a hidden one */
	/* Without the limit it is filed whole; a second hit is a repeat. */
	CHECK_EQ(record(out, sizeof out), 1);
	CHECK_EQ(entries(dir), 1);
	CHECK_EQ(count_of(out), 1);
	CHECK_EQ(record(out, sizeof out), 0);
	CHECK_EQ(count_of(out), 2);
	char repro[4300];
	snprintf(repro, sizeof repro, "%s/repro.py", out);
	struct stat st;
	CHECK(!stat(repro, &st) && st.st_size == (off_t)sizeof program);
	rm_rf(dir);
}

TEST(findings_record_completes_a_folder_left_without_meta_json)
{
	char out[4200], part[4300], stale[4300];
	fresh_dir();
	CHECK_EQ(record(out, sizeof out), 1); /* its name */
	rm_rf(out);
	CHECK_EQ(mkdir(out, 0777), 0);
	snprintf(part, sizeof part, "%s/repro.py", out);
	FILE *f = fopen(part, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f); /* an empty repro, and no meta.json */
	/* This pid's temporary folder of an earlier, killed run. */
	snprintf(stale, sizeof stale, "%s/.%s.tmp.%d", dir, strrchr(out, '/') + 1, (int)getpid());
	CHECK_EQ(mkdir(stale, 0777), 0);
	CHECK_EQ(record(out, sizeof out), 1); /* new: nothing whole was there */
	CHECK_EQ(count_of(out), 1);
	struct stat st;
	CHECK(!stat(part, &st) && st.st_size == (off_t)sizeof program);
	CHECK_EQ(entries(dir), 1); /* the temporary folders gone */
	rm_rf(dir);
}
