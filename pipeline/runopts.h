/* Options shared by every command that runs graphs (run, reduce, triage,
 * the libFuzzer target): the worker, the compile configuration, the oracle. */
#ifndef PT2FUZZ_RUNOPTS_H
#define PT2FUZZ_RUNOPTS_H
#include "check.h"
#include "cli.h"

struct run_opts {
	struct executor_opts exec;
	struct check_cfg check;
	char python[4096];
	const char *findings;  /* findings directory (default "findings") */
	unsigned jobs;
	char *plugin;          /* the --plugin file's text */
	char compile_mode[64]; /* --mode's torch.compile mode, without the word backward */
};

/* The run options' table, for a command's list of tables (pipeline/cli.h). */
extern const struct option run_opts_table[];

#define RUN_OPTS_HELP \
	"  --backend B        torch.compile backend (inductor, aot_eager, cudagraphs, eager, ...), or\n" \
	"                     aoti: torch.export + AOTInductor package run by libtorch's C++ loader\n" \
	"  --mode M           torch.compile mode (max-autotune, reduce-overhead, ...; inductor only), or\n" \
	"                     backward (also compare gradients), or both: backward,max-autotune\n" \
	"  --dynamic D        marks (mark the graph's dynamic dims; default), true, false\n" \
	"  --device D         auto (cuda when torch sees a GPU; default), cpu, cuda, cuda:N,\n" \
	"                     cuda:auto (each worker on one of the visible GPUs in turn)\n" \
	"  --jobs N           workers in parallel (default 1)\n" \
	"  --timeout SEC      per graph, then the worker is killed and restarted (default 120)\n" \
	"  --findings DIR     where findings go (default findings)\n" \
	"  --plugin FILE.py   Python run once in each worker (e.g. to register test backends)\n" \
	"  --modes LIST       of eager,compiled,fp64,nudged (default all four; nudged only for\n" \
	"                     graphs it judges: see docs/oracle.md)\n" \
	"  --inductor N=V     a compile setting for every run (repeatable), over the graph's own:\n" \
	"                     Inductor's N, or dynamo.N, functorch.N; V of its type (pt2fuzz configs)\n" \
	"  --compile-threads N  TORCHINDUCTOR_COMPILE_THREADS (default with --jobs > 1: the cores\n" \
	"                     over the jobs, at least 1)\n" \
	"  --no-stride-check  do not report stride-only mismatches\n" \
	"  --malloc-check on|off  glibc's checking malloc in the worker, so that a kernel writing past\n" \
	"                     a buffer aborts in its own run (default on)\n" \
	"  --known FILE       more known upstream bugs, as pipeline/known_bugs.txt (PT2FUZZ_KNOWN_BUGS)\n"

/* The run options of a parsed command line (whose tables hold
 * run_opts_table), and PT2FUZZ_PYTHON / build/runtime.env for the worker;
 * -1 after a message on stderr. */
int run_opts_parse(const struct cli *c, struct run_opts *ro);

/* The compile threads each of jobs workers gets on a machine of cores when
 * --compile-threads is not given: Inductor's own default (0) for one job;
 * else the cores the jobs leave over, at least 1, so that a campaign of
 * fewer jobs than cores builds each graph's kernels in parallel. */
unsigned compile_threads_for(unsigned jobs, long cores);

#endif
