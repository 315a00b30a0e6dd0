/* The worker lender of a campaign: a process that keeps N workers warm
 * (torch imported, on the node's GPUs in turn) and lends one to each
 * libFuzzer -fork job, -merge run or other borrower that names it in
 * PT2FUZZ_LENDER (protocol: harness/lend.h). A worker given back between
 * requests is lent again; one given back mid-request, dead, or older than
 * an hour is replaced. The lender dies with its campaign. */
#ifndef PT2FUZZ_LENDER_H
#define PT2FUZZ_LENDER_H
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include "../pipeline/runopts.h"

/* What the lender is doing, in memory shared with the campaign. */
struct lender_status {
	unsigned workers, starting, idle, lent;
	unsigned long long started, loans, replaced;
	unsigned gave_up;    /* workers failed to start too often: borrowers are told to start their own */
	char error[300];     /* why workers fail to start ("" when they do) */
};

struct lender {
	pid_t pid;
	char name[64];       /* the socket's abstract name: PT2FUZZ_LENDER */
	struct lender_status *status;
};

/* Starts a lender of `workers` workers configured as ro->exec (device
 * "cuda:auto": worker i on GPU i mod the GPU count), and sets PT2FUZZ_LENDER
 * in our environment so that the processes we start borrow from it.
 * 0, or -1 with a reason. */
int lender_start(struct lender *l, const struct run_opts *ro, unsigned workers, char *why, size_t n);

/* Waits until a worker is ready to lend (0), the lender has given up
 * starting them (-1, status->error says why), *stop is set or deadline_ms
 * (protocol_now_ms() based) passes (1). */
int lender_wait_ready(const struct lender *l, int64_t deadline_ms, volatile sig_atomic_t *stop);

/* Stops the lender and its workers, within a few seconds. */
void lender_stop(struct lender *l);

#endif
