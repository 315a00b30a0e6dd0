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

/* ---- names both sides agree on ---- */

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

/* ---- the reply's layout ---- */

/* One field of a reply part: its name and its format, a code of Python's
 * struct module (little-endian: B u8, H u16, I u32, Q u64, q i64, 4s four
 * bytes). The worker packs each part by these rows, which it gets at
 * start-up (protocol_constants: reply_PART=name:format,...), and the parser
 * below reads by them: the one description of the reply's bytes. */
struct reply_field {
	const char *name, *format;
};

enum { HEAD_MAGIC, HEAD_ID, HEAD_GRAPHS, HEAD_BREAKS, HEAD_RESTART, HEAD_RECORDS, HEAD_FIELDS };
static const struct reply_field head_fields[HEAD_FIELDS] = {
	[HEAD_MAGIC] = {"magic", "4s"},         [HEAD_ID] = {"id", "I"},           [HEAD_GRAPHS] = {"compiled_graphs", "I"},
	[HEAD_BREAKS] = {"graph_breaks", "I"}, [HEAD_RESTART] = {"restart", "I"}, [HEAD_RECORDS] = {"nrecords", "I"},
};

enum { REC_MODE, REC_BINDING, REC_OK, REC_NGRAD, REC_USEC, REC_FIELDS };
static const struct reply_field record_fields[REC_FIELDS] = {
	[REC_MODE] = {"mode", "B"},   [REC_BINDING] = {"binding", "B"},        [REC_OK] = {"ok", "B"},
	[REC_NGRAD] = {"ngrad", "B"}, [REC_USEC] = {"microseconds", "I"},
};

enum { OUT_IS_TENSOR, OUT_DTYPE, OUT_RANK, OUT_HAS_VALUES, OUT_NUMEL, OUT_OFFSET, OUT_ALIAS, OUT_FIELDS };
static const struct reply_field output_fields[OUT_FIELDS] = {
	[OUT_IS_TENSOR] = {"is_tensor", "B"},   [OUT_DTYPE] = {"dtype", "B"}, [OUT_RANK] = {"rank", "B"},
	[OUT_HAS_VALUES] = {"has_values", "B"}, [OUT_NUMEL] = {"numel", "Q"}, [OUT_OFFSET] = {"offset", "Q"},
	[OUT_ALIAS] = {"alias", "H"},
};

/* Parts of one field, repeated: */
static const struct reply_field count_fields[] = {{"count", "I"}}; /* outputs, stages, a string's bytes */
static const struct reply_field dim_fields[] = {{"size", "q"}};    /* an output's shape[rank], then stride[rank] */
static const struct reply_field stage_fields[] = {{"microseconds", "I"}};

/* The head of the messages answered with text (P2FL, P2FE) and of the trace (P2FT). */
enum { TAG_MAGIC, TAG_ID, TAG_FIELDS };
static const struct reply_field tag_fields[TAG_FIELDS] = {[TAG_MAGIC] = {"magic", "4s"}, [TAG_ID] = {"id", "I"}};

struct reply_part {
	const char *key; /* reply_NAME: its start-up key, the worker's name for it */
	const struct reply_field *fields;
	unsigned count;
};

enum { PART_HEAD, PART_RECORD, PART_COUNT, PART_OUTPUT, PART_DIM, PART_STAGE, PART_TAG, PARTS };
#define PART(key, fields) {key, fields, sizeof fields / sizeof fields[0]}
static const struct reply_part reply_parts[PARTS] = {
	[PART_HEAD] = PART("reply_head", head_fields),    [PART_RECORD] = PART("reply_record", record_fields),
	[PART_COUNT] = PART("reply_count", count_fields), [PART_OUTPUT] = PART("reply_output", output_fields),
	[PART_DIM] = PART("reply_dim", dim_fields),       [PART_STAGE] = PART("reply_stage", stage_fields),
	[PART_TAG] = PART("reply_tag", tag_fields),
};
#undef PART

/* The bytes of one field: a struct code's size, times its leading count. */
static unsigned format_bytes(const char *format)
{
	static const char codes[] = "BHIQqs";
	static const unsigned sizes[] = {1, 2, 4, 8, 8, 1};
	unsigned repeat = 0;
	for (; *format >= '0' && *format <= '9'; format++)
		repeat = 10 * repeat + (unsigned)(*format - '0');
	const char *code = strchr(codes, *format);
	return (repeat ? repeat : 1) * (code && *code ? sizes[code - codes] : 0);
}

/* A part's rows as the worker reads them: name:format,name:format,... */
static void part_text(const struct reply_part *part, char *out, size_t cap)
{
	size_t at = 0;
	out[0] = 0;
	for (unsigned i = 0; i < part->count && at < cap; i++)
		at += (size_t)snprintf(out + at, cap - at, "%s%s:%s", i ? "," : "", part->fields[i].name,
				       part->fields[i].format);
}

/* ---- the constants both sides agree on ---- */

