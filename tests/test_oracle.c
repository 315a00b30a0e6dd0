/* The oracle on crafted worker records: each verdict class, precedence,
 * same()'s fp64-reference rule, NaN/Inf handling, strides, and the dedup
 * signature's normalization. */
#include "test.h"
#include "../oracles/oracle.h"
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static struct run_result R; /* large: static, reset by each test */
static struct oracle_opts O;
static struct verdict V;

static void reset(unsigned nbind)
{
	memset(&R, 0, sizeof R);
	R.nbind = nbind;
	R.compiled_graphs = 1;
	R.busy_mode = 0xff; /* idle */
	oracle_default_opts(&O);
}

/* Output k of mode m at binding b: a contiguous tensor with values f
 * (floats) or iv (ints and bools), or shape only when both are NULL. */
static struct tensor_out *put(unsigned m, unsigned b, unsigned k, enum dtype dt, unsigned rank, const int64_t *shape,
			      const double *f, const int64_t *iv)
{
	struct mode_result *mr = &R.m[m][b];
	mr->ran = mr->ok = 1;
	mr->nout = mr->nout > k ? mr->nout : k + 1;
	struct tensor_out *t = &mr->out[k];
	t->is_tensor = 1;
	t->dtype = (uint8_t)dt;
	t->rank = (uint8_t)rank;
	t->numel = 1;
	for (int d = (int)rank - 1; d >= 0; d--) {
		t->shape[d] = shape[d];
		t->stride[d] = (int64_t)t->numel;
		t->numel *= (uint64_t)shape[d];
	}
	t->has_values = f || iv;
	t->f = f;
	t->i = iv;
	return t;
}

/* 1-D float outputs of n elements at (b, k): eager and compiled of dtype
 * dt, and the fp64 reference (f NULL: fp64 did not run at b). */
static void floats(unsigned b, unsigned k, enum dtype dt, int64_t n, const double *e, const double *c, const double *f)
{
	put(RM_EAGER, b, k, dt, 1, &n, e, NULL);
	put(RM_COMPILED, b, k, dt, 1, &n, c, NULL);
	if (f)
		put(RM_FP64, b, k, DT_FLOAT64, 1, &n, f, NULL);
	else
		R.m[RM_FP64][b].ran = 0;
}

static void raise_in(unsigned m, unsigned b, const char *etype, const char *msg)
{
	struct mode_result *mr = &R.m[m][b];
	mr->ran = 1;
	mr->ok = 0;
	mr->nout = 0;
	snprintf(mr->etype, sizeof mr->etype, "%s", etype);
	snprintf(mr->emsg, sizeof mr->emsg, "%s", msg);
}

static enum verdict_kind judge(void)
{
	oracle_judge(&R, NULL, 0, &O, &V);
	return V.kind;
}

static const double one4[4] = {1, 2, 3, 4};

TEST(oracle_identical_and_within_tol_pass)
{
	static const double near[4] = {1 + 5e-5, 2, 3 - 1e-4, 4};
	reset(1);
	floats(0, 0, DT_FLOAT32, 4, one4, one4, one4);
	CHECK_EQ(judge(), V_PASS);
	floats(0, 0, DT_FLOAT32, 4, one4, near, one4);
	CHECK_EQ(judge(), V_PASS);
	CHECK_EQ(V.binding, -1);
}

TEST(oracle_float32_compiled_off_where_eager_is_exact_is_numeric)
{
	static const double off[4] = {1.001, 2.001, 3.001, 4.001};
	reset(1);
	floats(0, 0, DT_FLOAT32, 4, one4, off, one4);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.what, MM_VALUES);
	CHECK_EQ(V.binding, 0);
	CHECK_EQ(V.output, 0);
	CHECK(V.ref_rmse == 0);
	CHECK(fabs(V.res_rmse - 1e-3) < 1e-9);
	CHECK(fabs(V.max_abs - 1e-3) < 1e-9);
	CHECK(strstr(V.detail, "binding 0 output 0: max abs diff 0.001, rmse vs fp64 compiled 0.001 > 3 x eager 0"));
	/* the zero of 100 values off by 3e-4: rmse 3e-5 is past the tol/10 slack */
	static double h[100], h1[100];
	for (int i = 0; i < 100; i++)
		h[i] = h1[i] = i;
	h1[0] = 3e-4;
	floats(0, 0, DT_FLOAT32, 100, h, h1, h);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK(V.res_rmse > 2.9e-5 && V.res_rmse < 3.1e-5);
	h1[0] = 0.9e-4; /* within allclose */
	CHECK_EQ(judge(), V_PASS);
}

TEST(oracle_float16_within_3x_eager_error_passes_10x_is_numeric)
{
	static const double e[4] = {1.01, 2.01, 3.01, 4.01}, c3[4] = {1.02, 2.02, 3.02, 4.02},
			    c10[4] = {1.1, 2.1, 3.1, 4.1};
	reset(1);
	floats(0, 0, DT_FLOAT16, 4, e, c3, one4);
	CHECK_EQ(judge(), V_PASS); /* not allclose at 1e-3, but rmse 0.02 <= 3 x 0.01 */
	floats(0, 0, DT_FLOAT16, 4, e, c10, one4);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK(fabs(V.ref_rmse - 0.01) < 1e-9 && fabs(V.res_rmse - 0.1) < 1e-9);
}

TEST(oracle_multiplier_is_2_for_large_float32_3_for_small_or_1x1)
{
	static double f[1000], e[1000], c[1000];
	for (int i = 0; i < 1000; i++) {
		f[i] = 1 + i * 1e-3;
		e[i] = f[i] + 1e-3;
		c[i] = f[i] + 2.5e-3; /* 2.5 x eager's error */
	}
	reset(1);
	floats(0, 0, DT_FLOAT32, 1000, e, c, f);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK(strstr(V.detail, "> 2 x eager"));
	floats(0, 0, DT_FLOAT32, 999, e, c, f);
	CHECK_EQ(judge(), V_PASS);
	/* rank 4 with the last two dims 1 (a 1x1 kernel's output) */
	reset(1);
	const int64_t s[4] = {10, 100, 1, 1};
	put(RM_EAGER, 0, 0, DT_FLOAT32, 4, s, e, NULL);
	put(RM_COMPILED, 0, 0, DT_FLOAT32, 4, s, c, NULL);
	put(RM_FP64, 0, 0, DT_FLOAT64, 4, s, f, NULL);
	CHECK_EQ(judge(), V_PASS);
	/* a tol raised to 2e-2 (same()'s REQUIRE_HIGHER_TOLERANCE) */
	for (int i = 0; i < 1000; i++) {
		e[i] = f[i] + 0.1;
		c[i] = f[i] + 0.25;
	}
	reset(1);
	floats(0, 0, DT_FLOAT32, 1000, e, c, f);
	O.tol[DT_FLOAT32] = 1.9e-2;
	CHECK_EQ(judge(), V_NUMERIC);
	O.tol[DT_FLOAT32] = 2e-2;
	CHECK_EQ(judge(), V_PASS);
}

