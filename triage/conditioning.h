/* Whether a reduction candidate's numeric finding is as convincing as the
 * graph it would replace: eager stays as close to the fp64 reference as it
 * was, so that a reduced repro never shows a difference that eager's own
 * error explains (a p-norm of p = 0.06 whose eager result is 1e26 off). */
#ifndef PT2FUZZ_CONDITIONING_H
#define PT2FUZZ_CONDITIONING_H
#include "../pipeline/pool.h"

/* cur: the current graph's result; cand: the candidate's, with the same
 * reduction key. keep_math: the edit changes what is computed (an attribute,
 * a dtype) rather than how much of it, and must not let eager's error grow
 * relative to the difference at all. Results without an fp64 reference, and
 * findings other than numeric values, are always kept. */
int conditioning_kept(const struct pool_result *cur, const struct pool_result *cand, int keep_math);

#endif
