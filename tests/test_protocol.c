/* The reply's layout (harness/protocol.c: reply_parts): what the executor
 * sends the worker at start-up, what docs/protocol.md shows, and what the
 * parser reads. */
#include "test.h"
#include "../harness/protocol.h"
#include "../pipeline/graphio.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The start-up's reply_PART lines are the docs' lines, and the docs show no other. */
TEST(protocol_reply_layout_is_the_one_the_docs_show)
{
	char constants[PROTO_CONSTANTS_MAX], why[200];
	size_t len;
	CHECK(protocol_constants(constants, sizeof constants) > 0);
	char *docs = (char *)graphio_read_file(PT2FUZZ_ROOT "/docs/protocol.md", 1 << 20, &len, why, sizeof why);
	if (!CHECK(docs != NULL))
		return;
	unsigned sent = 0, shown = 0;
	for (char *line = strtok(constants, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "reply_", 6))
			continue;
		sent++;
		char want[300];
		snprintf(want, sizeof want, "\n%s\n", line);
		if (!CHECK(strstr(docs, want) != NULL))
			fprintf(stderr, "  docs/protocol.md lacks %s\n", line);
	}
	for (const char *p = docs; (p = strstr(p, "\nreply_")); p++)
		shown += strcspn(p + 1, "\n") > strcspn(p + 1, "=");
	CHECK_EQ(sent, 7);
	CHECK_EQ(shown, sent);
	free(docs);
}

/* Little-endian bytes of x into *p, n wide. */
static void put(uint8_t **p, uint64_t x, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		*(*p)++ = (uint8_t)(x >> (8 * i));
}

static void put_str(uint8_t **p, const char *s)
{
	put(p, strlen(s), 4);
	memcpy(*p, s, strlen(s));
	*p += strlen(s);
}

/* A reply of an eager output [3, 4] without values and a compiled error,
 * written as docs/protocol.md lays it out, reads back field by field. */
TEST(protocol_reads_each_field_of_a_reply)
{
	static uint8_t msg[512];
	uint8_t *p = msg;
	memcpy(p, "P2FR", 4), p += 4;
	put(&p, 7, 4), put(&p, 2, 4), put(&p, 1, 4), put(&p, 0, 4), put(&p, 2, 4);
	put(&p, RM_EAGER, 1), put(&p, 0, 1), put(&p, 1, 1), put(&p, 0, 1), put(&p, 1234, 4);
	put(&p, 1, 4);
	put(&p, 1, 1), put(&p, DT_FLOAT32, 1), put(&p, 2, 1), put(&p, 0, 1), put(&p, 12, 8), put(&p, 0, 8), put(&p, 3, 2);
	put(&p, 3, 8), put(&p, 4, 8), put(&p, 4, 8), put(&p, 1, 8);
	put(&p, RM_COMPILED, 1), put(&p, 0, 1), put(&p, 0, 1), put(&p, 0, 1), put(&p, 99, 4);
	put_str(&p, "RuntimeError"), put_str(&p, "boom"), put_str(&p, "x.py:1:f"), put_str(&p, "RuntimeError Exception");
	static struct run_result r;
	int restart = -1;
	char why[200] = "";
	long id = protocol_parse_response(msg, (size_t)(p - msg), NULL, 0, &r, &restart, why, sizeof why);
	if (!CHECK_EQ(id, 7))
		fprintf(stderr, "  %s\n", why);
	CHECK_EQ(r.compiled_graphs, 2);
	CHECK_EQ(r.graph_breaks, 1);
	CHECK_EQ(restart, 0);
	const struct mode_result *e = &r.m[RM_EAGER][0], *c = &r.m[RM_COMPILED][0];
	CHECK(e->ran && e->ok && e->usec == 1234 && e->nout == 1);
	CHECK(e->out[0].is_tensor && e->out[0].dtype == DT_FLOAT32 && e->out[0].numel == 12 && e->out[0].alias == 3);
	CHECK(e->out[0].shape[0] == 3 && e->out[0].shape[1] == 4 && e->out[0].stride[0] == 4 && e->out[0].stride[1] == 1);
	CHECK(c->ran && !c->ok && c->usec == 99);
	CHECK(!strcmp(c->etype, "RuntimeError") && !strcmp(c->emsg, "boom") && !strcmp(c->frames, "x.py:1:f"));
	CHECK(!strcmp(c->ebases, "RuntimeError Exception"));
	CHECK_EQ(protocol_parse_response(msg, (size_t)(p - msg) - 1, NULL, 0, &r, &restart, why, sizeof why), -1);
	msg[3] = 'X';
	CHECK_EQ(protocol_parse_response(msg, (size_t)(p - msg), NULL, 0, &r, &restart, why, sizeof why), -1);
}

/* A trace message: its tag, then its note as a string, then the text. */
TEST(protocol_reads_a_tagged_message_and_its_string)
{
	uint8_t msg[64], *p = msg;
	memcpy(p, "P2FT", 4), p += 4;
	put(&p, 5, 4);
	put_str(&p, "cut");
	memcpy(p, "log", 3), p += 3;
	size_t len = (size_t)(p - msg), note_len = 0;
	CHECK_EQ(protocol_parse_tagged(msg, len, "P2FT", 5), 8);
	CHECK_EQ(protocol_parse_tagged(msg, len, "P2FT", 6), -1);
	CHECK_EQ(protocol_parse_tagged(msg, len, "P2FL", 5), -1);
	CHECK_EQ(protocol_parse_tagged(msg, 7, "P2FT", 5), -1);
	CHECK_EQ(protocol_parse_string(msg, len, 8, &note_len), 12);
	CHECK_EQ(note_len, 3);
	CHECK_EQ(protocol_parse_string(msg, 14, 8, &note_len), -1); /* the note cut short */
	CHECK_EQ(protocol_parse_string(msg, len, len + 1, &note_len), -1);
}
