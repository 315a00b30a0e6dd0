/* A finding's plain repro (graph/emit_plain.h): the plain program of its
 * graph under the configuration it was found with, a run of it alone, and
 * whether that run shows the finding. `report` writes and judges it
 * (FINDING/plain.py), `repro --plain` runs it, `emit --plain FINDING`
 * prints it. See docs/triage.md, "Plain repros". */
#ifndef PT2FUZZ_PLAIN_H
#define PT2FUZZ_PLAIN_H
#include "../pipeline/check.h"
#include "../pipeline/json_file.h"

/* The plain program of g, a graph of the finding whose meta.json is meta
 * (its signature and verdict go into the first comment line), under c's
 * backend, mode and dynamic setting, at binding, on "cuda" when cuda (else
 * the CPU). Malloc'd; NULL with a reason (backward mode, the aoti backend). */
char *plain_program(const struct graph *g, const json_t *meta, const struct check_cfg *c, unsigned binding, int cuda,
		    size_t *len, char *why, size_t n);

/* The binding to show a finding at in g: meta.json's when g has it, else 0
 * (a reduced graph may have fewer). */
unsigned plain_binding(const json_t *meta, const struct graph *g);

/* Which graph of a finding folder: reduced/graph.bin when there is one, or
 * that one, or graph.bin. */
enum plain_graph { PLAIN_AUTO, PLAIN_REDUCED, PLAIN_ORIGINAL };

/* What the caller sets instead of meta.json's: NULL or -1 keeps it. */
struct plain_request {
	enum plain_graph graph;
	const char *backend, *mode, *dynamic;
	int binding;
	int cuda;
};

/* The plain program of a finding folder's graph, made now from its
 * meta.json (device, backend, mode, dynamic setting, binding) and rq.
 * Malloc'd; NULL with a reason. */
char *plain_of_finding(const char *dir, const struct plain_request *rq, size_t *len, char *why, size_t n);

/* What a run of a plain program showed. */
struct plain_run {
	int status;          /* run_program's: the exit status, 124 past the timeout */
	char last[300];      /* stdout's last line */
	char raised[300];    /* the exception line of stderr's last traceback ("" when none) */
	int in_compiled;     /* that traceback starts at the program's compiled run */
};

/* What a run printed (stdout out, stderr err, NUL-terminated), as r. */
void plain_read(const char *prog, int status, const char *out, const char *err, struct plain_run *r);

/* Runs the program alone (no plugin: plain torch.compile) in the configured
 * Python. 0, or -1 with a reason when it could not run. */
int plain_run(const char *prog, size_t len, long long secs, struct plain_run *r, char *why, size_t n);

/* Whether r shows the finding meta.json describes: a MISMATCH last line for
 * numeric, missing-error and error-mismatch findings; the compiled run
 * raising the finding's exception type for a behaviour one; a signal for a
 * crash; the timeout for a hang. When not, why not, in words, into why_not. */
int plain_shows(const struct plain_run *r, const json_t *meta, char *why_not, size_t n);

#endif
