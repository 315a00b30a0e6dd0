/* The executor, worker and oracles against the real torch runtime: every
 * verdict class comes out of a real run (planted-bug backends from
 * planted_backends.py), and one executor keeps serving through crashes,
 * hangs and a kill from outside. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../harness/protocol.h"
#include "../../pipeline/check.h"
#include "../../pipeline/features.h"
#include "../../pipeline/findings.h"
#include "../../pipeline/graphio.h"
#include "../../harness/runtime.h"
#include "../test.h"
#include "../testkit.h"

static struct executor X;
static int ready = -1;
static struct graph G;
static char why[800];

/* One executor for all tests, with the planted backends loaded. */
static int setup(void)
{
	static char python[4096], *plugin;
	if (ready >= 0)
		return ready;
	ready = 0;
	size_t len;
	plugin = (char *)graphio_read_file(PT2FUZZ_ROOT "/tests/integration/planted_backends.py", 1 << 20, &len, why,
					   sizeof why);
	struct executor_opts o;
	executor_default_opts(&o);
	o.plugin = plugin;
	o.plugin_len = plugin ? len : 0;
	o.timeout_ms = 60000;
	o.compile_threads = 1;
	if (!plugin || runtime_python(python, sizeof python, why, sizeof why)) {
		fprintf(stderr, "  setup: %s\n", why);
		return 0;
	}
	o.python = python;
	if (executor_init(&X, &o, why, sizeof why) || executor_start(&X, why, sizeof why)) {
		fprintf(stderr, "  setup: %s\n", why);
		return 0;
	}
	/* exp(x) + x on a float32 [3, 4] input: every backend compiles it. */
	tk_static(&G);
	int x = tk_input(&G, DT_FLOAT32, 2, (int[]){3, 4});
	int e = tk_node(&G, "exp", 1, &x, 0, NULL, why, sizeof why);
	int in[2] = {G.n[e].out0, x};
	int s = tk_node(&G, "add", 2, in, 0, NULL, why, sizeof why);
	graph_set_output(&G, G.n[s].out0, 1, why, sizeof why);
	ready = 1;
	return ready;
}

static struct check_result R;

static enum verdict_kind judge(const char *backend)
{
	struct check_cfg c;
	check_default_cfg(&c);
	c.backend = backend;
	c.pinned |= PIN_BACKEND; /* the planted backend, whatever the graph's configuration says */
	check_result_free(&R);
	if (check_graph(&X, &G, &c, &R, why, sizeof why)) {
		fprintf(stderr, "  %s: %s\n", backend, why);
		return V_COUNT;
	}
	return R.v.kind;
}

/* A hand-written program in the emitted format (graph/emit.c): forward()
 * is the only part that varies between the fixtures. */
static char *fixture_program(const char *forward, size_t *len)
{
	static const char head[] =
		"import torch\n"
		"DEVICE = 'cpu'\nSEED = 1\nBINDINGS = 1\nLOW_PRECISION = False\nDYNAMIC = {}\nCOMPARE = (True,)\n"
		"def make_inputs(binding=0, device=DEVICE):\n"
		"    gen = torch.Generator().manual_seed(SEED)\n"
		"    return [torch.randn(2, 10, generator=gen).to(device), torch.randn(2, 10, generator=gen).to(device)]\n"
		"def mark_dynamic(inputs):\n    return inputs\n"
		"def run(model, inputs):\n    torch.manual_seed(SEED)\n    return list(model(*inputs))\n"
		"def to_fp64(x):\n    return x.to(torch.float64) if x.is_floating_point() else x\n"
		"class Model(torch.nn.Module):\n";
	char *p = NULL;
	FILE *f = open_memstream(&p, len);
	fprintf(f, "%s%s", head, forward);
	fclose(f);
	return p;
}

static enum verdict_kind judge_program(const char *forward)
{
	size_t len;
	char *prog = fixture_program(forward, &len);
	struct check_cfg c;
	check_default_cfg(&c);
	check_result_free(&R);
	if (check_program(&X, prog, len, &c, &R, why, sizeof why)) {
		fprintf(stderr, "  program: %s\n", why);
		return V_COUNT;
	}
	return R.v.kind;
}

