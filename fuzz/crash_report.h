#ifndef PT2FUZZ_CRASH_REPORT_H
#define PT2FUZZ_CRASH_REPORT_H
/* A runner that crashes (a fault of ours, not of an input: the targets run
 * those) says so, with its stack, on stderr and in its log before it dies:
 * what it found is already on disk, and the same command resumes. */
void crash_report_install(const char *what, int log_fd);
#endif
