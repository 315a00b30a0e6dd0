/* What the worker returned for one request: the oracles' input. The harness,
 * which defines the protocol, fills it (harness/protocol.c); oracles read it
 * and know nothing of processes. Tensor values point into the request's shared memory and stay
 * valid until the next request. */
#ifndef PT2FUZZ_RESULT_H
#define PT2FUZZ_RESULT_H
#include <stdint.h>
#include "../graph/graph.h"

/* RM_NUDGED: eager again on inputs, parameters and buffers whose float
 * elements are each moved by 1 to 4 units in the last place, so the oracle
 * sees how far the problem itself amplifies one rounding (docs/oracle.md). */
enum run_mode { RM_EAGER, RM_COMPILED, RM_FP64, RM_NUDGED, RM_COUNT };

/* What the worker times in a request besides each mode (docs/protocol.md,
 * "The reply"): the whole request, then the compile's stages by torch's
 * own timers, which add up to Dynamo's whole compile. */
enum worker_stage { WS_REQUEST, WS_DYNAMO, WS_AOT_AUTOGRAD, WS_LOWERING, WS_CODEGEN, WS_KERNELS, WS_COUNT };

#define RESULT_MAX_OUT (G_MAX_RETURNS + G_MAX_GRADS) /* what forward() returns and, in backward mode, the gradients */

struct tensor_out {
	uint8_t is_tensor;  /* 0: forward() returned a non-tensor here */
	uint8_t dtype;      /* enum dtype; DT_COUNT for any other dtype */
	uint8_t rank;
	uint8_t has_values; /* 0 when shared memory ran out: shape and dtype only */
	/* 1 + the index of the leaf whose storage it shares (the inputs, then
	 * the module's parameters, then its buffers), 0 for none */
	uint16_t alias;
	int64_t shape[G_MAX_RANK];
	int64_t stride[G_MAX_RANK];
	uint64_t numel;
	const double *f;    /* float dtypes: the values as float64 (NaN/Inf kept); complex: numel pairs, real then imaginary */
	const int64_t *i;   /* int and bool dtypes: the values as int64 */
};

struct mode_result {
	uint8_t ran;        /* requested and reached */
	uint8_t ok;         /* returned without an exception */
	char etype[96];     /* exception type, qualified: "torch._dynamo.exc.BackendCompilerFailed" */
	char ebases[512];   /* its classes from the type on (the MRO), qualified, space separated */
	char emsg[1024];    /* its message (first 1 KiB) */
	char frames[1024];  /* innermost frames, "file:line:function" a line */
	uint32_t usec;      /* wall time of this mode at this binding */
	unsigned nout;
	uint8_t ngrad;      /* the last ngrad outputs are gradients (backward mode), the rest forward()'s */
	struct tensor_out out[RESULT_MAX_OUT];
};

struct run_result {
	unsigned nbind;
	struct mode_result m[RM_COUNT][G_MAX_BIND];
	/* Outcomes the executor saw, not the worker: */
	uint8_t crashed;      /* the worker died during the request */
	int term_signal;      /* the signal that killed it (0: it exited) */
	int exit_code;
	uint8_t hung;         /* killed after the request's timeout */
	uint8_t busy_mode;    /* enum run_mode running when it died or hung */
	uint8_t busy_binding;
	char heap_report[160]; /* a crash: the line where malloc's checks (or compute-sanitizer) reported
				* memory corruption in the worker's log; "" when none did */
	/* From Dynamo's counters in compiled mode: */
	uint32_t compiled_graphs; /* graphs handed to the backend; 0: ran eagerly */
	uint32_t graph_breaks;
	/* From the worker's clock, every part of the request added up; all 0
	 * from a worker that sends no timings: */
	uint64_t stage_usec[WS_COUNT];
};

#endif
