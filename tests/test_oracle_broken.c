/* The oracle on crafted records of near-invalid graphs (oracle_opts.broken):
 * eager must raise at every binding, compiled mode an error of eager's type
 * (the same, or a subclass by its bases); otherwise missing-error,
 * error-mismatch, or invalid when eager did not raise. Signatures carry the
 * broken constraint. */
#include "test.h"
#include "../graph/broken.h"
#include "../oracles/oracle.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>

static struct run_result R; /* large: static, reset by each test */
static struct oracle_opts O;
static struct verdict V;

static void reset(unsigned nbind, unsigned broken)
{
	memset(&R, 0, sizeof R);
	R.nbind = nbind;
	R.busy_mode = 0xff; /* idle */
	oracle_default_opts(&O);
	O.broken = (uint8_t)broken;
}

static void raise_in(unsigned m, unsigned b, const char *etype, const char *bases, const char *msg)
{
	struct mode_result *mr = &R.m[m][b];
	mr->ran = 1;
	mr->ok = 0;
	snprintf(mr->etype, sizeof mr->etype, "%s", etype);
	snprintf(mr->ebases, sizeof mr->ebases, "%s", bases);
	snprintf(mr->emsg, sizeof mr->emsg, "%s", msg);
}

/* A mode that returned one scalar float32 output. */
static void returned(unsigned m, unsigned b)
{
	static const double zero = 0;
	struct mode_result *mr = &R.m[m][b];
	memset(mr, 0, sizeof *mr);
	mr->ran = mr->ok = 1;
	mr->nout = 1;
	mr->out[0] = (struct tensor_out){.is_tensor = 1, .dtype = DT_FLOAT32, .numel = 1, .has_values = 1, .f = &zero};
}

static enum verdict_kind judge(void)
{
	oracle_judge(&R, NULL, 0, &O, &V);
	return V.kind;
}

TEST(oracle_broken_same_error_type_passes)
{
	reset(2, C_INNER_DIM);
	for (unsigned b = 0; b < 2; b++) {
		raise_in(RM_EAGER, b, "RuntimeError", "RuntimeError Exception BaseException", "mat1 and mat2 shapes");
		raise_in(RM_COMPILED, b, "RuntimeError", "RuntimeError Exception BaseException", "mat1 and mat2 shapes");
		raise_in(RM_FP64, b, "RuntimeError", "RuntimeError Exception BaseException", "mat1 and mat2 shapes");
	}
	CHECK_EQ(judge(), V_PASS);
	CHECK_EQ(V.broken, C_INNER_DIM);
	/* Dynamo's TorchRuntimeError is a RuntimeError: an instance of eager's type */
	raise_in(RM_COMPILED, 1, "torch._dynamo.exc.TorchRuntimeError",
		 "torch._dynamo.exc.TorchRuntimeError torch._dynamo.exc.TorchDynamoException RuntimeError Exception "
		 "BaseException",
		 "Failed running call_function <built-in method mm>");
	CHECK_EQ(judge(), V_PASS);
	/* compiled not run at a binding (a mode left out): nothing to judge there */
	R.m[RM_COMPILED][1].ran = 0;
	CHECK_EQ(judge(), V_PASS);
}

TEST(oracle_broken_compiled_returning_is_missing_error)
{
	reset(2, C_INDEX_RANGE);
	raise_in(RM_EAGER, 0, "RuntimeError", "RuntimeError Exception BaseException", "index 4 is out of bounds");
	raise_in(RM_COMPILED, 0, "RuntimeError", "RuntimeError Exception BaseException", "index out of bounds");
	raise_in(RM_EAGER, 1, "IndexError", "IndexError LookupError Exception BaseException", "index out of range");
	returned(RM_COMPILED, 1);
	CHECK_EQ(judge(), V_MISSING_ERROR);
	CHECK_EQ(V.binding, 1);
	CHECK(strstr(V.detail, "eager raised IndexError: index out of range (index_range broken); compiled returned"));
	CHECK(verdict_is_finding(V.kind));
}

