#include "protocol.h"
#include "runtime.h"
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../graph/fail.h"

int64_t protocol_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int protocol_write_message(int fd, const void *buf, size_t len)
{
	uint8_t head[4] = {(uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16), (uint8_t)(len >> 24)};
	return runtime_write_all(fd, head, 4) || runtime_write_all(fd, buf, len) ? -1 : 0;
}

/* Reads exactly n bytes into p; 1 done, 0 EOF, -1 error, -2 timeout. */
static int read_full(int fd, uint8_t *p, size_t n, int64_t deadline, int drain_fd,
		     void (*drain)(void *, const char *, size_t), void *ctx)
{
	size_t got = 0;
	while (got < n) {
		struct pollfd pf[2] = {{fd, POLLIN, 0}, {drain_fd, POLLIN, 0}};
		int64_t left = deadline - protocol_now_ms();
		if (left <= 0)
			return -2;
		int rc = poll(pf, drain_fd >= 0 ? 2 : 1, left > 1000 ? 1000 : (int)left);
		if (rc < 0 && errno != EINTR)
			return -1;
		if (rc <= 0)
			continue;
		if (drain_fd >= 0 && (pf[1].revents & (POLLIN | POLLHUP))) {
			char tmp[8192];
			ssize_t k = read(drain_fd, tmp, sizeof tmp);
			if (k > 0)
				drain(ctx, tmp, (size_t)k);
		}
		if (pf[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			ssize_t k = read(fd, p + got, n - got);
			if (k == 0)
				return 0;
			if (k < 0 && errno != EINTR && errno != EAGAIN)
				return -1;
			if (k > 0)
				got += (size_t)k;
		}
	}
	return 1;
}

long protocol_read_message(int fd, uint8_t **buf, int64_t deadline_ms, int drain_fd,
			   void (*drain)(void *ctx, const char *bytes, size_t len), void *ctx)
{
	uint8_t head[4];
	int rc = read_full(fd, head, 4, deadline_ms, drain_fd, drain, ctx);
	if (rc <= 0)
		return rc;
	uint32_t len = (uint32_t)head[0] | (uint32_t)head[1] << 8 | (uint32_t)head[2] << 16 | (uint32_t)head[3] << 24;
	if (len > PROTO_MAX_MESSAGE)
		return -1;
	*buf = malloc(len + 1);
	if (!*buf)
		return -1;
	rc = read_full(fd, *buf, len, deadline_ms, drain_fd, drain, ctx);
	if (rc <= 0) {
		free(*buf);
		*buf = NULL;
		return rc == 0 ? -1 : rc; /* EOF inside a message is an error */
	}
	(*buf)[len] = 0;
	return (long)len;
}

/* ---- the constants both sides agree on ---- */

static const char *const mode_names[RM_COUNT] = {[RM_EAGER] = "eager", [RM_COMPILED] = "compiled", [RM_FP64] = "fp64",
							  [RM_NUDGED] = "nudged"};

const char *run_mode_name(unsigned mode) { return mode < RM_COUNT ? mode_names[mode] : "?"; }

static const char *const stage_names[WS_COUNT] = {
	[WS_REQUEST] = "request", [WS_DYNAMO] = "dynamo",   [WS_AOT_AUTOGRAD] = "aot_autograd",
	[WS_LOWERING] = "lowering", [WS_CODEGEN] = "codegen", [WS_KERNELS] = "kernels",
};

const char *worker_stage_name(unsigned stage) { return stage < WS_COUNT ? stage_names[stage] : "?"; }

/* names[0..count) joined by commas into out. */
static void join_names(char *out, size_t cap, const char *(*name)(unsigned), unsigned count)
{
	size_t at = 0;
	out[0] = 0;
	for (unsigned i = 0; i < count && at < cap; i++)
		at += (size_t)snprintf(out + at, cap - at, "%s%s", i ? "," : "", name(i));
}

static const char *dtype_name(unsigned dt) { return dtype_info(dt)->name; }

int protocol_constants(char *out, size_t cap)
{
	const struct mode_result *m = NULL;
	char modes[64], dtypes[128], stages[128];
	join_names(modes, sizeof modes, run_mode_name, RM_COUNT);
	join_names(stages, sizeof stages, worker_stage_name, WS_COUNT);
	join_names(dtypes, sizeof dtypes, dtype_name, DT_COUNT);
	const struct {
		const char *key, *text; /* text, or else number */
		unsigned long long number;
	} table[] = {
		{"proto_version", NULL, PROTOCOL_VERSION},
		{"modes", modes, 0},   /* enum run_mode: a record's mode, the busy marker */
		{"dtypes", dtypes, 0}, /* enum dtype: an output's dtype; DT_COUNT (their count) for any other */
		{"max_rank", NULL, G_MAX_RANK},
		{"max_bindings", NULL, G_MAX_BIND},
		{"max_outputs", NULL, RESULT_MAX_OUT},
		{"etype_max", NULL, sizeof m->etype - 1},
		{"emsg_max", NULL, sizeof m->emsg - 1},
		{"frames_max", NULL, sizeof m->frames - 1},
		{"ebases_max", NULL, sizeof m->ebases - 1},
		{"shm_header", NULL, SHM_HEADER},
		{"busy_mode_at", NULL, SHM_BUSY_MODE},
		{"busy_binding_at", NULL, SHM_BUSY_BINDING},
		{"max_message", NULL, PROTO_MAX_MESSAGE},
		{"stages", stages, 0}, /* enum worker_stage: the reply's timings */
	};
	const char *over = getenv("PT2FUZZ_PROTOCOL_OVERRIDE");
	size_t over_key = over ? strcspn(over, "=") : 0;
	size_t at = 0;
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		int w;
		if (over && over[over_key] == '=' && strlen(table[i].key) == over_key &&
		    !strncmp(over, table[i].key, over_key))
			w = snprintf(out + at, cap - at, "%s\n", over);
		else if (table[i].text)
			w = snprintf(out + at, cap - at, "%s=%s\n", table[i].key, table[i].text);
		else
			w = snprintf(out + at, cap - at, "%s=%llu\n", table[i].key, table[i].number);
		if (w < 0 || (size_t)w >= cap - at)
			return -1;
		at += (size_t)w;
	}
	return (int)at;
}