TEST(harness_inductor_passes_and_really_compiles)
{
	if (!CHECK(setup()))
		return;
	CHECK_EQ(judge("inductor"), V_PASS);
	CHECK(R.run.compiled_graphs >= 1);
	CHECK(R.run.m[RM_COMPILED][0].ok && R.run.m[RM_FP64][0].ok);
	CHECK_EQ(R.run.m[RM_FP64][0].out[0].dtype, DT_FLOAT64);
	CHECK_EQ(R.run.m[RM_EAGER][0].out[0].shape[1], 4);
	char v[64];
	CHECK(strlen(executor_info(&X, "torch", v, sizeof v)) > 0);
}

/* An executor of its own, not started, without the planted backends. */
static int plain_executor(struct executor *c)
{
	struct executor_opts o = X.o;
	o.plugin = NULL;
	o.plugin_len = 0;
	return !executor_init(c, &o, why, sizeof why);
}

/* The worker takes the protocol's constants from the executor and refuses
 * a start-up whose version or mode order is not its own, or a constant it
 * cannot read: a clear start-up error naming what differs, and the worker
 * gone. The same executor then starts normally, and the worker says which
 * version it speaks. */
TEST(harness_worker_refuses_a_protocol_that_differs)
{
	if (!CHECK(setup()))
		return;
	static const char *const skews[][2] = {
		{"proto_version=99", "proto_version: the executor speaks version 99, this worker "},
		{"modes=eager,fp64,compiled", "modes: the executor's are eager,fp64,compiled"},
		{"max_rank=six", "max_rank: 'six' is not a count"},
		{"reply_head=magic", "reply_head: 'magic' is not a list of name:format"},
	};
	struct executor c;
	if (!CHECK(plain_executor(&c)))
		return;
	for (unsigned i = 0; i < sizeof skews / sizeof skews[0]; i++) {
		setenv("PT2FUZZ_PROTOCOL_OVERRIDE", skews[i][0], 1);
		int rc = executor_start(&c, why, sizeof why);
		CHECK_EQ(rc, -1);
		if (!CHECK(strstr(why, "refused the executor's protocol") && strstr(why, skews[i][1])))
			fprintf(stderr, "  %s: %s\n", skews[i][0], why);
		CHECK_EQ(c.pid, 0);
	}
	unsetenv("PT2FUZZ_PROTOCOL_OVERRIDE");
	if (!CHECK(!executor_start(&c, why, sizeof why)))
		fprintf(stderr, "  %s\n", why);
	char v[16], want[16];
	snprintf(want, sizeof want, "%d", PROTOCOL_VERSION);
	CHECK(!strcmp(executor_info(&c, "protocol", v, sizeof v), want));
	executor_free(&c);
}

/* The worker packs its reply by the layout the executor sends at start-up
 * (harness/protocol.c: reply_parts) and has none of its own: a record whose
 * time is sent 8 bytes wide makes a reply the executor's own table cannot
 * read; a field the worker does not fill stops it at its first reply,
 * naming the field; the layout as sent gives the reply the executor reads. */
