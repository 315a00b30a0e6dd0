/* `pt2fuzz repro FINDING|FILE.py`: a finding's standalone program run in the
 * configured Python (harness/runtime.h) the way a user would run it by
 * hand, fed through stdin so that a chroot'd Python, which sees only its
 * own root filesystem, runs it too. Its output streams through; its exit
 * status is the command's. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../harness/runtime.h"
#include "../pipeline/cli.h"
#include "../pipeline/findings.h"
#include "../pipeline/graphio.h"
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

/* Waits for pid; after secs (0: never) kills its process group. The exit
 * status as a shell gives it (128 + signal), or 124 on the timeout. */
static int wait_program(pid_t pid, long long secs)
{
	struct timespec t0, now, tick = {0, 50 * 1000 * 1000};
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int st;
	for (;;) {
		pid_t w = waitpid(pid, &st, secs ? WNOHANG : 0);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return 1;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (secs && now.tv_sec - t0.tv_sec >= secs) {
			kill(-pid, SIGKILL);
			waitpid(pid, &st, 0);
			fprintf(stderr, "pt2fuzz repro: stopped after %lld s (--timeout)\n", secs);
			return 124;
		}
		nanosleep(&tick, NULL);
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	fprintf(stderr, "pt2fuzz repro: the program died of signal %d (%s)\n", WTERMSIG(st), strsignal(WTERMSIG(st)));
	return 128 + WTERMSIG(st);
}

int cmd_repro(int argc, char **argv)
{
	static const struct option options[] = {{"reduced", no_argument, NULL, 0},
						{"original", no_argument, NULL, 0},
						{"timeout", required_argument, NULL, 0},
						{"plugin", required_argument, NULL, 0},
						{NULL, 0, NULL, 0}};
	static struct cli c;
	char path[4200], why[600], python[4096];
	long long secs;
	if (cli_parse(&c, "pt2fuzz repro", argc, argv, (const struct option *const[]){options, NULL}, 0))
		return c.status;
	if (cli_num(&c, "timeout", 0, 0, 86400 * 7, &secs))
		return 2;
	if (c.npos != 1 || (cli_flag(&c, "reduced") && cli_flag(&c, "original"))) {
		fprintf(stderr, "usage: pt2fuzz repro %s\n", REPRO_USAGE);
		return 2;
	}
	if (pick_program(c.pos[0], cli_flag(&c, "reduced"), cli_flag(&c, "original"), path, sizeof path))
		return 1;
	size_t plen = 0, glen = 0;
	uint8_t *prog = graphio_read_file(path, PROGRAM_MAX, &plen, why, sizeof why), *plugin = NULL;
	const char *plugin_path = cli_opt(&c, "plugin");
	if (prog && plugin_path)
		plugin = graphio_read_file(plugin_path, PROGRAM_MAX, &glen, why, sizeof why);
	if (!prog || (plugin_path && !plugin)) {
		fprintf(stderr, "pt2fuzz repro: %s\n", why);
		free(prog);
		return 1;
	}
	if (runtime_python(python, sizeof python, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz repro: %s\n", why);
		free(prog);
		free(plugin);
		return 1;
	}
	fprintf(stderr, "pt2fuzz repro: %s in %s\n", path, python);
	int fds[2];
	pid_t pid = -1;
	if (pipe(fds) == 0) {
		pid = runtime_spawn_program(python, fds[0], why, sizeof why);
		close(fds[0]);
		/* A Python that never started closes the pipe: its status says so, not SIGPIPE. */
		signal(SIGPIPE, SIG_IGN);
		if (pid > 0) {
			int ok = !plugin || (!runtime_write_all(fds[1], plugin, glen) && !runtime_write_all(fds[1], "\n", 1));
			if (ok)
				runtime_write_all(fds[1], prog, plen);
		}
		close(fds[1]);
	} else {
		snprintf(why, sizeof why, "pipe: %s", strerror(errno));
	}
	free(prog);
	free(plugin);
	if (pid < 0) {
		fprintf(stderr, "pt2fuzz repro: %s\n", why);
		return 1;
	}
	int rc = wait_program(pid, secs);
	if (rc == 127)
		fprintf(stderr, "pt2fuzz repro: the Python `%s` could not be started (see above; run `make setup` or "
				"set PT2FUZZ_PYTHON)\n", python);
	return rc;
}
