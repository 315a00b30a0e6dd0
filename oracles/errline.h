/* Private to oracles/: the line of an exception message that carries the
 * error (shared by verdict details and signatures). */
#ifndef PT2FUZZ_ERRLINE_H
#define PT2FUZZ_ERRLINE_H
#include <ctype.h>
#include <stddef.h>

/* The first non-empty line, unless it is a wrapper heading ending in ':'
 * (BackendCompilerFailed's "backend='inductor' raised:"): then the first
 * later "SomeError: ..." line, else the next non-empty line. */
void oracle_error_line(const char *msg, const char **line, size_t *len);

/* A character of a Python identifier (error types, quoted names). */
static inline int is_ident_char(int ch) { return isalnum(ch) || ch == '_'; }

#endif
