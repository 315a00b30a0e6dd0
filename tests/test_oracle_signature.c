/* Dedup signatures: the normalized error message (numbers, addresses,
 * paths and quoted names stripped; the line carrying the error kept) and
 * the signature's indifference to where, how much and op order. */
#include "test.h"
#include "../oracles/oracle.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>

static struct run_result R; /* large: static */

static void raise_at(unsigned b, const char *etype, const char *msg)
{
	memset(&R, 0, sizeof R);
	R.nbind = b + 1;
	R.compiled_graphs = 1;
	R.m[RM_EAGER][b].ran = R.m[RM_EAGER][b].ok = 1;
	R.m[RM_COMPILED][b].ran = 1;
	snprintf(R.m[RM_COMPILED][b].etype, sizeof R.m[RM_COMPILED][b].etype, "%s", etype);
	snprintf(R.m[RM_COMPILED][b].emsg, sizeof R.m[RM_COMPILED][b].emsg, "%s", msg);
}

static enum verdict_kind judge(struct verdict *v)
{
	struct oracle_opts o;
	oracle_default_opts(&o);
	oracle_judge(&R, NULL, 0, &o, v);
	return v->kind;
}

static char n1[256], n2[256];

static int norm_equal(const char *a, const char *b)
{
	oracle_normalize_message(a, n1, sizeof n1);
	oracle_normalize_message(b, n2, sizeof n2);
	return !strcmp(n1, n2);
}

TEST(oracle_normalize_strips_numbers_addresses_paths_and_names)
{
	CHECK(norm_equal("setStorage: sizes [2, 3], strides [3, 1], storage offset 12, and itemsize 4 requiring a "
			 "storage size of 96 are out of bounds for storage of size 48",
			 "setStorage: sizes [5, 7], strides [7, 1], storage offset 0, and itemsize 4 requiring a storage "
			 "size of 140 are out of bounds for storage of size 1.5e3"));
	CHECK(!strcmp(n1, "setStorage: sizes [N, N], strides [N, N], storage offset N, and itemsize N requiring a "
			  "storage size of N are out of bounds for storage of size N"));
	CHECK(norm_equal("<function f at 0x7f3a2b1c>  failed in /tmp/torchinductor_u/ab/cab12.cpp:12",
			 "<function f at 0x55d0e1>\tfailed in /tmp/x/y.py"));
	CHECK(!strcmp(n1, "<function f at N> failed in"));
	CHECK(norm_equal("pointer 7ffd3a2b1c00 misaligned", "pointer 55d0e1aa00ff misaligned"));
	CHECK(!strcmp(n1, "pointer N misaligned"));
	CHECK(norm_equal("name 'buf12' is not defined", "name 'tmp3' is not defined"));
	CHECK(!strcmp(n1, "name '' is not defined"));
	CHECK(!norm_equal("name 'buf12' is not defined", "index out of range"));
	CHECK(norm_equal("can't convert 'x y' now", "can't convert 'x y' now"));
	CHECK(strstr(n1, "'x y'") != NULL); /* a quoted phrase, not a name: kept */
	char big[600];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = 0;
	oracle_normalize_message(big, n1, sizeof n1);
	CHECK_EQ(strlen(n1), 200);
	oracle_normalize_message(big, n2, 8);
	CHECK_EQ(strlen(n2), 7);
}

TEST(oracle_normalize_keeps_the_line_carrying_the_error)
{
	oracle_normalize_message("backend='inductor' raised:\nRuntimeError: setStorage: offset 3 out of bounds\n\n"
				 "Set TORCH_LOGS=\"+dynamo\" for more",
				 n1, sizeof n1);
	CHECK(!strcmp(n1, "RuntimeError: setStorage: offset N out of bounds"));
	oracle_normalize_message("backend='inductor' raised:\n  while compiling graph 3\n"
				 "torch._inductor.exc.CppCompileError: C++ compile error\n",
				 n1, sizeof n1);
	CHECK(!strcmp(n1, "torch._inductor.exc.CppCompileError: C++ compile error"));
	oracle_normalize_message("Failed running call_function <built-in method mm>(*(FakeTensor(..., size=(2, 3)),)):\n"
				 "a and b must have same reduction dim, but got [2, 3] X [4, 5].",
				 n1, sizeof n1);
	CHECK(!strcmp(n1, "a and b must have same reduction dim, but got [N, N] X [N, N]."));
	oracle_normalize_message("\n  first real line 1\nRuntimeError: later", n1, sizeof n1);
	CHECK(!strcmp(n1, "first real line N"));
	oracle_normalize_message("", n1, sizeof n1);
	CHECK(!strcmp(n1, ""));
}

