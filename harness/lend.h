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
#include <stdint.h>
#include "protocol.h"

#define LEND_FDS 4
#define LEND_MSG_MAX (PROTO_HELLO_MAX + 64)

/* A listening / connected socket for the abstract name; fd, or -1. */
int lend_listen(const char *name);
int lend_connect(const char *name);

/* One message (NUL-terminated text) with nfds descriptors. 0, or -1. */
int lend_send(int sock, const char *msg, const int *fds, unsigned nfds);

/* One message into buf (NUL-terminated) and up to nfds descriptors (the
 * rest -1), waiting at most timeout_ms. Its length, 0 on EOF, -1 on error
 * or timeout. */
long lend_recv(int sock, char *buf, size_t cap, int *fds, unsigned nfds, int timeout_ms);

/* A worker as it is lent: its pid, its pipes, its shared memory mapped. */
struct lent_worker {
	int sock;                  /* the connection to the lender: closing it gives the worker back */
	int pid;
	int to_fd, from_fd, err_fd, shm_fd;
	void *shm;                 /* shm_size bytes */
	char hello[PROTO_HELLO_MAX];
};

/* Borrows a worker of configuration key (executor_config_key) and shared
 * memory of shm_size bytes from the lender called name, waiting at most
 * timeout_ms: 0 with *w filled, -1 when none is lent. */
int lend_borrow(const char *name, uint64_t key, size_t shm_size, int timeout_ms, struct lent_worker *w);

/* For a borrowed worker that has been killed: asks the lender on sock,
 * which reaps it, for its wait status, and closes sock. The status (0 when
 * the lender does not answer). */
int lend_reap(int sock);

#endif
