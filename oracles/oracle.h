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

enum verdict_kind {
	V_PASS,
	V_INVALID,       /* eager raised (and compiled raised too), or did not raise where the graph
			  * breaks a constraint on purpose: a generator defect */
	V_BEHAVIOUR,     /* eager ran; compiled raised, or the worker crashed in compiled mode */
	V_HANG,          /* the request timed out in compiled mode */
	V_NUMERIC,       /* outputs differ beyond tolerance, or in shape/dtype/non-finite pattern */
	V_STRIDE,        /* values agree, strides of a dim of size > 1 differ */
	V_MISSING_ERROR, /* eager raised, compiled succeeded */
	V_NOT_COMPILED,  /* compiled mode produced no graph: it compared eager with eager */
	V_ERROR_MISMATCH, /* a near-invalid graph: both raised, compiled an error not of eager's type */
	V_EXPORT,        /* --backend aoti: torch.export raised where eager ran; a finding, not a compiler bug */
	V_MEMORY,        /* compiled mode corrupted memory: the worker crashed in compiled mode with malloc's (or
			  * compute-sanitizer's) report, or a later program crashed in its worker and not without it */
	V_COUNT
};

/* What differed, for numeric findings (and which class of behaviour). */
enum mismatch {
	MM_NONE, MM_VALUES, MM_NONFINITE, MM_SHAPE, MM_DTYPE, MM_STRIDE, MM_COUNT_OUT, MM_RAISED, MM_CRASHED,
	MM_LATER, /* memory: the crash came in a later program of the same worker (blame confirmation) */
	MM_COUNT
};

struct verdict {
	enum verdict_kind kind;
	enum mismatch what;
	int binding, output;       /* where (-1 when not about one output) */
	double max_abs, max_rel;   /* eager vs compiled, finite positions */
	double res_rmse, ref_rmse; /* compiled vs fp64, eager vs fp64 */
	char detail[300];          /* one readable line */
	uint8_t broken;            /* the graph's broken constraint (graph/broken.h; 0: a valid graph) */
	/* Backward mode: the finding is about gradient `grad` (index among the
	 * gradients; output = forward outputs + grad), not a forward output. */
	uint8_t backward;
	int grad;
	unsigned grads_judged;     /* gradient outputs compared, over all bindings */
};

struct oracle_opts {
	double tol[DT_COUNT];   /* same()'s tol per output dtype (floats) */
	uint8_t check_strides;  /* report V_STRIDE (default on) */
	/* Without a usable fp64 output (the graph casts explicitly), the tol of
	 * the coarsest float dtype the graph computes in, when larger than the
	 * output's own: a value that went through bfloat16 carries bfloat16's
	 * error even when it ends as float32. Set per graph (check_graph). */
	double noref_tol;
	/* A near-invalid graph: the constraint its last node breaks (0: none).
	 * Eager must raise, and compiled mode an error of the same type. Set per
	 * graph (check_graph). */
	uint8_t broken;
};

void oracle_default_opts(struct oracle_opts *o);

/* Judges r. compare[k] == 0 leaves output k out of every value comparison
 * (tie-broken indices); compare == NULL compares all. */
void oracle_judge(const struct run_result *r, const uint8_t *compare, unsigned ncompare,
		  const struct oracle_opts *o, struct verdict *v);

const char *verdict_name(enum verdict_kind k);   /* "numeric" */
const char *mismatch_name(enum mismatch m);      /* "nonfinite" */
int verdict_is_finding(enum verdict_kind k);     /* behaviour, hang, numeric, stride, missing-error,
						    error-mismatch, export, memory */
int verdict_is_compiler_bug(enum verdict_kind k); /* a finding other than export */

/* The verdict of a program found, by replay in a fresh worker, to make the
 * program run after it fail (later_v: that failure's verdict): memory/later,
 * v->binding -1. Its signature is taken over the later program's record
 * (its signal) and this program's ops. */
void oracle_judge_later_crash(const struct verdict *later_v, struct verdict *v);

/* The type the worker gives torch.export's failures (harness/worker.py, ExportFailed). */
#define ORACLE_EXPORT_FAILED "pt2fuzz.ExportFailed"

/* A finding's identity for dedup: xxHash64 of the kind, the class of
 * mismatch, the broken constraint (v->broken), the normalized exception
 * (type + message with numbers, addresses, paths and quoted names stripped)
 * of the mode that raised (for error-mismatch: eager's type, then compiled's
 * exception), and the sorted set of op names. */
uint64_t oracle_signature(const struct verdict *v, const struct run_result *r, const char *const *ops, unsigned nops);

/* The normalized form of an error message, as hashed (for tests and meta.json). */
void oracle_normalize_message(const char *msg, char *out, size_t n);

#endif
