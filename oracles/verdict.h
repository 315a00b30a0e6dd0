/* A verdict: what the oracle concluded about one program (its kind, what
 * differed, where, the numbers and one readable line), and the names the
 * kinds and classes go by in findings, reports and signatures. */
#ifndef PT2FUZZ_VERDICT_H
#define PT2FUZZ_VERDICT_H
#include <stdint.h>

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
	V_ALIAS,         /* an output shares an input's (or parameter's, buffer's) storage in one mode and not in
			  * the other, or another one's */
	V_COUNT
};

/* What differed, for numeric findings (and which class of behaviour). */
enum mismatch {
	MM_NONE, MM_VALUES, MM_NONFINITE, MM_SHAPE, MM_DTYPE, MM_STRIDE, MM_COUNT_OUT, MM_RAISED, MM_CRASHED,
	MM_LATER, /* memory: the crash came in a later program of the same worker (blame confirmation) */
	MM_ALIAS, /* alias: which leaf's storage an output shares */
	MM_COUNT
};

struct verdict {
	enum verdict_kind kind;
	enum mismatch what;
	int binding, output;       /* where (-1 when not about one output) */
	double max_abs, max_rel;   /* eager vs compiled, finite positions */
	double res_rmse, ref_rmse; /* compiled vs fp64, eager vs fp64 */
	double tol;                /* the tolerance the values were judged with (0: none) */
	char detail[300];          /* one readable line */
	uint8_t broken;            /* the graph's broken constraint (graph/broken.h; 0: a valid graph) */
	/* Backward mode: the finding is about gradient `grad` (index among the
	 * gradients; output = forward outputs + grad), not a forward output. */
	uint8_t backward;
	int grad;
	unsigned grads_judged;     /* gradient outputs compared, over all bindings */
	/* A pass: how near its closest float output came to a values finding
	 * (compiled's rmse vs fp64 over the bound same() holds it to; 1 and
	 * above fails where no excuse applies), and which output (-1: none). */
	double nearest;
	int nearest_output;
};

const char *verdict_name(enum verdict_kind k);   /* "numeric" */
const char *mismatch_name(enum mismatch m);      /* "nonfinite" */
int verdict_is_finding(enum verdict_kind k);     /* behaviour, hang, numeric, stride, missing-error,
						    error-mismatch, export, memory, alias */
int verdict_is_compiler_bug(enum verdict_kind k); /* a finding other than export */

#endif