TEST(harness_worker_packs_the_reply_by_the_executors_layout)
{
	if (!CHECK(setup()))
		return;
	struct executor c;
	if (!CHECK(plain_executor(&c)))
		return;
	size_t len;
	char *prog = fixture_program("    def forward(self, x1, inp):\n        return (x1 * inp,)\n", &len);
	struct exec_request rq = {.program = prog, .len = len, .modes = 1u << RM_EAGER, .backend = "inductor"};
	static struct run_result r;
	static const char *const skews[][2] = {
		{"reply_record=mode:B,binding:B,ok:B,ngrad:B,microseconds:Q", "stage timings"}, /* read 4 bytes short */
		{"reply_record=mode:B,binding:B,ok:B,ngrad:B,usec:I", NULL},
	};
	for (unsigned i = 0; i < sizeof skews / sizeof skews[0]; i++) {
		setenv("PT2FUZZ_PROTOCOL_OVERRIDE", skews[i][0], 1);
		if (!CHECK(!executor_start(&c, why, sizeof why)))
			fprintf(stderr, "  %s: %s\n", skews[i][0], why);
		memset(&r, 0, sizeof r);
		int rc = executor_run(&c, &rq, &r, why, sizeof why);
		static char log[EXEC_LOG_RING + 1];
		executor_log(&c, log, sizeof log);
		if (skews[i][1]) { /* read by the executor's table: a malformed reply */
			CHECK_EQ(rc, -1);
			if (!CHECK(strstr(why, skews[i][1]) != NULL))
				fprintf(stderr, "  %s: %s\n", skews[i][0], why);
		} else if (!CHECK(r.crashed && strstr(log, "LayoutMismatch: reply_record: the executor's fields are "
							 "mode, binding, ok, ngrad, usec")))
			fprintf(stderr, "  %s: rc %d, %s\n%s\n", skews[i][0], rc, why, log);
		executor_stop(&c);
	}
	unsetenv("PT2FUZZ_PROTOCOL_OVERRIDE");
	memset(&r, 0, sizeof r);
	CHECK(!executor_start(&c, why, sizeof why) && !executor_run(&c, &rq, &r, why, sizeof why));
	CHECK(r.m[RM_EAGER][0].ok && r.m[RM_EAGER][0].nout == 1);
	free(prog);
	executor_free(&c);
}

/* With coverage on, the worker fills the map as the executor told it at
 * start-up: compiler lines in their region, Inductor's kernel names in
 * theirs (a CPU compile of exp + add makes a cpp_fused kernel), and nothing
 * in the graph features' region, which is the fuzz target's. */
/* An executor of its own with coverage on (X has the planted backends). */
static int coverage_executor(struct executor *c)
{
	struct executor_opts o = X.o;
	o.plugin = NULL;
	o.plugin_len = 0;
	o.coverage = 1;
	if (executor_init(c, &o, why, sizeof why) || executor_start(c, why, sizeof why)) {
		fprintf(stderr, "  %s\n", why);
		return 0;
	}
	return 1;
}

TEST(harness_coverage_fills_the_map_regions_it_was_told)
{
	struct executor c;
	if (!CHECK(setup()) || !CHECK(coverage_executor(&c)))
		return;
	struct check_cfg cfg;
	check_default_cfg(&cfg);
	check_result_free(&R);
	CHECK(!check_graph(&c, &G, &cfg, &R, why, sizeof why) && R.v.kind == V_PASS);
	unsigned counts[FR_COUNT];
	features_count(executor_coverage(&c), counts);
	CHECK(counts[FR_COMPILER] > 1000);
	CHECK(counts[FR_KERNELS] >= 1);
	CHECK(counts[FR_DECISIONS] >= 1);
	CHECK_EQ(counts[FR_GRAPH], 0);
	executor_free(&c);
}

/* g's decision region after a passing run on c: non-zero counters. */
static unsigned decisions_of(struct executor *c, const struct graph *g, uint8_t out[FEATURES_DECISIONS])
{
	struct check_cfg cfg;
	check_default_cfg(&cfg);
	check_result_free(&R);
	CHECK(!check_graph(c, g, &cfg, &R, why, sizeof why) && R.v.kind == V_PASS);
	memcpy(out, executor_coverage(c) + FEATURES_COMPILER + FEATURES_KERNELS, FEATURES_DECISIONS);
	unsigned n = 0;
	for (unsigned i = 0; i < FEATURES_DECISIONS; i++)
		n += out[i] != 0;
	return n;
}

/* The decision slot of a name noted n times (worker_decisions.py: CRC-32 of
 * the name, seeded with n's bit length, modulo the region's slots). */
static unsigned decision_slot(const char *name, unsigned n)
{
	uint32_t crc = ~(uint32_t)(32 - __builtin_clz(n));
	for (const char *p = name; *p; p++) {
		crc ^= (uint8_t)*p;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1u));
	}
	return ~crc % FEATURES_DECISIONS;
}

