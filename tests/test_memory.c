/* The memory class: a crash with malloc's report while compiled mode ran,
 * a program blamed for a later program's crash, and spotting malloc's and
 * compute-sanitizer's reports in a worker's log. */
#include "test.h"
#include "../harness/malloc_check.h"
#include "../oracles/oracle.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
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

/* compute-sanitizer writes its banner and reports to stdout unless given
 * --log-file; a worker's stdout is its protocol, so a replay under the tool
 * died before its first frame. A stand-in on PATH that writes where it is
 * told: the prefix must leave the program's stdout to the program alone and
 * run it without the caching allocator. */
TEST(memory_sanitizer_prefix_keeps_stdout_to_the_worker)
{
	char dir[] = "/tmp/pt2fuzz-sanitizer-XXXXXX", tool[64], cmd[4600], out[256] = "";
	const char *old = getenv("PATH");
	char *path = old ? strdup(old) : NULL;
	CHECK(mkdtemp(dir) != NULL);
	snprintf(tool, sizeof tool, "%s/compute-sanitizer", dir);
	FILE *f = fopen(tool, "w");
	CHECK(f != NULL);
	fputs("#!/bin/sh\nlog=/dev/stdout\n"
	      "while [ \"${1#-}\" != \"$1\" ]; do [ \"$1\" = --log-file ] && log=$2; shift; [ \"$1\" ] && shift; done\n"
	      "echo '========= COMPUTE-SANITIZER' >>\"$log\"\nexec \"$@\"\n",
	      f);
	fclose(f);
	chmod(tool, 0755);
	setenv("PATH", dir, 1);
	const char *prefix = malloc_check_sanitizer();
	setenv("PATH", path ? path : "/usr/bin:/bin", 1);
	CHECK(prefix != NULL);
	snprintf(cmd, sizeof cmd, "PATH=/usr/bin:/bin %s sh -c 'echo \"hello $PYTORCH_NO_CUDA_MEMORY_CACHING\"' 2>/dev/null",
		 prefix ? prefix : "false");
	FILE *p = popen(cmd, "r");
	CHECK(p != NULL);
	size_t got = p ? fread(out, 1, sizeof out - 1, p) : 0;
	out[got] = 0;
	if (p)
		CHECK_EQ(pclose(p), 0);
	CHECK(!strcmp(out, "hello 1\n"));
	unlink(tool);
	rmdir(dir);
	free(path);
}
