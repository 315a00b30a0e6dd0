/* The oracle's float rule against torch._dynamo.utils.same on the installed
 * torch: a finding's plain repro calls same() itself, so a numeric verdict
 * the repro would not show is a false alarm of ours. Python draws float32
 * outputs (an fp64 reference, eager near it, compiled moved from eager by a
 * random amount at random positions) and what same() says of each; the
 * oracle judges the same values. Where eager agrees with fp64 everywhere,
 * both must say the same; where eager is far from fp64 somewhere the oracle
 * may pass what same() fails (docs/oracle.md), never the other way round. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../harness/runtime.h"
#include "../../oracles/oracle.h"
#include "../test.h"

#define SAME_CASES 400
#define SAME_MAX_N 1500

static const char draw_cases[] =
	"import logging, sys, torch\n"
	"from torch._dynamo.utils import same\n"
	"logging.getLogger(\"torch._dynamo.utils\").setLevel(logging.CRITICAL)  # same()'s log of each failure\n"
	"g = torch.Generator().manual_seed(11)\n"
	"def rand(*s): return torch.rand(*s, generator=g, dtype=torch.float64)\n"
	"for case in range(int(sys.argv[1])):\n"
	"    n = int(1 + rand(1) ** 2 * (int(sys.argv[2]) - 1))\n"
	"    ref = torch.randn(n, generator=g, dtype=torch.float64) * 10 ** (4 * rand(1) - 2)\n"
	"    far = bool(rand(1) < 0.25)  # eager itself far from fp64 at a few positions\n"
	"    eager = (ref + far * (rand(n) < 0.02) * ref.abs().mean() * rand(n)).float()\n"
	"    moved = rand(n) < rand(1)\n"
	"    compiled = (eager.double() + moved * torch.randn(n, generator=g, dtype=torch.float64)\n"
	"                * ref.abs().mean() * 10 ** (-7 * rand(1))).float()\n"
	"    passes = same(eager, compiled, fp64_ref=ref, equal_nan=True, tol=1e-4)\n"
	"    print(n, int(far), int(passes))\n"
	"    for t in (eager.double(), compiled.double(), ref):\n"
	"        print(' '.join(repr(x) for x in t.tolist()))\n";

static double *read_values(FILE *f, unsigned n)
{
	double *v = malloc(n * sizeof *v);
	for (unsigned i = 0; v && i < n; i++)
		if (fscanf(f, "%lf", &v[i]) != 1) {
			free(v);
			return NULL;
		}
	return v;
}

static void set_output(struct mode_result *m, const double *values, unsigned n, enum dtype dt)
{
	m->ran = m->ok = 1;
	m->nout = 1;
	m->out[0] = (struct tensor_out){.is_tensor = 1, .dtype = (uint8_t)dt, .rank = 1, .has_values = 1,
					.shape = {n}, .stride = {1}, .numel = n, .f = values};
}

TEST(oracle_float_rule_agrees_with_torch_same)
{
	char python[4096], why[600], script[] = "/tmp/pt2fuzz-same-XXXXXX", cmd[4400];
	if (runtime_python(python, sizeof python, why, sizeof why)) {
		CHECK(!why[0]);
		return;
	}
	int fd = mkstemp(script);
	CHECK(fd >= 0 && write(fd, draw_cases, sizeof draw_cases - 1) == (ssize_t)(sizeof draw_cases - 1));
	close(fd);
	snprintf(cmd, sizeof cmd, "%s %s %d %d", python, script, SAME_CASES, SAME_MAX_N);
	FILE *f = popen(cmd, "r");
	CHECK(f != NULL);
	unsigned cases = 0, near_cases = 0, agree = 0, fails = 0, extra_pass = 0;
	unsigned n, far, passes;
	while (f && fscanf(f, "%u %u %u", &n, &far, &passes) == 3) {
		double *e = read_values(f, n), *c = read_values(f, n), *ref = read_values(f, n);
		CHECK(e && c && ref);
		if (!(e && c && ref))
			break;
		static struct run_result r;
		memset(&r, 0, sizeof r);
		r.nbind = 1;
		r.compiled_graphs = 1;
		set_output(&r.m[RM_EAGER][0], e, n, DT_FLOAT32);
		set_output(&r.m[RM_COMPILED][0], c, n, DT_FLOAT32);
		set_output(&r.m[RM_FP64][0], ref, n, DT_FLOAT64);
		struct verdict v;
		oracle_judge(&r, NULL, 0, NULL, &v);
		int finding = v.kind == V_NUMERIC;
		CHECK(v.kind == V_PASS || v.kind == V_NUMERIC);
		cases++;
		fails += !passes;
		if (!far) {
			near_cases++;
			agree += finding == !passes;
			if (finding == (int)passes)
				fprintf(stderr, "  n %u: oracle %s, same() %s: %s\n", n, finding ? "numeric" : "pass",
					passes ? "passes" : "fails", v.detail);
			CHECK_EQ(finding, !passes);
		} else {
			CHECK(!finding || !passes); /* a finding of ours is one same() makes */
			extra_pass += !finding && !passes;
		}
		free(e), free(c), free(ref);
	}
	CHECK(f && pclose(f) == 0);
	unlink(script);
	fprintf(stderr, "  %u cases (%u with eager near fp64: %u agree), same() fails %u; the oracle passes %u of "
			"same()'s failures where eager is far from fp64\n",
		cases, near_cases, agree, fails, extra_pass);
	CHECK_EQ(cases, SAME_CASES);
	/* the draw reaches both sides of the rule */
	CHECK(fails > SAME_CASES / 10 && fails < SAME_CASES - SAME_CASES / 10);
}