TEST(oracle_without_usable_fp64_uses_10x_tol)
{
	/* near zero, where atol decides: 5e-4 is beyond 1e-4 but within 1e-3 */
	static const double z[4] = {0, 0, 0, 0}, c[4] = {5e-4, -5e-4, 0, 0}, far[4] = {5e-3, 0, 0, 0};
	reset(1);
	floats(0, 0, DT_FLOAT32, 4, z, c, z);
	CHECK_EQ(judge(), V_NUMERIC); /* with the reference: eager exact, compiled not */
	raise_in(RM_FP64, 0, "RuntimeError", "\"addmm\" not implemented for 'Double'");
	CHECK_EQ(judge(), V_PASS);
	/* an explicit cast leaves the fp64 run's output float16: no reference */
	int64_t n = 4;
	put(RM_FP64, 0, 0, DT_FLOAT16, 1, &n, z, NULL);
	CHECK_EQ(judge(), V_PASS);
	floats(0, 0, DT_FLOAT32, 4, z, far, NULL);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK(strstr(V.detail, "no fp64 reference"));
	/* after a step op (floor of an int pairwise distance on the H100: 7 vs
	 * 6 where eager's 7.0000005 and compiled's 6.9999995 round apart) no
	 * side can be told right: not judged */
	static const double e7[4] = {7, 7, 7, 7}, c6[4] = {6, 7, 7, 7};
	floats(0, 0, DT_FLOAT32, 4, e7, c6, NULL);
	CHECK_EQ(judge(), V_NUMERIC);
	O.stepped[0] = 1;
	CHECK_EQ(judge(), V_PASS);
	floats(0, 0, DT_FLOAT32, 4, e7, c6, e7); /* with the reference it is judged */
	CHECK_EQ(judge(), V_NUMERIC);
}

/* bfloat16 -> glu -> tan, judged against the fp64 run of the upcast graph:
 * one element sits next to tan's pole, where one bfloat16 rounding of its
 * input moves the result from 26.0 (exact) to 26.6 (eager) or 19.75
 * (compiled). same()'s rmse alone would report it; eager is itself far from
 * fp64 there and close everywhere else, so rounding decided. */
TEST(oracle_rounding_next_to_a_pole_is_not_reported)
{
	static double f[20], e[20], c[20];
	for (int i = 0; i < 20; i++) {
		f[i] = 0.1 * i - 0.9;
		e[i] = c[i] = f[i] * (1 + 2e-3); /* bfloat16's rounding, shared */
	}
	f[7] = 26.0, e[7] = 26.6, c[7] = 19.75;
	reset(1);
	floats(0, 0, DT_BFLOAT16, 20, e, c, f);
	CHECK_EQ(judge(), V_PASS);
	/* the same difference where eager agrees with fp64 (within 1e-2) is a finding */
	e[7] = 26.1;
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.what, MM_VALUES);
	CHECK(V.tol == 1e-2);
	/* next to the pole again, but compiled also off where eager is exact: a finding */
	e[7] = 26.6;
	c[3] = e[3] + 0.5;
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.output, 0);
	c[3] = e[3];
	/* a float32 output of a graph that computes in bfloat16: eager's
	 * distance from fp64 is judged at the graph's coarsest tolerance */
	for (int i = 0; i < 20; i++)
		e[i] = c[i] = f[i] + 5e-3;
	e[7] = 26.6, c[7] = 19.75;
	floats(0, 0, DT_FLOAT32, 20, e, c, f);
	CHECK_EQ(judge(), V_NUMERIC); /* at float32's 1e-4, eager is off everywhere: same() decides */
	O.coarse_tol = 1e-2;
	CHECK_EQ(judge(), V_PASS);
}

/* Eager on nudged inputs (RM_NUDGED) excuses what the problem's own
 * amplification of one rounding explains, in continuous graphs only. */
TEST(oracle_nudged_inputs_excuse_ill_conditioning_only)
{
	/* layer_norm of a constant: eager and fp64 exactly 0, compiled one
	 * rounding of the mean times 1/sqrt(eps) away; nudged, eager moves by
	 * about as much, everywhere */
	static double zero[30], c[30], moved[30];
	int64_t n = 30;
	for (int i = 0; i < 30; i++) {
		c[i] = 0.0017;
		moved[i] = 0.0024 * ((i * 7) % 9 - 4.3);
	}
	reset(1);
	floats(0, 0, DT_FLOAT32, 30, zero, c, zero);
	CHECK_EQ(judge(), V_NUMERIC); /* same() alone: a finding */
	put(RM_NUDGED, 0, 0, DT_FLOAT32, 1, &n, moved, NULL);
	CHECK_EQ(judge(), V_NUMERIC); /* no graph to say what jumps: nudging says nothing */
	O.nudge_floats = 1;
	CHECK_EQ(judge(), V_PASS);
	O.stepped[0] = 1; /* its component has a step op */
	CHECK_EQ(judge(), V_NUMERIC);
	/* a step in another component (output 1, judged exactly) takes
	 * nothing from output 0 */
	O.stepped[0] = 0, O.stepped[1] = 1;
	static const int64_t same[30];
	put(RM_EAGER, 0, 1, DT_INT64, 1, &n, NULL, same);
	put(RM_COMPILED, 0, 1, DT_INT64, 1, &n, NULL, same);
	CHECK_EQ(judge(), V_PASS);
	O.stepped[1] = 0;
	/* well conditioned: eager moves by an ulp, compiled's 0.0017 stands */
	static double ulp[30];
	for (int i = 0; i < 30; i++)
		ulp[i] = 1.2e-7 * (i % 2 ? 1 : -1);
	put(RM_NUDGED, 0, 0, DT_FLOAT32, 1, &n, ulp, NULL);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.what, MM_VALUES);
	/* positions fed by +-3e38 move hugely; a wrong value elsewhere in the
	 * same output is still a finding, the same one alone there is not */
	static double e2[30], c2[30], f2[30], n2[30];
	for (int i = 0; i < 30; i++) {
		e2[i] = c2[i] = f2[i] = 0.5 * i;
		n2[i] = e2[i] + (i < 10 ? 3e31 : 1e-7);
	}
	c2[3] += 0.4; /* next to a huge pair: the problem's */
	floats(0, 0, DT_FLOAT32, 30, e2, c2, f2);
	put(RM_NUDGED, 0, 0, DT_FLOAT32, 1, &n, n2, NULL);
	CHECK_EQ(judge(), V_PASS);
	c2[20] += 0.4; /* where eager does not move: the compiler's */
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.binding, 0);
	/* a nudged run that raised, or gave another shape, excuses nothing */
	c2[20] = e2[20];
	c2[3] = e2[3] + 0.4;
	int64_t other = 29;
	put(RM_NUDGED, 0, 0, DT_FLOAT32, 1, &other, n2, NULL);
	CHECK_EQ(judge(), V_NUMERIC);
	raise_in(RM_NUDGED, 0, "RuntimeError", "nudged");
	CHECK_EQ(judge(), V_NUMERIC);
}