/* ---- response parsing ---- */

struct cur {
	const uint8_t *p;
	size_t len, pos;
	int bad;
};

static uint64_t take(struct cur *c, unsigned bytes)
{
	if (c->len - c->pos < bytes) {
		c->bad = 1;
		c->pos = c->len;
		return 0;
	}
	uint64_t x = 0;
	for (unsigned i = 0; i < bytes; i++)
		x |= (uint64_t)c->p[c->pos + i] << (8 * i);
	c->pos += bytes;
	return x;
}

/* A length-prefixed string into out (truncated to n-1, NUL-terminated). */
static void take_str(struct cur *c, char *out, size_t n)
{
	uint64_t l = take(c, 4);
	if (c->bad || l > c->len - c->pos) {
		c->bad = 1;
		out[0] = 0;
		return;
	}
	size_t k = l < n - 1 ? (size_t)l : n - 1;
	memcpy(out, c->p + c->pos, k);
	out[k] = 0;
	c->pos += (size_t)l;
}

static int take_outputs(struct cur *c, struct mode_result *m, const uint8_t *data, size_t data_len, char *why,
			size_t n)
{
	uint64_t nout = take(c, 4);
	if (c->bad || nout > RESULT_MAX_OUT)
		return fail(why, n, "output count %llu out of range", (unsigned long long)nout);
	m->nout = (unsigned)nout;
	for (unsigned k = 0; k < nout; k++) {
		struct tensor_out *t = &m->out[k];
		memset(t, 0, sizeof *t);
		t->is_tensor = (uint8_t)take(c, 1);
		t->dtype = (uint8_t)take(c, 1);
		t->rank = (uint8_t)take(c, 1);
		t->has_values = (uint8_t)take(c, 1);
		t->numel = take(c, 8);
		uint64_t off = take(c, 8);
		t->alias = (uint16_t)take(c, 2);
		if (c->bad || t->dtype > DT_COUNT || t->rank > G_MAX_RANK)
			return fail(why, n, "output %u: bad header", k);
		uint64_t numel = 1;
		for (unsigned d = 0; d < t->rank; d++) {
			t->shape[d] = (int64_t)take(c, 8);
			if (t->shape[d] < 0 || t->shape[d] > (1LL << 31))
				return fail(why, n, "output %u: bad shape", k);
			numel *= (uint64_t)t->shape[d];
		}
		for (unsigned d = 0; d < t->rank; d++)
			t->stride[d] = (int64_t)take(c, 8);
		if (c->bad || (t->is_tensor && numel != t->numel))
			return fail(why, n, "output %u: shape and element count disagree", k);
		if (t->has_values) {
			if (t->dtype >= DT_COUNT || off % 8 || off > data_len ||
			    t->numel > (data_len - off) / 8 / dtype_parts(t->dtype))
				return fail(why, n, "output %u: values outside shared memory", k);
			if (dtype_is_inexact(t->dtype))
				t->f = (const double *)(const void *)(data + off);
			else
				t->i = (const int64_t *)(const void *)(data + off);
		}
	}
	return 0;
}

