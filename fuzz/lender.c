#include "lender.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../graph/fail.h"
#include "../harness/lend.h"
#include "../harness/protocol.h"
#include "../harness/runtime.h"
#include "../harness/spawn.h"

#define MAX_WORKERS 256
#define MAX_WAITING 256
#define WORKER_MAX_AGE_MS (3600 * 1000) /* then replaced: long-lived Pythons accumulate caches */
#define START_FAILURES_TO_GIVE_UP 3

enum slot_state { FREE, STARTING, IDLE, LENT };

struct slot {
	struct executor x;
	enum slot_state state;
	int conn;            /* the borrower, when LENT */
	int64_t since;       /* when it was launched */
	char device[32];
	unsigned gpu;
};

struct served {
	struct slot *slots;
	unsigned n, failures;
	int listen_fd, waiting[MAX_WAITING];
	unsigned nwaiting;
	uint64_t key;
	struct executor_opts opts;
	struct lender_status *st;
};

static volatile sig_atomic_t stopping;
static void on_term(int sig) { stopping = sig; }

static void launch(struct served *s, struct slot *w)
{
	char why[600];
	struct executor_opts o = s->opts;
	o.device = w->device;
	o.lender = NULL;
	if (executor_init(&w->x, &o, why, sizeof why) || executor_launch(&w->x, why, sizeof why)) {
		executor_free(&w->x);
		snprintf(s->st->error, sizeof s->st->error, "%.299s", why);
		s->failures++;
		return;
	}
	w->state = STARTING;
	w->since = protocol_now_ms();
	s->st->started++;
}

/* The worker is gone or not to be trusted: kill it, free the slot. */
static int retire(struct served *s, struct slot *w)
{
	int status = executor_stop(&w->x);
	executor_free(&w->x);
	if (w->state == LENT || w->state == IDLE)
		s->st->replaced++;
	w->state = FREE;
	return status;
}

static void lend_to(struct served *s, struct slot *w, int conn)
{
	char msg[LEND_MSG_MAX];
	int fds[LEND_FDS] = {w->x.to_fd, w->x.from_fd, w->x.err_fd, w->x.shm_fd};
	snprintf(msg, sizeof msg, "lent %d %zu\n%s", (int)w->x.pid, w->x.o.shm_size, w->x.info);
	if (lend_send(conn, msg, fds, LEND_FDS)) {
		close(conn); /* the borrower went away while it waited */
		return;
	}
	w->state = LENT;
	w->conn = conn;
	s->st->loans++;
}

/* An idle worker on the GPU with the fewest loans, or NULL. */
static struct slot *pick_idle(struct served *s)
{
	unsigned lent[MAX_WORKERS] = {0};
	struct slot *best = NULL;
	for (unsigned i = 0; i < s->n; i++)
		if (s->slots[i].state == LENT)
			lent[s->slots[i].gpu]++;
	for (unsigned i = 0; i < s->n; i++)
		if (s->slots[i].state == IDLE && (!best || lent[s->slots[i].gpu] < lent[best->gpu]))
			best = &s->slots[i];
	return best;
}

static int broken(const struct served *s) { return s->failures >= START_FAILURES_TO_GIVE_UP; }

static void accept_borrower(struct served *s)
{
	int c = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	char msg[64];
	unsigned long long key = 0;
	if (c < 0)
		return;
	if (lend_recv(c, msg, sizeof msg, NULL, 0, 1000) <= 0 || sscanf(msg, "borrow %llx", &key) != 1 || key != s->key ||
	    broken(s) || s->nwaiting == MAX_WAITING) {
		lend_send(c, "none", NULL, 0); /* the borrower starts a worker of its own */
		close(c);
		return;
	}
	s->waiting[s->nwaiting++] = c;
}

/* The borrower closed the connection (gave the worker back) or asks for
 * the status of the worker it killed. */