/* A NaN or Inf eager and fp64 share is judged unless eager's own class
 * moves on nudged inputs: the log of a value rounding leaves at -1e-7 in
 * eager and fp64 and at +1e-7 compiled (an svd's rebuilt zero, seen on the
 * H200) is NaN against -16, and the nudged run, which puts that operand on
 * the other side of 0, shows rounding deciding it. */
TEST(oracle_nudged_class_change_excuses_a_nonfinite_position)
{
	static double e[30], c[30], f[30], moved[30];
	int64_t n = 30;
	for (int i = 0; i < 30; i++)
		e[i] = c[i] = f[i] = moved[i] = -1.0 - i;
	e[4] = f[4] = NAN, c[4] = -16.0;
	moved[4] = -15.9;
	reset(1);
	O.nudge_floats = 1;
	floats(0, 0, DT_FLOAT32, 30, e, c, f);
	CHECK_EQ(judge(), V_NUMERIC); /* no nudged run: eager and fp64 agree on NaN */
	CHECK_EQ(V.what, MM_NONFINITE);
	put(RM_NUDGED, 0, 0, DT_FLOAT32, 1, &n, moved, NULL);
	CHECK_EQ(judge(), V_PASS);
	/* the same NaN where the nudged run keeps it (a log of -1): the compiler's */
	moved[4] = NAN;
	put(RM_NUDGED, 0, 0, DT_FLOAT32, 1, &n, moved, NULL);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.what, MM_NONFINITE);
	/* a finite eager that compiled makes Inf, where nudged eager overflows too */
	e[4] = f[4] = 3e38, c[4] = INFINITY, moved[4] = INFINITY;
	put(RM_NUDGED, 0, 0, DT_FLOAT32, 1, &n, moved, NULL);
	CHECK_EQ(judge(), V_PASS);
	O.nudge_floats = 0; /* a program text or a near-invalid graph: no nudged run is consulted */
	CHECK_EQ(judge(), V_NUMERIC);
	/* finite in eager, compiled and fp64, compiled 0.13 off where nudged
	 * eager is NaN (a log of a self-distance, its operand put below 0):
	 * eager moves without bound there, so that difference is not held
	 * against compiled; the same 0.13 where nudged eager stays is */
	O.nudge_floats = 1;
	for (int i = 0; i < 30; i++)
		e[i] = c[i] = f[i] = moved[i] = -1.0 - i;
	e[4] = f[4] = -13.8, c[4] = -13.67, moved[4] = NAN;
	put(RM_NUDGED, 0, 0, DT_FLOAT32, 1, &n, moved, NULL);
	CHECK_EQ(judge(), V_PASS);
	moved[4] = -13.8;
	put(RM_NUDGED, 0, 0, DT_FLOAT32, 1, &n, moved, NULL);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.what, MM_VALUES);
}

TEST(oracle_a_pass_says_how_near_its_closest_output_came_to_a_finding)
{
	/* eager equal to fp64, compiled off by d at every position: the rmse
	 * rule's bound is tol / 10 (eager's own error is 0), so nearness is
	 * d / (tol / 10), on output 1, the one that came nearer */
	static double e[30], c0[30], c1[30];
	double tol = 1e-4; /* float32's */
	for (int i = 0; i < 30; i++) {
		e[i] = c0[i] = 1.0 + i;
		c1[i] = e[i] + tol / 40;
	}
	reset(1);
	floats(0, 0, DT_FLOAT32, 30, e, c0, e);
	floats(0, 1, DT_FLOAT32, 30, e, c1, e);
	CHECK_EQ(judge(), V_PASS);
	CHECK_EQ(V.nearest_output, 1);
	CHECK(fabs(V.nearest - 0.25) < 1e-3);
	for (int i = 0; i < 30; i++)
		c1[i] = e[i] + tol / 15;
	CHECK_EQ(judge(), V_PASS); /* within tol everywhere: no finding, but nearer */
	CHECK(fabs(V.nearest - 10.0 / 15) < 1e-3);
	/* exact everywhere: nothing is near */
	floats(0, 1, DT_FLOAT32, 30, e, c0, e);
	CHECK_EQ(judge(), V_PASS);
	CHECK(V.nearest == 0);
	/* a finding is not a near miss */
	for (int i = 0; i < 30; i++)
		c1[i] = e[i] + 0.5;
	floats(0, 1, DT_FLOAT32, 30, e, c1, e);
	CHECK_EQ(judge(), V_NUMERIC);
}

TEST(oracle_ints_and_bools_are_exact)
{
	static const int64_t a[4] = {0, 1, 2, 3}, b[4] = {0, 1, 3, 3}, t[3] = {1, 0, 1}, u[3] = {1, 1, 1};
	int64_t n = 4, m = 3;
	reset(1);
	put(RM_EAGER, 0, 0, DT_INT64, 1, &n, NULL, a);
	put(RM_COMPILED, 0, 0, DT_INT64, 1, &n, NULL, a);
	CHECK_EQ(judge(), V_PASS);
	put(RM_COMPILED, 0, 0, DT_INT64, 1, &n, NULL, b);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.what, MM_VALUES);
	CHECK(strstr(V.detail, "1 of 4 int64 values differ where eager agrees with fp64, first at index 2 (eager 2, compiled 3"));
	reset(1);
	put(RM_EAGER, 0, 0, DT_BOOL, 1, &m, NULL, t);
	put(RM_COMPILED, 0, 0, DT_BOOL, 1, &m, NULL, u);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.what, MM_VALUES);
}

/* Ints computed from floats (a floor, a cast, a comparison) round one way or
 * the other: with the fp64 run's ints as reference, a difference is a finding
 * only where eager agrees with fp64 and compiled does not. */
