/* The rows of fills and layouts (graph/fills.c): each is named (and found by
 * its name), and its Python uses only the directives that both writers
 * spell, the plain program's literals and the harness program's names
 * (tests/integration/test_plain_inputs.sh checks that they draw alike). */
#include <string.h>
#include "../graph/fills.h"
#include "test.h"

/* Appends each directive spelled to the string ctx (room for 32). */
static void record(FILE *f, char c, const void *ctx)
{
	(void)f;
	char *seen = (char *)ctx;
	size_t n = strlen(seen);
	if (n < 31)
		seen[n] = c;
}

/* Whether fmt's directives are all among allowed. */
static int only(const char *fmt, const char *allowed)
{
	char seen[32] = {0};
	FILE *f = fopen("/dev/null", "w");
	if (!f)
		return 0;
	fills_spell(f, fmt, record, seen);
	fclose(f);
	return strspn(seen, allowed) == strlen(seen);
}

TEST(fills_rows_are_named_and_spell_known_directives)
{
	for (unsigned k = 0; k < FILL_COUNT; k++) {
		const struct fill_row *r = &fill_rows[k];
		CHECK(r->name && fill_find(r->name) == (int)k);
		CHECK(r->draw && only(r->draw, "SLHNC"));
		CHECK(fill_has_bounds(k) == (strstr(r->draw, "%L") || strstr(r->draw, "%H") || strstr(r->draw, "%C")));
	}
	for (unsigned k = 0; k < IL_COUNT; k++) {
		const struct layout_row *r = &layout_rows[k];
		CHECK(r->name && layout_find(r->name) == (int)k);
		CHECK(r->rank_min <= r->rank_max);
		CHECK(only(r->suffix, "SR") && only(r->remake, "SRX"));
		CHECK(!(r->remake || r->share) || r->about);
		CHECK(!r->share || (!r->suffix && !r->remake)); /* drawn plain, then the partner's memory */
	}
	CHECK(only("%S %Q", "S") == 0); /* the check sees a directive no writer spells */
}
