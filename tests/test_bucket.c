/* Buckets (pipeline/bucket.h) and known upstream bugs (pipeline/known_bugs.h):
 * one bug reached through different op sets is one bucket, different errors
 * are not; a known-bugs line matches its findings and not a near miss; a
 * malformed line is an error naming FILE:LINE. */
#include "test.h"
#include "../oracles/oracle.h"
#include "../pipeline/bucket.h"
#include "../pipeline/json_file.h"
#include "../graph/text.h"
#include "../pipeline/known_bugs.h"
#include "../pipeline/op_names.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define RELATIONAL "torch._inductor.exc.InductorError: LoweringException: TypeError: cannot determine truth value of Relational: "

/* A meta.json object with the fields buckets are made of. */
static json_t *meta(const char *signature, const char *verdict, const char *exception, const char *message,
		    const char *ops)
{
	json_t *m = json_pack("{s:s, s:s, s:s, s:s, s:s}", "signature", signature, "verdict", verdict, "exception",
			      exception, "message", message, "eager_exception", "");
	json_t *list = json_array();
	for (const char *s = ops; *s;) {
		size_t l = strcspn(s, ",");
		json_array_append_new(list, json_stringn(s, l));
		s += l + (s[l] == ',');
	}
	json_object_set_new(m, "ops", list);
	return m;
}

/* The h100 findings' real messages: one bug (adaptive_avg_pool2d lowering)
 * under different op sets and guard expressions. */
TEST(bucket_one_bug_through_different_op_sets_is_one_bucket)
{
	json_t *a = meta("behaviour-40a75f137bc65812", "behaviour", "torch._inductor.exc.InductorError",
			 RELATIONAL "(((2*s15 + 6)//s15))*(((2*s49 + 11)//s49)) > 25\nwhile executing ...",
			 "adaptive_avg_pool2d,relu,view");
	json_t *b = meta("behaviour-8262358e4a86754c", "behaviour", "torch._inductor.exc.InductorError",
			 RELATIONAL "2*(((2*s71 + 6)//s71)) > 25", "constant_pad2d,adaptive_avg_pool2d");
	json_t *other = meta("behaviour-85fcf888b94b1a83", "behaviour", "torch._inductor.exc.InductorError",
			     "torch._inductor.exc.InductorError: AssertionError: n=copy_, n.args[0]=permute",
			     "constant_pad2d,adaptive_avg_pool2d");
	json_t *kind = meta("missing-error-8262358e4a86754c", "missing-error", "torch._inductor.exc.InductorError",
			    RELATIONAL "2*(((2*s71 + 6)//s71)) > 25", "constant_pad2d,adaptive_avg_pool2d");
	struct finding_bucket ba, bb, bo, bk;
	bucket_of(a, &ba);
	bucket_of(b, &bb);
	bucket_of(other, &bo);
	bucket_of(kind, &bk);
	CHECK(ba.hash == bb.hash);
	CHECK(!strcmp(ba.text, bb.text));
	CHECK(!strcmp(ba.text, "behaviour torch._inductor.exc.InductorError: " RELATIONAL "#"));
	CHECK(ba.hash != bo.hash);
	CHECK(ba.hash != bk.hash);
	json_decref(a);
	json_decref(b);
	json_decref(other);
	json_decref(kind);
}

/* A behaviour finding without an exception (a crash, a wrong shape) is its own bucket. */
TEST(bucket_of_a_finding_without_an_exception_is_its_signature)
{
	json_t *a = meta("behaviour-0000000000000001", "behaviour", "", "", "relu");
	json_t *b = meta("behaviour-0000000000000002", "behaviour", "", "", "relu");
	struct finding_bucket ba, bb;
	bucket_of(a, &ba);
	bucket_of(b, &bb);
	CHECK(!ba.by_error && ba.hash != bb.hash);
	CHECK(!strcmp(ba.text, "behaviour-0000000000000001"));
	json_decref(a);
	json_decref(b);
}

/* Numeric findings are bucketed by their signature: two are two buckets. */
TEST(bucket_of_a_numeric_finding_is_its_signature)
{
	json_t *a = meta("numeric-0000000000000001", "numeric", "", "", "softmax,layer_norm");
	json_t *b = meta("numeric-0000000000000002", "numeric", "", "", "softmax,layer_norm");
	struct finding_bucket ba, bb;
	bucket_of(a, &ba);
	bucket_of(b, &bb);
	CHECK(!strcmp(ba.text, "numeric-0000000000000001"));
	CHECK(ba.hash != bb.hash);
	json_decref(a);
	json_decref(b);
}

TEST(bucket_message_abstracts_symbols_sizes_addresses_and_paths)
{
	char a[256], b[256];
	oracle_bucket_message("RuntimeError: Expected size [s35, 4] for buf12 at 0x7f3a2b1c9d00 in "
			      "/tmp/torchinductor_root/ab/cab12.py, got [3, s0+1]", a, sizeof a);
	CHECK(!strcmp(a, "RuntimeError: Expected size # for bufN at # in got #"));
	oracle_bucket_message("RuntimeError: Expected size [s7, 128] for buf3 at 0xdeadbeef00 in "
			      "/tmp/torchinductor_x/zz/czz9.py, got [17, s2+1]", b, sizeof b);
	CHECK(!strcmp(a, b));
	/* Words stay words: "sizes" and "s" are not symbols. */
	oracle_bucket_message("ValueError: sizes s mismatch: 3 vs 4", a, sizeof a);
	CHECK(!strcmp(a, "ValueError: sizes s mismatch: # vs #"));
	/* A small buffer cuts the text whole words at a time, terminated. */
	oracle_bucket_message("ValueError: sizes mismatch", a, 12);
	CHECK(!strcmp(a, "ValueError:"));
}

static const char list_text[] =
	"# a comment, then a blank line\n"
	"\n"
	"pytorch#185575 | behaviour,error-mismatch | *cannot determine truth value of Relational* | adaptive_avg_pool2d | 2.6 | adaptive pool\n"
	"pytorch#151198 | numeric | * | reflection_pad3d,pairwise_distance | 2.6 | pad3d pairwise\n";

TEST(known_bug_line_matches_its_finding_and_not_a_near_miss)
{
	struct known_list l = {0};
	char why[300];
	CHECK_EQ(known_parse(&l, list_text, "list.txt", why, sizeof why), 0);
	CHECK_EQ(l.n, 2);
	const char *pool[] = {"constant_pad2d", "adaptive_avg_pool2d"}, *avg[] = {"constant_pad2d", "avg_pool2d"};
	const char *pad[] = {"reflection_pad3d", "view", "chunk", "pairwise_distance"}, *half[] = {"reflection_pad3d", "view"};
	const char *err = "torch._inductor.exc.InductorError: LoweringException: TypeError: cannot determine truth value of Relational: #";
	const struct known_bug *b = known_match(&l, "behaviour", err, pool, 2);
	CHECK(b && !strcmp(b->issue, "pytorch#185575") && !strcmp(b->title, "adaptive pool"));
	CHECK(known_match(&l, "error-mismatch", err, pool, 2) == b);
	CHECK(known_match(&l, "missing-error", err, pool, 2) == NULL);       /* another kind */
	CHECK(known_match(&l, "behaviour", err, avg, 2) == NULL);            /* avg_pool2d's own bug */
	CHECK(known_match(&l, "behaviour", "RuntimeError: other", pool, 2) == NULL); /* another error */
	b = known_match(&l, "numeric", "", pad, 4);
	CHECK(b && !strcmp(b->issue, "pytorch#151198"));
	CHECK(known_match(&l, "numeric", "", half, 2) == NULL);
	known_free(&l);
}