TEST(oracle_broken_another_error_type_is_error_mismatch)
{
	reset(1, C_INDEX_RANGE);
	raise_in(RM_EAGER, 0, "IndexError", "IndexError LookupError Exception BaseException", "index 9 is out of bounds");
	raise_in(RM_COMPILED, 0, "RuntimeError", "RuntimeError Exception BaseException", "index out of bounds: 0 <= tmp7 < 3L");
	CHECK_EQ(judge(), V_ERROR_MISMATCH);
	CHECK_EQ(V.what, MM_RAISED);
	CHECK(!strcmp(verdict_name(V.kind), "error-mismatch") && verdict_is_finding(V.kind));
	CHECK(strstr(V.detail, "eager raised IndexError: index 9 is out of bounds; compiled raised RuntimeError: index out"));
	/* a base of eager's type is not eager's type: except IndexError would not catch it */
	raise_in(RM_EAGER, 0, "IndexError", "IndexError LookupError Exception BaseException", "index 9");
	raise_in(RM_COMPILED, 0, "LookupError", "LookupError Exception BaseException", "index 9");
	CHECK_EQ(judge(), V_ERROR_MISMATCH);
	/* without bases (a record of an older worker) only the same name counts */
	raise_in(RM_COMPILED, 0, "IndexError", "", "index 9");
	CHECK_EQ(judge(), V_PASS);
}

/* Dynamo's and Inductor's wrappers of the error eager's kernel or its meta
 * function raised while tracing (pytorch#158088, #184340) count as the
 * wrapped type; a wrapped error of another type is still a mismatch, and
 * --hunt-known (literal_errors) judges the wrapper itself. */
TEST(oracle_broken_a_wrapped_error_of_eagers_type_is_eagers)
{
	static const char dynamo_bases[] =
		"torch._dynamo.exc.TorchRuntimeError torch._dynamo.exc.TorchDynamoException RuntimeError Exception BaseException";
	reset(1, C_ATTR_DOMAIN);
	raise_in(RM_EAGER, 0, "IndexError", "IndexError LookupError Exception BaseException", "Dimension out of range");
	raise_in(RM_COMPILED, 0, "torch._dynamo.exc.TorchRuntimeError", dynamo_bases,
		 "RuntimeError when making fake tensor call\n  Explanation: Dynamo failed to run FX node with fake tensors: "
		 "call_function <built-in method chunk>(*(FakeTensor(..., size=(3*s4, 20)), 3, 3), **{}): got "
		 "IndexError('Dimension out of range (expected to be in range of [-2, 1], but got 3)')");
	CHECK_EQ(judge(), V_PASS);
	raise_in(RM_COMPILED, 0, "torch._dynamo.exc.BackendCompilerFailed", "torch._dynamo.exc.BackendCompilerFailed",
		 "backend='inductor' raised:\nIndexError: Dimension out of range (expected to be in range of [-1, 0], but got 2)");
	CHECK_EQ(judge(), V_PASS);
	O.literal_errors = 1;
	CHECK_EQ(judge(), V_ERROR_MISMATCH);
	O.literal_errors = 0;
	/* argmax's meta function asserts where eager's kernel raises IndexError */
	raise_in(RM_COMPILED, 0, "torch._dynamo.exc.TorchRuntimeError", dynamo_bases,
		 "RuntimeError when making fake tensor call\n  Explanation: ...(**{'dim': 2, 'keepdim': True}): got "
		 "AssertionError('dim 2 out of bounds (-1, 0)')");
	CHECK_EQ(judge(), V_ERROR_MISMATCH);
	/* IndexErrorX is not IndexError */
	raise_in(RM_COMPILED, 0, "torch._dynamo.exc.BackendCompilerFailed", "torch._dynamo.exc.BackendCompilerFailed",
		 "backend='inductor' raised:\nIndexErrorX: no");
	CHECK_EQ(judge(), V_ERROR_MISMATCH);
}

