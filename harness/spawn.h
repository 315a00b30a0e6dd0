/* Starting a child process: the one place that forks. A child either
 * execs a program (argv) or runs a function of ours and exits with what it
 * returns; either way it first gets the stdio, descriptors, process group,
 * parent-death signal, priority, signals and environment asked for here. */
#ifndef PT2FUZZ_SPAWN_H
#define PT2FUZZ_SPAWN_H
#include <stddef.h>
#include <sys/types.h>

struct spawn_opts {
	char *const *argv;       /* exec argv[0] (searched in PATH without a '/'), or NULL: run fn */
	int (*fn)(void *arg);    /* without argv: the child runs fn(arg) and _exits with its result */
	void *arg;
	int stdio[3];            /* descriptors for the child's 0, 1, 2; -1 keeps the parent's */
	int keep_fd;             /* close every descriptor >= 3 but this one (kept, inheritable); -2: close none */
	int new_group;           /* its own process group, already when spawn returns: a kill of the group reaches its children */
	int die_with_parent;     /* SIGTERM when the parent dies; exits 1 if it already has */
	int nice;                /* added to its priority (0: none) */
	int default_signals;     /* SIGINT and SIGTERM back to their default actions */
	const char *const *env;  /* NULL, or NULL-terminated "NAME=VALUE" added to its environment */
};

/* opts as above with nothing asked: stdio kept, no descriptor closed. */
#define SPAWN_OPTS {.stdio = {-1, -1, -1}, .keep_fd = -2}

/* Starts the child: its pid, or -1 with a reason (the fork failed). An
 * exec that fails says so on the child's stderr and exits 127. */
pid_t spawn(const struct spawn_opts *o, char *why, size_t n);

/* Runs argv with its stdout into out (cap bytes, NUL-terminated, the rest
 * dropped) and its stderr discarded, and waits for it. The bytes read, or
 * -1 when it could not be started or did not exit 0. */
long spawn_capture(char *const *argv, char *out, size_t cap);

/* Waits up to wait_ms for every process of group pgid to have exited (gone,
 * or a zombie: its files, locks and memory are already released), so that a
 * killed group has let go of what it held when this returns. 1 when none is
 * left running, 0 when some still runs at wait_ms. */
int spawn_group_ended(pid_t pgid, unsigned wait_ms);

#endif
