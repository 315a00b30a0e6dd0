/* The executor: owns one worker process (harness/worker.py in the torch
 * runtime), sends it programs, and returns what happened — including the
 * worker dying or hanging, after which it is restarted on the next request.
 * Protocol and shared memory: harness/protocol.h, docs/protocol.md. */
#ifndef PT2FUZZ_EXECUTOR_H
#define PT2FUZZ_EXECUTOR_H
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>
#include "profile.h"
#include "protocol.h"
#include "result.h"

struct executor_opts {
	const char *python;       /* command starting python3 (runtime_python) */
	const char *device;       /* "cpu", "cuda", "cuda:1" */
	unsigned timeout_ms;      /* per request: kill and restart past it */
	unsigned start_timeout_ms;/* for importing torch and the handshake */
	unsigned compile_threads; /* TORCHINDUCTOR_COMPILE_THREADS; 0 = torch's default */
	int fx_graph_cache;       /* 0 (default): every program really compiles */
	const char *plugin;       /* Python source run once at start (e.g. test backends); NULL: none */
	size_t plugin_len;
	size_t shm_size;          /* bytes of shared memory for values */
	int coverage;             /* trace torch's compiler into the coverage map */
	int aoti_runner;          /* build the AOTInductor runner at start (--backend aoti) */
	int malloc_check;         /* glibc's checking malloc in the worker (harness/malloc_check.h; default on) */
};

struct exec_request {
	const char *program;      /* an emitted program (graph/emit.c) */
	size_t len;
	unsigned modes;           /* bit RM_*: which modes to run */
	const char *backend;      /* torch.compile backend */
	const char *compile_mode; /* torch.compile mode, NULL for the default */
	const char *dynamic;      /* "marks" (default), "true", "false" */
	const char *const *inductor; /* "name=value" Inductor settings for this request */
	unsigned ninductor;
	int backward;             /* also run backward: the gradients of the program's GRADS follow its outputs */
	unsigned nbind;           /* the program's bindings: the pairs a poisoned CUDA context left unrun go
				   * on in fresh workers (0: unknown, they stay unrun) */
	unsigned time_factor;     /* the reply may take timeout_ms times this (0: 1): a configuration whose
				   * compiles are slow (graph_config_time_factor) */
	int64_t cut_ms;           /* the caller's deadline (protocol_now_ms's clock; 0: none): a reply not
				   * come by then is not waited for, the worker stopped and the request
				   * failed, for a request cut short says nothing of a hang */
};

/* A TORCH_TRACE log of one request: what tlparse reads. */
struct exec_trace {
	char *text;               /* the trace's .log files, concatenated (malloc'd, NUL-terminated; NULL: none came) */
	size_t len;
	char note[256];           /* why it is empty or cut ("" when whole): from the worker, or the crash or hang */
};

#define EXEC_LOG_RING (256u << 10)

struct executor {
	struct executor_opts o;
	pid_t pid;                /* 0 when no worker runs */
	int to_fd, from_fd, err_fd, shm_fd;
	uint8_t *shm;
	uint64_t next_id;
	unsigned starts, crashes, hangs; /* starts: workers started */
	unsigned continuations;   /* requests gone on in a fresh worker after a poisoned CUDA context */
	struct profile prof;      /* where this executor's time went: worker starts, every request's
				   * parts (callers add rows of their own: PR_JUDGE) */
	char info[PROTO_HELLO_MAX]; /* the worker's hello: torch=..., cuda=..., gpu=... */
	char ring[EXEC_LOG_RING]; /* the worker's stderr, last bytes */
	uint64_t ring_total, ring_mark; /* bytes seen; ring_total at the request's start */
	struct exec_trace *trace; /* non-NULL: every request runs with TORCH_TRACE and its log lands here
				   * (set it around check_graph and the like; executor_run_traced does one request) */
};

void executor_default_opts(struct executor_opts *o);

/* Prepares x (shared memory); the worker starts on the first request or
 * executor_start. 0, or -1 with a reason. */
int executor_init(struct executor *x, const struct executor_opts *o, char *why, size_t n);

/* Starts the worker now (import torch, handshake). */
int executor_start(struct executor *x, char *why, size_t n);

/* Stops the worker (kills its process group) and returns its wait status. */
int executor_stop(struct executor *x);

/* How long the worker has for rq's reply: o's timeout_ms times rq's time_factor. */
int64_t executor_request_limit_ms(const struct executor_opts *o, const struct exec_request *rq);

/* Runs one request. 0 when r holds an outcome — a normal reply, or the
 * worker crashing or hanging (r->crashed / r->hung; it restarts on the next
 * request); -1 with a reason when no worker could be started, it broke the
 * protocol, or rq's deadline (cut_ms) came first. */
int executor_run(struct executor *x, const struct exec_request *rq, struct run_result *r, char *why, size_t n);

/* executor_run with TORCH_TRACE structured logging on for this request: the
 * outcome in r and the trace in t (free t->text). 0, or -1 as executor_run. */
int executor_run_traced(struct executor *x, const struct exec_request *rq, struct run_result *r,
			struct exec_trace *t, char *why, size_t n);

/* The coverage map of the last request (SHM_COVERAGE bytes; what follows
 * the compiler and kernel slots is left zero for the caller's graph features). */
uint8_t *executor_coverage(struct executor *x);

/* Appends to f the compiler lines ("path:line") the worker ran since the
 * last dump: the exact measure, independent of the hashed map. 0, or -1. */
int executor_dump_lines(struct executor *x, FILE *f, char *why, size_t n);

/* What `python -m torch.utils.collect_env` prints, from the worker's own
 * torch (started if need be): *text malloc'd and NUL-terminated. 0, or -1. */
int executor_collect_env(struct executor *x, char **text, size_t *len, char *why, size_t n);

/* Stops the worker and frees everything. */
void executor_free(struct executor *x);

/* The worker's stderr since the last request began: its last n - 1 bytes
 * (at most the ring), NUL-terminated. */
size_t executor_log(const struct executor *x, char *out, size_t n);

/* A value from the worker's hello ("torch", "cuda", "gpu", ...), or "". */
const char *executor_info(const struct executor *x, const char *key, char *out, size_t n);

#endif
