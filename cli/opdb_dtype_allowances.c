#include "opdb_dtype_allowances.h"
#include <string.h>
#include "../graph/dtype.h"

/* Each checked in eager: the row's spelling runs with that dtype on the CPU (torch 2.15) and on
 * an H200 (torch 2.11). */
#define SCAN_BOOL "eager's cumsum and cumprod take bool, promoted to int64 like any integer; OpInfo lists no bool"
#define EMBEDDING_INDICES "input 0 is the indices (int32 or int64); OpInfo's dtypes are the weight's, which is float"
#define RRELU_EVAL \
	"spelled with training=False, a leaky_relu with the mean slope, which has a Half kernel; OpInfo's CPU " \
	"dtypes are those of the training=True kernel (rrelu_with_noise), which has none"

const struct opdb_dtype_allowance opdb_dtype_allowances[] = {
	{"cumsum", NULL, DTM(DT_BOOL), SCAN_BOOL},
	{"cumsum_dtype", NULL, DTM(DT_BOOL), SCAN_BOOL},
	{"cumprod", NULL, DTM(DT_BOOL), SCAN_BOOL},
	{"embedding", NULL, DTM_INT, EMBEDDING_INDICES},
	{"embedding_fn", NULL, DTM_INT, EMBEDDING_INDICES},
	{"embedding_bag", NULL, DTM_INT, EMBEDDING_INDICES},
	{"rrelu", "cpu", DTM(DT_FLOAT16), RRELU_EVAL},
	{"rrelu_inplace", "cpu", DTM(DT_FLOAT16), RRELU_EVAL},
};
const unsigned opdb_dtype_allowance_count = sizeof opdb_dtype_allowances / sizeof opdb_dtype_allowances[0];

const struct opdb_dtype_allowance *opdb_dtype_allowed(const char *row, const char *device)
{
	for (unsigned i = 0; i < opdb_dtype_allowance_count; i++) {
		const struct opdb_dtype_allowance *a = &opdb_dtype_allowances[i];
		if (!strcmp(a->row, row) && (!a->device || !strcmp(a->device, device)))
			return a;
	}
	return NULL;
}
