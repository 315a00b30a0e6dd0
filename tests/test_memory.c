/* The memory class: a crash with malloc's report while compiled mode ran,
 * a program blamed for a later program's crash, and spotting malloc's and
 * compute-sanitizer's reports in a worker's log. */
#include "test.h"
#include "../harness/malloc_check.h"
#include "../oracles/oracle.h"
#include <signal.h>
#include <string.h>

static struct run_result R; /* large: static */

static enum verdict_kind judge(struct verdict *v)
{
	struct oracle_opts o;
	oracle_default_opts(&o);
	oracle_judge(&R, NULL, 0, &o, v);
	return v->kind;
}

TEST(memory_crash_with_heap_report_in_compiled_mode)
{
	struct verdict v;
	memset(&R, 0, sizeof R);
	R.nbind = 2;
	R.crashed = 1;
	R.term_signal = SIGABRT;
	R.busy_mode = RM_COMPILED;
	R.busy_binding = 1;
	CHECK_EQ(judge(&v), V_BEHAVIOUR); /* no report: an ordinary crash */
	strcpy(R.heap_report, "free(): invalid pointer");
	CHECK_EQ(judge(&v), V_MEMORY);
	CHECK_EQ(v.what, MM_CRASHED);
	CHECK_EQ(v.binding, 1);
	CHECK(strstr(v.detail, "free(): invalid pointer") && strstr(v.detail, "SIGABRT"));
	CHECK(verdict_is_finding(V_MEMORY) && verdict_is_compiler_bug(V_MEMORY));
	CHECK(!strcmp(verdict_name(V_MEMORY), "memory") && !strcmp(mismatch_name(MM_LATER), "later"));
	R.busy_mode = RM_EAGER; /* eager corrupting memory: the program's fault, as any eager crash */
	CHECK_EQ(judge(&v), V_INVALID);
	CHECK(strstr(v.detail, "free(): invalid pointer") != NULL);
}

TEST(memory_later_signature_is_the_later_crash_and_the_culprits_ops)
{
	struct verdict crash, later;
	memset(&R, 0, sizeof R);
	R.nbind = 1;
	R.crashed = 1;
	R.term_signal = SIGABRT;
	R.busy_mode = RM_COMPILED;
	judge(&crash);
	oracle_judge_later_crash(&crash, &later);
	CHECK_EQ(later.kind, V_MEMORY);
	CHECK_EQ(later.what, MM_LATER);
	CHECK_EQ(later.binding, -1);
	CHECK(strstr(later.detail, crash.detail) != NULL);
	const char *ops_a[] = {"cumsum"}, *ops_b[] = {"add"};
	uint64_t s = oracle_signature(&later, &R, ops_a, 1);
	CHECK(s != oracle_signature(&later, &R, ops_b, 1));
	CHECK(s != oracle_signature(&crash, &R, ops_a, 1));
	R.term_signal = SIGSEGV;
	CHECK(s != oracle_signature(&later, &R, ops_a, 1));
}

TEST(memory_reports_found_in_a_log)
{
	char out[160];
	CHECK(!malloc_check_report("Traceback ...\nRuntimeError: memory\n", out, sizeof out));
	CHECK_EQ(out[0], 0);
	CHECK(malloc_check_report("compiling\nfree(): invalid pointerFatal Python error: Aborted\n", out, sizeof out));
	CHECK(!strcmp(out, "free(): invalid pointer"));
	CHECK(malloc_check_report("x\nmalloc(): corrupted top size\n", out, sizeof out));
	CHECK(!strcmp(out, "malloc(): corrupted top size"));
	CHECK(malloc_check_report("a\n========= Invalid __global__ write of size 4 bytes\n", out, sizeof out));
	CHECK(!strncmp(out, "========= Invalid __global__ write", 34));
	/* the earliest report in the log wins */
	CHECK(malloc_check_report("double free or corruption (out)\nfree(): invalid pointer\n", out, sizeof out));
	CHECK(!strcmp(out, "double free or corruption (out)"));
}