/* What the compiler decided tells graphs apart and is the same for the same
 * graph: exp(x) + x fuses into one pointwise kernel, a matmul is an extern
 * kernel (another scheduler node kind, another lowering). A softmax is taken
 * apart by Inductor's decomposition table, which the others never use. */
TEST(harness_decision_features_tell_graphs_apart)
{
	struct executor c;
	if (!CHECK(setup()) || !CHECK(coverage_executor(&c)))
		return;
	static struct graph mm;
	tk_static(&mm);
	int a = tk_input(&mm, DT_FLOAT32, 2, (int[]){3, 4}), b = tk_input(&mm, DT_FLOAT32, 2, (int[]){4, 5});
	int m = tk_node(&mm, "mm", 2, (int[]){a, b}, 0, NULL, why, sizeof why);
	CHECK(m >= 0 && !graph_set_output(&mm, mm.n[m].out0, 1, why, sizeof why));
	static uint8_t first[FEATURES_DECISIONS], again[FEATURES_DECISIONS], other[FEATURES_DECISIONS];
	CHECK(decisions_of(&c, &G, first) >= 5);
	CHECK(decisions_of(&c, &mm, other) >= 5);
	CHECK(decisions_of(&c, &G, again) >= 5);
	CHECK(!memcmp(first, again, sizeof first));
	CHECK(memcmp(first, other, sizeof first) != 0);
	static struct graph sm;
	static uint8_t softmax[FEATURES_DECISIONS];
	tk_static(&sm);
	int x = tk_input(&sm, DT_FLOAT32, 2, (int[]){3, 4});
	int s = tk_node(&sm, "softmax", 1, (int[]){x}, 1, (int64_t[]){1}, why, sizeof why);
	CHECK(s >= 0 && !graph_set_output(&sm, sm.n[s].out0, 1, why, sizeof why));
	CHECK(decisions_of(&c, &sm, softmax) >= 5);
	unsigned decomp = decision_slot("decomp:_softmax.default", 1);
	CHECK(softmax[decomp] && !first[decomp] && !other[decomp]);
	executor_free(&c);
}

TEST(harness_planted_numeric_bug_is_numeric)
{
	if (!CHECK(setup()))
		return;
	CHECK_EQ(judge("planted_numeric"), V_NUMERIC);
	CHECK_EQ(R.v.what, MM_VALUES);
	CHECK(R.v.max_abs > 0.9 && R.v.max_abs < 1.1);
}

TEST(harness_planted_compile_error_is_behaviour)
{
	if (!CHECK(setup()))
		return;
	CHECK_EQ(judge("planted_raise"), V_BEHAVIOUR);
	CHECK_EQ(R.v.what, MM_RAISED);
	CHECK(strstr(R.run.m[RM_COMPILED][0].emsg, "planted compiler error") != NULL);
	/* The same error with other numbers is the same signature. */
	uint64_t sig = R.signature;
	CHECK_EQ(judge("planted_raise"), V_BEHAVIOUR);
	CHECK(R.signature == sig && sig != 0);
}

TEST(harness_hard_crash_is_behaviour_and_the_worker_comes_back)
{
	if (!CHECK(setup()))
		return;
	unsigned starts = X.starts;
	CHECK_EQ(judge("planted_segv"), V_BEHAVIOUR);
	CHECK_EQ(R.v.what, MM_CRASHED);
	CHECK(R.run.crashed && R.run.term_signal == SIGSEGV);
	CHECK_EQ(R.run.busy_mode, RM_COMPILED);
	static char log[EXEC_LOG_RING];
	executor_log(&X, log, sizeof log); /* the worker's stack at the crash, for worker.log */
	CHECK(strstr(log, "Segmentation fault") && strstr(log, "planted_segv"));
	/* A short buffer gets the log's end, where the crash is. */
	size_t whole = strlen(log);
	char end[64];
	CHECK_EQ(executor_log(&X, end, sizeof end), (size_t)63);
	CHECK(whole > 63 && !strcmp(end, log + whole - 63));
	CHECK_EQ(judge("planted_abort"), V_BEHAVIOUR);
	CHECK(R.run.crashed && R.run.term_signal == SIGABRT);
	CHECK_EQ(judge("inductor"), V_PASS);
	CHECK(X.starts >= starts + 2);
}

