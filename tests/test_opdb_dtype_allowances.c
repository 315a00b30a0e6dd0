/* The reviewed dtype allowances of `pt2fuzz opdb --dtypes`
 * (cli/opdb_dtype_allowances.c): each is about a row and dtypes the catalogue
 * has, on a device the row runs on, and is found for that row and device only. */
#include <string.h>
#include "test.h"
#include "../cli/opdb_dtype_allowances.h"
#include "../graph/op.h"

TEST(every_dtype_allowance_is_a_claim_of_a_catalogue_row)
{
	for (unsigned i = 0; i < opdb_dtype_allowance_count; i++) {
		const struct opdb_dtype_allowance *a = &opdb_dtype_allowances[i];
		int id = op_find(a->row);
		CHECK(id >= 0);
		if (id < 0)
			continue;
		const struct op_def *op = op_get((unsigned)id);
		CHECK(a->dtypes && (a->dtypes & ~op->dtypes) == 0);
		CHECK(!a->device || !strcmp(a->device, "cpu") || (!strcmp(a->device, "cuda") && !op->cpu_only));
		CHECK(a->reason && strlen(a->reason) > 20);
	}
}

TEST(a_dtype_allowance_is_found_for_its_row_and_device_only)
{
	const struct opdb_dtype_allowance *a = opdb_dtype_allowed("embedding", "cuda");
	CHECK(a && a == opdb_dtype_allowed("embedding", "cpu")); /* no device: every device */
	CHECK(opdb_dtype_allowed("rrelu", "cpu") != NULL);
	CHECK(opdb_dtype_allowed("rrelu", "cuda") == NULL);
	CHECK(opdb_dtype_allowed("embeddin", "cpu") == NULL);
	CHECK(opdb_dtype_allowed("abs", "cpu") == NULL);
}
