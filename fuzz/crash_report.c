/* The runner's own crashes, reported (crash_report.h). */
#include <execinfo.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "crash_report.h"

static const char *crashed_what = "pt2fuzz";
static int crashed_log = -1;

/* Only async-signal-safe calls: write, backtrace_symbols_fd (backtrace
 * itself is primed at install, so that it does not load libgcc here). */
static void say_crash(int fd, int sig)
{
	static const char head[] = ": crashed with signal ",
			  tail[] = " (a fault of pt2fuzz, not of an input: please report it with this stack; "
				   "findings and corpus are on disk, and the same command resumes)\n";
	char num[4] = {(char)('0' + sig / 10 % 10), (char)('0' + sig % 10)};
	void *frames[64];
	if (write(fd, crashed_what, strlen(crashed_what)) < 0 || write(fd, head, sizeof head - 1) < 0 ||
	    write(fd, num + (sig < 10), sig < 10 ? 1 : 2) < 0 || write(fd, tail, sizeof tail - 1) < 0)
		return;
	backtrace_symbols_fd(frames, backtrace(frames, 64), fd);
}

static void on_crash(int sig)
{
	say_crash(2, sig);
	if (crashed_log >= 0)
		say_crash(crashed_log, sig);
	raise(sig); /* SA_RESETHAND: the default action, a core where enabled */
}

void crash_report_install(const char *what, int log_fd)
{
	static char alt[1 << 16]; /* a stack overflow still reports */
	static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
	void *prime[1];
	struct sigaction now;
	/* A handler already there (a sanitizer's) reports better than a stack of addresses. */
	if (sigaction(SIGSEGV, NULL, &now) || now.sa_handler != SIG_DFL)
		return;
	crashed_what = what;
	crashed_log = log_fd;
	backtrace(prime, 1);
	stack_t st = {.ss_sp = alt, .ss_size = sizeof alt};
	sigaltstack(&st, NULL);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (unsigned i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaction(sigs[i], &sa, NULL);
}