/* "family:NAME" in OPS: some op of the finding is of that family. */
TEST(known_bug_family_word_matches_any_op_of_the_family)
{
	struct known_list l = {0};
	char why[300];
	CHECK_EQ(known_parse(&l, "pytorch#181136 | numeric | * | family:random | 2.11 | draws reordered\n", "f.txt", why,
			     sizeof why), 0);
	const char *drawn[] = {"relu", "dropout2d"}, *plain[] = {"relu", "exp"}, *fake[] = {"randomize"};
	CHECK(known_match(&l, "numeric", "", drawn, 2) != NULL);
	CHECK(known_match(&l, "numeric", "", plain, 2) == NULL);
	CHECK(known_match(&l, "numeric", "", fake, 1) == NULL); /* not an op at all */
	CHECK(known_match(&l, "behaviour", "", drawn, 2) == NULL);
	known_free(&l);
}

/* An op name in OPS may be a glob: one line covers the rows of one kernel. */
TEST(known_bug_op_glob_matches_every_row_it_names)
{
	struct known_list l = {0};
	char why[300];
	CHECK_EQ(known_parse(&l, "pytorch#192668 | stride | * | batch_norm*,exp@float64 | 2.15 | t\n", "f.txt", why,
			     sizeof why), 0);
	const char *bn2[] = {"batch_norm2d", "exp@float64"}, *bnw[] = {"batch_norm_fn_weight", "exp@float64"},
		   *ln[] = {"layer_norm", "exp@float64"}, *bn32[] = {"batch_norm2d", "exp@float32"};
	CHECK(known_match(&l, "stride", "", bn2, 2) != NULL);
	CHECK(known_match(&l, "stride", "", bnw, 2) != NULL);
	CHECK(known_match(&l, "stride", "", ln, 2) == NULL);   /* another op */
	CHECK(known_match(&l, "stride", "", bn32, 2) == NULL); /* the glob leaves the dtype rule as it was */
	known_free(&l);
}

/* "config:SETTING" in OPS: the finding's compile configuration sets it
 * (meta.json's "config"). Such a line is no trigger of the ops alone: they
 * stay in reach under other configurations (the configuration is what is
 * avoided: test_torch_avoid.c). */
TEST(known_bug_config_word_needs_the_setting_and_is_no_trigger)
{
	struct known_list l = {0};
	char why[300];
	CHECK_EQ(known_parse(&l, "pytorch#195731 | behaviour | *captur* | family:linalg,config:mode=max-autotune | 2.11 | t\n",
			     "f.txt", why, sizeof why), 0);
	const char *err = "torch.AcceleratorError: CUDA error: operation failed due to a previous error during capture";
	const char *tuned[] = {"relu", "linalg_eigh", "config:mode=max-autotune"}, *plain[] = {"relu", "linalg_eigh"},
		   *other[] = {"linalg_eigh", "config:mode=reduce-overhead"}, *eig[] = {"linalg_eigh"};
	CHECK(known_match(&l, "behaviour", err, tuned, 3) != NULL);
	CHECK(known_match(&l, "behaviour", err, plain, 2) == NULL);
	CHECK(known_match(&l, "behaviour", err, other, 2) == NULL);
	CHECK(known_trigger(&l, "2.11.0+cu130", eig, 1) == NULL);
	known_free(&l);
	/* bucket_of reads the configuration's settings from meta.json */
	json_t *m = meta("x", "behaviour", "torch.AcceleratorError",
			 "CUDA error: operation failed due to a previous error during capture", "linalg_eig");
	struct finding_bucket b;
	json_object_set_new(m, "config", json_string("mode=max-autotune inductor.split_reductions=False"));
	bucket_of(m, &b);
	CHECK(b.known && !strcmp(b.known->issue, "pytorch#195731"));
	json_object_set_new(m, "config", json_string("inductor.split_reductions=False"));
	bucket_of(m, &b);
	CHECK(b.known == NULL);
	json_decref(m);
}

/* A setting the command line pinned (meta.json's "pinned") is one of the
 * finding's configuration words, over the graph's own value of it. */
TEST(known_bug_config_word_of_a_pinned_setting)
{
	json_t *m = meta("x", "behaviour", "torch._inductor.exc.InductorError",
			 "LoweringException: RuntimeError: invalid multinomial distribution (sum of probabilities <= 0)",
			 "multinomial");
	struct finding_bucket b;
	json_object_set_new(m, "config", json_string(""));
	json_object_set_new(m, "pinned", json_pack("[s]", "functorch.fake_tensor_propagate_real_tensors=1"));
	bucket_of(m, &b);
	CHECK(b.known && strstr(b.known->issue, "multinomial-real-tensor-propagation"));
	json_object_set_new(m, "pinned", json_pack("[s]", "functorch.fake_tensor_propagate_real_tensors=0"));
	json_object_set_new(m, "config", json_string("functorch.fake_tensor_propagate_real_tensors=True"));
	bucket_of(m, &b);
	CHECK(b.known == NULL); /* the pin, not the graph's value, is what ran */
	json_object_del(m, "pinned");
	bucket_of(m, &b);
	CHECK(b.known && strstr(b.known->issue, "multinomial-real-tensor-propagation"));
	json_decref(m);
}

