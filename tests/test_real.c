/* Real attributes (graph/real.h): every class drawn, each value written and
 * read back to the same bits in the text form, the codec and the program. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../graph/codec.h"
#include "../graph/emit.h"
#include "../graph/real.h"
#include "../graph/text.h"
#include "test.h"
#include "testkit.h"

static char why[300];
static uint8_t buf[CODEC_MAX_SIZE];

static const double specials[] = {1e-6, 1e-30, 3e38, 1.0 / 300, 1.0 / 3, -0.0, 0.0, INFINITY, -INFINITY, NAN,
				  5e-324, 1.7976931348623157e308, -2.5, 0.1};

static int same_bits(double a, double b) { return real_bits(a) == real_bits(b) || (isnan(a) && isnan(b)); }

TEST(real_format_reads_back_exactly)
{
	char s[64];
	for (unsigned i = 0; i < sizeof specials / sizeof *specials; i++) {
		double x;
		real_format(s, sizeof s, specials[i], 0);
		CHECK_EQ(real_parse(s, &x), strlen(s));
		CHECK(same_bits(x, specials[i]));
	}
	real_format(s, sizeof s, -0.0, 0);
	CHECK(!strcmp(s, "-0.0"));
	real_format(s, sizeof s, 1e-6, 0);
	CHECK(!strcmp(s, "1e-06"));
	real_format(s, sizeof s, 1.0 / 3, 0);
	CHECK(!strcmp(s, "0.3333333333333333"));
	real_format(s, sizeof s, 3.0, 0);
	CHECK(!strcmp(s, "3.0"));
	real_format(s, sizeof s, -INFINITY, 0);
	CHECK(!strcmp(s, "-inf"));
	real_format(s, sizeof s, -INFINITY, 1);
	CHECK(!strcmp(s, "float('-inf')"));
	real_format(s, sizeof s, NAN, 1);
	CHECK(!strcmp(s, "float('nan')"));
	double x;
	CHECK_EQ(real_parse("0x1p3", &x), 1u); /* the 0 alone: no hex floats */
	CHECK_EQ(real_parse("infinity", &x), 3u);
	CHECK_EQ(real_parse("abc", &x), 0u);
}

TEST(real_draw_reaches_every_class_and_keeps_to_its_mask)
{
	struct rng r;
	rng_seed(&r, 7);
	unsigned seen[RC_COUNT] = {0};
	for (unsigned i = 0; i < 4000; i++)
		seen[real_class_of(real_value(real_draw(&r, RCM_ALL, 0)))]++;
	for (unsigned c = 0; c < RC_COUNT; c++)
		CHECK(seen[c] > 0);
	CHECK(seen[RC_ORDINARY] > seen[RC_NAN]);
	for (unsigned i = 0; i < 2000; i++) {
		double x = real_value(real_draw(&r, RCM_MAGNITUDE, 1));
		CHECK(isfinite(x) && x > 0);
		x = real_value(real_draw(&r, RCM(RC_TINY), -1));
		CHECK(x < 0 && x > -1e-4);
	}
	CHECK_EQ(real_class_of(-0.0), RC_NEG_ZERO);
	CHECK_EQ(real_class_of(1e-6), RC_TINY);
	CHECK_EQ(real_class_of(3e38), RC_HUGE);
	CHECK_EQ(real_class_of(1.0 / 300), RC_FRACTION);
	CHECK_EQ(real_class_of(-INFINITY), RC_NEG_INF);
}

/* A graph holding every special value as add_scalar's number. */
static void graph_of_specials(struct graph *g)
{
	tk_static(g);
	int x = tk_input(g, DT_FLOAT32, 2, (int[]){2, 3});
	for (unsigned i = 0; i < sizeof specials / sizeof *specials; i++) {
		int64_t bits = real_bits(specials[i]);
		CHECK(tk_node(g, "add_scalar", 1, &x, 1, &bits, why, sizeof why) >= 0);
	}
	graph_mark_sinks(g);
}

TEST(real_attributes_survive_text_and_codec)
{
	static struct graph g, h;
	graph_of_specials(&g);
	char *t = tk_text(&g, 0);
	CHECK(strstr(t, "value=-0.0)") && strstr(t, "value=1e-06)") && strstr(t, "value=nan)") &&
	      strstr(t, "value=-inf)") && strstr(t, "value=0.0033333333333333335)"));
	CHECK_EQ(text_parse(&h, t, why, sizeof why), 0);
	free(t);
	for (unsigned k = 0; k < g.nnodes; k++)
		CHECK(same_bits(real_value(h.n[k].attr[0]), real_value(g.n[k].attr[0])));
	size_t n = codec_encode(&g, buf, sizeof buf);
	CHECK(n > 0);
	CHECK_EQ(codec_decode(&h, buf, n, why, sizeof why), 0);
	for (unsigned k = 0; k < g.nnodes; k++)
		CHECK_EQ(h.n[k].attr[0], g.n[k].attr[0]);
}

TEST(real_attributes_are_exact_python)
{
	static struct graph g;
	graph_of_specials(&g);
	char *p = emit_program_string(&g, NULL, NULL);
	CHECK(p && strstr(p, " + 1e-06\n") && strstr(p, " + -0.0\n") && strstr(p, " + float('inf')\n") &&
	      strstr(p, " + float('-inf')\n") && strstr(p, " + float('nan')\n") && strstr(p, " + 1e-30\n") &&
	      strstr(p, " + 3e+38\n") && strstr(p, " + 5e-324\n") && strstr(p, " + 0.3333333333333333\n"));
	free(p);
}
