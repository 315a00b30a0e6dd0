/* libFuzzer target for the decoder: any byte string either fails to decode
 * with a reason, or gives a graph that validates, re-encodes to a fixpoint,
 * emits a program, and survives the text form's round trip. Anything else
 * aborts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../graph/codec.h"
#include "../graph/emit.h"
#include "../graph/text.h"
#include "../graph/validate.h"

static struct graph g, h;
static uint8_t enc1[CODEC_MAX_SIZE], enc2[CODEC_MAX_SIZE];

static void check(int ok, const char *what, const char *why)
{
	if (!ok) {
		fprintf(stderr, "decode_fuzzer: %s%s%s\n", what, why ? ": " : "", why ? why : "");
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[300];
	if (codec_decode(&g, data, size, why, sizeof why))
		return -1; /* rejected inputs never enter the corpus */
	check(graph_validate(&g, why, sizeof why) == 0, "decoded graph is invalid", why);
	size_t n1 = codec_encode(&g, enc1, sizeof enc1);
	check(n1 > 0, "re-encoding failed", NULL);
	check(codec_decode(&h, enc1, n1, why, sizeof why) == 0, "re-encoded graph does not decode", why);
	size_t n2 = codec_encode(&h, enc2, sizeof enc2);
	check(n1 == n2 && !memcmp(enc1, enc2, n1), "encoding is not a fixpoint", NULL);

	size_t len;
	char *prog = emit_program_string(&g, NULL, &len);
	check(prog && len > 0 && strstr(prog, "class Model"), "emission failed", NULL);
	free(prog);

	char *text = NULL;
	size_t tlen = 0;
	FILE *f = open_memstream(&text, &tlen);
	check(f != NULL, "open_memstream", NULL);
	text_write(f, &g, 1);
	fclose(f);
	check(text_parse(&h, text, why, sizeof why) == 0, "text form does not parse back", why);
	free(text);
	n2 = codec_encode(&h, enc2, sizeof enc2);
	check(n1 == n2 && !memcmp(enc1, enc2, n1), "text round trip changed the graph", NULL);
	return 0;
}