TEST(oracle_ints_judged_against_fp64_ints)
{
	static const int64_t e[4] = {0, 1, 2, 3}, c[4] = {0, 2, 3, 9}, ref_eager_off[4] = {0, 2, 3, 9},
			     ref_agrees[4] = {0, 1, 2, 3}, ref_mixed[4] = {0, 2, 2, 3};
	int64_t n = 4;
	reset(1);
	put(RM_EAGER, 0, 0, DT_INT32, 1, &n, NULL, e);
	put(RM_COMPILED, 0, 0, DT_INT32, 1, &n, NULL, c);
	put(RM_FP64, 0, 0, DT_INT32, 1, &n, NULL, ref_eager_off); /* compiled is the exact one */
	CHECK_EQ(judge(), V_PASS);
	put(RM_FP64, 0, 0, DT_INT32, 1, &n, NULL, ref_agrees);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK(strstr(V.detail, "3 of 4 int32 values differ where eager agrees with fp64, first at index 1"));
	put(RM_FP64, 0, 0, DT_INT32, 1, &n, NULL, ref_mixed); /* index 1 rounding-sensitive; 2, 3 not */
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK(strstr(V.detail, "2 of 4 int32 values differ where eager agrees with fp64, first at index 2"));
	CHECK(strstr(V.detail, "1 more differ where rounding decides"));
	put(RM_FP64, 0, 0, DT_INT64, 1, &n, NULL, ref_agrees); /* another dtype: no reference, exact */
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK(strstr(V.detail, "3 of 4 int32 values differ"));
}

/* A float16 value one ulp from round()'s boundary, rounded the other way by
 * a fused kernel, moves its int by one where eager agrees with fp64 (the
 * false alarm of a float16 conv cast to int32 under AOTI): eager on nudged
 * inputs shows how many positions rounding decides, and no more of compiled's
 * differences than that are a finding; more are, and so is one where
 * neither fp64 nor the nudge shows rounding deciding anywhere. */
TEST(oracle_int_differences_no_more_than_rounding_decides_pass)
{
	static int64_t e[64], c[64], ref[64], nudged[64];
	int64_t n = 64;
	for (int i = 0; i < 64; i++)
		e[i] = c[i] = ref[i] = nudged[i] = i % 7 - 3;
	c[8] += 1;
	reset(1);
	put(RM_EAGER, 0, 0, DT_INT32, 1, &n, NULL, e);
	put(RM_COMPILED, 0, 0, DT_INT32, 1, &n, NULL, c);
	put(RM_FP64, 0, 0, DT_INT32, 1, &n, NULL, ref);
	CHECK_EQ(judge(), V_NUMERIC); /* no nudged run: nothing shows rounding deciding */
	O.nudge_ints = 1;
	put(RM_NUDGED, 0, 0, DT_INT32, 1, &n, NULL, nudged);
	CHECK_EQ(judge(), V_NUMERIC); /* nudged, eager moves nowhere: the compiler's */
	nudged[20] -= 1;
	nudged[41] += 1;
	put(RM_NUDGED, 0, 0, DT_INT32, 1, &n, NULL, nudged);
	CHECK_EQ(judge(), V_PASS); /* one difference, two positions the nudge flips */
	O.nudge_ints = 0; /* a dtype view in the graph: its ints move with every ulp */
	CHECK_EQ(judge(), V_NUMERIC);
	O.nudge_ints = 1;
	c[30] -= 1;
	c[50] += 1;
	CHECK_EQ(judge(), V_NUMERIC); /* three against two */
	CHECK(strstr(V.detail, "3 of 64 int32 values differ where eager agrees with fp64, first at index 8"));
	CHECK(strstr(V.detail, "2 positions rounding decides"));
	c[20] += 5; /* where the nudge flips: excused whatever its size */
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK(strstr(V.detail, "1 more differ where rounding decides"));
	ref[5] += 1; /* eager itself off fp64 at a third position */
	put(RM_FP64, 0, 0, DT_INT32, 1, &n, NULL, ref);
	CHECK_EQ(judge(), V_PASS);
	/* a nudged run that raised, or gave another dtype, shows nothing */
	ref[5] -= 1;
	put(RM_FP64, 0, 0, DT_INT32, 1, &n, NULL, ref);
	put(RM_NUDGED, 0, 0, DT_INT64, 1, &n, NULL, nudged);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK(strstr(V.detail, "0 positions rounding decides"));
	put(RM_NUDGED, 0, 0, DT_INT32, 1, &n, NULL, nudged);
	raise_in(RM_NUDGED, 0, "RuntimeError", "nudged");
	CHECK_EQ(judge(), V_NUMERIC);
}

TEST(oracle_nan_positions_judged_against_fp64)
{
	static const double en[4] = {1, NAN, 3, 4}, cn[4] = {1, NAN, 3, 4}, fn[4] = {1, NAN, 3, 4};
	static const double cbad[4] = {1, 2, NAN, 4}, cinf[4] = {1, 2, 3, INFINITY};
	reset(1);
	floats(0, 0, DT_FLOAT32, 4, en, cn, fn);
	CHECK_EQ(judge(), V_PASS); /* same NaN positions */
	floats(0, 0, DT_FLOAT32, 4, one4, cbad, one4);
	CHECK_EQ(judge(), V_NUMERIC); /* compiled-only NaN */
	CHECK_EQ(V.what, MM_NONFINITE);
	CHECK(strstr(V.detail, "first at index 2"));
	floats(0, 0, DT_FLOAT32, 4, en, one4, fn);
	CHECK_EQ(judge(), V_NUMERIC); /* eager and fp64 agree on NaN (a domain error): compiled finite is wrong */
	CHECK_EQ(V.what, MM_NONFINITE);
	static const double einf[4] = {1, 2, 3, INFINITY}, cnan[4] = {1, 2, 3, NAN};
	floats(0, 0, DT_FLOAT32, 4, einf, cnan, einf);
	CHECK_EQ(judge(), V_NUMERIC); /* eager and fp64 say +inf, compiled NaN */
	floats(0, 0, DT_FLOAT32, 4, en, one4, one4);
	CHECK_EQ(judge(), V_PASS); /* eager's own NaN is not the compiler's */
	static const double finf[4] = {1, 2, 3, INFINITY};
	floats(0, 0, DT_FLOAT32, 4, one4, cinf, finf);
	CHECK_EQ(judge(), V_PASS); /* fp64 overflows there too */
	static const double fnan[4] = {NAN, 2, 3, 4}, c0[4] = {50, 2, 3, 4};
	floats(0, 0, DT_FLOAT32, 4, one4, c0, fnan);
	CHECK_EQ(judge(), V_PASS); /* fp64 NaN: that position is not compared */
	floats(0, 0, DT_FLOAT32, 4, one4, cinf, NULL);
	CHECK_EQ(judge(), V_NUMERIC); /* no reference: compiled Inf where eager finite */
	CHECK_EQ(V.what, MM_NONFINITE);
}

