/* Running one graph (or an emitted program) through a worker and judging it:
 * the step that `run`, the libFuzzer target, the reducer and triage share.
 * A verdict that may be an earlier program's fault (a crash, eager failing on
 * a valid graph) is confirmed by replays in fresh workers (blame.h) before
 * it is returned. */
#ifndef PT2FUZZ_CHECK_H
#define PT2FUZZ_CHECK_H
#include "check_job.h"
#include "../graph/emit.h"

void check_default_cfg(struct check_cfg *c);

/* Validates backend/mode/dynamic names (they reach the program as text). */
int check_cfg_validate(const struct check_cfg *c, char *why, size_t n);

/* What nudged inputs can judge of g emitted as eo says (NULL: forward only):
 * the floats of outputs whose component nothing jumps in, its ints where no
 * op reads a float's bits; set in c's oracle options, the nudged mode
 * dropped from c->modes where they judge nothing. */
void check_nudging(struct check_cfg *c, const struct graph *g, const struct emit_opts *eo);

/* g as it runs in backward mode (backward set): itself, or where it marks
 * no leaf, a copy with every float leaf marked that can be (up to
 * G_MAX_GRADS); g itself otherwise. The copy is the caller thread's, valid
 * until its next call. Every program of a backward run is emitted from it. */
const struct graph *check_with_grads(const struct graph *g, int backward);

/* The program g runs as under c (its configuration where c pins nothing,
 * with marked leaves in backward mode): what check_graph runs, and what a
 * reduction's repro.py and `pt2fuzz emit` write. Malloc'd, its length in
 * *len; NULL where a name of c cannot reach a program. */
char *check_program_text(const struct graph *g, const struct check_cfg *c, size_t *len);

/* Emits g, runs it, judges it. In backward mode a graph without grad marks
 * has every float leaf marked (check_with_grads). 0, or -1 with a reason
 * (no worker). out->blame says whether the verdict was confirmed and, when
 * an earlier program was the cause, holds that program's result. */
int check_graph(struct executor *x, const struct graph *g, const struct check_cfg *c, struct check_result *out,
		char *why, size_t n);

/* A result for g whose run never ended (a target killed by the campaign's
 * watchdog): the program that ran, a hang verdict with detail, its
 * signature over g's ops. 0, or -1 with a reason. */
int check_hung(const struct graph *g, const struct check_cfg *c, const char *detail, struct check_result *out,
	       char *why, size_t n);

/* The same for a program text (a .py file in the emitted format): every
 * output is compared, the op set is empty, and its EXPECT_ERROR line says
 * whether it is near-invalid. Takes ownership of prog (NUL-terminated). */
int check_program(struct executor *x, char *prog, size_t len, const struct check_cfg *c, struct check_result *out,
		  char *why, size_t n);

#endif
