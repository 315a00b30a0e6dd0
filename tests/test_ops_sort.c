/* Sorting and selection: shapes of sort/argsort/topk/kthvalue, tie bits on
 * indices only, k checked at every binding, and the dtypes torch rejects. */
#include "test.h"
#include "testkit.h"
#include <string.h>

static char why[300];

TEST(sort_values_and_indices)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_BOOL, 3, (int[]){2, 3, 4});
	int k = tk_node(&g, "sort", 1, &x, 3, (int64_t[]){1, 1, 0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(g.n[k].nout, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_BOOL);
	CHECK(!tk_out(&g, k, 0)->tie);
	CHECK(tk_out(&g, k, 1)->tie);
	CHECK_EQ(tk_out(&g, k, 1)->dtype, DT_INT64);
	CHECK_EQ(tk_out(&g, k, 1)->hi, 2);
	CHECK_EQ(tk_out(&g, k, 1)->dim[0][2], 4);
	k = tk_node(&g, "argsort", 1, &x, 3, (int64_t[]){-1, 0, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK(tk_out(&g, k, 0)->tie);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 3);
	CHECK(tk_node(&g, "sort", 1, &x, 3, (int64_t[]){3, 0, 0}, why, sizeof why) < 0);
	k = tk_node(&g, "msort", 1, &x, 0, NULL, why, sizeof why);
	CHECK(k >= 0);
	CHECK(!tk_out(&g, k, 0)->tie);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 2);
}

TEST(sort_topk_resizes_dim)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){5, 6});
	int k = tk_node(&g, "topk", 1, &x, 3, (int64_t[]){3, 0, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 6);
	CHECK(!tk_out(&g, k, 0)->tie);
	CHECK(tk_out(&g, k, 1)->tie);
	CHECK_EQ(tk_out(&g, k, 1)->hi, 4);
	/* k = the whole dim is fine; beyond it or 0 is not */
	CHECK(tk_node(&g, "topk", 1, &x, 3, (int64_t[]){6, -1, 0}, why, sizeof why) >= 0);
	CHECK(tk_node(&g, "topk", 1, &x, 3, (int64_t[]){7, -1, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "topk", 1, &x, 3, (int64_t[]){0, -1, 0}, why, sizeof why) < 0);
	/* sorted=False: neither output is comparable */
	k = tk_node(&g, "topk_unsorted", 1, &x, 3, (int64_t[]){2, 1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK(tk_out(&g, k, 0)->tie);
	k = tk_node(&g, "topk_values", 1, &x, 3, (int64_t[]){2, 1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(g.n[k].nout, 1);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 2);
}

TEST(sort_k_checked_at_every_binding)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){6, 3});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){2, -1});
	/* k = 4 fits binding 0 (6) but not binding 1 (3) */
	CHECK(tk_node(&g, "topk", 1, &x, 3, (int64_t[]){4, 1, 1}, why, sizeof why) < 0);
	CHECK(strstr(why, "binding 1") != NULL);
	CHECK(tk_node(&g, "kthvalue", 1, &x, 3, (int64_t[]){4, 1, 0}, why, sizeof why) < 0);
	int k = tk_node(&g, "topk", 1, &x, 3, (int64_t[]){3, 1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 3);
	CHECK(tk_out(&g, k, 0)->dyn == 0); /* k is static */
	CHECK_EQ(tk_out(&g, k, 1)->hi, 5);
}

TEST(sort_kthvalue_drops_or_keeps_dim)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_INT32, 3, (int[]){2, 3, 4});
	int k = tk_node(&g, "kthvalue", 1, &x, 3, (int64_t[]){2, 1, 0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 4);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_INT32);
	CHECK_EQ(tk_out(&g, k, 0)->hi, 5);
	CHECK_EQ(tk_out(&g, k, 1)->hi, 2);
	k = tk_node(&g, "kthvalue", 1, &x, 3, (int64_t[]){3, 1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 3);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 1);
	CHECK(tk_node(&g, "kthvalue", 1, &x, 3, (int64_t[]){4, 1, 1}, why, sizeof why) < 0);
}

TEST(sort_selection_rejects_bool_and_handles_zero_dim)
{
	struct graph g;
	tk_static(&g);
	int b = tk_input(&g, DT_BOOL, 1, (int[]){4});
	int s = tk_input(&g, DT_FLOAT32, 0, (int[]){0});
	CHECK(tk_node(&g, "topk", 1, &b, 3, (int64_t[]){1, 0, 1}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "kthvalue", 1, &b, 3, (int64_t[]){1, 0, 1}, why, sizeof why) < 0);
	int k = tk_node(&g, "topk", 1, &s, 3, (int64_t[]){1, -1, 1}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);
	CHECK(tk_node(&g, "topk", 1, &s, 3, (int64_t[]){2, 0, 1}, why, sizeof why) < 0);
	k = tk_node(&g, "kthvalue", 1, &s, 3, (int64_t[]){1, 0, 0}, why, sizeof why);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);
}