TEST(oracle_tie_broken_outputs_are_never_compared)
{
	static const double wild[4] = {100, -7, 0, 1e9};
	static const int64_t ia[2] = {0, 3}, ib[2] = {2, 1};
	int64_t two = 2, three = 3;
	reset(1);
	floats(0, 0, DT_FLOAT32, 4, one4, one4, one4);
	floats(0, 1, DT_FLOAT32, 4, one4, wild, one4);
	put(RM_EAGER, 0, 2, DT_INT64, 1, &two, NULL, ia);
	put(RM_COMPILED, 0, 2, DT_INT64, 1, &three, NULL, NULL); /* even its shape */
	const uint8_t compare[3] = {1, 0, 0};
	oracle_judge(&R, compare, 3, &O, &V);
	CHECK_EQ(V.kind, V_PASS);
	CHECK_EQ(judge(), V_NUMERIC); /* NULL compares all */
	CHECK_EQ(V.output, 1);
	put(RM_COMPILED, 0, 2, DT_INT64, 1, &two, NULL, ib);
	oracle_judge(&R, compare, 2, &O, &V); /* past ncompare: compared */
	CHECK_EQ(V.kind, V_NUMERIC);
	CHECK_EQ(V.output, 2);
}

/* ORACLE_COMPARE_LAYOUT (values computed from draws that differ between
 * modes, pipeline/draws.h): any values pass, but a wrong dtype, shape or
 * stride is still a finding. */
TEST(oracle_layout_only_outputs_judge_all_but_values)
{
	static const double wild[4] = {100, -7, 0, 1e9};
	static const int64_t ia[4] = {0, 3, 1, 2}, ib[4] = {2, 1, 0, 3};
	int64_t four = 4, five = 5, sq[2] = {2, 2};
	const uint8_t layout[2] = {ORACLE_COMPARE_LAYOUT, ORACLE_COMPARE_LAYOUT};
	reset(1);
	floats(0, 0, DT_FLOAT32, 4, one4, wild, one4);
	put(RM_EAGER, 0, 1, DT_INT64, 1, &four, NULL, ia);
	put(RM_COMPILED, 0, 1, DT_INT64, 1, &four, NULL, ib);
	oracle_judge(&R, layout, 2, &O, &V);
	CHECK_EQ(V.kind, V_PASS);
	CHECK_EQ(judge(), V_NUMERIC); /* all compared: the values differ */
	put(RM_COMPILED, 0, 1, DT_INT64, 1, &five, NULL, NULL);
	oracle_judge(&R, layout, 2, &O, &V);
	CHECK_EQ(V.kind, V_NUMERIC);
	CHECK_EQ(V.what, MM_SHAPE);
	CHECK_EQ(V.output, 1);
	put(RM_COMPILED, 0, 1, DT_INT32, 1, &four, NULL, ib);
	oracle_judge(&R, layout, 2, &O, &V);
	CHECK_EQ(V.what, MM_DTYPE);
	reset(1);
	put(RM_EAGER, 0, 0, DT_FLOAT32, 2, sq, one4, NULL);
	struct tensor_out *c = put(RM_COMPILED, 0, 0, DT_FLOAT32, 2, sq, wild, NULL);
	c->stride[0] = 1;
	c->stride[1] = 2;
	oracle_judge(&R, layout, 1, &O, &V);
	CHECK_EQ(V.kind, V_STRIDE);
}

TEST(oracle_dtype_shape_count_and_kind_mismatches)
{
	int64_t s23[2] = {2, 3}, s32[2] = {3, 2}, s6 = 6;
	reset(1);
	put(RM_EAGER, 0, 0, DT_FLOAT32, 2, s23, NULL, NULL); /* shape only: no values */
	put(RM_COMPILED, 0, 0, DT_FLOAT32, 2, s23, NULL, NULL);
	CHECK_EQ(judge(), V_PASS);
	put(RM_COMPILED, 0, 0, DT_FLOAT16, 2, s23, NULL, NULL);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.what, MM_DTYPE);
	CHECK(strstr(V.detail, "dtype eager float32, compiled float16"));
	put(RM_COMPILED, 0, 0, DT_FLOAT32, 2, s32, NULL, NULL);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.what, MM_SHAPE);
	CHECK(strstr(V.detail, "shape eager (2, 3), compiled (3, 2)"));
	put(RM_COMPILED, 0, 0, DT_FLOAT32, 1, &s6, NULL, NULL);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.what, MM_SHAPE);
	put(RM_COMPILED, 0, 0, DT_FLOAT32, 2, s23, NULL, NULL);
	put(RM_COMPILED, 0, 1, DT_FLOAT32, 2, s23, NULL, NULL);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.what, MM_COUNT_OUT);
	R.m[RM_COMPILED][0].nout = 1;
	R.m[RM_COMPILED][0].out[0].is_tensor = 0;
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.what, MM_DTYPE);
}

TEST(oracle_strides_only_on_dims_above_1_and_ranked_last)
{
	static double vals[8] = {1, 2, 3, 4, 5, 6, 7, 8}, off[8] = {1, 2, 3, 4, 5, 6, 7, 9};
	int64_t s[3] = {1, 2, 4};
	reset(2);
	put(RM_EAGER, 0, 0, DT_FLOAT32, 3, s, vals, NULL);
	struct tensor_out *c = put(RM_COMPILED, 0, 0, DT_FLOAT32, 3, s, vals, NULL);
	c->stride[0] = 1; /* size-1 dim: any stride is fine */
	CHECK_EQ(judge(), V_PASS);
	c->stride[1] = 1;
	c->stride[2] = 2; /* a transposed layout */
	CHECK_EQ(judge(), V_STRIDE);
	CHECK_EQ(V.what, MM_STRIDE);
	CHECK(strstr(V.detail, "stride of dim 1 (size 2) eager 4, compiled 1"));
	struct tensor_out *c1 = put(RM_COMPILED, 0, 1, DT_FLOAT32, 3, s, vals, NULL);
	put(RM_EAGER, 0, 1, DT_FLOAT32, 3, s, vals, NULL);
	c1->stride[2] = 3;
	CHECK_EQ(judge(), V_STRIDE);
	CHECK_EQ(V.output, 0); /* the first one found */
	O.check_strides = 0;
	CHECK_EQ(judge(), V_PASS);
	O.check_strides = 1;
	/* a numeric finding at a later binding outranks it */
	put(RM_EAGER, 1, 0, DT_FLOAT32, 3, s, vals, NULL);
	put(RM_COMPILED, 1, 0, DT_FLOAT32, 3, s, off, NULL);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.binding, 1);
}

