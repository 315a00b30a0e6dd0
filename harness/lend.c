#include "lend.h"
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static socklen_t abstract_addr(const char *name, struct sockaddr_un *a)
{
	memset(a, 0, sizeof *a);
	a->sun_family = AF_UNIX;
	size_t l = strnlen(name, sizeof a->sun_path - 2);
	memcpy(a->sun_path + 1, name, l); /* sun_path[0] = 0: the abstract namespace */
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + l);
}

int lend_listen(const char *name)
{
	struct sockaddr_un a;
	socklen_t len = abstract_addr(name, &a);
	int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s >= 0 && (bind(s, (struct sockaddr *)&a, len) || listen(s, 256))) {
		close(s);
		s = -1;
	}
	return s;
}

int lend_connect(const char *name)
{
	struct sockaddr_un a;
	socklen_t len = abstract_addr(name, &a);
	int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s >= 0 && connect(s, (struct sockaddr *)&a, len)) {
		close(s);
		s = -1;
	}
	return s;
}

int lend_send(int sock, const char *msg, const int *fds, unsigned nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * LEND_FDS)];
		struct cmsghdr align;
	} u;
	struct iovec iov = {(void *)msg, strlen(msg)};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
	if (nfds) {
		m.msg_control = u.buf;
		m.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
	}
	return sendmsg(sock, &m, MSG_NOSIGNAL) == (ssize_t)iov.iov_len ? 0 : -1;
}

long lend_recv(int sock, char *buf, size_t cap, int *fds, unsigned nfds, int timeout_ms)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * LEND_FDS)];
		struct cmsghdr align;
	} u;
	for (unsigned i = 0; i < nfds; i++)
		fds[i] = -1;
	struct pollfd p = {sock, POLLIN, 0};
	if (poll(&p, 1, timeout_ms) != 1)
		return -1;
	struct iovec iov = {buf, cap - 1};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf};
	ssize_t got = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	if (got < 0)
		return -1;
	buf[got] = 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			unsigned k = (unsigned)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
			int got_fds[LEND_FDS];
			memcpy(got_fds, CMSG_DATA(c), sizeof(int) * (k < LEND_FDS ? k : LEND_FDS));
			for (unsigned i = 0; i < k && i < LEND_FDS; i++) {
				if (i < nfds)
					fds[i] = got_fds[i];
				else
					close(got_fds[i]);
			}
		}
	return (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) ? -1 : got;
}

static void close_all(int *fds, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

int lend_borrow(const char *name, uint64_t key, size_t shm_size, int timeout_ms, struct lent_worker *w)
{
	int s = lend_connect(name), fds[LEND_FDS];
	if (s < 0)
		return -1;
	char msg[LEND_MSG_MAX];
	snprintf(msg, sizeof msg, "borrow %016llx", (unsigned long long)key);
	long got = lend_send(s, msg, NULL, 0) ? -1 : lend_recv(s, msg, sizeof msg, fds, LEND_FDS, timeout_ms);
	int pid = 0, at = 0;
	size_t size = 0;
	void *shm = MAP_FAILED;
	if (got > 0 && sscanf(msg, "lent %d %zu%n", &pid, &size, &at) == 2 && size == shm_size &&
	    fds[LEND_FDS - 1] >= 0 && fds[0] >= 0 && fds[1] >= 0 && fds[2] >= 0)
		shm = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fds[3], 0);
	if (shm == MAP_FAILED) {
		close_all(fds, LEND_FDS);
		close(s);
		return -1;
	}
	*w = (struct lent_worker){s, pid, fds[0], fds[1], fds[2], fds[3], shm, ""};
	snprintf(w->hello, sizeof w->hello, "%s", msg[at] == '\n' ? msg + at + 1 : "");
	return 0;
}

int lend_reap(int sock)
{
	char msg[64];
	int status = 0;
	if (!lend_send(sock, "status", NULL, 0) && lend_recv(sock, msg, sizeof msg, NULL, 0, 30000) > 0)
		sscanf(msg, "status %d", &status);
	close(sock);
	return status;
}