static void borrower_spoke(struct served *s, struct slot *w)
{
	char msg[64];
	uint32_t in_request;
	long got = lend_recv(w->conn, msg, sizeof msg, NULL, 0, 0);
	if (got > 0 && !strcmp(msg, "status")) {
		snprintf(msg, sizeof msg, "status %d", retire(s, w));
		lend_send(w->conn, msg, NULL, 0);
	} else {
		memcpy(&in_request, w->x.shm + EXEC_SHM_IN_REQUEST, 4);
		struct pollfd p = {w->x.from_fd, POLLIN, 0};
		int alive = poll(&p, 1, 0) == 0;
		if (!in_request && alive && protocol_now_ms() - w->since < WORKER_MAX_AGE_MS) {
			executor_drain_log(&w->x); /* its last request's tail is not the next borrower's */
			w->state = IDLE;
		} else {
			retire(s, w);
		}
	}
	close(w->conn);
	w->conn = -1;
}

static void started(struct served *s, struct slot *w)
{
	char why[600];
	if (executor_await(&w->x, protocol_now_ms() + 10000, why, sizeof why)) {
		snprintf(s->st->error, sizeof s->st->error, "%.299s", why);
		s->failures++;
		retire(s, w);
		return;
	}
	s->failures = 0;
	s->st->error[0] = 0;
	w->state = IDLE;
}

static void publish(struct served *s)
{
	unsigned count[4] = {0};
	for (unsigned i = 0; i < s->n; i++)
		count[s->slots[i].state]++;
	s->st->starting = count[STARTING];
	s->st->idle = count[IDLE];
	s->st->lent = count[LENT];
	s->st->gave_up = broken(s);
}

/* One round: start what is missing, lend what is idle, wait for events. */
static void serve_once(struct served *s)
{
	struct pollfd p[1 + MAX_WAITING + 2 * MAX_WORKERS];
	struct slot *owner[1 + MAX_WAITING + 2 * MAX_WORKERS];
	unsigned np = 0;
	for (unsigned i = 0; i < s->n && !broken(s); i++)
		if (s->slots[i].state == FREE)
			launch(s, &s->slots[i]);
	struct slot *w;
	while (s->nwaiting && (w = pick_idle(s))) {
		lend_to(s, w, s->waiting[0]);
		memmove(s->waiting, s->waiting + 1, --s->nwaiting * sizeof *s->waiting);
	}
	while (broken(s) && s->nwaiting) { /* nothing will come: let them start their own */
		lend_send(s->waiting[--s->nwaiting], "none", NULL, 0);
		close(s->waiting[s->nwaiting]);
	}
	publish(s);
	p[np] = (struct pollfd){s->listen_fd, POLLIN, 0};
	owner[np++] = NULL;
	for (unsigned i = 0; i < s->nwaiting; i++) {
		p[np] = (struct pollfd){s->waiting[i], POLLIN, 0};
		owner[np++] = NULL;
	}
	for (unsigned i = 0; i < s->n; i++) {
		w = &s->slots[i];
		int fd = w->state == LENT ? w->conn : w->state != FREE ? w->x.from_fd : -1;
		if (fd >= 0) {
			p[np] = (struct pollfd){fd, POLLIN, 0};
			owner[np++] = w;
		}
		if (w->state == STARTING) {
			p[np] = (struct pollfd){w->x.err_fd, POLLIN, 0};
			owner[np++] = w;
		}
	}
	if (poll(p, np, 1000) <= 0)
		return;
	for (unsigned i = 1; i <= s->nwaiting && i < np; i++)
		if (p[i].revents) { /* a waiting borrower hung up */
			close(s->waiting[i - 1]);
			s->waiting[i - 1] = -1;
		}
	unsigned kept = 0;
	for (unsigned i = 0; i < s->nwaiting; i++)
		if (s->waiting[i] >= 0)
			s->waiting[kept++] = s->waiting[i];
	s->nwaiting = kept;
	for (unsigned i = 0; i < np; i++) {
		w = owner[i];
		if (!p[i].revents || !w)
			continue;
		if (w->state == LENT && p[i].fd == w->conn)
			borrower_spoke(s, w);
		else if (w->state == STARTING && p[i].fd == w->x.err_fd)
			executor_drain_log(&w->x);
		else if (w->state == STARTING && p[i].fd == w->x.from_fd)
			started(s, w);
		else if (w->state == IDLE && p[i].fd == w->x.from_fd)
			retire(s, w); /* an idle worker spoke or died */
	}
	if (p[0].revents)
		accept_borrower(s);
	for (unsigned i = 0; i < s->n; i++)
		if (s->slots[i].state == STARTING && protocol_now_ms() - s->slots[i].since > (int64_t)s->opts.start_timeout_ms) {
			snprintf(s->st->error, sizeof s->st->error, "a worker did not start in %u s", s->opts.start_timeout_ms / 1000);
			s->failures++;
			retire(s, &s->slots[i]);
		}
}

