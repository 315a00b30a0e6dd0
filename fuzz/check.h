/* Running one graph (or an emitted program) through a worker and judging it:
 * the step that `run`, the libFuzzer target, the reducer and triage share. */
#ifndef PT2FUZZ_CHECK_H
#define PT2FUZZ_CHECK_H
#include "../graph/graph.h"
#include "../harness/executor.h"
#include "../oracles/oracle.h"

#define CHECK_MAX_INDUCTOR 8

struct check_cfg {
	const char *backend;      /* "inductor" */
	const char *compile_mode; /* NULL, "max-autotune", ... */
	const char *dynamic;      /* "marks" */
	unsigned modes;           /* bits of enum run_mode */
	const char *inductor[CHECK_MAX_INDUCTOR]; /* "name=value" settings */
	unsigned ninductor;
	int backward;             /* backward mode: gradients of the grad leaves are compared too */
	struct oracle_opts oracle;
};

void check_default_cfg(struct check_cfg *c);

/* Validates backend/mode/dynamic names (they reach the program as text). */
int check_cfg_validate(const struct check_cfg *c, char *why, size_t n);

struct check_result {
	struct run_result run;
	struct verdict v;
	uint64_t signature;       /* for findings; 0 otherwise */
	char *program;            /* the emitted program that ran (malloc'd) */
	size_t program_len;
};

/* Emits g, runs it, judges it. In backward mode a graph without grad marks
 * has every float leaf marked (up to G_MAX_GRADS). 0, or -1 with a reason
 * (no worker). */
int check_graph(struct executor *x, const struct graph *g, const struct check_cfg *c, struct check_result *out,
		char *why, size_t n);

/* The same for a program text (a .py file in the emitted format): every
 * output is compared, the op set is empty, and its EXPECT_ERROR line says
 * whether it is near-invalid. Takes ownership of prog (NUL-terminated). */
int check_program(struct executor *x, char *prog, size_t len, const struct check_cfg *c, struct check_result *out,
		  char *why, size_t n);

void check_result_free(struct check_result *r);

/* The sorted, de-duplicated op names of g (pointers into the catalogue). */
unsigned check_op_names(const struct graph *g, const char **names, unsigned cap);

#endif
