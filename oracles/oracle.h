/* Verdicts: turning a run_result into pass, invalid or a finding. Policy in
 * docs/oracle.md: torch._dynamo.utils.same with an fp64 reference for floats,
 * exact for ints and bools, NaN/Inf positions judged against fp64, shape,
 * dtype and stride checks, tie-broken index outputs never compared; for
 * near-invalid graphs, eager must raise and compiled raise the same type. */
#ifndef PT2FUZZ_ORACLE_H
#define PT2FUZZ_ORACLE_H
#include <stddef.h>
#include <stdint.h>
#include "../harness/result.h"
#include "signature.h" /* oracle.h is the API of oracles/: signatures come with it */
#include "verdict.h"

/* What a stride finding's detail says when compiled mode returns eager's
 * dense layout with gaps (Inductor's stride padding reaching an output). */
#define ORACLE_PADDED_LAYOUT "dense eager layout padded"

struct oracle_opts {
	double tol[DT_COUNT];   /* same()'s tol per output dtype (floats) */
	uint8_t check_strides;  /* report V_STRIDE (default on) */
	/* report V_ALIAS (default on; off where compiled mode's outputs are
	 * copies by design: --backend aoti) */
	uint8_t check_aliases;
	/* Whether the graph's catalogue says which outputs are views of a leaf
	 * (set per graph: check_graph; 0 for a program text): then output k
	 * (k < 64) is a view of one exactly where bit k of leaf_views is set,
	 * and an output whose eager aliasing differs from that (an op that may
	 * return a view or a copy: reshape, contiguous, channel_shuffle) has
	 * its aliasing left unjudged. */
	uint8_t views_known;
	uint64_t leaf_views;
	/* A known bug pads strides of outputs on this torch (the stride
	 * finding's detail would say ORACLE_PADDED_LAYOUT): judged around, as
	 * draw bugs are (pipeline/check_job.c). */
	uint8_t padded_known;
	/* The tol of the coarsest float dtype the graph computes in, when
	 * larger than the output's own: a value that went through bfloat16
	 * carries bfloat16's error even when it ends as float32. It bounds
	 * eager's own distance from fp64 where a difference counts, and the
	 * difference itself without a usable fp64 output. Set per graph
	 * (check_graph). */
	double coarse_tol;
	/* A near-invalid graph: the constraint its last node breaks (0: none).
	 * Eager must raise, and compiled mode an error of the same type. Set per
	 * graph (check_graph). */
	uint8_t broken;
	/* The forward outputs that are leaves written in place (the last
	 * `written` before any gradient): a finding on one says so. Set per
	 * graph (check_graph). */
	uint8_t written;
	/* A graph tells which float outputs move continuously with its inputs
	 * (those not stepped below): there a difference no larger than eager's
	 * own on nudged inputs (RM_NUDGED) is the problem's ill-conditioning,
	 * not the compiler's. Set per graph (check_nudging); 0 for a program
	 * text and a near-invalid graph. */
	uint8_t nudge_floats;
	/* The graph's ints may be judged against eager on nudged inputs
	 * (RM_NUDGED, compare_exact): no node reads a float's bits as an int
	 * (graph_reads_bits: a dtype view's ints move with every ulp, which
	 * says nothing of rounding). Set per graph (check_graph); 0 for a
	 * program text. */
	uint8_t nudge_ints;
	/* stepped[k]: output k's component holds a step op (graph_has_step):
	 * its floats get no nudged run's excuse, and without an fp64 reference
	 * they are not judged. Set per graph (check_nudging), in
	 * emit_returned_values' order; all 0 for a program text. */
	uint8_t stepped[RESULT_MAX_OUT];
	/* A near-invalid graph's compiled error is judged by its own type even
	 * where it wraps eager's (judge_errors.c; --hunt-known). */
	uint8_t literal_errors;
};

void oracle_default_opts(struct oracle_opts *o);

/* compare[k]: how much of output k is judged. */
enum oracle_compare {
	ORACLE_COMPARE_NONE,   /* nothing (tie-broken indices) */
	ORACLE_COMPARE_ALL,    /* everything */
	ORACLE_COMPARE_LAYOUT, /* its kind, dtype, shape and strides, not its values (other draws: pipeline/draws.h) */
};

/* Judges r, output k as compare[k] says; compare == NULL compares all. */
void oracle_judge(const struct run_result *r, const uint8_t *compare, unsigned ncompare,
		  const struct oracle_opts *o, struct verdict *v);

/* Every finding of r, each output judged on its own: where r's verdict
 * (oracle_judge's, out[0] when it is not about one output) is about an
 * output, each output's first finding over the bindings, a value finding
 * before a stride one, in output order; so one output's known bug hides
 * no other output's. Their count (0 for a pass), at most cap. */
unsigned oracle_judge_each(const struct run_result *r, const uint8_t *compare, unsigned ncompare,
			   const struct oracle_opts *o, struct verdict *out, unsigned cap);

/* The verdict of a program found, by replay in a fresh worker, to make the
 * program run after it fail (later_v: that failure's verdict): memory/later,
 * v->binding -1. Its signature is taken over the later program's record
 * (its signal) and this program's ops. */
void oracle_judge_later_crash(const struct verdict *later_v, struct verdict *v);

/* The type the worker gives torch.export's failures (harness/worker.py, ExportFailed). */
#define ORACLE_EXPORT_FAILED "pt2fuzz.ExportFailed"

#endif