TEST(oracle_alias_compares_which_leaf_an_output_shares_after_values_before_strides)
{
	static double vals[4] = {1, 2, 3, 4}, off[4] = {1, 2, 3, 5};
	int64_t s[2] = {2, 2};
	reset(1);
	struct tensor_out *e = put(RM_EAGER, 0, 0, DT_FLOAT32, 2, s, vals, NULL);
	struct tensor_out *c = put(RM_COMPILED, 0, 0, DT_FLOAT32, 2, s, vals, NULL);
	e->alias = c->alias = 2; /* both view leaf 1 */
	CHECK_EQ(judge(), V_PASS);
	c->alias = 0; /* a copy where eager returns a view */
	CHECK_EQ(judge(), V_ALIAS);
	CHECK_EQ(V.what, MM_ALIAS);
	CHECK_EQ(V.output, 0);
	CHECK(strstr(V.detail, "binding 0 output 0: eager shares leaf 1's storage, compiled no leaf's storage"));
	e->alias = 0;
	c->alias = 1; /* an input's memory where eager's output is fresh */
	CHECK_EQ(judge(), V_ALIAS);
	CHECK(strstr(V.detail, "eager shares no leaf's storage, compiled leaf 0's storage"));
	e->alias = 2; /* another leaf's */
	CHECK_EQ(judge(), V_ALIAS);
	/* where the catalogue says output 0 is fresh, eager's view is not the op's promise (channel_shuffle) */
	O.views_known = 1;
	O.leaf_views = 0;
	CHECK_EQ(judge(), V_PASS);
	O.leaf_views = 1; /* a view by the catalogue too: judged */
	CHECK_EQ(judge(), V_ALIAS);
	e->alias = 0; /* the catalogue's view, eager's copy (reshape of a strided input): unjudged */
	CHECK_EQ(judge(), V_PASS);
	O.views_known = 0;
	e->alias = 2;
	O.check_aliases = 0;
	CHECK_EQ(judge(), V_PASS);
	O.check_aliases = 1;
	int64_t none[2] = {0, 2}; /* an empty output: nothing to write through it */
	put(RM_EAGER, 0, 0, DT_FLOAT32, 2, none, vals, NULL);
	put(RM_COMPILED, 0, 0, DT_FLOAT32, 2, none, vals, NULL)->alias = 1;
	CHECK_EQ(judge(), V_PASS);
	e = put(RM_EAGER, 0, 0, DT_FLOAT32, 2, s, vals, NULL);
	c = put(RM_COMPILED, 0, 0, DT_FLOAT32, 2, s, vals, NULL);
	e->alias = 2;
	c->alias = 1;
	c->stride[0] = 1; /* strides rank below it */
	c->stride[1] = 2;
	CHECK_EQ(judge(), V_ALIAS);
	c->f = off; /* values above it */
	CHECK_EQ(judge(), V_NUMERIC);
	/* each output on its own: a later output's alias finding beside an earlier one's values */
	c->f = vals;
	c->stride[0] = 2;
	c->stride[1] = 1;
	c->alias = e->alias;
	put(RM_EAGER, 0, 1, DT_FLOAT32, 2, s, vals, NULL);
	put(RM_COMPILED, 0, 1, DT_FLOAT32, 2, s, vals, NULL)->alias = 1;
	CHECK_EQ(judge(), V_ALIAS);
	CHECK_EQ(V.output, 1);
	struct verdict each[4];
	CHECK_EQ(oracle_judge_each(&R, NULL, 0, &O, each, 4), 1);
	CHECK_EQ(each[0].kind, V_ALIAS);
	/* a gradient's sharing is not judged */
	R.m[RM_EAGER][0].ngrad = R.m[RM_COMPILED][0].ngrad = 1;
	CHECK_EQ(judge(), V_PASS);
}

TEST(oracle_behaviour_missing_error_and_invalid)
{
	reset(1);
	floats(0, 0, DT_FLOAT32, 4, one4, one4, one4);
	raise_in(RM_COMPILED, 0, "torch._dynamo.exc.BackendCompilerFailed",
		 "backend='inductor' raised:\nCppCompileError: C++ compile error\nmore");
	CHECK_EQ(judge(), V_BEHAVIOUR);
	CHECK_EQ(V.what, MM_RAISED);
	/* the detail names the wrapped error, not the wrapper's heading */
	CHECK(!strcmp(V.detail, "compiled raised torch._dynamo.exc.BackendCompilerFailed: CppCompileError: C++ compile error"));
	raise_in(RM_EAGER, 0, "RuntimeError", "mat1 and mat2 shapes cannot be multiplied");
	CHECK_EQ(judge(), V_INVALID);
	R.m[RM_COMPILED][0].ran = 0; /* compiled not run: still invalid */
	CHECK_EQ(judge(), V_INVALID);
	floats(0, 0, DT_FLOAT32, 4, one4, one4, one4);
	raise_in(RM_EAGER, 0, "RuntimeError", "index 7 is out of bounds");
	CHECK_EQ(judge(), V_MISSING_ERROR);
	CHECK(strstr(V.detail, "index 7 is out of bounds"));
}

TEST(oracle_export_failure_is_its_own_class_not_a_compiler_bug)
{
	reset(1);
	floats(0, 0, DT_FLOAT32, 4, one4, one4, one4);
	raise_in(RM_COMPILED, 0, ORACLE_EXPORT_FAILED,
		 "torch._dynamo.exc.UserError: Could not guard on data-dependent expression u0 > 3");
	CHECK_EQ(judge(), V_EXPORT);
	CHECK_EQ(V.what, MM_RAISED);
	CHECK(!strcmp(V.detail, "torch.export raised pt2fuzz.ExportFailed: torch._dynamo.exc.UserError: Could not "
				"guard on data-dependent expression u0 > 3"));
	CHECK(verdict_is_finding(V_EXPORT) && !verdict_is_compiler_bug(V_EXPORT) && verdict_is_compiler_bug(V_NUMERIC));
	/* the signature carries the export error, numbers stripped */
	uint64_t sig = oracle_signature(&V, &R, NULL, 0);
	raise_in(RM_COMPILED, 0, ORACLE_EXPORT_FAILED,
		 "torch._dynamo.exc.UserError: Could not guard on data-dependent expression u7 > 9");
	CHECK_EQ(judge(), V_EXPORT);
	CHECK(oracle_signature(&V, &R, NULL, 0) == sig);
	/* eager raising too: the program is at fault */
	raise_in(RM_EAGER, 0, "RuntimeError", "shape mismatch");
	CHECK_EQ(judge(), V_INVALID);
	/* a near-invalid graph that export rejects: rejected, as it must be */
	O.broken = 1;
	CHECK_EQ(judge(), V_PASS);
	O.broken = 0;
}