/* The built-in list (pipeline/known_bugs.txt) parses and marks a finding's meta.json. */
TEST(known_bugs_builtin_list_marks_the_adaptive_pool_finding)
{
	char why[300];
	CHECK(known_bugs(why, sizeof why) != NULL);
	json_t *m = meta("behaviour-40a75f137bc65812", "behaviour", "torch._inductor.exc.InductorError",
			 RELATIONAL "(((2*s4 + 1)//s4)) > 25", "adaptive_avg_pool2d");
	CHECK_EQ(bucket_store(m), 0);
	CHECK(!strcmp(json_file_str(m, "known"), "pytorch#185575"));
	CHECK_EQ(strlen(json_file_str(m, "bucket")), 16);
	CHECK(strstr(json_file_str(m, "bucket_text"), "cannot determine truth value of Relational: #") != NULL);
	json_decref(m);
	/* The other findings the list names, with their messages as found (docs/findings/). */
	static const struct {
		const char *verdict, *exception, *message, *ops, *issue;
	} found[] = {
		{"error-mismatch", "torch._dynamo.exc.BackendCompilerFailed",
		 "backend='inductor' raised:\nAssertionError: n=copy_, n.args[0]=permute, placeholders={arg2_1, arg0_1}",
		 "conv2d,permute,index_fill", "pytorch#178952"},
		{"missing-error", "torch.AcceleratorError", "CUDA error: device-side assert triggered", "one_hot",
		 "pytorch#144211"},
		{"missing-error", "RuntimeError", "RuntimeError: Class values must be smaller than num_classes.", "one_hot",
		 "pytorch#144211"},
		{"error-mismatch", "torch._inductor.exc.InductorError", RELATIONAL "2*(((2*s11 + 4)//s11)) > 25",
		 "adaptive_avg_pool2d", "pytorch#185575"},
		/* avg_pool2d's lowering error is not #185575 (no upstream issue found). */
		{"behaviour", "torch._inductor.exc.InductorError", RELATIONAL "(((s0 + 1)//2)) > 25", "avg_pool2d", ""},
		{"missing-error", "RuntimeError", "RuntimeError: Class values must be smaller than num_classes.", "relu", ""},
		/* one_hot in the op set does not make another missing error #144211 */
		{"missing-error", "NotImplementedError",
		 "NotImplementedError: \"softmax_lastdim_kernel_impl\" not implemented for 'Long'", "one_hot,softmax",
		 "pytorch#198155"},
		{"error-mismatch", "torch._dynamo.exc.TorchRuntimeError",
		 "torch._dynamo.exc.TorchRuntimeError: RuntimeError when making fake tensor call", "elu", "pytorch#158088"},
		/* torch.combinations with dynamic shapes (the H200 campaign of 2026-12-03) */
		{"behaviour", "torch._dynamo.exc.TorchRuntimeError",
		 "RuntimeError when making fake tensor call\n  Explanation: Dynamo failed to run FX node with fake tensors",
		 "combinations", "pytorch#163759"},
		/* numeric findings are matched by their op set alone */
		{"numeric", "", "", "signbit", "pytorch#187935"},
		{"numeric", "", "", "norm_p", "pytorch#182181"},
		{"numeric", "", "", "floor_divide,unique", "pytorch#197895"},
		{"numeric", "", "", "rfloor_divide_scalar", "pytorch#188048"},
		/* index_fill_ (in place) is #148952's, index_fill #178952's */
		{"behaviour", "torch._dynamo.exc.BackendCompilerFailed",
		 "AssertionError: n=copy_, n.args[0]=permute_1, placeholders={arg0_1, arg1_1}, graph=graph():",
		 "einsum_transpose,index_fill_", "pytorch#148952"},
		{"behaviour", "torch._inductor.exc.InductorError",
		 "def triton_red_fused_cummin_0(in_ptr0, out_ptr0, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr):", "cummin",
		 "pytorch#184514"},
		{"behaviour", "torch._inductor.exc.InductorError",
		 "def triton_red_fused_cummin_0(in_ptr0, out_ptr0, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr):", "cumsum",
		 ""},
		/* a looped scan of a sub-32-bit dtype (the op's dtype is not in a meta: its name matches) */
		{"behaviour", "torch._inductor.exc.InductorError", "Name=triton_red_fused_cummax_lcm_1", "cummax,lcm",
		 "pytorch#175430"},
		{"behaviour", "torch._inductor.exc.InductorError", "Name=triton_red_fused_cumsum_1", "cumsum", ""},
		/* the view an output and the write into the parameter itself: no inplace_view word */
		{"behaviour", "torch._dynamo.exc.BackendCompilerFailed",
		 "RuntimeError: A view was created in no_grad mode and its base or another view of its base has been "
		 "modified inplace with grad mode enabled.",
		 "meshgrid3,sub_", "docs/findings/behaviour-param-view-inplace-no-grad.md"},
		/* index_fill's tensor-valued forms are the same two bugs */
		{"behaviour", "torch._dynamo.exc.BackendCompilerFailed",
		 "AssertionError: n=copy_, n.args[0]=permute, placeholders={arg0_1, arg1_1, arg2_1}, graph=graph():",
		 "clamp,constant_pad3d,exp2,i1e,index_fill_tensor_", "pytorch#148952"},
		{"behaviour", "torch._dynamo.exc.BackendCompilerFailed",
		 "AssertionError: n=copy_, n.args[0]=permute, placeholders={arg0_1, arg1_1, arg2_1}, graph=graph():",
		 "index_fill_tensor,relu", "pytorch#178952"},
		/* bilinear upsampling near float32's max: its NaN, not any difference of it */
		{"numeric", "",
		 "binding 0 output 1: compiled differs in NaN/Inf at 2 of 64 positions where eager (finite) agree (first at "
		 "index 9: eager 3.1e+38, compiled nan)",
		 "upsample_bilinear,relu", "pytorch#185894"},
		{"numeric", "", "binding 0 output 1: compiled differs: rmse 0.5 against 0.001 (tolerance 0.01)",
		 "upsample_bilinear", ""},
		/* linear interpolation of infinities: the NaN, not another difference */
		{"numeric", "",
		 "binding 0 output 30: compiled differs in NaN/Inf at 27 of 704 positions where eager and fp64 agree (first "
		 "at index 4: eager inf, compiled nan)",
		 "clamp_min_tensor,interpolate_size_ac", "docs/findings/numeric-linear-interpolate-infinity.md"},
		{"numeric", "", "binding 0 output 1: max abs diff 0.971, rmse vs fp64 compiled 0.107 > 3 x eager 0.00045 + 1e-05",
		 "interpolate_size_ac", ""},
		/* a bare assert, told by its site (harness/worker.py's error_message) */
		{"behaviour", "torch._inductor.exc.InductorError",
		 "AssertionError at tiling_utils.py:get_pw_red_splits\nAssertionError: \n\nSet TORCHDYNAMO_VERBOSE=1 for the "
		 "internal stack trace",
		 "max_pool3d_with_indices", "pytorch#181563"},
		{"behaviour", "torch._inductor.exc.InductorError",
		 "AssertionError at lowering.py:make_pointwise\nAssertionError: \n\nSet TORCHDYNAMO_VERBOSE=1 for the internal "
		 "stack trace",
		 "max_pool3d_with_indices", ""},
		/* a NaN constant under (log_)softmax; softmax without one is not it */
		{"behaviour", "torch._inductor.exc.InductorError", "ValueError: The argument 'nan' is not comparable.",
		 "full_like,log_softmax", "pytorch#188225"},
		{"behaviour", "torch._inductor.exc.InductorError", "ValueError: The argument 'nan' is not comparable.",
		 "log_softmax,relu", ""},
		/* a transposed input's layout lost by the meta of xlogy and its kin; mul keeps it */
		{"stride", "", "binding 0 output 6: stride of dim 0 (size 5) eager 1, compiled 10", "xlogy", "pytorch#198364"},
		{"stride", "", "binding 0 output 6: stride of dim 0 (size 5) eager 1, compiled 10", "linalg_cholesky_ex,copysign",
		 "pytorch#198364"},
		{"stride", "", "binding 0 output 6: stride of dim 0 (size 5) eager 1, compiled 10", "mul", ""},
		/* x * 1 of an input returned is the input itself: the structure, not the op */
		{"alias", "", "binding 0 output 1: eager shares no leaf's storage, compiled leaf 0's storage",
		 "times_0dim,identity_output", "pytorch#197893"},
		{"alias", "", "binding 0 output 1: eager shares no leaf's storage, compiled leaf 0's storage", "times_0dim", ""},
		/* ldexp's dtype, not another difference of it */
		{"numeric", "", "binding 0 output 0: dtype eager float32, compiled float16", "ldexp", "pytorch#197091"},
		{"numeric", "", "binding 0 output 0: max abs diff 0.5, rmse vs fp64 compiled 0.1 > 2 x eager 0 + 1e-05", "ldexp",
		 ""},
		/* nan_to_num's out-of-range replacement, either dtype, in place or not; that overflow
		 * beside other ops is not it */
		{"behaviour", "torch._dynamo.exc.BackendCompilerFailed",
		 "backend='inductor' raised:\nRuntimeError: value cannot be converted to type c10::Half without overflow\n\n"
		 "While executing %scalar_tensor_2 : [num_users=1] = call_function[target=torch.ops.aten.scalar_tensor.default]",
		 "nan_to_num", "docs/findings/behaviour-nan-to-num-overflow-cuda.md"},
		{"behaviour", "torch._dynamo.exc.BackendCompilerFailed",
		 "backend='inductor' raised:\nRuntimeError: value cannot be converted to type c10::BFloat16 without overflow",
		 "relu,nan_to_num_", "docs/findings/behaviour-nan-to-num-overflow-cuda.md"},
		{"behaviour", "torch._dynamo.exc.BackendCompilerFailed",
		 "backend='inductor' raised:\nRuntimeError: value cannot be converted to type c10::Half without overflow",
		 "masked_fill_,relu", ""},
	};
	for (unsigned i = 0; i < sizeof found / sizeof *found; i++) {
		struct finding_bucket b;
		m = meta("x", found[i].verdict, found[i].exception, found[i].message, found[i].ops);
		bucket_of(m, &b);
		if (!CHECK(!strcmp(b.known ? b.known->issue : "", found[i].issue)))
			fprintf(stderr, "  finding %u: %s\n", i, b.text);
		json_decref(m);
	}
	/* Findings that need a setting: matched with their configuration, not without it. */
	static const struct {
		const char *verdict, *exception, *message, *ops, *config, *issue;
	} configured[] = {
		{"behaviour", "torch._dynamo.exc.TorchRuntimeError", "RuntimeError when making fake tensor call", "copysign",
		 "functorch.fake_tensor_propagate_real_tensors=True", "docs/findings/behaviour-prims-signbit-meta-dtype.md"},
		{"behaviour", "torch._dynamo.exc.TorchRuntimeError", "RuntimeError when making fake tensor call", "copysign", "", ""},
		{"behaviour", "torch._dynamo.exc.BackendCompilerFailed", "MetadataMismatchError: Real tensor propagation found a mismatch",
		 "max_pool1d", "inductor.trace.enabled=True functorch.fake_tensor_propagate_real_tensors=True",
		 "docs/findings/behaviour-prims-signbit-meta-dtype.md"},
		{"behaviour", "torch._subclasses.fake_tensor.MetadataMismatchError",
		 "Real tensor propagation found a metadata mismatch between fake tensor FakeTensor(..., device='cuda:0', "
		 "size=(s11, 1, (s11//2)), dtype=torch.int64) and real tensor tensor([[[False, False]]])",
		 "acosh,max_unpool1d", "functorch.fake_tensor_propagate_real_tensors=True",
		 "docs/findings/behaviour-prims-signbit-meta-dtype.md"},
		{"behaviour", "torch._inductor.exc.InductorError", "Name=triton_red_fused_abs_roll_0", "roll2,masked_scatter_",
		 "inductor.freezing=True inductor.triton.multi_kernel=3 inductor.triton.use_block_ptr=True",
		 "docs/findings/behaviour-multi-kernel-block-ptr.md"},
		{"behaviour", "torch._inductor.exc.InductorError", "Name=triton_red_fused_abs_roll_0", "roll2,masked_scatter_",
		 "inductor.triton.multi_kernel=2 inductor.triton.use_block_ptr=True", ""},
		/* softmax under unroll_reductions_threshold=1, its bare assert told by its site or not */
		{"behaviour", "torch._inductor.exc.InductorError",
		 "AssertionError at cuda_combined_scheduling.py:can_fuse_vertical\nAssertionError: ", "log_softmax",
		 "mode=max-autotune inductor.unroll_reductions_threshold=1",
		 "docs/findings/behaviour-softmax-unroll-threshold-cuda.md"},
		{"behaviour", "torch._inductor.exc.InductorError", "AssertionError: \n\nSet TORCHDYNAMO_VERBOSE=1", "softmax",
		 "inductor.unroll_reductions_threshold=1", "docs/findings/behaviour-softmax-unroll-threshold-cuda.md"},
		{"behaviour", "torch._inductor.exc.InductorError", "AssertionError: \n\nSet TORCHDYNAMO_VERBOSE=1", "softmax",
		 "inductor.unroll_reductions_threshold=64", ""},
		/* softmin of a 0-d tensor, the H200 campaign of 2026-12-03 */
		{"behaviour", "torch._inductor.exc.InductorError", "AssertionError at simd.py:can_fuse", "softmin",
		 "inductor.pad_outputs=True inductor.unroll_reductions_threshold=1 inductor.graph_partition=False",
		 "docs/findings/behaviour-softmax-unroll-threshold-cuda.md"},
		/* scatter into a size-1 dim under block pointers, the same campaign's; not without them */
		{"behaviour", "torch._inductor.exc.InductorError",
		 "CompilationError: at 11:200:\ndef triton_poi_fused_fmin_scatter_1(in_ptr0, out_ptr0, xnumel, XBLOCK : "
		 "tl.constexpr):",
		 "fmin,scatter_value", "mode=max-autotune-no-cudagraphs inductor.triton.use_block_ptr=True",
		 "docs/findings/behaviour-scatter-block-ptr-size-one-dim.md"},
		{"behaviour", "torch._inductor.exc.InductorError",
		 "CompilationError: at 11:200:\ndef triton_poi_fused_fmin_scatter_1(in_ptr0, out_ptr0, xnumel, XBLOCK : "
		 "tl.constexpr):",
		 "fmin,scatter_value", "mode=max-autotune-no-cudagraphs", ""},
		/* multinomial under real-tensor propagation, on the CPU and on CUDA */
		{"behaviour", "torch._inductor.exc.InductorError",
		 "LoweringException: LoweringException: RuntimeError: invalid multinomial distribution (sum of probabilities "
		 "<= 0)\n  target: aten.multinomial.default",
		 "empty_like_cauchy_,multinomial", "functorch.fake_tensor_propagate_real_tensors=True",
		 "docs/findings/behaviour-multinomial-real-tensor-propagation.md"},
		{"behaviour", "torch._dynamo.exc.InternalTorchDynamoError",
		 "AcceleratorError: CUDA error: device-side assert triggered", "multinomial",
		 "functorch.fake_tensor_propagate_real_tensors=True",
		 "docs/findings/behaviour-multinomial-real-tensor-propagation.md"},
		{"behaviour", "torch._inductor.exc.InductorError",
		 "LoweringException: LoweringException: RuntimeError: invalid multinomial distribution (sum of probabilities "
		 "<= 0)",
		 "multinomial", "", ""},
		/* AOTInductor's reshape of a folded 0-d constant, torch 2.11 */
		{"behaviour", "torch._inductor.exc.InductorError",
		 "LoweringException: AttributeError: 'Constant' object has no attribute 'data'\n  target: aten.reshape.default",
		 "view_copy,multilabel_soft_margin_loss", "backend=aoti",
		 "docs/findings/behaviour-aoti-folded-0d-constant-reshape.md"},
		/* a returned copy that is its input under freezing: with the setting, not without */
		{"alias", "", "", "conv3d,unbind_copy", "inductor.freezing=True inductor.memory_planning=True",
		 "docs/findings/alias-freezing-layout-clone.md"},
		{"alias", "", "", "conv3d,unbind_copy", "inductor.memory_planning=True", ""},
		/* a looped reduction under dense indexing, in a compile subprocess and in process */
		{"behaviour", "torch._inductor.exc.InductorError",
		 "SubprocException: An exception occurred in a subprocess:\n\nName=triton_red_fused__log_softmax_argmin_"
		 "prepare_softmax_online_sin_sub_3",
		 "log_softmax,sub,argmin,sin", "inductor.triton.prefer_nd_tiling=True inductor.triton.dense_indexing=True",
		 "docs/findings/behaviour-dense-indexing-looped-reduction.md"},
		{"behaviour", "torch._inductor.exc.InductorError", "CompilationError: at 37:73:", "log_softmax,sub,argmin,sin",
		 "inductor.triton.dense_indexing=True", "docs/findings/behaviour-dense-indexing-looped-reduction.md"},
		{"behaviour", "torch._inductor.exc.InductorError", "CompilationError: at 37:73:", "log_softmax,sub,argmin,sin",
		 "inductor.triton.prefer_nd_tiling=True", ""},
		/* a CPU index inside a CUDA graph tree: under the modes that run one, not under the one
		 * that does not */
		{"behaviour", "RuntimeError",
		 "These storage data ptrs are not allocated in pool (0, 2) but should be: {2018696768, 2021232832}. This could "
		 "be a bug in inductor aliasing tracking or in a custom op's meta function. Please file an issue.",
		 "index_cpu_index,roll", "mode=max-autotune inductor.pad_outputs=True",
		 "docs/findings/behaviour-index-cpu-index-cudagraphs.md"},
		{"behaviour", "RuntimeError", "These storage data ptrs are not allocated in pool (0, 1) but should be: {1, 2}.",
		 "index_cpu_index", "mode=reduce-overhead", "docs/findings/behaviour-index-cpu-index-cudagraphs.md"},
		{"behaviour", "RuntimeError", "These storage data ptrs are not allocated in pool (0, 1) but should be: {1, 2}.",
		 "index_cpu_index", "mode=max-autotune-no-cudagraphs", ""},
		/* boolean-mask indexing under real-tensor propagation */
		{"behaviour", "torch._dynamo.exc.InternalTorchDynamoError",
		 "PendingUnbackedSymbolNotFound: Pending unbacked symbols {u0} not in returned outputs FakeTensor(..., "
		 "size=(9, 1, 1)) ((1, 1, 1), 0).",
		 "mask_index", "functorch.fake_tensor_propagate_real_tensors=True",
		 "docs/findings/behaviour-mask-index-real-tensor-propagation.md"},
		{"behaviour", "torch._dynamo.exc.InternalTorchDynamoError",
		 "PendingUnbackedSymbolNotFound: Pending unbacked symbols {u0} not in returned outputs", "mask_index", "", ""},
		/* a convolution beside nonzero under freezing, as torch 2.15 and 2.11 say it; not without the
		 * convolution */
		{"behaviour", "torch._dynamo.exc.BackendCompilerFailed",
		 "backend='inductor' raised:\nAssertionError: materialize_symints: no producer for u0", "conv1d,nonzero",
		 "inductor.freezing=True", "docs/findings/behaviour-freezing-nonzero-unbacked.md"},
		{"behaviour", "torch._inductor.exc.InductorError",
		 "LoweringException: GuardOnDataDependentSymNode: Could not guard on data-dependent expression u0 > 1",
		 "conv2d,nonzero,relu", "inductor.max_autotune=True inductor.freezing=True",
		 "docs/findings/behaviour-freezing-nonzero-unbacked.md"},
		{"behaviour", "torch._dynamo.exc.BackendCompilerFailed",
		 "backend='inductor' raised:\nAssertionError: materialize_symints: no producer for u0", "add,nonzero",
		 "inductor.freezing=True", ""},
		/* upstream bugs of one setting each, any ops */
		{"behaviour", "torch._inductor.exc.InductorError",
		 "RuntimeError: Dynamic shape on reduction dimension is not supported", "diagonal,log_softmax_dtype,logcumsumexp",
		 "inductor.combo_kernels=True", "pytorch#187269"},
		{"behaviour", "torch._inductor.exc.InductorError",
		 "RuntimeError: Dynamic shape on reduction dimension is not supported", "diagonal,log_softmax_dtype,logcumsumexp",
		 "inductor.benchmark_fusion=True", ""},
		{"behaviour", "torch._inductor.exc.InductorError",
		 "NotImplementedError: arg type List[int] is not yet supported by custom_op_wrapper", "sum",
		 "inductor.cpp_wrapper=True inductor.fallback_random=True", "pytorch#174460"},
	};
	for (unsigned i = 0; i < sizeof configured / sizeof *configured; i++) {
		struct finding_bucket b;
		m = meta("x", configured[i].verdict, configured[i].exception, configured[i].message, configured[i].ops);
		json_object_set_new(m, "config", json_string(configured[i].config));
		bucket_of(m, &b);
		if (!CHECK(!strcmp(b.known ? b.known->issue : "", configured[i].issue)))
			fprintf(stderr, "  configured finding %u: %s\n", i, b.text);
		json_decref(m);
	}
}

