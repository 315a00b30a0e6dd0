#include "executor.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../graph/fail.h"
#include "malloc_check.h"
#include "protocol.h"
#include "runtime.h"
#include "scratch.h"
#include "spawn.h"

/* How long a stop waits for a killed worker's group to exit: a process in the
 * middle of a disk write or a GPU call ends when that returns. */
#define EXECUTOR_END_WAIT_MS 10000

/* harness/worker.py, linked in by harness/worker_blob.S. */
extern const char pt2fuzz_worker_py[], pt2fuzz_worker_py_end[];

void executor_default_opts(struct executor_opts *o)
{
	memset(o, 0, sizeof *o);
	o->device = "cpu";
	o->timeout_ms = 120000;
	o->start_timeout_ms = 300000;
	o->shm_size = 256u << 20;
	o->malloc_check = 1;
}

static void ring_add(void *ctx, const char *bytes, size_t len)
{
	struct executor *x = ctx;
	for (size_t i = 0; i < len; i++)
		x->ring[(x->ring_total + i) % EXEC_LOG_RING] = bytes[i];
	x->ring_total += len;
}

size_t executor_log(const struct executor *x, char *out, size_t n)
{
	uint64_t from = x->ring_mark, keep = n ? n - 1 : 0;
	if (keep > EXEC_LOG_RING)
		keep = EXEC_LOG_RING;
	if (x->ring_total - from > keep) /* the end says most: the error, the crash */
		from = x->ring_total - keep;
	size_t k = 0;
	for (uint64_t i = from; i < x->ring_total && k + 1 < n; i++)
		out[k++] = x->ring[i % EXEC_LOG_RING];
	if (n)
		out[k] = 0;
	return k;
}

const char *executor_info(const struct executor *x, const char *key, char *out, size_t n)
{
	size_t kl = strlen(key);
	out[0] = 0;
	for (const char *p = x->info; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			size_t l = strcspn(p + kl + 1, "\n");
			snprintf(out, n, "%.*s", (int)l, p + kl + 1);
			break;
		}
	return out;
}

int executor_init(struct executor *x, const struct executor_opts *o, char *why, size_t n)
{
	memset(x, 0, sizeof *x);
	x->o = *o;
	signal(SIGPIPE, SIG_IGN); /* a dead worker is an error return, not our death */
	x->to_fd = x->from_fd = x->err_fd = -1;
	if (!o->python || !*o->python)
		return fail(why, n, "no python command for the worker");
	x->shm_fd = memfd_create("pt2fuzz-shm", 0);
	if (x->shm_fd < 0 || ftruncate(x->shm_fd, (off_t)o->shm_size))
		return fail(why, n, "shared memory: %s", strerror(errno));
	x->shm = mmap(NULL, o->shm_size, PROT_READ | PROT_WRITE, MAP_SHARED, x->shm_fd, 0);
	if (x->shm == MAP_FAILED) {
		x->shm = NULL;
		return fail(why, n, "mmap: %s", strerror(errno));
	}
	fcntl(x->shm_fd, F_SETFD, FD_CLOEXEC);
	return 0;
}

/* Kills the worker's whole process group (python, a chroot wrapper, Inductor's
 * compile subprocesses) and reaps it; returns its wait status. */
static int stop_worker(struct executor *x)
{
	int status = 0;
	if (x->pid > 0) {
		kill(-x->pid, SIGKILL);
		kill(x->pid, SIGKILL);
		while (waitpid(x->pid, &status, 0) < 0 && errno == EINTR)
			;
		/* its compile subprocesses may still be writing into its folder */
		spawn_group_ended(x->pid, EXECUTOR_END_WAIT_MS);
		char scratch[PROTO_HELLO_MAX];
		scratch_remove(executor_info(x, "scratch", scratch, sizeof scratch));
	}
	int *fds[] = {&x->to_fd, &x->from_fd, &x->err_fd};
	for (unsigned i = 0; i < 3; i++)
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
	x->pid = 0;
	return status;
}

int executor_stop(struct executor *x) { return stop_worker(x); }

/* "cuda:auto" picks one of the visible GPUs by our pid: workers started by
 * many processes spread over the node's GPUs. */
static const char *worker_device(const char *spec, char *out, size_t n)
{
	if (strcmp(spec, "cuda:auto"))
		return spec;
	unsigned gpus = runtime_gpu_count();
	snprintf(out, n, "cuda:%u", gpus ? (unsigned)getpid() % gpus : 0);
	return out;
}

