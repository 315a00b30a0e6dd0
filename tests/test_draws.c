/* Draws that differ between modes (pipeline/draws.h): on a torch with a
 * known draw bug, the outputs of a component that holds a random op of
 * that bug are judged by layout only; the other components', and every
 * output on a torch without the bug, are judged in full. */
#include <stdio.h>
#include <string.h>
#include "../graph/text.h"
#include "../oracles/oracle.h"
#include "../pipeline/draws.h"
#include "test.h"

static struct graph g;

/* Three components: a dropout's, a bernoulli's, a relu's; the dropout's
 * component also returns a value computed from it. */
static const char *const text = "x0 = input float32 [4, 3]\n"
				"x1 = input float32 [4, 3]\n"
				"x2 = input float32 [5]\n"
				"v3 = dropout(x0; p=0.3)\n"
				"v4 = exp(v3)\n"
				"v5 = bernoulli(x1)\n"
				"v6 = relu(x2)\n"
				"output v3, v4, v5, v6\n";

static unsigned judged(const char *torch, uint8_t *cmp)
{
	struct emit_opts eo = {"inductor", NULL, 0};
	unsigned n = emit_compared(&g, &eo, cmp, 8);
	CHECK_EQ(n, 4);
	return draws_layout_only(&g, &eo, torch, cmp, n);
}

TEST(draws_of_a_known_draw_bug_are_judged_by_layout_only)
{
	char why[300];
	uint8_t cmp[8];
	if (!CHECK_EQ(text_parse(&g, text, why, sizeof why), 0)) {
		fprintf(stderr, "  %s\n", why);
		return;
	}
	/* the built-in list: #181136 (any random op) on 2.11 */
	CHECK_EQ(judged("2.11.0+cu130", cmp), 3);
	CHECK_EQ(cmp[0], ORACLE_COMPARE_LAYOUT);
	CHECK_EQ(cmp[1], ORACLE_COMPARE_LAYOUT); /* computed from the draw */
	CHECK_EQ(cmp[2], ORACLE_COMPARE_LAYOUT);
	CHECK_EQ(cmp[3], ORACLE_COMPARE_ALL); /* another component */
	/* no draw bug on 2.15: everything compared */
	CHECK_EQ(judged("2.15.0+cu132", cmp), 0);
	for (unsigned k = 0; k < 4; k++)
		CHECK_EQ(cmp[k], ORACLE_COMPARE_ALL);
}

TEST(draws_under_a_configuration_that_draws_otherwise_are_judged_by_layout_only)
{
	char why[300], src[600];
	uint8_t cmp[8];
	/* fallback_random off: Inductor draws its own numbers */
	snprintf(src, sizeof src, "bindings 1\nseed 1\nconfig inductor.fallback_random=False\n%s", text);
	CHECK_EQ(text_parse(&g, src, why, sizeof why), 0);
	CHECK_EQ(judged("2.15.0+cu132", cmp), 3);
	CHECK_EQ(cmp[3], ORACLE_COMPARE_ALL);
	/* on, as the worker runs anyway, or a setting that leaves draws alone: everything compared */
	static const char *const alike[] = {"inductor.fallback_random=True", "inductor.max_fusion_size=4"};
	for (unsigned i = 0; i < 2; i++) {
		snprintf(src, sizeof src, "bindings 1\nseed 1\nconfig %s\n%s", alike[i], text);
		CHECK_EQ(text_parse(&g, src, why, sizeof why), 0);
		CHECK_EQ(judged("2.15.0+cu132", cmp), 0);
	}
}
