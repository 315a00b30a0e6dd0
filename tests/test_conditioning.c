/* The reducer's conditioning rule (triage/conditioning.h) on the numbers of
 * the finding of PyTorch#151198 reduced naively: p = 2.0 of a pairwise
 * distance, eager 4.7e-7 from fp64 (rmse), halved down to p = 0.062, eager
 * 2.3e26 from fp64 next to a difference of 2.7e31 (measured on torch 2.15's
 * CPU, eager float32 against float64). */
#include "test.h"
#include "../triage/conditioning.h"

static struct pool_result numeric(double res_rmse, double ref_rmse, double tol)
{
	struct pool_result r = {.ran = 1, .kind = V_NUMERIC, .what = MM_VALUES, .key = 1};
	r.res_rmse = res_rmse;
	r.ref_rmse = ref_rmse;
	r.tol = tol;
	return r;
}

TEST(conditioning_refuses_a_candidate_whose_eager_leaves_fp64)
{
	struct pool_result p2 = numeric(0.14, 4.7e-7, 1e-4), p0062 = numeric(2.7e31, 2.3e26, 1e-4);
	/* eager's share of the difference is tiny at p = 0.062 (1e-5): only its
	 * distance from fp64 beyond the tolerance gives it away */
	CHECK(!conditioning_kept(&p2, &p0062, 0));
	CHECK(!conditioning_kept(&p2, &p0062, 1));
	/* a smaller graph where eager stays within tol: kept by a structural
	 * edit even when eager's share grows (within the clear share), not by
	 * an attribute edit (the original value is preferred) */
	struct pool_result smaller = numeric(0.14, 3e-5, 1e-4);
	CHECK(conditioning_kept(&p2, &smaller, 0));
	CHECK(!conditioning_kept(&p2, &smaller, 1));
	struct pool_result better = numeric(0.2, 1e-7, 1e-4);
	CHECK(conditioning_kept(&p2, &better, 1));
}

TEST(conditioning_eager_share_must_not_grow_past_the_clear_share)
{
	/* eager beyond tol already (large values): its share of the difference decides */
	struct pool_result cur = numeric(10, 0.5, 1e-4);
	struct pool_result same_share = numeric(20, 1, 1e-4), grown = numeric(10, 4, 1e-4), clear = numeric(1000, 5, 1e-4),
			   clear_but_grown = numeric(1000, 60, 1e-4);
	CHECK(conditioning_kept(&cur, &same_share, 0));
	CHECK(!conditioning_kept(&cur, &grown, 0));
	CHECK(conditioning_kept(&cur, &clear, 0));
	CHECK(!conditioning_kept(&cur, &clear_but_grown, 0));
	CHECK(!conditioning_kept(&cur, &grown, 1));
}

TEST(conditioning_applies_to_referenced_numeric_values_only)
{
	struct pool_result cur = numeric(0.14, 4.7e-7, 1e-4), noref = numeric(0, 0, 0);
	CHECK(!conditioning_kept(&cur, &noref, 0)); /* the candidate lost its fp64 reference */
	CHECK(conditioning_kept(&noref, &cur, 1));  /* nothing to keep */
	struct pool_result behaviour = {.ran = 1, .kind = V_BEHAVIOUR, .what = MM_RAISED, .key = 2};
	CHECK(conditioning_kept(&behaviour, &behaviour, 1));
	struct pool_result nonfinite = numeric(0, 0, 0);
	nonfinite.what = MM_NONFINITE;
	CHECK(conditioning_kept(&nonfinite, &noref, 1));
}
