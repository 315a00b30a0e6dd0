/* `pt2fuzz repro FINDING|FILE.py`: a finding's standalone program run in the
 * configured Python (triage/run_program.h) the way a user would run it by
 * hand; with --plain its plain repro (triage/plain.h). Its output streams
 * through; its exit status is the command's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../harness/runtime.h"
#include "../pipeline/cli.h"
#include "../pipeline/findings.h"
#include "../pipeline/graphio.h"
#include "plain.h"
#include "run_program.h"
#include "triage_commands.h"

#define PROGRAM_MAX (16u << 20)

/* The program a FINDING|FILE argument names: a file as it is; a finding's
 * reduced/repro.py when it was reduced (or --reduced asks for it), else
 * its repro.py (or --original asks for that). */
static int pick_program(const char *arg, int reduced, int original, char *path, size_t n)
{
	struct stat st;
	if (stat(arg, &st)) {
		fprintf(stderr, "pt2fuzz repro: %s: %s\n", arg, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (reduced || original) {
			fprintf(stderr, "pt2fuzz repro: --reduced and --original choose within a finding folder, not %s\n",
				arg);
			return -1;
		}
		snprintf(path, n, "%s", arg);
		return 0;
	}
	if (findings_path(path, n, arg, "reduced/repro.py"))
		return -1;
	int has_reduced = !stat(path, &st);
	if (reduced && !has_reduced) {
		fprintf(stderr, "pt2fuzz repro: %s has no reduced/repro.py (run `pt2fuzz reduce` first)\n", arg);
		return -1;
	}
	if (has_reduced && !original)
		return 0;
	if (findings_path(path, n, arg, "repro.py"))
		return -1;
	if (stat(path, &st)) {
		fprintf(stderr, "pt2fuzz repro: %s has no repro.py: %s (not a finding folder?)\n", arg, strerror(errno));
		return -1;
	}
	return 0;
}

/* --plain: the finding's plain.py as `report` wrote it (reduced/plain.py
 * with --reduced), else the plain program of the graph made now (of
 * graph.bin with --original). What it is goes to what. */
static char *pick_plain(const char *dir, int reduced, int original, size_t *len, char *what, size_t wn, char *why,
			size_t n)
{
	struct stat st;
	char path[4200];
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(why, n, "%s: --plain takes a finding folder", dir);
		return NULL;
	}
	if (!original && !findings_path(path, sizeof path, dir, reduced ? "reduced/plain.py" : "plain.py") &&
	    !stat(path, &st)) {
		snprintf(what, wn, "%s", path);
		return (char *)graphio_read_file(path, PROGRAM_MAX, len, why, n);
	}
	struct plain_request rq = {original ? PLAIN_ORIGINAL : reduced ? PLAIN_REDUCED : PLAIN_AUTO, NULL, NULL, NULL, -1, -1};
	snprintf(what, wn, "the plain program of %s's %sgraph, made now", dir, original ? "original " : reduced ? "reduced " : "");
	return plain_of_finding(dir, &rq, len, why, n);
}

int cmd_repro(int argc, char **argv)
{
	static const struct option options[] = {{"reduced", no_argument, NULL, 0},
						{"original", no_argument, NULL, 0},
						{"plain", no_argument, NULL, 0},
						{"timeout", required_argument, NULL, 0},
						{"plugin", required_argument, NULL, 0},
						{NULL, 0, NULL, 0}};
	static struct cli c;
	char what[4400], why[600], python[4096];
	long long secs;
	if (cli_parse(&c, "pt2fuzz repro", argc, argv, (const struct option *const[]){options, NULL}, 0))
		return c.status;
	if (cli_num(&c, "timeout", 0, 0, 86400 * 7, &secs))
		return 2;
	int reduced = cli_flag(&c, "reduced"), original = cli_flag(&c, "original");
	if (c.npos != 1 || (reduced && original)) {
		fprintf(stderr, "usage: pt2fuzz repro %s\n", REPRO_USAGE);
		return 2;
	}
	size_t plen = 0, glen = 0;
	char *prog = NULL, *plugin = NULL;
	if (cli_flag(&c, "plain"))
		prog = pick_plain(c.pos[0], reduced, original, &plen, what, sizeof what, why, sizeof why);
	else if (pick_program(c.pos[0], reduced, original, what, sizeof what))
		return 1;
	else
		prog = (char *)graphio_read_file(what, PROGRAM_MAX, &plen, why, sizeof why);
	const char *plugin_path = cli_opt(&c, "plugin");
	if (prog && plugin_path)
		plugin = (char *)graphio_read_file(plugin_path, PROGRAM_MAX, &glen, why, sizeof why);
	int rc = !prog || (plugin_path && !plugin) ? -1 : runtime_python(python, sizeof python, why, sizeof why);
	if (!rc) {
		fprintf(stderr, "pt2fuzz repro: %s in %s\n", what, python);
		rc = run_program(prog, plen, plugin, glen, secs, -1, -1, why, sizeof why);
	}
	free(prog);
	free(plugin);
	if (rc < 0) {
		fprintf(stderr, "pt2fuzz repro: %s\n", why);
		return 1;
	}
	if (rc == 124 && secs)
		fprintf(stderr, "pt2fuzz repro: stopped after %lld s (--timeout)\n", secs);
	else if (rc > 128)
		fprintf(stderr, "pt2fuzz repro: the program died of signal %d (%s)\n", rc - 128, strsignal(rc - 128));
	else if (rc == 127)
		fprintf(stderr, "pt2fuzz repro: the Python `%s` could not be started (see above; run `make setup` or "
				"set PT2FUZZ_PYTHON)\n", python);
	return rc;
}