TEST(oracle_broken_compiled_after_a_cuda_device_assert_is_not_judged)
{
	static const char assert_msg[] = "CUDA error: device-side assert triggered\nCUDA kernel errors might be "
					 "asynchronously reported";
	reset(2, C_INDEX_RANGE);
	raise_in(RM_EAGER, 0, "torch.AcceleratorError", "torch.AcceleratorError RuntimeError Exception BaseException",
		 assert_msg);
	raise_in(RM_COMPILED, 0, "RuntimeError", "RuntimeError Exception BaseException",
		 "cuDNN error: CUDNN_STATUS_INTERNAL_ERROR");
	raise_in(RM_EAGER, 1, "torch.AcceleratorError", "torch.AcceleratorError RuntimeError Exception BaseException",
		 assert_msg);
	returned(RM_COMPILED, 1);
	CHECK_EQ(judge(), V_PASS);
	/* the same pair without the assert is still judged */
	raise_in(RM_EAGER, 0, "IndexError", "IndexError LookupError Exception BaseException", "index 9 is out of bounds");
	CHECK_EQ(judge(), V_ERROR_MISMATCH);
	/* gather of negative indices on the H200: eager's kernel faults instead of asserting */
	raise_in(RM_EAGER, 0, "torch.AcceleratorError", "torch.AcceleratorError RuntimeError Exception BaseException",
		 "CUDA error: unspecified launch failure\nSearch for `cudaErrorLaunchFailure'");
	returned(RM_COMPILED, 0);
	CHECK_EQ(judge(), V_PASS);
	raise_in(RM_EAGER, 0, "torch.AcceleratorError", "torch.AcceleratorError RuntimeError Exception BaseException",
		 "CUDA error: an illegal memory access was encountered");
	CHECK_EQ(judge(), V_PASS);
}

TEST(oracle_broken_eager_not_raising_is_invalid)
{
	reset(2, C_RESHAPE_NUMEL);
	raise_in(RM_EAGER, 0, "RuntimeError", "RuntimeError", "shape '[5, 3]' is invalid for input of size 12");
	raise_in(RM_COMPILED, 0, "RuntimeError", "RuntimeError", "shape '[5, 3]' is invalid for input of size 12");
	returned(RM_EAGER, 1);
	returned(RM_COMPILED, 1);
	CHECK_EQ(judge(), V_INVALID);
	CHECK_EQ(V.binding, 1);
	CHECK(strstr(V.detail, "eager did not raise at binding 1: the reshape_numel breaker did not break it"));
	CHECK(!verdict_is_finding(V.kind));
}

TEST(oracle_broken_hangs_and_crashes_keep_their_precedence)
{
	reset(1, C_BROADCAST);
	raise_in(RM_EAGER, 0, "RuntimeError", "RuntimeError", "The size of tensor a (4) must match");
	R.crashed = 1;
	R.term_signal = SIGSEGV;
	R.busy_mode = RM_COMPILED;
	CHECK_EQ(judge(), V_BEHAVIOUR);
	CHECK_EQ(V.what, MM_CRASHED);
	CHECK_EQ(V.broken, C_BROADCAST);
	R.crashed = 0;
	R.hung = 1;
	CHECK_EQ(judge(), V_HANG);
}

TEST(oracle_broken_signature_carries_the_constraint)
{
	const char *ops[] = {"gather"};
	reset(1, C_INDEX_RANGE);
	raise_in(RM_EAGER, 0, "RuntimeError", "RuntimeError", "index 4 is out of bounds for dimension 0 with size 4");
	returned(RM_COMPILED, 0);
	CHECK_EQ(judge(), V_MISSING_ERROR);
	uint64_t idx = oracle_signature(&V, &R, ops, 1);
	raise_in(RM_EAGER, 0, "RuntimeError", "RuntimeError", "index 7 is out of bounds for dimension 0 with size 7");
	CHECK_EQ(oracle_signature(&V, &R, ops, 1), idx); /* numbers do not count */
	V.broken = C_BROADCAST;
	CHECK(oracle_signature(&V, &R, ops, 1) != idx);
	V.broken = C_NONE; /* the same record of a valid graph */
	CHECK(oracle_signature(&V, &R, ops, 1) != idx);
	/* error-mismatch: eager's type and compiled's error both count */
	reset(1, C_INDEX_RANGE);
	raise_in(RM_EAGER, 0, "IndexError", "IndexError", "index 9 is out of bounds");
	raise_in(RM_COMPILED, 0, "RuntimeError", "RuntimeError", "index out of bounds: 0 <= tmp7 < 3L");
	CHECK_EQ(judge(), V_ERROR_MISMATCH);
	uint64_t mm = oracle_signature(&V, &R, ops, 1);
	raise_in(RM_COMPILED, 0, "RuntimeError", "RuntimeError", "index out of bounds: 0 <= tmp12 < 8L");
	CHECK_EQ(oracle_signature(&V, &R, ops, 1), mm);
	raise_in(RM_EAGER, 0, "ValueError", "ValueError", "index 9 is out of bounds");
	CHECK(oracle_signature(&V, &R, ops, 1) != mm);
}
