/* The fft family's shape rules: complex results read as real gain a dim of
 * 2, rfft and ihfft halve the last transformed dim, the inverse transforms
 * of real results give back the input's shape, at every binding. */
#include "test.h"
#include "testkit.h"

static char why[300];

TEST(fft_shapes_follow_the_transform)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){6, 9});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, -1});
	int n = tk_node(&g, "fft_rfft", 1, (int[]){x}, 2, (int64_t[]){-1, 1}, why, sizeof why);
	CHECK(n >= 0);
	const struct value *v = tk_out(&g, n, 0);
	CHECK(v->rank == 3 && v->dim[0][1] == 4 && v->dim[1][1] == 5 && v->dim[1][2] == 2);
	n = tk_node(&g, "fft_rfft", 1, (int[]){x}, 2, (int64_t[]){0, 1}, why, sizeof why);
	CHECK(n >= 0 && tk_out(&g, n, 0)->dim[0][0] == 2 && tk_out(&g, n, 0)->dim[1][1] == 9);
	n = tk_node(&g, "fft_irfft", 1, (int[]){x}, 2, (int64_t[]){1, 0}, why, sizeof why);
	CHECK(n >= 0 && tk_out(&g, n, 0)->rank == 2 && tk_out(&g, n, 0)->dim[1][1] == 9);
	n = tk_node(&g, "fft_fft2", 1, (int[]){x}, 1, (int64_t[]){2}, why, sizeof why);
	CHECK(n >= 0 && tk_out(&g, n, 0)->rank == 3 && tk_out(&g, n, 0)->dim[1][1] == 9);
	n = tk_node(&g, "fft_rfftn", 1, (int[]){x}, 1, (int64_t[]){0}, why, sizeof why);
	CHECK(n >= 0 && tk_out(&g, n, 0)->dim[0][0] == 3 && tk_out(&g, n, 0)->dim[1][1] == 5);
	CHECK(tk_node(&g, "fft_rfft", 1, (int[]){x}, 2, (int64_t[]){2, 0}, why, sizeof why) < 0); /* no dim 2 */
	CHECK(tk_node(&g, "fft_rfft", 1, (int[]){x}, 2, (int64_t[]){0, 3}, why, sizeof why) < 0); /* no 4th norm */
	int i = tk_input(&g, DT_INT32, 1, (int[]){5});
	CHECK(tk_node(&g, "fft_fft", 1, (int[]){i}, 2, (int64_t[]){0, 0}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "fft_fftshift", 1, (int[]){i}, 1, (int64_t[]){0}, why, sizeof why) >= 0);
}

TEST(fft_stft_frames_follow_the_length)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){9, 14});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){2, -1}); /* [2, s0] */
	int n = tk_node(&g, "stft", 1, (int[]){x}, 1, (int64_t[]){8}, why, sizeof why);
	CHECK(n >= 0);
	const struct value *v = tk_out(&g, n, 0); /* 5 frequencies, 1 + L // 2 frames, re/im */
	CHECK(v->rank == 4 && v->dim[0][1] == 5 && v->dim[0][2] == 5 && v->dim[1][2] == 8 && v->dim[1][3] == 2);
	n = tk_node(&g, "istft", 1, (int[]){x}, 1, (int64_t[]){17}, why, sizeof why);
	CHECK(n >= 0 && tk_out(&g, n, 0)->rank == 2 && tk_out(&g, n, 0)->dim[1][1] == 14);
	/* a pad of 9 is not below the length 9 */
	CHECK(tk_node(&g, "stft", 1, (int[]){x}, 1, (int64_t[]){18}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "stft", 1, (int[]){x}, 1, (int64_t[]){3}, why, sizeof why) < 0); /* hop 0 */
	int x3 = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 2, 9});
	CHECK(tk_node(&g, "stft", 1, (int[]){x3}, 1, (int64_t[]){4}, why, sizeof why) < 0); /* 1-D or 2-D */
}