TEST(known_bugs_malformed_line_is_an_error_naming_file_and_line)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{"# ok\npytorch#1 | numeric | * | relu | 2.6\n", "mine.txt:2: 5 fields, expected 6"},
		{"\n\n\nissue#1 | numeric | * | relu | 2.6 | t\n", "mine.txt:4: issue 'issue#1': expected pytorch#NUMBER"},
		{"pytorch#12x | numeric | * | relu | 2.6 | t\n", "mine.txt:1: issue 'pytorch#12x'"},
		{"pytorch#1 | numeric,wrong | * | relu | 2.6 | t\n", "mine.txt:1: kind 'wrong' is no verdict"},
		{"pytorch#1 | numeric |  | relu | 2.6 | t\n", "mine.txt:1: the error field is empty"},
	};
	for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct known_list l = {0};
		char why[300] = "";
		CHECK_EQ(known_parse(&l, bad[i].text, "mine.txt", why, sizeof why), -1);
		if (!CHECK(strstr(why, bad[i].says) != NULL))
			fprintf(stderr, "  got: %s\n", why);
		known_free(&l);
	}
}

static void write_meta(const char *dir, const char *name, json_t *m)
{
	char path[300];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	CHECK_EQ(mkdir(path, 0777), 0);
	snprintf(path, sizeof path, "%s/%s/meta.json", dir, name);
	CHECK_EQ(json_file_write(path, m, 0), 0);
	json_decref(m);
}

