/* A runner that crashes says so with its stack, on stderr and in its log,
 * then dies of the same signal (crash_report.h): a campaign's segfault
 * once left nothing but the shell's "Segmentation fault". */
#include "test.h"
#include "../fuzz/crash_report.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs crash in a child whose log is a pipe: what it wrote there, and how it ended. */
static int crashed_child(void (*crash)(void), int reset_segv, char *log, size_t n)
{
	int fd[2];
	if (pipe(fd))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(fd[0]);
		dup2(fd[1], 2); /* stderr too: the test's output stays clean */
		if (reset_segv)
			signal(SIGSEGV, SIG_DFL); /* the sanitizer's handler off, as in a plain build */
		crash_report_install("pt2fuzz fuzz", fd[1]);
		crash();
		_exit(0);
	}
	close(fd[1]);
	size_t got = 0;
	for (ssize_t k; got + 1 < n && (k = read(fd[0], log + got, n - 1 - got)) > 0;)
		got += (size_t)k;
	log[got] = 0;
	close(fd[0]);
	int status;
	waitpid(pid, &status, 0);
	return status;
}

static void segfault(void) { raise(SIGSEGV); }
static void aborts(void) { abort(); }

TEST(crash_report_says_the_signal_and_stack_then_dies_of_it)
{
	static char log[1 << 16];
	int status = crashed_child(segfault, 1, log, sizeof log);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	CHECK(strstr(log, "pt2fuzz fuzz: crashed with signal 11 (a fault of pt2fuzz") != NULL);
	CHECK(strstr(log, "the same command resumes") != NULL);
	/* said twice (stderr and the log are one pipe here), each with frames of this binary */
	const char *second = strstr(strstr(log, "crashed with") + 1, "crashed with");
	CHECK(second != NULL);
	CHECK(strstr(log, "unit_tests") != NULL);
	status = crashed_child(aborts, 1, log, sizeof log);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	CHECK(strstr(log, "crashed with signal 6 (") != NULL);
}

TEST(crash_report_leaves_a_sanitizer_its_own_handler)
{
	static char log[1 << 16];
	struct sigaction now;
	sigaction(SIGSEGV, NULL, &now);
	if (now.sa_handler == SIG_DFL)
		return; /* a build without a sanitizer: nothing installed to leave */
	crashed_child(segfault, 0, log, sizeof log);
	CHECK(strstr(log, "pt2fuzz fuzz: crashed with signal") == NULL);
}
