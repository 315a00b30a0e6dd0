#include "conditioning.h"

/* Eager's error under this share of the difference leaves no doubt. */
#define CLEAR_SHARE 1e-2

/* Eager's error against fp64 as a share of compiled's. */
static double eager_share(const struct pool_result *r) { return r->res_rmse > 0 ? r->ref_rmse / r->res_rmse : 1; }

/* Eager within the output's tolerance of fp64 (rmse against same()'s tol). */
static int eager_close(const struct pool_result *r) { return r->ref_rmse <= r->tol; }

int conditioning_kept(const struct pool_result *cur, const struct pool_result *cand, int keep_math)
{
	if (cur->kind != V_NUMERIC || cur->what != MM_VALUES || cur->tol <= 0)
		return 1;
	if (cand->tol <= 0) /* the candidate lost its fp64 reference */
		return 0;
	if (eager_close(cur) && !eager_close(cand))
		return 0;
	double was = eager_share(cur), now = eager_share(cand);
	return keep_math ? now <= was : now <= was || now <= CLEAR_SHARE;
}
