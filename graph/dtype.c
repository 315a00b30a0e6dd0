#include "dtype.h"
#include <float.h>
#include <string.h>

static const struct dtype_info table[DT_COUNT] = {
	[DT_FLOAT32] = {"float32", "torch.float32", CAT_FLOAT, 32, .fmax = FLT_MAX},
	[DT_FLOAT16] = {"float16", "torch.float16", CAT_FLOAT, 16, .fmax = 65504.0},
	[DT_BFLOAT16] = {"bfloat16", "torch.bfloat16", CAT_FLOAT, 16, .fmax = 3.3895313892515355e38},
	[DT_FLOAT64] = {"float64", "torch.float64", CAT_FLOAT, 64, .fmax = DBL_MAX},
	[DT_INT32] = {"int32", "torch.int32", CAT_INT, 32, INT32_MIN, INT32_MAX},
	[DT_INT64] = {"int64", "torch.int64", CAT_INT, 64, INT64_MIN, INT64_MAX},
	[DT_BOOL] = {"bool", "torch.bool", CAT_BOOL, 8, 0, 1},
	[DT_INT8] = {"int8", "torch.int8", CAT_INT, 8, INT8_MIN, INT8_MAX},
	[DT_UINT8] = {"uint8", "torch.uint8", CAT_INT, 8, 0, UINT8_MAX},
	[DT_INT16] = {"int16", "torch.int16", CAT_INT, 16, INT16_MIN, INT16_MAX},
};

const struct dtype_info *dtype_info(unsigned dt) { return dt < DT_COUNT ? &table[dt] : 0; }

int dtype_from_name(const char *name)
{
	for (int i = 0; i < DT_COUNT; i++)
		if (!strcmp(name, table[i].name))
			return i;
	return -1;
}

int dtype_is_float(unsigned dt) { return dt < DT_COUNT && table[dt].cat == CAT_FLOAT; }
int dtype_is_low_precision(unsigned dt) { return dt == DT_FLOAT16 || dt == DT_BFLOAT16; }
int dtype_is_int(unsigned dt) { return dt < DT_COUNT && table[dt].cat == CAT_INT; }

enum dtype dtype_promote(enum dtype a, enum dtype b)
{
	if (a == b)
		return a;
	if (table[a].cat != table[b].cat)
		return table[a].cat > table[b].cat ? a : b;
	if (table[a].cat == CAT_FLOAT) {
		/* float16 with bfloat16 meet at float32; otherwise the wider wins. */
		if (table[a].bits == 16 && table[b].bits == 16)
			return DT_FLOAT32;
		return table[a].bits >= table[b].bits ? a : b;
	}
	/* uint8 with a signed type: the smallest signed type holding both */
	if ((a == DT_UINT8) != (b == DT_UINT8)) {
		enum dtype s = a == DT_UINT8 ? b : a;
		return table[s].bits > 8 ? s : DT_INT16;
	}
	return table[a].bits >= table[b].bits ? a : b;
}

enum dtype dtype_result(const enum dtype *dts, const int *zero_dim, int n)
{
	int have_dim = 0, have_zero = 0;
	enum dtype dim_t = DT_BOOL, zero_t = DT_BOOL;
	for (int i = 0; i < n; i++) {
		if (zero_dim[i]) {
			zero_t = have_zero ? dtype_promote(zero_t, dts[i]) : dts[i];
			have_zero = 1;
		} else {
			dim_t = have_dim ? dtype_promote(dim_t, dts[i]) : dts[i];
			have_dim = 1;
		}
	}
	if (!have_dim)
		return zero_t;
	if (!have_zero)
		return dim_t;
	/* ATen's combine_categories(dim, zero). */
	if (table[dim_t].cat == CAT_FLOAT)
		return dim_t;
	if (dim_t == DT_BOOL || table[zero_t].cat == CAT_FLOAT)
		return dtype_promote(dim_t, zero_t);
	return dim_t;
}