TEST(oracle_precedence_behaviour_over_numeric_and_not_compiled)
{
	static const double off[4] = {9, 9, 9, 9};
	reset(2);
	floats(0, 0, DT_FLOAT32, 4, one4, one4, one4);
	raise_in(RM_COMPILED, 0, "RuntimeError", "boom");
	floats(1, 0, DT_FLOAT32, 4, one4, off, one4);
	CHECK_EQ(judge(), V_BEHAVIOUR);
	CHECK_EQ(V.binding, 0);
	/* numeric at binding 0, raise at binding 1: behaviour still */
	reset(2);
	floats(0, 0, DT_FLOAT32, 4, one4, off, one4);
	floats(1, 0, DT_FLOAT32, 4, one4, one4, one4);
	raise_in(RM_COMPILED, 1, "RuntimeError", "boom");
	CHECK_EQ(judge(), V_BEHAVIOUR);
	CHECK_EQ(V.binding, 1);
	/* no graph compiled: after behaviour, before numeric */
	R.compiled_graphs = 0;
	CHECK_EQ(judge(), V_BEHAVIOUR);
	floats(1, 0, DT_FLOAT32, 4, one4, one4, one4);
	CHECK_EQ(judge(), V_NOT_COMPILED);
	R.compiled_graphs = 1;
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.binding, 0);
}

TEST(oracle_hang_in_compiled_is_a_finding_in_eager_is_invalid)
{
	reset(1);
	R.hung = 1;
	R.busy_mode = RM_COMPILED;
	CHECK_EQ(judge(), V_HANG);
	R.busy_mode = RM_EAGER;
	CHECK_EQ(judge(), V_INVALID);
	CHECK(strstr(V.detail, "eager hung"));
	/* no busy marker: eager finished the binding, compiled did not */
	R.busy_mode = 0xff;
	floats(0, 0, DT_FLOAT32, 4, one4, one4, one4);
	R.m[RM_COMPILED][0].ran = 0;
	CHECK_EQ(judge(), V_HANG);
	R.m[RM_COMPILED][0].ran = 1; /* compiled had finished: not its hang */
	CHECK_EQ(judge(), V_INVALID);
	R.busy_mode = RM_FP64;
	CHECK_EQ(judge(), V_INVALID);
}

TEST(oracle_crash_in_compiled_is_behaviour_in_fp64_is_invalid)
{
	reset(2);
	R.crashed = 1;
	R.term_signal = SIGSEGV;
	R.busy_mode = RM_COMPILED;
	R.busy_binding = 1;
	CHECK_EQ(judge(), V_BEHAVIOUR);
	CHECK_EQ(V.what, MM_CRASHED);
	CHECK_EQ(V.binding, 1);
	CHECK(!strcmp(V.detail, "worker killed by SIGSEGV in compiled mode, binding 1"));
	R.busy_mode = RM_FP64;
	CHECK_EQ(judge(), V_INVALID);
	R.hung = 1; /* a hang outranks everything */
	R.busy_mode = RM_COMPILED;
	CHECK_EQ(judge(), V_HANG);
}

TEST(oracle_names_and_findings)
{
	CHECK(!strcmp(verdict_name(V_NUMERIC), "numeric"));
	CHECK(!strcmp(verdict_name(V_MISSING_ERROR), "missing-error"));
	CHECK(!strcmp(mismatch_name(MM_NONFINITE), "nonfinite"));
	for (int k = 0; k < V_COUNT; k++)
		CHECK(verdict_name((enum verdict_kind)k)[0] != '?');
	for (int m = 0; m < MM_COUNT; m++)
		CHECK(mismatch_name((enum mismatch)m)[0] != '?');
	CHECK(!verdict_is_finding(V_PASS) && !verdict_is_finding(V_INVALID) && !verdict_is_finding(V_NOT_COMPILED));
	CHECK(verdict_is_finding(V_BEHAVIOUR) && verdict_is_finding(V_HANG) && verdict_is_finding(V_NUMERIC));
	CHECK(verdict_is_finding(V_STRIDE) && verdict_is_finding(V_MISSING_ERROR) && verdict_is_finding(V_ALIAS));
	CHECK(!strcmp(verdict_name(V_ALIAS), "alias"));
}

TEST(oracle_backward_labels_gradient_findings)
{
	static const double off4[4] = {1, 2, 3, 4.5};
	reset(1);
	floats(0, 0, DT_FLOAT32, 4, one4, one4, one4); /* forward output */
	floats(0, 1, DT_FLOAT32, 4, one4, one4, one4); /* gradient 0 */
	R.m[RM_EAGER][0].ngrad = R.m[RM_COMPILED][0].ngrad = R.m[RM_FP64][0].ngrad = 1;
	CHECK_EQ(judge(), V_PASS);
	CHECK_EQ(V.grads_judged, 1);
	CHECK(!V.backward && V.grad == -1);
	floats(0, 1, DT_FLOAT32, 4, one4, off4, one4);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK(V.backward && V.grad == 0 && V.output == 1);
	CHECK(!strncmp(V.detail, "backward gradient 0: ", 21));
	uint64_t bwd = oracle_signature(&V, &R, NULL, 0);
	/* the same mismatch on a forward output says forward, and hashes apart */
	floats(0, 1, DT_FLOAT32, 4, one4, one4, one4);
	floats(0, 0, DT_FLOAT32, 4, one4, off4, one4);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK(!V.backward && V.output == 0 && strncmp(V.detail, "backward", 8));
	CHECK(oracle_signature(&V, &R, NULL, 0) != bwd);
	/* gradient strides are never judged; a compare mask of 0 skips a gradient */
	floats(0, 0, DT_FLOAT32, 4, one4, one4, one4);
	R.m[RM_COMPILED][0].out[1].stride[0] = 2;
	CHECK_EQ(judge(), V_PASS);
	floats(0, 1, DT_FLOAT32, 4, one4, off4, one4);
	static const uint8_t skip_grad[2] = {1, 0};
	oracle_judge(&R, skip_grad, 2, &O, &V);
	CHECK(V.kind == V_PASS && V.grads_judged == 0);
}

/* Every output judged on its own (oracle_judge_each): a values finding on
 * output 0 hides neither output 2's nor a stride finding on output 1; the
 * verdict itself is still output 0's. */