TEST(harness_hang_is_killed_and_the_worker_comes_back)
{
	if (!CHECK(setup()))
		return;
	unsigned t = X.o.timeout_ms;
	X.o.timeout_ms = 15000;
	CHECK_EQ(judge("planted_hang"), V_HANG);
	CHECK(R.run.hung);
	X.o.timeout_ms = t;
	CHECK_EQ(judge("inductor"), V_PASS);
}

/* Judges backend, whose compiled mode raises an error (its message holds says)
 * that leaves the worker unfit: the pairs left run in one fresh worker. */
static void goes_on_in_a_fresh_worker(const char *backend, const char *says)
{
	unsigned starts = X.starts, cont = X.continuations;
	CHECK_EQ(judge(backend), V_BEHAVIOUR);
	CHECK(strstr(R.run.m[RM_COMPILED][0].emsg, says) != NULL);
	CHECK_EQ(X.continuations, cont + 1);
	CHECK(X.starts >= starts + 1);
}

/* A device-side assert poisons a CUDA context: what ran after it in that
 * worker would only repeat the error. The pairs left run in fresh workers,
 * and the values from before the poisoning survive the change of worker. */
TEST(harness_poisoned_context_goes_on_in_a_fresh_worker)
{
	if (!CHECK(setup()))
		return;
	goes_on_in_a_fresh_worker("planted_cuda_assert", "device-side assert");
	const struct mode_result *e = &R.run.m[RM_EAGER][0], *f = &R.run.m[RM_FP64][0];
	if (!CHECK(e->ok && f->ran && f->ok && e->nout == 1 && f->nout == 1))
		return;
	CHECK(f->out[0].f != e->out[0].f);
	unsigned close = 0;
	for (uint64_t i = 0; i < e->out[0].numel; i++)
		close += fabs(e->out[0].f[i] - f->out[0].f[i]) <= 1e-5 * (1 + fabs(f->out[0].f[i]));
	CHECK_EQ(close, e->out[0].numel);
	CHECK_EQ(judge("inductor"), V_PASS);
}

/* Under compute-sanitizer (blame's replays on CUDA) a kernel's invalid write
 * is reported on stderr and ends the kernel, which poisons the context: the
 * report makes it memory that the mode under the busy marker corrupted, a
 * crash of that mode carrying the report, not a restart. */
TEST(harness_poisoned_context_with_a_memory_report_is_memory_in_that_mode)
{
	if (!CHECK(setup()))
		return;
	unsigned crashes = X.crashes;
	CHECK_EQ(judge("planted_sanitizer_report"), V_MEMORY);
	CHECK(R.run.crashed);
	CHECK_EQ(R.run.busy_mode, RM_COMPILED);
	CHECK(strstr(R.run.heap_report, "========= Invalid __global__ write") != NULL);
	CHECK_EQ(X.crashes, crashes + 1);
	CHECK_EQ(judge("inductor"), V_PASS); /* a fresh worker serves the next */
}

/* A failed CUDA graph capture can leave state behind that a plain op does
 * not test (the generator's, the allocator's pools): its worker is replaced
 * whatever the test of the context says, so no later program fails on it. */
TEST(harness_failed_graph_capture_goes_on_in_a_fresh_worker)
{
	if (!CHECK(setup()))
		return;
	goes_on_in_a_fresh_worker("planted_capture_failure", "during CUDA graph capture");
	CHECK(R.run.m[RM_FP64][0].ran && R.run.m[RM_FP64][0].ok);
	unsigned cont = X.continuations;
	CHECK_EQ(judge("inductor"), V_PASS);
	CHECK_EQ(X.continuations, cont);
}

