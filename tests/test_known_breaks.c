/* Known bugs of near-invalid graphs learned from findings (fuzz/known_breaks.h):
 * a pair added is hit on its torch's MAJOR.MINOR only, once in the file
 * however often it is added, and what another job appends is seen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../fuzz/known_breaks.h"
#include "test.h"
#include "testkit.h"

TEST(known_breaks_added_once_hit_on_their_torch_and_shared)
{
	char dir[64] = "/tmp/pt2fuzz-kb.XXXXXX", path[128], cmd[160];
	if (!CHECK(mkdtemp(dir) != NULL))
		return;
	snprintf(path, sizeof path, "%s/%s", dir, KNOWN_BREAKS_FILE);
	CHECK(!known_breaks_hit(dir, "2.11.0+cu130", "std", "unsupported_dtype"));
	CHECK_EQ(known_breaks_add(dir, "2.11.0+cu130", "std", "unsupported_dtype", "pytorch#198155"), 0);
	CHECK(known_breaks_hit(dir, "2.11.0+cu130", "std", "unsupported_dtype"));
	CHECK(known_breaks_hit(dir, "2.11.1", "std", "unsupported_dtype"));
	CHECK(!known_breaks_hit(dir, "2.15.0", "std", "unsupported_dtype"));
	CHECK(!known_breaks_hit(dir, "2.11.0", "var", "unsupported_dtype"));
	CHECK(!known_breaks_hit(dir, "2.11.0", "std", "attr_domain"));
	CHECK_EQ(known_breaks_add(dir, "2.11.0", "std", "unsupported_dtype", "pytorch#198155"), 0);
	CHECK_EQ(tk_file_lines(path), 1);
	/* another job's line */
	FILE *f = fopen(path, "a");
	if (CHECK(f != NULL)) {
		fputs("2.11\tindex_select\tindex_range\tpytorch#158088\n", f);
		fclose(f);
	}
	CHECK(known_breaks_hit(dir, "2.11.0", "index_select", "index_range"));
	CHECK(known_breaks_add(dir, "", "std", "attr_domain", "x") < 0); /* no MAJOR.MINOR */
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK_EQ(system(cmd), 0);
}