TEST(oracle_judge_each_lists_every_failing_output)
{
	static double vals[4] = {1, 2, 3, 4}, off[4] = {1, 2, 3, 5}, far[4] = {9, 2, 3, 4};
	int64_t s[2] = {2, 2};
	reset(1);
	floats(0, 0, DT_FLOAT32, 4, vals, off, vals);
	put(RM_EAGER, 0, 1, DT_FLOAT32, 2, s, vals, NULL);
	struct tensor_out *t = put(RM_COMPILED, 0, 1, DT_FLOAT32, 2, s, vals, NULL);
	t->stride[0] = 1; /* transposed: a dense eager layout not kept */
	t->stride[1] = 2;
	floats(0, 2, DT_FLOAT32, 4, vals, far, vals);
	floats(0, 3, DT_FLOAT32, 4, vals, vals, vals); /* right */
	struct verdict each[8];
	unsigned n = oracle_judge_each(&R, NULL, 0, &O, each, 8);
	CHECK_EQ(n, 3);
	CHECK_EQ(each[0].kind, V_NUMERIC);
	CHECK_EQ(each[0].output, 0);
	CHECK_EQ(each[1].kind, V_STRIDE);
	CHECK_EQ(each[1].output, 1);
	CHECK_EQ(each[2].kind, V_NUMERIC);
	CHECK_EQ(each[2].output, 2);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.output, 0);
	/* an output left out of comparison is not listed; cap bounds the list */
	uint8_t compare[4] = {1, 1, 0, 1};
	CHECK_EQ(oracle_judge_each(&R, compare, 4, &O, each, 8), 2);
	CHECK_EQ(oracle_judge_each(&R, NULL, 0, &O, each, 1), 1);
	/* a pass lists nothing; an exception is the one finding */
	reset(1);
	floats(0, 0, DT_FLOAT32, 4, vals, vals, vals);
	CHECK_EQ(oracle_judge_each(&R, NULL, 0, &O, each, 8), 0);
	raise_in(RM_COMPILED, 0, "torch._dynamo.exc.BackendCompilerFailed", "boom");
	CHECK_EQ(oracle_judge_each(&R, NULL, 0, &O, each, 8), 1);
	CHECK_EQ(each[0].kind, V_BEHAVIOUR);
}

/* Strides as PyTorch judges them (docs/oracle.md, "Strides"): a dense eager
 * layout must be kept exactly; of a non-dense one (a view with gaps) only
 * the order of its strides. */
TEST(oracle_strides_exact_for_dense_outputs_order_for_others)
{
	static double vals[6] = {1, 2, 3, 4, 5, 6};
	int64_t s[2] = {2, 3};
	reset(1);
	struct tensor_out *e = put(RM_EAGER, 0, 0, DT_FLOAT32, 2, s, vals, NULL);
	struct tensor_out *c = put(RM_COMPILED, 0, 0, DT_FLOAT32, 2, s, vals, NULL);
	e->stride[0] = 6; /* a slice of a wider tensor: gaps, not dense */
	e->stride[1] = 2;
	c->stride[0] = 3; /* the same order, packed: free */
	c->stride[1] = 1;
	CHECK_EQ(judge(), V_PASS);
	c->stride[0] = 1; /* another order: a finding */
	c->stride[1] = 2;
	CHECK_EQ(judge(), V_STRIDE);
	CHECK(strstr(V.detail, "another order of eager's non-dense layout") != NULL);
	e->stride[0] = 3; /* dense eager: exact strides */
	e->stride[1] = 1;
	c->stride[0] = 4;
	c->stride[1] = 1; /* padded rows: not eager's */
	CHECK_EQ(judge(), V_STRIDE);
	CHECK(strstr(V.detail, "another order") == NULL);
	CHECK(strstr(V.detail, "(" ORACLE_PADDED_LAYOUT ")") != NULL);
	/* a known bug pads outputs on this torch (pytorch#152520 on 2.11): judged around */
	O.padded_known = 1;
	CHECK_EQ(judge(), V_PASS);
	c->stride[0] = 1; /* another layout still is a finding, and not called padded */
	c->stride[1] = 2;
	CHECK_EQ(judge(), V_STRIDE);
	CHECK(strstr(V.detail, ORACLE_PADDED_LAYOUT) == NULL);
	c->stride[0] = 2; /* a smaller stride is no padding */
	c->stride[1] = 1;
	CHECK_EQ(judge(), V_STRIDE);
	O.padded_known = 0;
	CHECK(strstr(V.detail, ORACLE_PADDED_LAYOUT) == NULL);
}

/* Two complex elements (pairs: real, imaginary) at output 0 of eager and
 * compiled, complex128 pairs f as fp64's. */
static void complexes(enum dtype dt, const double *e, const double *c, const double *f)
{
	int64_t n = 2;
	put(RM_EAGER, 0, 0, dt, 1, &n, e, NULL);
	put(RM_COMPILED, 0, 0, dt, 1, &n, c, NULL);
	put(RM_FP64, 0, 0, DT_COMPLEX128, 1, &n, f, NULL);
}

TEST(oracle_complex_values_are_judged_part_by_part)
{
	static const double z[4] = {1, 2, -3, 0.5};
	static const double conj[4] = {1, -2, -3, -0.5}, swapped[4] = {2, 1, 0.5, -3}, near[4] = {1 + 5e-5, 2, -3, 0.5};
	reset(1);
	complexes(DT_COMPLEX64, z, z, z);
	CHECK_EQ(judge(), V_PASS);
	complexes(DT_COMPLEX64, z, near, z);
	CHECK_EQ(judge(), V_PASS);
	complexes(DT_COMPLEX64, z, conj, z); /* the real parts agree: only the imaginary ones tell */
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.what, MM_VALUES);
	complexes(DT_COMPLEX128, z, swapped, z);
	CHECK_EQ(judge(), V_NUMERIC);
	/* fp64 of another type is no reference: the 10 x tol rule judges alone */
	int64_t n = 2;
	complexes(DT_COMPLEX64, z, conj, z);
	put(RM_FP64, 0, 0, DT_FLOAT64, 1, &n, z, NULL);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK(strstr(V.detail, "no fp64 reference") != NULL);
}

TEST(oracle_complex_nan_is_judged_per_part)
{
	static const double e[4] = {1, NAN, 3, 4}, same_nan[4] = {1, NAN, 3, 4}, nan_elsewhere[4] = {NAN, 2, 3, 4};
	static const double inf_imag[4] = {1, 2, 3, INFINITY}, f_ok[4] = {1, NAN, 3, 4}, fine[4] = {1, 2, 3, 4};
	reset(1);
	complexes(DT_COMPLEX64, e, same_nan, f_ok);
	CHECK_EQ(judge(), V_PASS);
	complexes(DT_COMPLEX64, e, nan_elsewhere, f_ok); /* NaN moved from the imaginary part to the real one */
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK_EQ(V.what, MM_NONFINITE);
	CHECK(strstr(V.detail, "first at index 0 real") != NULL);
	complexes(DT_COMPLEX64, fine, inf_imag, fine);
	CHECK_EQ(judge(), V_NUMERIC);
	CHECK(strstr(V.detail, "first at index 1 imag") != NULL);
}
