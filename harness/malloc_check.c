#include "malloc_check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const malloc_check_env[] = {"LD_PRELOAD=libc_malloc_debug.so.0", "MALLOC_CHECK_=3", NULL};

/* What glibc (malloc/malloc.c: malloc_printerr callers, and the checking
 * malloc's "memory corruption") and compute-sanitizer print. */
static const char *const reports[] = {
	"free(): invalid",         "double free or corruption", "malloc(): corrupted",  "malloc(): invalid",
	"malloc(): unaligned",     "malloc(): mismatching",     "malloc(): smallbin",   "malloc(): largebin",
	"malloc(): unsorted",      "realloc(): invalid",        "corrupted size vs. prev_size",
	"corrupted double-linked list", "malloc_check_get_size: memory corruption",    "munmap_chunk(): invalid pointer",
	"free(): corrupted",       "free(): double free",       "free(): unaligned",    "invalid fastbin entry",
	"malloc_consolidate(): ",  "unaligned tcache chunk",    "unaligned fastbin chunk", "========= Invalid",
	"========= Out-of-range",  "========= Program hit",
};

int malloc_check_report(const char *log, char *out, size_t n)
{
	const char *first = NULL;
	for (size_t i = 0; i < sizeof reports / sizeof *reports; i++) {
		const char *p = strstr(log, reports[i]);
		if (p && (!first || p < first))
			first = p;
	}
	if (n)
		out[0] = 0;
	if (!first)
		return 0;
	while (first > log && first[-1] != '\n') /* the whole line */
		first--;
	snprintf(out, n, "%.*s", (int)strcspn(first, "\n"), first);
	char *python = strstr(out, "Fatal Python error"); /* faulthandler's, on the same line: glibc ends without one */
	if (python)
		*python = 0;
	return 1;
}

const char *malloc_check_sanitizer(void)
{
	static char cmd[4096 + 256]; /* the tool's path (at most a PATH entry and its name) and the options */
	const char *path = getenv("PATH");
	for (const char *p = path ? path : ""; *p; p += strcspn(p, ":"), p += *p == ':') {
		char exe[4096];
		snprintf(exe, sizeof exe, "%.*s/compute-sanitizer", (int)strcspn(p, ":"), p);
		if (!access(exe, X_OK)) {
			/* its own lines go to stderr, the worker's log: on stdout they would break the
			 * protocol's first frame. Without PyTorch's caching allocator each tensor is an
			 * allocation of its own, so a write past one is out of bounds for memcheck too. */
			snprintf(cmd, sizeof cmd,
				 "env PYTORCH_NO_CUDA_MEMORY_CACHING=1 %s --tool memcheck --target-processes all "
				 "--log-file /dev/stderr --error-exitcode %d",
				 exe, MALLOC_CHECK_SANITIZER_EXIT);
			return cmd;
		}
	}
	return NULL;
}
