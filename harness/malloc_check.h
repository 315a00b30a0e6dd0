/* Catching heap corruption where it happens. A compiled kernel that writes
 * past a buffer leaves the heap broken; plain glibc notices (if ever) at some
 * later malloc or free, often in the next program. With glibc's checking
 * malloc (libc_malloc_debug, glibc >= 2.34, MALLOC_CHECK_=3) every free
 * checks the chunk's own guard byte, so the worker aborts in the request
 * whose kernel wrote past the end. On CUDA machines compute-sanitizer does
 * the same for device memory. */
#ifndef PT2FUZZ_MALLOC_CHECK_H
#define PT2FUZZ_MALLOC_CHECK_H
#include <stddef.h>

/* The worker's environment for glibc's checking malloc, NULL-terminated.
 * The library goes by its soname, so the dynamic loader finds it in the
 * host's and in a chroot's library path alike (where absent, it warns and
 * the worker runs unchecked: its hello says malloc_check=off). */
extern const char *const malloc_check_env[];

/* The line of log (a worker's stderr) where glibc's malloc, glibc's
 * checking malloc or compute-sanitizer reported memory corruption, into out
 * (at most n - 1 bytes); 1 when found, else 0 and out empty. */
int malloc_check_report(const char *log, char *out, size_t n);

/* compute-sanitizer's command prefix for a worker (memcheck, every child
 * process, its reports on stderr, no caching allocator, a distinct exit
 * code), or NULL when the tool is not on PATH. */
const char *malloc_check_sanitizer(void);

/* The exit code the sanitizer prefix gives a worker it saw misbehave. */
#define MALLOC_CHECK_SANITIZER_EXIT 86

#endif