void executor_free(struct executor *x)
{
	stop_worker(x);
	if (x->shm)
		munmap(x->shm, x->o.shm_size);
	if (x->shm_fd >= 0)
		close(x->shm_fd);
	x->shm = NULL;
	x->shm_fd = -1;
}

/* Spawns the worker and sends the configuration without waiting. */
static int launch_worker(struct executor *x, char *why, size_t n)
{
	int in[2], out[2], err[2];
	if (x->pid)
		return 0;
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		return fail(why, n, "pipe: %s", strerror(errno));
	x->pid = runtime_spawn(x->o.python, in[0], out[1], err[1], x->shm_fd, x->o.malloc_check ? malloc_check_env : NULL,
			       why, n);
	close(in[0]);
	close(out[1]);
	close(err[1]);
	x->to_fd = in[1];
	x->from_fd = out[0];
	x->err_fd = err[0];
	if (x->pid < 0) {
		x->pid = 0;
		stop_worker(x);
		return -1;
	}
	x->starts++;
	x->ring_mark = x->ring_total;
	char cfg[PROTO_CONSTANTS_MAX + 1024], dev[32];
	int cl = protocol_constants(cfg, sizeof cfg);
	if (cl < 0) {
		stop_worker(x);
		return fail(why, n, "the protocol's constants do not fit the start-up configuration");
	}
	cl += snprintf(cfg + cl, sizeof cfg - (size_t)cl,
		       "shm_fd=%d\nshm_size=%zu\nmap_bytes=%u\ncompiler_slots=%u\nkernel_slots=%u\ndecision_slots=%u\ndevice=%s\ncompile_threads=%u\n"
		       "fx_graph_cache=%d\ncoverage=%d\naoti_runner=%d\nscratch_root=%s\nscratch_prefix=" SCRATCH_PREFIX
		       "\nscratch_lock=" SCRATCH_LOCK "\nplugin_len=%zu\n",
		       x->shm_fd, x->o.shm_size, SHM_COVERAGE, SHM_COMPILER_SLOTS, SHM_KERNEL_SLOTS, SHM_DECISION_SLOTS,
		       worker_device(x->o.device, dev, sizeof dev), x->o.compile_threads, x->o.fx_graph_cache,
		       x->o.coverage, x->o.aoti_runner, scratch_root(), x->o.plugin ? x->o.plugin_len : 0);
	size_t wlen = (size_t)(pt2fuzz_worker_py_end - pt2fuzz_worker_py);
	/* A worker that could not take this has died: await_worker says so, with what it printed. */
	if (!runtime_write_frame(x->to_fd, pt2fuzz_worker_py, wlen) && !protocol_write_message(x->to_fd, cfg, (size_t)cl) &&
	    x->o.plugin)
		runtime_write_all(x->to_fd, x->o.plugin, x->o.plugin_len);
	return 0;
}

/* A worker that failed its start-up is on its way out: its own status (the
 * signal that killed it, its exit code) says more than our SIGKILL's. Waits
 * up to 2 s for it; 1 with *status when it exited, its group then killed. */
static int reap_exiting(struct executor *x, int *status)
{
	if (x->pid <= 0)
		return 0;
	for (int i = 0; i < 40; i++) {
		pid_t p = waitpid(x->pid, status, WNOHANG);
		if (p == x->pid) {
			kill(-x->pid, SIGKILL); /* compile subprocesses left in its group */
			x->pid = 0;
			return 1;
		}
		if (p < 0 && errno != EINTR)
			return 0;
		usleep(50000);
	}
	return 0;
}

/* Stops a worker that did not start (read_len: what reading its hello
 * returned, -2 on timeout) and says why: how it ended, its own last word
 * (what it was doing: a check that crashed it), and the end of its log; the
 * whole log (a crash's native and Python stacks) goes to a file. Returns -1. */
