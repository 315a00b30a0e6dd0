#include "opdb_exclusions.h"
#include <string.h>

#define BACKWARD "a backward kernel: the gradient mode reaches it through its forward op"
#define ATEN_FORM "the aten form of a functional norm the catalogue calls (batch_norm, layer_norm, group_norm)"
#define SDPA_KERNEL "one of SDPA's kernels: reached through F.scaled_dot_product_attention, as user code does"
#define UNINITIALIZED "uninitialized memory: eager and compiled values legitimately differ, and zeros/full make the same shapes"
#define PYTHON_VALUE "returns a Python value that depends on the data: a graph can only branch on it or wrap it again, and Dynamo breaks the graph there"
#define RESIZE "an in-place resize: growing leaves uninitialized memory, and Dynamo does not trace Tensor.resize_"
#define RANDOM_PROJECTION "projects with the global generator's randn: no spelling makes eager and compiled draw alike, and full rank is svd, a catalogue row"
#define FP8 "fp8 operands and scales on recent CUDA GPUs only: the catalogue has no fp8 dtype"

const struct opdb_exclusion opdb_exclusions[] = {
	{"sparse.*", "sparse layouts: torch.compile does not trace sparse tensors"},
	{"to_sparse", "sparse layouts: torch.compile does not trace sparse tensors"},
	{"masked.*", "torch.masked: a prototype whose functions are Python over where() and the reductions in the catalogue"},
	{"jiterator_*", "torch.cuda.jiterator: user-written CUDA kernels that Dynamo does not trace"},
	{"_softmax_backward_data", BACKWARD},
	{"max_pool2d_with_indices_backward", BACKWARD},
	{"native_dropout_backward", BACKWARD},
	{"native_batch_norm", ATEN_FORM},
	{"_native_batch_norm_legit", ATEN_FORM},
	{"_batch_norm_with_update", ATEN_FORM},
	{"native_layer_norm", ATEN_FORM},
	{"native_group_norm", ATEN_FORM},
	{"torch.ops.aten._efficient_attention_forward", SDPA_KERNEL},
	{"torch.ops.aten._flash_attention_forward", SDPA_KERNEL},
	{"torch.ops.aten._scaled_dot_product_flash_attention_for_cpu", SDPA_KERNEL},
	{"torch.ops.aten._safe_softmax.default", "an aten internal of SDPA's decomposition, which no user code calls"},
	{"_unsafe_masked_index", "an aten internal of Inductor's decompositions (pad, upsample), which no user code calls"},
	{"_unsafe_masked_index_put_accumulate", "an aten internal of Inductor's decompositions, which no user code calls"},
	{"_upsample_bilinear2d_aa", "reached through F.interpolate(antialias=True), a catalogue row"},
	{"_chunk_cat", "an aten internal of FSDP's gradient reduction, which no user code calls"},
	{"_segment_reduce", "an aten internal with no Python API"},
	{"slice", "torch.ops.aten.slice: user code slices by subscript (__getitem__), as the slice rows do"},
	{"broadcast_shapes", "takes and returns shapes, not tensors: nothing to compile"},
	{"empty", UNINITIALIZED},
	{"empty_permuted", UNINITIALIZED},
	{"empty_strided", UNINITIALIZED},
	{"new_empty", UNINITIALIZED},
	{"new_empty_strided", UNINITIALIZED},
	{"equal", PYTHON_VALUE},
	{"allclose", PYTHON_VALUE},
	{"item", PYTHON_VALUE},
	{"resize_", RESIZE},
	{"resize_as_", RESIZE},
	{"pca_lowrank", RANDOM_PROJECTION},
	{"svd_lowrank", RANDOM_PROJECTION},
	{"torch._scaled_mm", FP8},
	{"torch._scaled_mm_v2", FP8},
};
const unsigned opdb_exclusion_count = sizeof opdb_exclusions / sizeof opdb_exclusions[0];

static int matches(const char *pattern, const char *name)
{
	size_t n = strlen(pattern);
	return n && pattern[n - 1] == '*' ? !strncmp(pattern, name, n - 1) : !strcmp(pattern, name);
}

const struct opdb_exclusion *opdb_excluded(const char *name)
{
	for (unsigned i = 0; i < opdb_exclusion_count; i++)
		if (matches(opdb_exclusions[i].pattern, name))
			return &opdb_exclusions[i];
	return NULL;
}