TEST(harness_worker_killed_from_outside_is_restarted)
{
	if (!CHECK(setup()))
		return;
	CHECK(executor_start(&X, why, sizeof why) == 0);
	pid_t old = X.pid;
	CHECK(old > 0);
	kill(-old, SIGKILL);
	usleep(200000);
	CHECK_EQ(judge("inductor"), V_PASS);
	CHECK(X.pid != old);
}

TEST(harness_eager_error_is_invalid_and_compiled_only_success_is_missing_error)
{
	if (!CHECK(setup()))
		return;
	/* mm of misaligned shapes, seed document 001's S2 example: eager raises. */
	CHECK_EQ(judge_program("    def forward(self, x1, inp):\n        return (torch.mm(x1, inp) + inp,)\n"), V_INVALID);
	CHECK(strstr(R.run.m[RM_EAGER][0].etype, "RuntimeError") != NULL);
	/* A stand-in for a compiler that drops a check eager performs. */
	CHECK_EQ(judge_program("    def forward(self, x1, inp):\n"
			       "        if not torch.compiler.is_compiling():\n"
			       "            raise ValueError('eager checks the shapes')\n"
			       "        return (x1 * inp,)\n"),
		 V_MISSING_ERROR);
	/* Eager fails as a device-side assert does and poisons the worker:
	 * compiled mode runs in a fresh one and is judged on what it did. */
	unsigned cont = X.continuations;
	CHECK_EQ(judge_program("    def forward(self, x1, inp):\n"
			       "        if not torch.compiler.is_compiling():\n"
			       "            import __main__\n"
			       "            __main__.cuda_poisoned = lambda torch, device: True\n"
			       "            raise RuntimeError('CUDA error: device-side assert triggered')\n"
			       "        return (x1 * inp,)\n"),
		 V_MISSING_ERROR);
	CHECK(R.run.m[RM_COMPILED][0].ok);
	CHECK(X.continuations > cont);
	/* Dynamo never compiles a disabled forward: compiled would be eager. */
	CHECK_EQ(judge_program("    @torch._dynamo.disable\n    def forward(self, x1, inp):\n        return (x1 * inp,)\n"),
		 V_NOT_COMPILED);
}

TEST(harness_findings_dedup_by_signature)
{
	if (!CHECK(setup()))
		return;
	char dir[] = "/tmp/pt2fuzz-findings-XXXXXX", p1[4200], p2[4200], p3[4200];
	CHECK(mkdtemp(dir) != NULL);
	struct check_cfg c;
	check_default_cfg(&c);
	struct finding_ctx fc = {dir, &c, &X, "cpu", "harness_test"};
	struct check_finding found;
	CHECK_EQ(judge("planted_numeric"), V_NUMERIC);
	check_primary(&R, &found);
	CHECK_EQ(findings_record(&fc, &G, &R, &found, p1, sizeof p1, why, sizeof why), 1);
	CHECK_EQ(judge("planted_numeric"), V_NUMERIC);
	check_primary(&R, &found);
	CHECK_EQ(findings_record(&fc, &G, &R, &found, p2, sizeof p2, why, sizeof why), 0);
	CHECK(!strcmp(p1, p2));
	CHECK_EQ(judge("planted_raise"), V_BEHAVIOUR);
	check_primary(&R, &found);
	CHECK_EQ(findings_record(&fc, &G, &R, &found, p3, sizeof p3, why, sizeof why), 1);
	CHECK(strcmp(p1, p3));
	static const char *const files[] = {"repro.py", "graph.bin", "meta.json", "worker.log"};
	for (unsigned i = 0; i < 4; i++) {
		char f[4300];
		struct stat st;
		snprintf(f, sizeof f, "%s/%s", p1, files[i]);
		CHECK(stat(f, &st) == 0);
	}
	char meta[4300];
	snprintf(meta, sizeof meta, "%s/meta.json", p1);
	size_t len;
	char *m = (char *)graphio_read_file(meta, 1 << 16, &len, why, sizeof why);
	CHECK(m && strstr(m, "\"count\": 2") && strstr(m, "\"verdict\": \"numeric\"") && strstr(m, "\"torch\": \"2."));
	free(m);
	char cmd[4400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}