/* Findings folders from before buckets (no bucket key) are counted by bug. */
TEST(findings_census_counts_distinct_buckets_and_known_ones)
{
	char dir[64] = "/tmp/pt2fuzz-bucket.XXXXXX", cmd[100];
	CHECK(mkdtemp(dir) != NULL);
	write_meta(dir, "behaviour-0000000000000001", meta("behaviour-0000000000000001", "behaviour", "E",
							  RELATIONAL "2*(((2*s11 + 4)//s11)) > 25", "adaptive_avg_pool2d"));
	write_meta(dir, "behaviour-0000000000000002", meta("behaviour-0000000000000002", "behaviour", "E",
							  RELATIONAL "(((2*s26 + 10)//s26)) > 25", "adaptive_avg_pool2d,relu"));
	write_meta(dir, "missing-error-0000000000000003",
		   meta("missing-error-0000000000000003", "missing-error", "RuntimeError", "RuntimeError: x", "mv"));
	write_meta(dir, "numeric-0000000000000004", meta("numeric-0000000000000004", "numeric", "", "", "softmax"));
	struct findings_census c;
	findings_census(dir, &c);
	CHECK_EQ(c.total, 4);
	CHECK_EQ(c.by_kind[V_BEHAVIOUR], 2);
	CHECK_EQ(c.buckets, 3);
	CHECK_EQ(c.known, 1);
	CHECK_EQ(c.bugs, 0); /* none reduced */
	CHECK_EQ(c.awaiting, 2);
	/* A folder whose meta.json is not written yet is a bucket of its own; once
	 * written, its bucket counts (what could not be read is not remembered). */
	char path[300];
	snprintf(path, sizeof path, "%s/behaviour-0000000000000005", dir);
	CHECK_EQ(mkdir(path, 0777), 0);
	findings_census(dir, &c);
	CHECK_EQ(c.total, 5);
	CHECK_EQ(c.buckets, 4);
	snprintf(path, sizeof path, "%s/behaviour-0000000000000005/meta.json", dir);
	json_t *m = meta("behaviour-0000000000000005", "behaviour", "E", RELATIONAL "s3 > 25", "adaptive_avg_pool2d");
	CHECK_EQ(json_file_write(path, m, 0), 0);
	json_decref(m);
	findings_census(dir, &c);
	CHECK_EQ(c.buckets, 3);
	CHECK_EQ(c.known, 1);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK_EQ(system(cmd), 0);
}

/* The #151198 seed's finding as torch 2.6 recorded it (its graph passes on
 * 2.15, so a crafted meta.json): numeric, bucketed by signature, known. */
TEST(known_bugs_builtin_list_marks_the_reflection_pad3d_pairwise_seed)
{
	json_t *m = meta("numeric-5d1c4f0a22b7e913", "numeric", "", "",
			 "reflection_pad3d,view,chunk,pairwise_distance");
	json_t *other = meta("numeric-5d1c4f0a22b7e914", "numeric", "", "", "reflection_pad3d,view,chunk");
	struct finding_bucket b;
	bucket_of(m, &b);
	CHECK(b.known && !strcmp(b.known->issue, "pytorch#151198"));
	CHECK(!strcmp(b.text, "numeric-5d1c4f0a22b7e913"));
	bucket_of(other, &b);
	CHECK(b.known == NULL);
	json_decref(m);
	json_decref(other);
}

/* A numeric finding whose original graph held a random op is #181136 by the
 * original's ops; its reduced graph (a special function of a pow) is not. */