static void serve(struct served *s)
{
	while (!stopping)
		serve_once(s);
	for (unsigned i = 0; i < s->n; i++)
		if (s->slots[i].state != FREE)
			retire(s, &s->slots[i]);
}

/* The lender process: what lender_start's child needs to serve. */
struct lender_child {
	struct lender *l;
	const struct run_opts *ro;
	unsigned workers;
	int listen_fd;
};

static int lender_main(void *arg)
{
	const struct lender_child *c = arg;
	const struct run_opts *ro = c->ro;
	signal(SIGTERM, on_term);
	signal(SIGINT, SIG_IGN); /* the campaign decides when we stop */
	static struct served s;
	s.slots = calloc(c->workers, sizeof *s.slots);
	if (!s.slots)
		return 1;
	s.n = c->workers;
	s.listen_fd = c->listen_fd;
	s.opts = ro->exec;
	s.opts.lender = NULL;
	s.key = executor_config_key(&ro->exec);
	s.st = c->l->status;
	unsigned gpus = runtime_gpu_count();
	for (unsigned i = 0; i < c->workers; i++) {
		struct slot *w = &s.slots[i];
		w->conn = -1;
		int spread = !strcmp(ro->exec.device, "cuda:auto") && gpus;
		w->gpu = spread ? i % gpus : 0;
		if (spread)
			snprintf(w->device, sizeof w->device, "cuda:%u", w->gpu);
		else
			snprintf(w->device, sizeof w->device, "%.31s", ro->exec.device);
	}
	serve(&s);
	return 0;
}

int lender_start(struct lender *l, const struct run_opts *ro, unsigned workers, char *why, size_t n)
{
	memset(l, 0, sizeof *l);
	if (workers > MAX_WORKERS)
		workers = MAX_WORKERS;
	snprintf(l->name, sizeof l->name, "pt2fuzz-lender-%d-%lld", (int)getpid(), (long long)protocol_now_ms());
	int fd = lend_listen(l->name);
	l->status = mmap(NULL, sizeof *l->status, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fd < 0 || l->status == MAP_FAILED) {
		if (fd >= 0)
			close(fd);
		l->status = NULL;
		return fail(why, n, "worker lender: %s", strerror(errno));
	}
	l->status->workers = workers;
	struct lender_child c = {l, ro, workers, fd};
	struct spawn_opts o = SPAWN_OPTS;
	o.fn = lender_main;
	o.arg = &c;
	o.die_with_parent = 1; /* a campaign killed with -9 takes its workers along */
	l->pid = spawn(&o, why, n);
	if (l->pid < 0)
		return -1;
	close(fd);
	setenv("PT2FUZZ_LENDER", l->name, 1);
	return 0;
}

int lender_wait_ready(const struct lender *l, int64_t deadline_ms, volatile sig_atomic_t *stop)
{
	for (; !*stop && protocol_now_ms() < deadline_ms; usleep(100000)) {
		if (l->status->idle || l->status->lent)
			return 0;
		if (l->status->gave_up)
			return -1;
	}
	return 1;
}

#define LENDER_STOP_GRACE_MS 10000 /* it stops its workers first; a wedged one is killed */

void lender_stop(struct lender *l)
{
	if (l->pid > 0) {
		kill(l->pid, SIGTERM);
		int64_t end = protocol_now_ms() + LENDER_STOP_GRACE_MS;
		pid_t got;
		while ((got = waitpid(l->pid, NULL, WNOHANG)) == 0 && protocol_now_ms() < end)
			usleep(50000);
		if (got == 0) { /* still there: its workers die with it (PR_SET_PDEATHSIG) or at the next start */
			kill(l->pid, SIGKILL);
			waitpid(l->pid, NULL, 0);
		}
	}
	l->pid = 0;
	unsetenv("PT2FUZZ_LENDER");
	if (l->status)
		munmap(l->status, sizeof *l->status);
	l->status = NULL;
}
