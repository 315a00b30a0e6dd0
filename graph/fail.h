/* The project's error convention: a function that can fail takes (why, n),
 * formats the reason there and returns -1, so callers write
 * `return fail(why, n, "...", ...)`. The lowest floor: it needs nothing. */
#ifndef PT2FUZZ_FAIL_H
#define PT2FUZZ_FAIL_H
#include <stddef.h>

/* Formats a reason into why (may be NULL); returns -1 for `return fail(...)`. */
int fail(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