TEST(known_bug_of_a_reduced_finding_is_matched_on_the_reduced_ops)
{
	json_t *m = meta("numeric-86e59eef1a36ba53", "numeric", "", "", "dropout,take,pow,entr,erfinv");
	struct finding_bucket b;
	bucket_of(m, &b);
	CHECK(b.known && !strcmp(b.known->issue, "pytorch#181136"));
	const char *reduced[] = {"pow", "entr"};
	CHECK(bucket_known(m, reduced, 2) == NULL);
	const char *kept[] = {"dropout", "pow"};
	const struct known_bug *k = bucket_known(m, kept, 2);
	CHECK(k && !strcmp(k->issue, "pytorch#181136"));
	json_decref(m);
}

/* One known upstream bug is one bug in the count, whatever buckets its
 * findings fall in: #198155's "not implemented for" through two exception
 * types is two buckets and one bug; an unknown numeric finding is another. */
TEST(findings_census_counts_a_known_bug_once_across_its_buckets)
{
	char dir[64] = "/tmp/pt2fuzz-bucket.XXXXXX", cmd[100];
	CHECK(mkdtemp(dir) != NULL);
	write_meta(dir, "missing-error-0000000000000001",
		   meta("missing-error-0000000000000001", "missing-error", "RuntimeError",
			"RuntimeError: \"addmm_impl_cpu_\" not implemented for 'Int'", "mm"));
	write_meta(dir, "missing-error-0000000000000002",
		   meta("missing-error-0000000000000002", "missing-error", "NotImplementedError",
			"NotImplementedError: \"elu\" not implemented for 'Long'", "elu,add"));
	write_meta(dir, "numeric-0000000000000003", meta("numeric-0000000000000003", "numeric", "", "", "softmax"));
	char path[300];
	struct finding_bucket a, b;
	snprintf(path, sizeof path, "%s/missing-error-0000000000000001", dir);
	CHECK_EQ(bucket_load(path, &a, path, sizeof path), 0);
	snprintf(path, sizeof path, "%s/missing-error-0000000000000002", dir);
	CHECK_EQ(bucket_load(path, &b, path, sizeof path), 0);
	CHECK(a.hash != b.hash);
	CHECK(a.known && b.known && !strcmp(a.known->issue, "pytorch#198155") && a.known == b.known);
	struct findings_census c;
	findings_census(dir, &c);
	CHECK_EQ(c.total, 3);
	CHECK_EQ(c.buckets, 2);
	CHECK_EQ(c.known, 1);
	CHECK_EQ(c.awaiting, 1);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK_EQ(system(cmd), 0);
}

/* pt2fuzz's own written-up findings are a known list's lines too
 * (docs/findings/NAME.md as the issue): each names a file that exists, and
 * the shipped seeds that are such findings are marked reported. */
TEST(known_bugs_reported_lines_name_written_up_findings)
{
	struct known_list l = {0};
	char why[300] = "";
	CHECK_EQ(known_parse(&l, "docs/findings/x.md | numeric | * | cumsum | 2.15 | t\n", "mine.txt", why, sizeof why), 0);
	CHECK(l.n == 1 && known_is_reported(&l.bugs[0]));
	CHECK_EQ(known_parse(&l, "docs/findings/x.txt | numeric | * | cumsum | 2.15 | t\n", "mine.txt", why, sizeof why), -1);
	CHECK_EQ(known_parse(&l, "docs/findings/a/b.md | numeric | * | cumsum | 2.15 | t\n", "mine.txt", why, sizeof why), -1);
	known_free(&l);
	const struct known_list *shipped = known_bugs(why, sizeof why);
	unsigned reported = 0;
	for (unsigned i = 0; shipped && i < shipped->n; i++) {
		if (!known_is_reported(&shipped->bugs[i]))
			continue;
		char path[600];
		snprintf(path, sizeof path, "%s/%s", PT2FUZZ_ROOT, shipped->bugs[i].issue);
		if (!CHECK_EQ(access(path, F_OK), 0))
			fprintf(stderr, "  no such file: %s\n", path);
		reported++;
	}
	CHECK(reported >= 3);
	json_t *m = meta("numeric-0000000000000009", "numeric", "", "", "special_log1p,multi_margin_loss");
	struct finding_bucket b;
	bucket_of(m, &b);
	CHECK(b.known && known_is_reported(b.known));
	json_decref(m);
}

/* A known bug's trigger holds on the torch it was seen on only, and only
 * for a line that names ops. */
TEST(known_trigger_by_ops_and_torch_version)
{
	struct known_list l = {0};
	char why[300];
	CHECK_EQ(known_parse(&l,
			     "pytorch#1 | behaviour | * | family:random | 2.11 | t\n"
			     "pytorch#2 | behaviour | *x* | * | 2.11,2.15 | t\n"
			     "pytorch#3 | numeric | * | erf,div | 2.6,2.15 | t\n",
			     "mine.txt", why, sizeof why),
		 0);
	const char *rnd[] = {"dropout", "relu"}, *ed[] = {"div", "erf", "mul"}, *e[] = {"erf"};
	const struct known_bug *k = known_trigger(&l, "2.11.0+cu130", rnd, 2);
	CHECK(k && !strcmp(k->issue, "pytorch#1"));
	CHECK(known_trigger(&l, "2.15.0", rnd, 2) == NULL);
	CHECK(known_trigger(&l, "2.15.0+cu132", ed, 3) != NULL);
	CHECK(known_trigger(&l, "2.15.0", e, 1) == NULL);
	CHECK(known_trigger(&l, "2.1.0", ed, 3) == NULL); /* 2.1 is not 2.15 */
	CHECK(known_trigger(&l, "", ed, 3) == NULL);
	known_free(&l);
}

/* A numeric bug of random ops alone is a draw bug (pipeline/draws.h): the
 * oracle judges what it changes by layout only, so it is no trigger; a
 * line that names another op beside a random one stays a trigger. */
TEST(draw_bugs_are_numeric_bugs_of_random_ops_alone)
{
	struct known_list l = {0};
	char why[300];
	CHECK_EQ(known_parse(&l,
			     "pytorch#1 | numeric | * | family:random | 2.11 | reordered\n"
			     "pytorch#2 | numeric | * | bernoulli | 2.6 | decomposed\n"
			     "pytorch#3 | numeric | * | dropout,mm | 2.6 | not random alone\n",
			     "mine.txt", why, sizeof why),
		 0);
	const char *rnd[] = {"dropout", "relu"}, *bern[] = {"bernoulli", "mm"}, *dm[] = {"dropout", "mm"};
	const struct known_bug *k = known_draw_bug(&l, "2.11.0+cu130", rnd, 2);
	CHECK(k && !strcmp(k->issue, "pytorch#1"));
	CHECK(known_trigger(&l, "2.11.0+cu130", rnd, 2) == NULL);
	CHECK(known_draw_bug(&l, "2.15.0", rnd, 2) == NULL);
	k = known_draw_bug(&l, "2.6.0", bern, 2);
	CHECK(k && !strcmp(k->issue, "pytorch#2"));
	CHECK(known_draw_bug(&l, "2.6.0", dm, 2) == NULL);
	k = known_trigger(&l, "2.6.0", dm, 2);
	CHECK(k && !strcmp(k->issue, "pytorch#3"));
	const char *relu[] = {"relu"};
	CHECK(known_draw_bug(&l, "2.11.0", relu, 1) == NULL);
	known_free(&l);
}

/* An OPS word "op@dtype" is a trigger only where that op reads that dtype
 * (avoid.h gives each op as "op@dtype"); a finding, whose meta names no
 * dtypes, matches it by the op. */
