/* Private to oracles/: the verdict steps that judge errors (judge_errors.c),
 * run by oracle_judge (oracle.c) before any value is compared. */
#ifndef PT2FUZZ_JUDGE_H
#define PT2FUZZ_JUDGE_H
#include "oracle.h"

/* Sets v's kind, class, place and detail line. */
void oracle_set(struct verdict *v, enum verdict_kind kind, enum mismatch what, int binding, int output,
		const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Step 1 (the worker hung) and step 2 (it died). */
void oracle_judge_hang(const struct run_result *r, struct verdict *v);
void oracle_judge_crash(const struct run_result *r, struct verdict *v);

/* Step 3 at binding b: 1 and v set when one mode raised and the other not. */
int oracle_judge_behaviour(const struct run_result *r, unsigned b, struct verdict *v);

/* Step 3 for a near-invalid graph (broken: its constraint) at binding b: 1
 * and v set when eager did not raise (invalid), compiled returned
 * (missing-error), or compiled raised an error not of eager's type
 * (error-mismatch); with unwrap, a Dynamo or Inductor error that wraps one
 * of eager's type counts as that type (known upstream: judge_errors.c). */
int oracle_judge_expected_error(const struct run_result *r, unsigned b, unsigned broken, int unwrap, struct verdict *v);

#endif
