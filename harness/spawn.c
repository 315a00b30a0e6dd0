#include "spawn.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../graph/fail.h"

/* In the child, between fork and exec or fn: everything o asks for. */
static void prepare_child(const struct spawn_opts *o, pid_t parent)
{
	if (o->new_group)
		setpgid(0, 0);
	if (o->die_with_parent) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent) /* it died before the line above */
			_exit(1);
	}
	if (o->nice)
		setpriority(PRIO_PROCESS, 0, o->nice);
	for (int i = 0; i < 3; i++)
		if (o->stdio[i] >= 0 &&
		    (o->stdio[i] == i ? fcntl(i, F_SETFD, 0) : dup2(o->stdio[i], i)) < 0)
			_exit(127);
	if (o->keep_fd != -2)
		for (int fd = 3; fd < 1024; fd++)
			if (fd != o->keep_fd)
				close(fd);
	if (o->keep_fd >= 0)
		fcntl(o->keep_fd, F_SETFD, 0);
	if (o->default_signals) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
	}
	for (const char *const *e = o->env; e && *e; e++)
		putenv((char *)*e);
}

pid_t spawn(const struct spawn_opts *o, char *why, size_t n)
{
	if (!o->argv)
		fflush(NULL); /* a child running our code must not write our buffered output again */
	pid_t parent = getpid(), pid = fork();
	if (pid < 0)
		return fail(why, n, "fork: %s", strerror(errno));
	if (pid > 0) {
		/* The child's own setpgid may not have run yet: a kill of the group
		 * right after this return would miss it (and a SIGINT land on the
		 * handler it inherited), so the parent sets the group too. */
		if (o->new_group)
			setpgid(pid, pid);
		return pid;
	}
	prepare_child(o, parent);
	if (!o->argv)
		_exit(o->fn(o->arg));
	execvp(o->argv[0], o->argv);
	fprintf(stderr, "exec %s: %s\n", o->argv[0], strerror(errno));
	_exit(127);
}

long spawn_capture(char *const *argv, char *out, size_t cap)
{
	int p[2], null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0 || pipe2(p, O_CLOEXEC)) {
		if (null >= 0)
			close(null);
		return -1;
	}
	struct spawn_opts o = SPAWN_OPTS;
	o.argv = argv;
	o.stdio[1] = p[1];
	o.stdio[2] = null;
	pid_t pid = spawn(&o, NULL, 0);
	close(p[1]);
	close(null);
	size_t got = 0;
	char sink[4096];
	for (ssize_t k; pid > 0;) {
		int full = got + 1 >= cap;
		k = read(p[0], full ? sink : out + got, full ? sizeof sink : cap - 1 - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		if (!full)
			got += (size_t)k;
	}
	close(p[0]);
	if (cap)
		out[got] = 0;
	int status = 0;
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status) ? (long)got : -1;
}

/* Whether some process of group pgid has not yet exited. */
static int group_running(pid_t pgid)
{
	int running = 0;
	DIR *d = opendir("/proc");
	for (struct dirent *e; d && !running && (e = readdir(d));) {
		char path[300], stat[512];
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%.200s/stat", e->d_name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t len = fd < 0 ? -1 : read(fd, stat, sizeof stat - 1);
		if (fd >= 0)
			close(fd);
		if (len <= 0)
			continue; /* gone since the listing */
		stat[len] = 0;
		char state;
		int pgrp;
		const char *after_name = strrchr(stat, ')'); /* the name may hold spaces and parentheses */
		if (after_name && sscanf(after_name + 1, " %c %*d %d", &state, &pgrp) == 2)
			running = pgrp == pgid && state != 'Z' && state != 'X';
	}
	if (d)
		closedir(d);
	return running;
}

int spawn_group_ended(pid_t pgid, unsigned wait_ms)
{
	for (unsigned waited = 0;; waited += 20) {
		if (!group_running(pgid))
			return 1;
		if (waited >= wait_ms)
			return 0;
		usleep(20 * 1000);
	}
}