TEST(known_trigger_of_an_op_on_one_dtype)
{
	struct known_list l = {0};
	char why[300];
	CHECK_EQ(known_parse(&l, "pytorch#1 | behaviour | *Unknown type* | argmax_all@int64 | 2.11 | t\n", "mine.txt", why,
			     sizeof why),
		 0);
	const char *i64[] = {"relu@float32", "argmax_all@int64"}, *f32[] = {"argmax_all@float32"},
		   *named[] = {"argmax_all"};
	CHECK(known_trigger(&l, "2.11.0", i64, 2) != NULL);
	CHECK(known_trigger(&l, "2.11.0", f32, 1) == NULL);
	CHECK(known_match(&l, "behaviour", "TypeError: Unknown type: <class 'tuple'>", named, 1) != NULL);
	const char *longer[] = {"argmax_all_x@int64"};
	CHECK(known_trigger(&l, "2.11.0", longer, 1) == NULL);
	known_free(&l);
}

/* "op@0d" is a trigger only where the op reads a 0-d tensor, and with a
 * dtype beside it ("op@int64@0d") only where both hold; a finding matches it
 * by the op. */
TEST(known_trigger_of_an_op_on_a_zero_dim_tensor)
{
	struct known_list l = {0};
	char why[300];
	CHECK_EQ(known_parse(&l,
			     "pytorch#1 | behaviour | *out of range* | *softmax*@0d | 2.11 | t\n"
			     "pytorch#2 | behaviour | *Unknown type* | argmax_all@int64@0d | 2.11 | t\n",
			     "mine.txt", why, sizeof why),
		 0);
	const char *zero_dim[] = {"softsign@int32", "softmax_dtype@float32@0d"}, *vector[] = {"softmax_dtype@float32"},
		   *named[] = {"log_softmax"}, *i64[] = {"argmax_all@int64@0d"}, *f32[] = {"argmax_all@float32@0d"},
		   *i64_vector[] = {"argmax_all@int64"};
	const struct known_bug *b = known_trigger(&l, "2.11.0", zero_dim, 2);
	CHECK(b && !strcmp(b->issue, "pytorch#1"));
	CHECK(known_trigger(&l, "2.11.0", vector, 1) == NULL);
	CHECK(known_match(&l, "behaviour", "IndexError: list index out of range", named, 1) != NULL);
	b = known_trigger(&l, "2.11.0", i64, 1);
	CHECK(b && !strcmp(b->issue, "pytorch#2"));
	CHECK(known_trigger(&l, "2.11.0", f32, 1) == NULL);
	CHECK(known_trigger(&l, "2.11.0", i64_vector, 1) == NULL);
	known_free(&l);
}

/* A "break:CONSTRAINT" word names a near-invalid graph's broken node: a
 * trigger for the breakers (any op, or the ops beside it), and matched by a
 * finding whose meta.json says it broke that constraint. */
TEST(known_break_words_trigger_broken_nodes_and_match_their_findings)
{
	struct known_list l = {0};
	char why[300];
	CHECK_EQ(known_parse(&l,
			     "pytorch#1 | missing-error | *not implemented for* | break:unsupported_dtype | 2.11 | t\n"
			     "pytorch#2 | error-mismatch | * | softmax,break:attr_domain | 2.11 | t\n",
			     "mine.txt", why, sizeof why),
		 0);
	const struct known_bug *k = known_break_trigger(&l, "2.11.0", "mish", "unsupported_dtype");
	CHECK(k && !strcmp(k->issue, "pytorch#1"));
	CHECK(known_break_trigger(&l, "2.15.0", "mish", "unsupported_dtype") == NULL);
	CHECK(known_break_trigger(&l, "2.11.0", "mish", "attr_domain") == NULL);
	k = known_break_trigger(&l, "2.11.0", "softmax", "attr_domain");
	CHECK(k && !strcmp(k->issue, "pytorch#2"));
	const char *mish[] = {"mish"};
	CHECK(known_trigger(&l, "2.11.0", mish, 1) == NULL); /* no component's ops hold a broken node */
	known_free(&l);
	/* the built-in list: #198155 by its message; a near-invalid finding's break word */
	json_t *m = meta("x", "missing-error", "NotImplementedError", "\"mish_cuda\" not implemented for 'Long'", "mish,xlogy");
	json_object_set_new(m, "expect_error", json_string("unsupported_dtype"));
	struct finding_bucket b;
	bucket_of(m, &b);
	CHECK(b.known && !strcmp(b.known->issue, "pytorch#198155"));
	json_decref(m);
	CHECK(known_break_trigger(known_bugs(NULL, 0), "2.11.0+cu130", "gelu", "unsupported_dtype") != NULL);
	CHECK(known_break_trigger(known_bugs(NULL, 0), "2.11.0+cu130", "gelu", "index_range") == NULL);
}

/* A bug of near-invalid graphs alone (missing-error, error-mismatch) is held
 * by a broken node, not by a component's ops: its op stays in valid graphs. */
TEST(near_invalid_bugs_are_no_op_triggers)
{
	struct known_list l = {0};
	char why[300];
	CHECK_EQ(known_parse(&l,
			     "pytorch#1 | missing-error | *not implemented for* | adaptive_max_pool2d | 2.15 | t\n"
			     "pytorch#2 | error-mismatch,missing-error | * | cross_entropy | 2.15 | t\n"
			     "pytorch#3 | missing-error,numeric | * | cross_entropy | 2.15 | t\n",
			     "mine.txt", why, sizeof why),
		 0);
	const char *amp[] = {"adaptive_max_pool2d"}, *ce[] = {"cross_entropy"};
	CHECK(known_trigger(&l, "2.15.0", amp, 1) == NULL);
	const struct known_bug *k = known_trigger(&l, "2.15.0", ce, 1);
	CHECK(k && !strcmp(k->issue, "pytorch#3"));
	known_free(&l);
}

/* Each bucket counts once, in one class: reduced (reduced/graph.bin, by its
 * reduced_bucket) makes a new bug, unreduced awaits triage, a known or
 * reported bug is its own class whatever its state. */
TEST(findings_census_new_only_once_reduced)
{
	char dir[64] = "/tmp/pt2fuzz-bucket.XXXXXX", cmd[300], path[300], why[300];
	CHECK(mkdtemp(dir) != NULL);
	write_meta(dir, "numeric-0000000000000001", meta("numeric-0000000000000001", "numeric", "", "", "softmax"));
	write_meta(dir, "numeric-0000000000000002", meta("numeric-0000000000000002", "numeric", "", "", "softmax,relu"));
	write_meta(dir, "numeric-0000000000000003",
		   meta("numeric-0000000000000003", "numeric", "", "", "special_log1p,multi_margin_loss"));
	write_meta(dir, "numeric-0000000000000004", meta("numeric-0000000000000004", "numeric", "", "", "div_rounding"));
	struct findings_census c;
	findings_census(dir, &c);
	CHECK_EQ(c.total, 4);
	CHECK_EQ(c.buckets, 4);
	CHECK_EQ(c.bugs, 0); /* nothing reduced: nothing is a bug yet */
	CHECK_EQ(c.awaiting, 2);
	CHECK_EQ(c.known, 1);
	CHECK_EQ(c.reported, 1);
	/* Triage reduces both softmax findings to one graph: one new bug. */
	for (int i = 1; i <= 2; i++) {
		snprintf(path, sizeof path, "%s/numeric-000000000000000%d/reduced", dir, i);
		CHECK_EQ(mkdir(path, 0777), 0);
		snprintf(path, sizeof path, "%s/numeric-000000000000000%d/reduced/graph.bin", dir, i);
		CHECK_EQ(close(open(path, O_CREAT | O_WRONLY, 0666)), 0);
		snprintf(path, sizeof path, "%s/numeric-000000000000000%d", dir, i);
		const struct known_bug *k;
		const char *ops[] = {"softmax"};
		CHECK_EQ(bucket_store_known_reduced(path, ops, 1, 0xabcdef12345678ull, &k, why, sizeof why), 0);
		CHECK(k == NULL);
	}
	findings_census(dir, &c);
	CHECK_EQ(c.buckets, 3);
	CHECK_EQ(c.bugs, 1);
	CHECK_EQ(c.awaiting, 0);
	CHECK_EQ(c.known, 1);
	CHECK_EQ(c.reported, 1);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK_EQ(system(cmd), 0);
}

