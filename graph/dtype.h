/* The tensor element types pt2fuzz generates, and torch's promotion rules. */
#ifndef PT2FUZZ_DTYPE_H
#define PT2FUZZ_DTYPE_H
#include <stdint.h>

enum dtype { DT_FLOAT32, DT_FLOAT16, DT_BFLOAT16, DT_FLOAT64, DT_INT32, DT_INT64, DT_BOOL, DT_COUNT };

#define DTM(d) (1u << (d))
#define DTM_FLOAT (DTM(DT_FLOAT32) | DTM(DT_FLOAT16) | DTM(DT_BFLOAT16) | DTM(DT_FLOAT64))
#define DTM_INT (DTM(DT_INT32) | DTM(DT_INT64))
#define DTM_NUM (DTM_FLOAT | DTM_INT)
#define DTM_ALL (DTM_NUM | DTM(DT_BOOL))
#define DTM_F32 DTM(DT_FLOAT32)
#define DTM_F32_F64 (DTM(DT_FLOAT32) | DTM(DT_FLOAT64))

enum dtype_cat { CAT_BOOL, CAT_INT, CAT_FLOAT };

struct dtype_info {
	const char *name;  /* "float32": the readable text form */
	const char *torch; /* "torch.float32": the Python spelling */
	enum dtype_cat cat;
	int bits;
};

const struct dtype_info *dtype_info(unsigned dt); /* NULL when out of range */
int dtype_from_name(const char *name);            /* -1 when unknown */
int dtype_is_float(unsigned dt);
int dtype_is_low_precision(unsigned dt);         /* float16, bfloat16 */

/* torch.promote_types(a, b). */
enum dtype dtype_promote(enum dtype a, enum dtype b);

/* torch.result_type over operands where zero-dim tensors take part only when
 * their category is higher than that of the dimensioned operands. */
enum dtype dtype_result(const enum dtype *dts, const int *zero_dim, int n);

#endif
