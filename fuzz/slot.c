/* A persistent target process and its frames (slot.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../harness/protocol.h"
#include "../harness/runtime.h"
#include "../harness/spawn.h"
#include "../graph/codec.h"
#include "slot.h"

#define SLOT_END_WAIT_MS 10000 /* a process in a disk write or a GPU call exits when that returns */

/* Reads exactly n bytes: 0, or -1 at end of file or an error. */
static int read_all(int fd, void *buf, size_t n)
{
	for (size_t got = 0; got < n;) {
		ssize_t k = read(fd, (char *)buf + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		got += (size_t)k;
	}
	return 0;
}

int slot_serve(int (*one)(const uint8_t *, size_t), const uint8_t *map, size_t map_len)
{
	static uint8_t input[CODEC_MAX_SIZE];
	/* The pipes on descriptors of their own that no child inherits; stdout
	 * then goes where stderr goes, stdin reads nothing. */
	int in = fcntl(0, F_DUPFD_CLOEXEC, 3), out = fcntl(1, F_DUPFD_CLOEXEC, 3);
	int null = open("/dev/null", O_RDONLY);
	if (in < 0 || out < 0 || null < 0 || dup2(2, 1) < 0 || dup2(null, 0) < 0)
		return -1;
	close(null);
	signal(SIGPIPE, SIG_IGN);
	for (uint32_t len;;) {
		if (read_all(in, &len, sizeof len))
			return 0; /* the manager is done */
		if (len > sizeof input || read_all(in, input, len))
			return -1;
		int32_t ret = one(input, len);
		if (runtime_write_all(out, &ret, sizeof ret) || runtime_write_all(out, map, map_len))
			return -1;
	}
}

int slot_start(struct slot *s, char *const *argv, int log_fd)
{
	int to[2], from[2];
	if (pipe2(to, O_CLOEXEC))
		return -1;
	if (pipe2(from, O_CLOEXEC)) {
		close(to[0]);
		close(to[1]);
		return -1;
	}
	struct spawn_opts o = SPAWN_OPTS;
	o.argv = argv;
	o.stdio[0] = to[0];
	o.stdio[1] = from[1];
	o.stdio[2] = log_fd;
	o.new_group = 1;
	o.die_with_parent = 1;
	o.default_signals = 1;
	char why[128];
	s->pid = spawn(&o, why, sizeof why);
	close(to[0]);
	close(from[1]);
	if (s->pid < 0) {
		fprintf(stderr, "pt2fuzz fuzz: %s\n", why);
		close(to[1]);
		close(from[0]);
		s->pid = 0;
		return -1;
	}
	s->to = to[1];
	s->from = from[0];
	return 0;
}

int slot_send(struct slot *s, const uint8_t *data, size_t size)
{
	uint32_t len = (uint32_t)size;
	return runtime_write_all(s->to, &len, sizeof len) || runtime_write_all(s->to, data, size) ? -1 : 0;
}

int slot_reply(struct slot *s, int *ret, uint8_t *map, size_t map_len)
{
	int32_t r;
	if (read_all(s->from, &r, sizeof r) || read_all(s->from, map, map_len))
		return -1;
	*ret = r;
	return 0;
}

void slot_close(struct slot *s)
{
	if (!s->pid)
		return;
	if (s->to >= 0)
		close(s->to);
	if (s->from >= 0)
		close(s->from);
	s->to = s->from = -1;
}

/* SIGKILLs the process groups of pid's children: a target's worker has a
 * group of its own, which a kill of the target's group misses and which,
 * orphaned mid-input, would go on holding its compile and its GPU memory.
 * Returns how many groups it killed, their ids in groups (up to cap). */
static unsigned kill_children(pid_t pid, pid_t *groups, unsigned cap)
{
	char path[96];
	unsigned n = 0;
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	for (struct dirent *e; d && (e = readdir(d));) {
		snprintf(path, sizeof path, "/proc/%d/task/%.24s/children", (int)pid, e->d_name);
		FILE *f = e->d_name[0] == '.' ? NULL : fopen(path, "r");
		for (int child; f && fscanf(f, "%d", &child) == 1;)
			if (!kill(-child, SIGKILL) && n < cap)
				groups[n++] = child;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

int slot_kill(struct slot *s, int64_t end_ms)
{
	int status;
	if (!s->pid)
		return 0;
	slot_close(s);
	for (; protocol_now_ms() < end_ms; usleep(20000))
		if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
			kill(-s->pid, SIGKILL); /* the rest of its own group; its worker (a group of its own) it stopped at exit */
			s->pid = 0;
			return 0;
		}
	s->nkilled = kill_children(s->pid, s->killed, SLOT_CHILD_GROUPS);
	kill(-s->pid, SIGKILL);
	while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
		;
	s->pid = 0;
	return 1;
}

void slot_await(struct slot *s)
{
	for (unsigned i = 0; i < s->nkilled; i++)
		spawn_group_ended(s->killed[i], SLOT_END_WAIT_MS);
	s->nkilled = 0;
}

int slot_stop(struct slot *s, int64_t end_ms)
{
	int killed = slot_kill(s, end_ms);
	slot_await(s);
	return killed;
}