/* key=text into out at *at, or the override's key=value where it names key. */
static int put_constant(char *out, size_t cap, size_t *at, const char *key, const char *text)
{
	const char *over = getenv("PT2FUZZ_PROTOCOL_OVERRIDE");
	size_t over_key = over ? strcspn(over, "=") : 0;
	int w;
	if (over && over[over_key] == '=' && strlen(key) == over_key && !strncmp(over, key, over_key))
		w = snprintf(out + *at, cap - *at, "%s\n", over);
	else
		w = snprintf(out + *at, cap - *at, "%s=%s\n", key, text);
	if (w < 0 || (size_t)w >= cap - *at)
		return -1;
	*at += (size_t)w;
	return 0;
}

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
	size_t at = 0;
	char text[256];
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		if (!table[i].text)
			snprintf(text, sizeof text, "%llu", table[i].number);
		if (put_constant(out, cap, &at, table[i].key, table[i].text ? table[i].text : text))
			return -1;
	}
	for (unsigned p = 0; p < PARTS; p++) {
		part_text(&reply_parts[p], text, sizeof text);
		if (put_constant(out, cap, &at, reply_parts[p].key, text))
			return -1;
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

/* A part's fields into v, in the table's order (a "4s" as its bytes, little-endian). */
static void take_part(struct cur *c, unsigned part, uint64_t *v)
{
	for (unsigned i = 0; i < reply_parts[part].count; i++)
		v[i] = take(c, format_bytes(reply_parts[part].fields[i].format));
}

/* The one field of a part of one field. */
static uint64_t take_one(struct cur *c, unsigned part)
{
	uint64_t v;
	take_part(c, part, &v);
	return v;
}

/* A magic's four bytes as take reads them. */
static uint64_t magic_value(const char *magic)
{
	return (uint64_t)(uint8_t)magic[0] | (uint64_t)(uint8_t)magic[1] << 8 | (uint64_t)(uint8_t)magic[2] << 16 |
	       (uint64_t)(uint8_t)magic[3] << 24;
}

/* A string (a count, then that many bytes) into out (truncated to n-1, NUL-terminated). */
static void take_str(struct cur *c, char *out, size_t n)
{
	uint64_t l = take_one(c, PART_COUNT);
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
	uint64_t nout = take_one(c, PART_COUNT);
	if (c->bad || nout > RESULT_MAX_OUT)
		return fail(why, n, "output count %llu out of range", (unsigned long long)nout);
	m->nout = (unsigned)nout;
	for (unsigned k = 0; k < nout; k++) {
		struct tensor_out *t = &m->out[k];
		uint64_t v[OUT_FIELDS];
		memset(t, 0, sizeof *t);
		take_part(c, PART_OUTPUT, v);
		t->is_tensor = (uint8_t)v[OUT_IS_TENSOR];
		t->dtype = (uint8_t)v[OUT_DTYPE];
		t->rank = (uint8_t)v[OUT_RANK];
		t->has_values = (uint8_t)v[OUT_HAS_VALUES];
		t->numel = v[OUT_NUMEL];
		uint64_t off = v[OUT_OFFSET];
		t->alias = (uint16_t)v[OUT_ALIAS];
		if (c->bad || t->dtype > DT_COUNT || t->rank > G_MAX_RANK)
			return fail(why, n, "output %u: bad header", k);
		uint64_t numel = 1;
		for (unsigned d = 0; d < t->rank; d++) {
			t->shape[d] = (int64_t)take_one(c, PART_DIM);
			if (t->shape[d] < 0 || t->shape[d] > (1LL << 31))
				return fail(why, n, "output %u: bad shape", k);
			numel *= (uint64_t)t->shape[d];
		}
		for (unsigned d = 0; d < t->rank; d++)
			t->stride[d] = (int64_t)take_one(c, PART_DIM);
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
	uint64_t head[HEAD_FIELDS];
	take_part(&c, PART_HEAD, head);
	if (c.bad || head[HEAD_MAGIC] != magic_value("P2FR"))
		return fail(why, n, "not a response (bad magic)");
	long id = (long)head[HEAD_ID];
	r->compiled_graphs = (uint32_t)head[HEAD_GRAPHS];
	r->graph_breaks = (uint32_t)head[HEAD_BREAKS];
	*restart = (int)head[HEAD_RESTART];
	uint64_t nrec = head[HEAD_RECORDS];
	if (nrec > RM_COUNT * G_MAX_BIND)
		return fail(why, n, "%llu records", (unsigned long long)nrec);
	for (unsigned i = 0; i < nrec; i++) {
		uint64_t v[REC_FIELDS];
		take_part(&c, PART_RECORD, v);
		unsigned mode = (unsigned)v[REC_MODE], b = (unsigned)v[REC_BINDING], ngrad = (unsigned)v[REC_NGRAD];
		if (c.bad || mode >= RM_COUNT || b >= G_MAX_BIND)
			return fail(why, n, "record %u: bad mode or binding", i);
		struct mode_result *m = &r->m[mode][b];
		m->ran = 1;
		m->ok = v[REC_OK] != 0;
		m->usec = (uint32_t)v[REC_USEC];
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
		uint64_t nstages = take_one(&c, PART_COUNT);
		if (c.bad || nstages != WS_COUNT)
			return fail(why, n, "%llu stage timings, expected %u", (unsigned long long)nstages, WS_COUNT);
		for (unsigned s = 0; s < WS_COUNT; s++)
			r->stage_usec[s] += take_one(&c, PART_STAGE);
		if (c.bad)
			return fail(why, n, "stage timings truncated");
	}
	if (c.pos != len)
		return fail(why, n, "%zu trailing bytes", len - c.pos);
	return id;
}

long protocol_parse_tagged(const uint8_t *msg, size_t len, const char *magic, uint64_t id)
{
	struct cur c = {msg, len, 0, 0};
	uint64_t tag[TAG_FIELDS];
	take_part(&c, PART_TAG, tag);
	return c.bad || tag[TAG_MAGIC] != magic_value(magic) || tag[TAG_ID] != (uint32_t)id ? -1 : (long)c.pos;
}

long protocol_parse_string(const uint8_t *msg, size_t len, size_t at, size_t *str_len)
{
	struct cur c = {msg, len, at <= len ? at : len, at > len};
	uint64_t l = take_one(&c, PART_COUNT);
	if (c.bad || l > len - c.pos)
		return -1;
	*str_len = (size_t)l;
	return (long)c.pos;
}