static int start_failure(struct executor *x, long read_len, char *why, size_t n)
{
	long pid = (long)x->pid;
	int status = 0, reaped = read_len != -2 && reap_exiting(x, &status);
	int killed = stop_worker(x); /* and its pipes, reaped or not */
	if (!reaped)
		status = killed;
	char how[64] = "";
	if (WIFSIGNALED(status))
		snprintf(how, sizeof how, ", killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(how, sizeof how, ", exit %d", WEXITSTATUS(status));
	static char log[EXEC_LOG_RING + 1];
	size_t loglen = executor_log(x, log, sizeof log);
	const char *tmp = getenv("TMPDIR");
	char path[512];
	snprintf(path, sizeof path, "%s/pt2fuzz-worker-start-%ld.log", tmp && *tmp ? tmp : "/tmp", pid);
	FILE *f = loglen ? fopen(path, "w") : NULL;
	int saved = f && fwrite(log, 1, loglen, f) == loglen;
	if (f && fclose(f))
		saved = 0;
	const char *said = NULL;
	for (const char *p = strstr(log, "pt2fuzz worker: "); p; p = strstr(p + 1, "pt2fuzz worker: "))
		said = p;
	int said_len = said ? (int)strcspn(said, "\n") : 0;
	char *modules = strstr(log, "\nExtension modules: "); /* faulthandler's list after a crash */
	if (modules)
		*modules = 0;
	const char *tail = strlen(log) > 400 ? log + strlen(log) - 400 : log;
	return fail(why, n, "the worker (%s) did not start%s%s%s%.*s%s%s: %s", x->o.python, read_len == -2 ? " in time" : "",
		    how, said ? "; its last word: " : "", said_len, said ? said : "", saved ? "; whole log: " : "",
		    saved ? path : "", tail[0] ? tail : "no output");
}

/* Reads the worker's hello (deadline: protocol_now_ms() based). */
static int await_worker(struct executor *x, int64_t deadline_ms, char *why, size_t n)
{
	uint8_t *hello = NULL;
	long len = protocol_read_message(x->from_fd, &hello, deadline_ms, x->err_fd, ring_add, x);
	if (len < 0 || !hello) {
		free(hello);
		return start_failure(x, len, why, n);
	}
	/* A worker that does not speak our protocol says what differs and exits. */
	if (!strncmp((const char *)hello, "refused=", 8)) {
		char said[512];
		snprintf(said, sizeof said, "%.*s", (int)strcspn((const char *)hello + 8, "\n"), (const char *)hello + 8);
		free(hello);
		stop_worker(x);
		return fail(why, n, "the worker (%s) refused the executor's protocol: %s", x->o.python, said);
	}
	snprintf(x->info, sizeof x->info, "%s", (const char *)hello);
	free(hello);
	return 0;
}

int executor_start(struct executor *x, char *why, size_t n)
{
	if (x->pid)
		return 0;
	uint64_t t0 = profile_clock_usec();
	scratch_sweep(scratch_root(), 0); /* folders of workers whose executor was killed with them */
	int rc = launch_worker(x, why, n) ? -1 : await_worker(x, protocol_now_ms() + x->o.start_timeout_ms, why, n);
	x->prof.usec[PR_START] += profile_clock_usec() - t0;
	return rc;
}

/* Which (binding, mode) pairs of a request are left: bit RM_COUNT * b + m. */
struct pairs_left {
	unsigned mask;    /* 0: a first request, every pair */
	size_t data_at;   /* where their values go: after the values already there */
};

/* Request text: key=value header, a blank line, the program. */
static char *request_text(uint64_t id, const struct exec_request *rq, int traced, const struct pairs_left *pl,
			  size_t *len)
{
	char *buf = NULL;
	size_t sz = 0;
	FILE *f = open_memstream(&buf, &sz);
	if (!f)
		return NULL;
	fprintf(f, "id=%llu\nmodes=%u\nbackend=%s\nmode=%s\ndynamic=%s\n", (unsigned long long)id, rq->modes,
		rq->backend ? rq->backend : "inductor", rq->compile_mode ? rq->compile_mode : "",
		rq->dynamic ? rq->dynamic : "marks");
	for (unsigned i = 0; i < rq->ninductor; i++)
		fprintf(f, "inductor=%s\n", rq->inductor[i]);
	if (traced)
		fputs("trace=1\n", f);
	if (rq->backward)
		fputs("backward=1\n", f);
	if (pl->mask)
		fprintf(f, "pairs=%u\ndata_at=%zu\n", pl->mask, pl->data_at);
	fputc('\n', f);
	fwrite(rq->program, 1, rq->len, f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	*len = sz;
	return buf;
}

/* Reads the worker's next message and checks that it is `magic` answering
 * request id. Its length (the payload starts at *body_at), or -1 after
 * stopping the worker. */
static long read_tagged(struct executor *x, const char *magic, uint64_t id, uint8_t **msg, size_t *body_at)
{
	long got = protocol_read_message(x->from_fd, msg, protocol_now_ms() + x->o.timeout_ms, x->err_fd, ring_add, x);
	long body = got > 0 ? protocol_parse_tagged(*msg, (size_t)got, magic, id) : -1;
	if (body < 0) {
		free(*msg);
		*msg = NULL;
		stop_worker(x);
		return -1;
	}
	*body_at = (size_t)body;
	return got;
}

/* Bytes [from, len) of msg moved to its start and NUL-terminated (from >= 1:
 * there is room for the NUL). */
static char *payload_text(uint8_t *msg, size_t from, size_t len)
{
	memmove(msg, msg + from, len - from);
	msg[len - from] = 0;
	return (char *)msg;
}

/* The trace message that follows a traced request's reply: "P2FT", id, the
 * note (a string), the trace text. */
static int read_trace(struct executor *x, uint64_t id, struct exec_trace *t, char *why, size_t n)
{
	uint8_t *msg = NULL;
	size_t body = 0, note_len = 0;
	long got = read_tagged(x, "P2FT", id, &msg, &body);
	long note = got < 0 ? -1 : protocol_parse_string(msg, (size_t)got, body, &note_len);
	if (note < 0) {
		free(msg);
		stop_worker(x);
		return fail(why, n, "the worker sent no trace after its reply");
	}
	size_t keep = note_len < sizeof t->note ? note_len : sizeof t->note - 1;
	memcpy(t->note, msg + note, keep);
	t->note[keep] = 0;
	t->len = (size_t)got - (size_t)note - note_len;
	t->text = payload_text(msg, (size_t)note + note_len, (size_t)got);
	return 0;
}

int64_t executor_request_limit_ms(const struct executor_opts *o, const struct exec_request *rq)
{
	return (int64_t)o->timeout_ms * (rq->time_factor ? rq->time_factor : 1);
}

/* Whether the worker died while idle (reaped if so). */
static int worker_gone(struct executor *x)
{
	int status;
	if (waitpid(x->pid, &status, WNOHANG) == x->pid)
		x->pid = 0; /* reaped: nothing left to kill */
	return x->pid == 0;
}

static uint32_t shm_u32(const struct executor *x, unsigned off)
{
	uint32_t v;
	memcpy(&v, x->shm + off, 4);
	return v;
}

/* The pairs the request asked for that have no record yet, and where the
 * values recorded so far end. */
static void find_pairs_left(const struct exec_request *rq, const struct run_result *r, const uint8_t *data,
			    struct pairs_left *pl)
{
	pl->mask = 0;
	pl->data_at = 0;
	for (unsigned b = 0; b < rq->nbind && b < G_MAX_BIND; b++)
		for (unsigned m = 0; m < RM_COUNT; m++) {
			const struct mode_result *mr = &r->m[m][b];
			if ((rq->modes >> m & 1) && !mr->ran)
				pl->mask |= 1u << (RM_COUNT * b + m);
			for (unsigned k = 0; mr->ran && mr->ok && k < mr->nout; k++) {
				const struct tensor_out *t = &mr->out[k];
				const void *v = t->f ? (const void *)t->f : (const void *)t->i;
				size_t end = v ? (size_t)((const uint8_t *)v - data) + 8 * t->numel * dtype_parts(t->dtype) : 0;
				pl->data_at = end > pl->data_at ? end : pl->data_at;
			}
		}
}

static int ensure_worker(struct executor *x, char *why, size_t n)
{
	if (x->pid && worker_gone(x)) {
		stop_worker(x); /* died between requests (killed from outside): start afresh */
		x->crashes++;
	}
	return !x->pid && executor_start(x, why, n) ? -1 : 0;
}

/* Reads what the worker has written to stderr and is still unread into the log. */
static void drain_log(struct executor *x)
{
	char tmp[8192];
	ssize_t k;
	fcntl(x->err_fd, F_SETFL, O_NONBLOCK);
	while ((k = read(x->err_fd, tmp, sizeof tmp)) > 0)
		ring_add(x, tmp, (size_t)k);
}

/* Whether the worker's log holds a memory report (malloc's, compute-sanitizer's): its line into r. */
static int log_heap_report(const struct executor *x, struct run_result *r)
{
	static char log[EXEC_LOG_RING + 1];
	executor_log(x, log, sizeof log);
	return malloc_check_report(log, r->heap_report, sizeof r->heap_report);
}

/* r is a crash of the worker, which ended with status. */
static void record_crash(struct executor *x, struct run_result *r, int status)
{
	r->crashed = 1;
	r->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	r->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
	x->crashes++;
}

/* Stops a worker that asked to be replaced (a poisoned CUDA context). Where
 * its log holds a memory report (compute-sanitizer's, in a replay: an
 * invalid access ends the kernel and poisons the context), the mode under
 * the busy marker corrupted memory: a crash of that mode, as when the
 * report kills the process. */
static void poisoned_stop(struct executor *x, struct run_result *r)
{
	uint32_t mode = shm_u32(x, SHM_BUSY_MODE), b = shm_u32(x, SHM_BUSY_BINDING);
	drain_log(x); /* what it printed that the reply overtook */
	int status = stop_worker(x);
	if (mode >= RM_COUNT || !log_heap_report(x, r))
		return;
	r->busy_mode = (uint8_t)mode;
	r->busy_binding = (uint8_t)(b < G_MAX_BIND ? b : 0);
	record_crash(x, r, status);
}

/* One request to the worker (started if none runs): the pairs in pl (all
 * when pl->mask is 0) into r. 0 with *restart set when the worker asked to
 * be replaced (a poisoned CUDA context); -1 with a reason. */
static int run_pairs(struct executor *x, const struct exec_request *rq, const struct pairs_left *pl,
		     struct run_result *r, int *restart, uint64_t *usec, char *why, size_t n)
{
	*restart = 0;
	if (ensure_worker(x, why, n))
		return -1;
	int64_t until = protocol_now_ms() + executor_request_limit_ms(&x->o, rq);
	int cut = rq->cut_ms && rq->cut_ms < until;
	if (cut && rq->cut_ms <= protocol_now_ms())
		return fail(why, n, "not run: its deadline had passed");
	until = cut ? rq->cut_ms : until;
	uint64_t t0 = profile_clock_usec();
	x->ring_mark = x->ring_total;
	memset(x->shm, 0xff, SHM_HEADER); /* busy markers idle */
	if (!pl->mask)
		memset(x->shm + SHM_HEADER, 0, SHM_COVERAGE); /* a continuation adds to the first part's map */
	uint64_t id = ++x->next_id;
	size_t len;
	char *req = request_text(id, rq, x->trace != NULL, pl, &len);
	if (!req)
		return fail(why, n, "out of memory");
	int wrote = protocol_write_message(x->to_fd, req, len);
	free(req);
	uint8_t *msg = NULL;
	long got = wrote ? 0
			 : protocol_read_message(x->from_fd, &msg, until, x->err_fd, ring_add, x);
	if (got < 0 && got != -2 && got != 0) {
		/* EOF inside a message: the worker died mid-reply. */
		got = 0;
	}
	*usec = profile_clock_usec() - t0;
	if (got == -2 && cut) {
		stop_worker(x);
		return fail(why, n, "cut at its deadline, inside its own limit of %lld s",
			    (long long)executor_request_limit_ms(&x->o, rq) / 1000);
	}
	if (got <= 0) {
		uint32_t mode = shm_u32(x, SHM_BUSY_MODE), b = shm_u32(x, SHM_BUSY_BINDING);
		r->busy_mode = (uint8_t)(mode < RM_COUNT ? mode : RM_EAGER);
		r->busy_binding = (uint8_t)(b < G_MAX_BIND ? b : 0);
		if (got == 0) /* what it printed before it went */
			drain_log(x);
		int status = stop_worker(x);
		if (got == -2) {
			r->hung = 1;
			x->hangs++;
		} else {
			record_crash(x, r, status);
			log_heap_report(x, r);
		}
		if (x->trace)
			snprintf(x->trace->note, sizeof x->trace->note, "the worker %s before it sent the trace",
				 r->hung ? "hung" : "died");
		return 0;
	}
	uint32_t graphs = r->compiled_graphs, breaks = r->graph_breaks;
	long rid = protocol_parse_response(msg, (size_t)got, x->shm + SHM_DATA, x->o.shm_size - SHM_DATA, r, restart,
					   why, n);
	free(msg);
	if (rid < 0 || (uint64_t)rid != id) {
		stop_worker(x);
		if (rid >= 0)
			fail(why, n, "reply to request %ld, expected %llu", rid, (unsigned long long)id);
		return -1;
	}
	/* Of a first part and its continuation, the one that compiled says how. */
	r->compiled_graphs = graphs > r->compiled_graphs ? graphs : r->compiled_graphs;
	r->graph_breaks = breaks > r->graph_breaks ? breaks : r->graph_breaks;
	if (x->trace && read_trace(x, id, x->trace, why, n))
		return -1;
	if (*restart)
		poisoned_stop(x, r);
	return 0;
}

/* At most this many continuations: each runs at least one pair, and a
 * program has at most G_MAX_BIND * RM_COUNT. */
#define MAX_CONTINUATIONS (G_MAX_BIND * RM_COUNT)

int executor_run(struct executor *x, const struct exec_request *rq, struct run_result *r, char *why, size_t n)
{
	memset(r, 0, sizeof *r);
	if (x->trace)
		*x->trace = (struct exec_trace){0};
	struct pairs_left pl = {0, 0};
	int restart;
	uint64_t replied = 0, part = 0;
	if (run_pairs(x, rq, &pl, r, &restart, &part, why, n))
		return -1;
	replied += part;
	/* A CUDA error (a device-side assert) poisoned the worker's context:
	 * the pairs after it run in fresh workers, so that each mode is judged
	 * on what it did, not on the error eager left behind. */
	for (unsigned k = 0; restart && !r->crashed && !r->hung && k < MAX_CONTINUATIONS; k++) {
		find_pairs_left(rq, r, x->shm + SHM_DATA, &pl);
		if (!pl.mask)
			break;
		x->continuations++;
		struct exec_trace *t = x->trace; /* the trace is the first part's: its compile */
		x->trace = NULL;
		part = 0;
		/* a fresh worker maps the same memory: the map and the values so far stay */
		int bad = ensure_worker(x, why, n) || run_pairs(x, rq, &pl, r, &restart, &part, why, n);
		x->trace = t;
		if (bad)
			return -1;
		replied += part;
	}
	/* the last part's round trip: no reply came when it crashed or hung */
	int lost = r->crashed || r->hung;
	profile_add_request(&x->prof, r, lost ? replied - part : replied, lost ? part : 0);
	return 0;
}

int executor_run_traced(struct executor *x, const struct exec_request *rq, struct run_result *r,
			struct exec_trace *t, char *why, size_t n)
{
	x->trace = t;
	int rc = executor_run(x, rq, r, why, n);
	x->trace = NULL;
	return rc;
}

uint8_t *executor_coverage(struct executor *x) { return x->shm + SHM_HEADER; }

/* A request of one header key (`key=1`) answered by `magic`, the id, then
 * text: that text (malloc'd, NUL-terminated). 0, or -1 with a reason. */
static int text_request(struct executor *x, const char *key, const char *magic, char **text, size_t *len, char *why,
			size_t n)
{
	char req[64];
	uint64_t id = ++x->next_id;
	int rl = snprintf(req, sizeof req, "id=%llu\n%s=1\n\n", (unsigned long long)id, key);
	uint8_t *msg = NULL;
	size_t body = 0;
	long got = protocol_write_message(x->to_fd, req, (size_t)rl) ? -1 : read_tagged(x, magic, id, &msg, &body);
	if (got < 0) {
		stop_worker(x);
		return fail(why, n, "the worker did not answer the %s request", key);
	}
	*len = (size_t)got - body;
	*text = payload_text(msg, body, (size_t)got);
	return 0;
}

int executor_dump_lines(struct executor *x, FILE *f, char *why, size_t n)
{
	if (!x->pid)
		return 0; /* nothing since the last worker died: its lines are lost */
	char *lines;
	size_t len;
	if (text_request(x, "dump_lines", "P2FL", &lines, &len, why, n))
		return -1;
	size_t w = fwrite(lines, 1, len, f);
	free(lines);
	return w == len ? 0 : fail(why, n, "write error");
}

int executor_collect_env(struct executor *x, char **text, size_t *len, char *why, size_t n)
{
	if (!x->pid && executor_start(x, why, n))
		return -1;
	return text_request(x, "collect_env", "P2FE", text, len, why, n);
}
