/* Complex dtypes: promotion with real types, and the shape and dtype rules
 * of the complex family and the rows that take complex inputs. */
#include "test.h"
#include "testkit.h"

static char why[300];

TEST(complex_promotion_follows_torch)
{
	CHECK_EQ(dtype_promote(DT_COMPLEX64, DT_FLOAT32), DT_COMPLEX64);
	CHECK_EQ(dtype_promote(DT_FLOAT64, DT_COMPLEX64), DT_COMPLEX128); /* complex64 with float64 */
	CHECK_EQ(dtype_promote(DT_COMPLEX64, DT_COMPLEX128), DT_COMPLEX128);
	CHECK_EQ(dtype_promote(DT_INT64, DT_COMPLEX64), DT_COMPLEX64);
	enum dtype dts[2] = {DT_FLOAT64, DT_COMPLEX64};
	CHECK_EQ(dtype_result(dts, (int[]){0, 1}, 2), DT_COMPLEX128); /* a 0-d complex64 with float64 */
	dts[0] = DT_INT32;
	CHECK_EQ(dtype_result(dts, (int[]){0, 1}, 2), DT_COMPLEX64);
	CHECK_EQ(dtype_parts(DT_COMPLEX128), 2u);
	CHECK_EQ(dtype_parts(DT_FLOAT64), 1u);
	CHECK(!dtype_is_float(DT_COMPLEX64) && dtype_is_inexact(DT_COMPLEX64));
	CHECK_EQ(dtype_from_name("complex128"), DT_COMPLEX128);
}

TEST(complex_family_rules)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){4, 6});
	int re = tk_input(&g, DT_FLOAT32, 2, (int[]){3, -1});
	int im = tk_input(&g, DT_FLOAT32, 2, (int[]){3, -1});
	int z = tk_node(&g, "complex_make", 2, (int[]){re, im}, 0, NULL, why, sizeof why);
	CHECK(z >= 0 && tk_out(&g, z, 0)->dtype == DT_COMPLEX64 && tk_out(&g, z, 0)->dim[1][1] == 6);
	int d = tk_input(&g, DT_FLOAT64, 2, (int[]){3, -1});
	CHECK(tk_node(&g, "complex_make", 2, (int[]){re, d}, 0, NULL, why, sizeof why) < 0); /* two types */
	int r = tk_node(&g, "view_as_real", 1, (int[]){(int)g.n[z].out0}, 0, NULL, why, sizeof why);
	CHECK(r >= 0 && tk_out(&g, r, 0)->dtype == DT_FLOAT32 && tk_out(&g, r, 0)->rank == 3 &&
	      tk_out(&g, r, 0)->dim[1][2] == 2);
	CHECK(tk_node(&g, "view_as_real", 1, (int[]){re}, 0, NULL, why, sizeof why) < 0); /* real input */
	int c = tk_node(&g, "view_as_complex", 1, (int[]){re}, 0, NULL, why, sizeof why); /* s0 = 4, 6: even */
	CHECK(c >= 0 && tk_out(&g, c, 0)->dtype == DT_COMPLEX64 && tk_out(&g, c, 0)->dim[0][1] == 2 &&
	      tk_out(&g, c, 0)->dim[1][1] == 3);
	int odd = tk_input(&g, DT_FLOAT64, 2, (int[]){3, 5});
	CHECK(tk_node(&g, "view_as_complex", 1, (int[]){odd}, 0, NULL, why, sizeof why) < 0);
	int zz = tk_input(&g, DT_COMPLEX128, 2, (int[]){3, -1});
	int a = tk_node(&g, "abs", 1, (int[]){zz}, 0, NULL, why, sizeof why);
	CHECK(a >= 0 && tk_out(&g, a, 0)->dtype == DT_FLOAT64);
	int i = tk_node(&g, "imag_part", 1, (int[]){zz}, 0, NULL, why, sizeof why);
	CHECK(i >= 0 && tk_out(&g, i, 0)->dtype == DT_FLOAT64);
	int e = tk_node(&g, "exp", 1, (int[]){zz}, 0, NULL, why, sizeof why);
	CHECK(e >= 0 && tk_out(&g, e, 0)->dtype == DT_COMPLEX128);
	int ang = tk_node(&g, "angle", 1, (int[]){re}, 0, NULL, why, sizeof why);
	CHECK(ang >= 0 && tk_out(&g, ang, 0)->dtype == DT_FLOAT32);
	CHECK(tk_node(&g, "log", 1, (int[]){zz}, 0, NULL, why, sizeof why) < 0); /* not claimed */
}

TEST(fft_of_complex_input_rules)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){5, 8});
	int z = tk_input(&g, DT_COMPLEX64, 2, (int[]){4, -1});
	int n = tk_node(&g, "fft_fft_complex", 1, (int[]){z}, 2, (int64_t[]){-1, 0}, why, sizeof why);
	CHECK(n >= 0 && tk_out(&g, n, 0)->dtype == DT_COMPLEX64 && tk_out(&g, n, 0)->rank == 2);
	n = tk_node(&g, "fft_irfft_complex", 1, (int[]){z}, 2, (int64_t[]){1, 1}, why, sizeof why);
	CHECK(n >= 0 && tk_out(&g, n, 0)->dtype == DT_FLOAT32 && tk_out(&g, n, 0)->dim[0][1] == 8 &&
	      tk_out(&g, n, 0)->dim[1][1] == 14);
	int one = tk_input(&g, DT_COMPLEX64, 2, (int[]){4, 1});
	CHECK(tk_node(&g, "fft_hfft_complex", 1, (int[]){one}, 2, (int64_t[]){1, 0}, why, sizeof why) < 0); /* 0 points */
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){4, -1});
	CHECK(tk_node(&g, "fft_fft_complex", 1, (int[]){x}, 2, (int64_t[]){-1, 0}, why, sizeof why) < 0);
}