TEST(oracle_signature_ignores_where_and_how_much_not_what)
{
	const char *ops_a[] = {"relu", "pad_constant", "relu", "mm"}, *ops_b[] = {"mm", "relu", "pad_constant"};
	const char *ops_c[] = {"mm", "relu"};
	struct verdict v;
	raise_at(0, "RuntimeError", "offset 12 out of bounds for '/tmp/a/b.cpp'");
	CHECK_EQ(judge(&v), V_BEHAVIOUR);
	uint64_t s0 = oracle_signature(&v, &R, ops_a, 4);
	CHECK_EQ(oracle_signature(&v, &R, ops_b, 3), s0); /* order, duplicates */
	CHECK(oracle_signature(&v, &R, ops_c, 2) != s0);
	/* another binding, other numbers and paths: the same bug */
	raise_at(1, "RuntimeError", "offset 40 out of bounds for '/tmp/c/d.cpp'");
	CHECK_EQ(judge(&v), V_BEHAVIOUR);
	CHECK_EQ(v.binding, 1);
	CHECK_EQ(oracle_signature(&v, &R, ops_b, 3), s0);
	raise_at(1, "RuntimeError", "division by zero");
	CHECK(judge(&v) == V_BEHAVIOUR && oracle_signature(&v, &R, ops_b, 3) != s0);
	raise_at(1, "AssertionError", "offset 40 out of bounds for '/tmp/c/d.cpp'");
	CHECK(judge(&v) == V_BEHAVIOUR && oracle_signature(&v, &R, ops_b, 3) != s0);
	/* missing-error hashes eager's exception: it differs with it */
	raise_at(0, "RuntimeError", "x");
	R.m[RM_COMPILED][0].ok = 1;
	R.m[RM_EAGER][0].ok = 0;
	snprintf(R.m[RM_EAGER][0].etype, sizeof R.m[RM_EAGER][0].etype, "IndexError");
	snprintf(R.m[RM_EAGER][0].emsg, sizeof R.m[RM_EAGER][0].emsg, "index 7 is out of bounds");
	CHECK_EQ(judge(&v), V_MISSING_ERROR);
	uint64_t me = oracle_signature(&v, &R, ops_b, 3);
	snprintf(R.m[RM_EAGER][0].emsg, sizeof R.m[RM_EAGER][0].emsg, "index 9 is out of bounds");
	CHECK_EQ(oracle_signature(&v, &R, ops_b, 3), me);
	snprintf(R.m[RM_EAGER][0].emsg, sizeof R.m[RM_EAGER][0].emsg, "negative dimensions are not allowed");
	CHECK(oracle_signature(&v, &R, ops_b, 3) != me);
	/* kinds and classes differ; where and how much do not count */
	struct verdict num = {.kind = V_NUMERIC, .what = MM_VALUES, .binding = 0, .output = 0};
	struct verdict nf = num, st = num;
	nf.what = MM_NONFINITE;
	st.kind = V_STRIDE;
	st.what = MM_STRIDE;
	uint64_t sn = oracle_signature(&num, &R, ops_b, 3);
	CHECK(sn != s0 && sn != oracle_signature(&nf, &R, ops_b, 3) && sn != oracle_signature(&st, &R, ops_b, 3));
	num.binding = 1;
	num.output = 3;
	num.max_abs = 7;
	num.res_rmse = 0.5;
	CHECK_EQ(oracle_signature(&num, &R, ops_b, 3), sn);
	/* crashes: the signal counts */
	memset(&R, 0, sizeof R);
	R.crashed = 1;
	R.busy_mode = RM_COMPILED;
	R.term_signal = SIGSEGV;
	CHECK_EQ(judge(&v), V_BEHAVIOUR);
	uint64_t segv = oracle_signature(&v, &R, ops_b, 3);
	R.term_signal = SIGABRT;
	CHECK_EQ(judge(&v), V_BEHAVIOUR);
	CHECK(oracle_signature(&v, &R, ops_b, 3) != segv);
	CHECK(oracle_signature(&v, &R, ops_b, 3) != oracle_signature(&v, &R, NULL, 0));
}
