/* The cli's Python scripts (cli/plot.py, cli/opdb.py, linked in by cli/python_blob.S), run
 * by the worker's Python: the script and its input go in on stdin (a file:
 * nothing waits on a pipe), and what it prints comes back. */
#ifndef PT2FUZZ_PYTHON_SCRIPT_H
#define PT2FUZZ_PYTHON_SCRIPT_H
#include <stddef.h>

extern const char pt2fuzz_plot_py[], pt2fuzz_plot_py_end[];
extern const char pt2fuzz_opdb_py[], pt2fuzz_opdb_py_end[];

struct script_result {
	char *out;     /* its stdout (malloc'd, NUL-terminated), up to the caller's cap */
	size_t len;
	int exit_code; /* its exit status, or -1 when a signal ended it */
};

/* Runs script [start, end) on input. 0 with *r filled, or -1 with a reason
 * when it could not start or be read (its own errors are on stderr). */
int python_script_run(const char *start, const char *end, const char *input, size_t input_len, size_t cap,
		      struct script_result *r, char *why, size_t n);

#endif
