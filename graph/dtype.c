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
	[DT_COMPLEX64] = {"complex64", "torch.complex64", CAT_COMPLEX, 64, .fmax = FLT_MAX},
	[DT_COMPLEX128] = {"complex128", "torch.complex128", CAT_COMPLEX, 128, .fmax = DBL_MAX},
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
int dtype_is_complex(unsigned dt) { return dt < DT_COUNT && table[dt].cat == CAT_COMPLEX; }
int dtype_is_inexact(unsigned dt) { return dtype_is_float(dt) || dtype_is_complex(dt); }
unsigned dtype_parts(unsigned dt) { return dtype_is_complex(dt) ? 2 : 1; }

int dtype_complex_of(unsigned dt)
{
	return dt == DT_FLOAT32 ? DT_COMPLEX64 : dt == DT_FLOAT64 ? DT_COMPLEX128 : -1;
}

int dtype_real_of(unsigned dt)
{
	return dt == DT_COMPLEX64 ? DT_FLOAT32 : dt == DT_COMPLEX128 ? DT_FLOAT64 : -1;
}

enum dtype dtype_part_type(unsigned dt)
{
	int r = dtype_real_of(dt);
	return (enum dtype)(r >= 0 ? r : (int)dt);
}

/* torch's toComplexType for a float: the complex type of its width, complex64
 * for the 16-bit ones (the catalogue has no complex32). */
static enum dtype complex_holding(enum dtype f) { return f == DT_FLOAT64 ? DT_COMPLEX128 : DT_COMPLEX64; }

enum dtype dtype_promote(enum dtype a, enum dtype b)
{
	if (a == b)
		return a;
	if (table[a].cat != table[b].cat) {
		enum dtype hi = table[a].cat > table[b].cat ? a : b, lo = hi == a ? b : a;
		/* complex64 with float64 meet at complex128 */
		if (table[hi].cat == CAT_COMPLEX && lo == DT_FLOAT64)
			return DT_COMPLEX128;
		return hi;
	}
	if (table[a].cat == CAT_COMPLEX)
		return table[a].bits >= table[b].bits ? a : b;
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
	if (table[dim_t].cat == CAT_COMPLEX)
		return dim_t;
	if (table[zero_t].cat == CAT_COMPLEX)
		return table[dim_t].cat == CAT_FLOAT ? complex_holding(dim_t) : zero_t;
	if (table[dim_t].cat == CAT_FLOAT)
		return dim_t;
	if (dim_t == DT_BOOL || table[zero_t].cat == CAT_FLOAT)
		return dtype_promote(dim_t, zero_t);
	return dim_t;
}