/* A bug that needs a structure beside its ops: an in-place write through a
 * view into a parameter (pt2fuzz's reported no_grad view bug). The op set of
 * such a graph names it (op_names), so that its findings match the line and
 * its components are the line's trigger; a write into the parameter itself
 * is not that structure, and one through a view of an input is another. */
TEST(param_view_write_is_a_word_of_the_op_set)
{
	static struct graph g;
	char why[300];
	const char *names[G_MAX_NODES + GRAPH_STRUCTURE_WORDS];
	static const char *const texts[] = {
		"bindings 1\np0 = param float32 [1, 1]\nv1 = reshape(p0; shape=[-1])\nx2 = input float32 [1]\n"
		"v3 = add_(v1, x2)\noutput v3\n",
		"bindings 1\np0 = param float32 [1]\nx1 = input float32 [1]\nv2 = add_(p0, x1)\noutput v2\n",
		"bindings 1\nx0 = input float32 [1, 1]\nv1 = reshape(x0; shape=[-1])\nx2 = input float32 [1]\n"
		"v3 = add_(v1, x2)\noutput v3\n",
		/* a write into an input another input shares: pytorch#139789's structure */
		"bindings 1\nx0 = input float32 [3]\nx1 = input float32 [3] same\nx2 = input float32 [3]\n"
		"v3 = add_(x0, x2)\nv4 = mul(x1, x2)\noutput v4\n",
	};
	for (unsigned t = 0; t < 4; t++) {
		CHECK(text_parse(&g, texts[t], why, sizeof why) == 0);
		CHECK_EQ(graph_view_writes(&g, NULL), t == 0 ? 1u << VK_PARAM : t == 2 ? 1u << VK_INPUT : 0);
		unsigned n = op_names(&g, NULL, names, G_MAX_NODES + GRAPH_STRUCTURE_WORDS), word = 0, shared = 0;
		for (unsigned i = 0; i < n; i++) {
			word += !strcmp(names[i], graph_view_write_words[VK_PARAM]);
			shared += !strcmp(names[i], "inplace_shared_input");
		}
		CHECK_EQ(word, t == 0);
		CHECK_EQ(shared, t == 3);
		CHECK_EQ(known_trigger(known_bugs(NULL, 0), "2.11.0+cu130", names, n) != NULL, t == 0 || t == 3);
	}
	json_t *m = meta("behaviour-68faba94b293734e", "behaviour", "torch._dynamo.exc.BackendCompilerFailed",
			 "RuntimeError: A view was created in no_grad mode and its base or another view of its base has "
			 "been modified inplace with grad mode enabled.",
			 "add_,inplace_view:param,reshape");
	struct finding_bucket b;
	bucket_of(m, &b);
	CHECK(b.known && strstr(b.known->issue, "behaviour-param-view-inplace-no-grad"));
	json_decref(m);
}

/* A write into a parameter itself is a word of the op set, inplace:param
 * (not a write through its view, nor into an input or buffer); with it, an
 * AOTInductor count-out finding is pt2fuzz's written-up bug whether the
 * command line chose aoti (meta.json's backend) or the configuration did,
 * and not under Inductor, nor without the write. */
TEST(aoti_parameter_write_matches_its_write_up_by_word_and_backend)
{
	static struct graph g;
	char why[300];
	const char *names[G_MAX_NODES + GRAPH_STRUCTURE_WORDS];
	static const char *const texts[] = {
		"bindings 1\np0 = param float32 [3]\nx1 = input float32 [3]\nv2 = add_(p0, x1)\noutput v2\n",
		("bindings 1\np0 = param float32 [1, 3]\nv1 = reshape(p0; shape=[-1])\nx2 = input float32 [3]\n"
		 "v3 = add_(v1, x2)\noutput v3\n"),
		"bindings 1\nb0 = buffer float32 [3]\nx1 = input float32 [3]\nv2 = add_(b0, x1)\noutput v2\n",
	};
	for (unsigned t = 0; t < 3; t++) {
		CHECK(text_parse(&g, texts[t], why, sizeof why) == 0);
		CHECK_EQ(graph_direct_writes(&g, NULL), t == 0 ? 1u << VK_PARAM : t == 2 ? 1u << VK_BUFFER : 0);
		unsigned n = op_names(&g, NULL, names, G_MAX_NODES + GRAPH_STRUCTURE_WORDS), param = 0;
		for (unsigned i = 0; i < n; i++)
			param += !strcmp(names[i], graph_leaf_write_words[VK_PARAM]);
		CHECK_EQ(param, t == 0);
	}
	static const struct {
		const char *ops, *backend, *config;
		int known;
	} cases[] = {
		{"add_,inplace:param,relu_inplace", "aoti", "", 1},
		{"add_,inplace:param", "aoti", "backend=aoti inductor.freezing=True", 1},
		{"add_,inplace:param", "inductor", "", 0},
		{"add_,inplace:param", "aot_eager", "backend=aot_eager", 0},
		{"add_,inplace:buffer", "aoti", "", 0},
		{"add_,inplace_view:param", "aoti", "", 0},
	};
	for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		json_t *m = meta("numeric-ae2970fdf3fffc84", "numeric", "", "", cases[c].ops);
		json_object_set_new(m, "detail", json_string("binding 0: eager returned 4 outputs, compiled 6"));
		json_object_set_new(m, "backend", json_string(cases[c].backend));
		json_object_set_new(m, "config", json_string(cases[c].config));
		struct finding_bucket b;
		bucket_of(m, &b);
		CHECK_EQ(b.known && strstr(b.known->issue, "behaviour-aoti-parameter-mutation"), cases[c].known);
		json_object_set_new(m, "detail", json_string("binding 0 output 1: max abs diff 2"));
		bucket_of(m, &b);
		CHECK(!b.known || !strstr(b.known->issue, "behaviour-aoti-parameter-mutation"));
		json_decref(m);
	}
}

/* A stride finding matches a known line by its detail (it has no
 * exception): pytorch#152520's padded layouts on 2.11, where the oracle is
 * told to judge around them; not another stride difference, nor 2.15. */
TEST(known_stride_bug_matches_the_padded_detail)
{
	const struct known_list *l = known_bugs(NULL, 0);
	const char *sample = "* (" ORACLE_PADDED_LAYOUT ")";
	const struct known_bug *k = known_stride_bug(l, "2.11.0+cu130", sample);
	CHECK(k && !strcmp(k->issue, "pytorch#152520"));
	CHECK(known_stride_bug(l, "2.15.0", sample) == NULL);
	CHECK(known_stride_bug(l, "2.11.0", "binding 0 output 0: stride of dim 0 (size 3) eager 1, compiled 2") == NULL);
	/* a stride bug of some ops only (pytorch#106623's FFTs) is no reason to judge around every graph */
	struct known_list own = {0};
	char why[300];
	CHECK(known_parse(&own, "pytorch#1 | stride | * | family:fft | 2.11 | FFT strides\n", "own", why, sizeof why) == 0);
	CHECK(known_stride_bug(&own, "2.11.0", sample) == NULL);
	known_free(&own);
	json_t *m = meta("stride-e58c4fa9d70a11fa", "stride", "", "", "bmm");
	json_object_set_new(m, "detail", json_string("binding 0 output 8: stride of dim 0 (size 13) eager 91, compiled 128 ("
						      ORACLE_PADDED_LAYOUT ")"));
	struct finding_bucket b;
	bucket_of(m, &b);
	CHECK(b.known && !strcmp(b.known->issue, "pytorch#152520"));
	json_object_set_new(m, "detail", json_string("binding 0 output 8: stride of dim 0 (size 13) eager 91, compiled 1"));
	bucket_of(m, &b);
	CHECK(b.known == NULL);
	json_decref(m);
}
