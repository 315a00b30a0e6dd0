/* The reducer's attribute pass moves integer attributes toward 0 and leaves
 * real numbers as they are: 1e-06 does not become 0, nor -0.0 0.0. */
#include <math.h>
#include "../graph/real.h"
#include "../triage/reduce.h"
#include "test.h"
#include "testkit.h"

static char why[300];

TEST(reduce_keeps_real_attributes_and_shrinks_integers)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int c = tk_node(&g, "clamp", 1, &x, 2, (int64_t[]){real_bits(-0.0), real_bits(1e-6)}, why, sizeof why);
	int s = tk_node(&g, "add_scalar", 1, &x, 1, (int64_t[]){real_bits(-INFINITY)}, why, sizeof why);
	int t = tk_node(&g, "transpose", 1, &x, 2, (int64_t[]){-2, 1}, why, sizeof why);
	CHECK(c >= 0 && s >= 0 && t >= 0);
	int64_t v;
	for (unsigned which = 0; which < 3; which++) {
		CHECK(reduce_attr_candidate(&g, (unsigned)c, 0, which, &v) < 0);
		CHECK(reduce_attr_candidate(&g, (unsigned)c, 1, which, &v) < 0);
		CHECK(reduce_attr_candidate(&g, (unsigned)s, 0, which, &v) < 0);
	}
	CHECK(reduce_attr_candidate(&g, (unsigned)t, 0, 0, &v) == 0 && v == 0);
	CHECK(reduce_attr_candidate(&g, (unsigned)t, 0, 2, &v) == 0 && v == -1);
	CHECK(reduce_attr_candidate(&g, (unsigned)t, 1, 1, &v) < 0); /* 1 is no smaller than 1 */
	CHECK(reduce_attr_candidate(&g, (unsigned)t, 2, 0, &v) < 0); /* no such attribute */
}
