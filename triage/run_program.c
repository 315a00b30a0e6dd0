#include "run_program.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../graph/fail.h"
#include "../harness/runtime.h"

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
			return 124;
		}
		nanosleep(&tick, NULL);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int run_program(const char *prog, size_t plen, const char *plugin, size_t glen, long long secs, int out_fd, int err_fd,
		char *why, size_t n)
{
	char python[4096];
	int fds[2];
	if (runtime_python(python, sizeof python, why, n))
		return -1;
	if (pipe(fds))
		return fail(why, n, "pipe: %s", strerror(errno));
	pid_t pid = runtime_spawn_program(python, fds[0], out_fd, err_fd, why, n);
	close(fds[0]);
	/* A Python that never started closes the pipe: its status says so, not SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	if (pid > 0 && (!plugin || (!runtime_write_all(fds[1], plugin, glen) && !runtime_write_all(fds[1], "\n", 1))))
		runtime_write_all(fds[1], prog, plen);
	close(fds[1]);
	return pid < 0 ? -1 : wait_program(pid, secs);
}