long protocol_parse_response(const uint8_t *msg, size_t len, const uint8_t *data, size_t data_len,
			     struct run_result *r, int *restart, char *why, size_t n)
{
	struct cur c = {msg, len, 0, 0};
	if (len < 24 || memcmp(msg, "P2FR", 4))
		return fail(why, n, "not a response (bad magic)");
	c.pos = 4;
	long id = (long)take(&c, 4);
	r->compiled_graphs = (uint32_t)take(&c, 4);
	r->graph_breaks = (uint32_t)take(&c, 4);
	*restart = (int)take(&c, 4);
	uint64_t nrec = take(&c, 4);
	if (nrec > RM_COUNT * G_MAX_BIND)
		return fail(why, n, "%llu records", (unsigned long long)nrec);
	for (unsigned i = 0; i < nrec; i++) {
		unsigned mode = (unsigned)take(&c, 1), b = (unsigned)take(&c, 1), ok = (unsigned)take(&c, 1);
		unsigned ngrad = (unsigned)take(&c, 1);
		uint32_t usec = (uint32_t)take(&c, 4);
		if (c.bad || mode >= RM_COUNT || b >= G_MAX_BIND)
			return fail(why, n, "record %u: bad mode or binding", i);
		struct mode_result *m = &r->m[mode][b];
		m->ran = 1;
		m->ok = ok != 0;
		m->usec = usec;
		if (b + 1 > r->nbind)
			r->nbind = b + 1;
		if (m->ok) {
			if (take_outputs(&c, m, data, data_len, why, n))
				return -1;
			if (ngrad > m->nout)
				return fail(why, n, "record %u: %u gradients among %u outputs", i, ngrad, m->nout);
			m->ngrad = (uint8_t)ngrad;
		} else {
			take_str(&c, m->etype, sizeof m->etype);
			take_str(&c, m->emsg, sizeof m->emsg);
			take_str(&c, m->frames, sizeof m->frames);
			take_str(&c, m->ebases, sizeof m->ebases);
		}
		if (c.bad)
			return fail(why, n, "record %u truncated", i);
	}
	/* The stages' timings: absent from a worker that sends none. */
	if (c.pos < len) {
		uint64_t nstages = take(&c, 4);
		if (c.bad || nstages != WS_COUNT)
			return fail(why, n, "%llu stage timings, expected %u", (unsigned long long)nstages, WS_COUNT);
		for (unsigned s = 0; s < WS_COUNT; s++)
			r->stage_usec[s] += take(&c, 4);
		if (c.bad)
			return fail(why, n, "stage timings truncated");
	}
	if (c.pos != len)
		return fail(why, n, "%zu trailing bytes", len - c.pos);
	return id;
}
