/* Lending warm workers: a campaign's lender process (fuzz/lender.c) keeps
 * workers with torch imported and hands one to each short-lived libFuzzer
 * -fork job, so a job does not pay the torch import. The wire is a
 * SOCK_SEQPACKET Unix socket in the abstract namespace (no path, nothing
 * left behind), one message per send; a worker travels as its four file
 * descriptors (stdin, stdout, stderr pipes and the shared memory memfd)
 * by SCM_RIGHTS:
 *
 *   borrower -> lender  "borrow <config key, 16 hex>"
 *   lender -> borrower  "none"  (no worker of that configuration: start one yourself)
 *                       "lent <pid> <shm_size>\n<the worker's hello>" + 4 fds
 *   borrower -> lender  "status" (after killing a dead or hung worker)
 *   lender -> borrower  "status <wait status>"
 *
 * Closing the connection gives the worker back: the lender keeps it when
 * the executor's in-request word (EXEC_SHM_IN_REQUEST) says it was between
 * requests, and replaces it otherwise. */
#ifndef PT2FUZZ_LEND_H
#define PT2FUZZ_LEND_H
#include <stddef.h>
#include "executor.h"

#define LEND_FDS 4
#define LEND_MSG_MAX (EXEC_INFO_MAX + 64)

/* A listening / connected socket for the abstract name; fd, or -1. */
int lend_listen(const char *name);
int lend_connect(const char *name);

/* One message (NUL-terminated text) with nfds descriptors. 0, or -1. */
int lend_send(int sock, const char *msg, const int *fds, unsigned nfds);

/* One message into buf (NUL-terminated) and up to nfds descriptors (the
 * rest -1), waiting at most timeout_ms. Its length, 0 on EOF, -1 on error
 * or timeout. */
long lend_recv(int sock, char *buf, size_t cap, int *fds, unsigned nfds, int timeout_ms);

/* Borrows a worker for x from the lender named in x->o.lender: 0 with x
 * holding it (x->lender_fd open), -1 when none is lent (x unchanged). */
int lend_borrow(struct executor *x);

/* For a borrowed worker that has been killed: asks the lender, which reaps
 * it, for its wait status, and closes the connection. The status (0 when
 * the lender does not answer). */
int lend_reap(struct executor *x);

#endif
