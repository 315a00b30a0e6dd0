/* A Python program text run the way `pt2fuzz repro` runs one: in the
 * configured Python (harness/runtime.h), fed through stdin so that a
 * chroot'd Python, which sees only its own root filesystem, runs it too. */
#ifndef PT2FUZZ_RUN_PROGRAM_H
#define PT2FUZZ_RUN_PROGRAM_H
#include <stddef.h>

/* Runs prog after plugin's text (NULL: none) with its stdout and stderr on
 * out_fd and err_fd (-1: ours); after secs (0: never) kills its process
 * group. The exit status as a shell gives it (128 + signal), 124 on the
 * timeout, 127 when the Python could not be started; -1 with a reason when
 * nothing ran. */
int run_program(const char *prog, size_t plen, const char *plugin, size_t glen, long long secs, int out_fd, int err_fd,
		char *why, size_t n);

#endif
