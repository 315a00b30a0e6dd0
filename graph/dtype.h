/* The tensor element types pt2fuzz generates, and torch's promotion rules. */
#ifndef PT2FUZZ_DTYPE_H
#define PT2FUZZ_DTYPE_H
#include <stdint.h>

/* Appended, never reordered: corpora store dtypes by number. */
enum dtype {
	DT_FLOAT32, DT_FLOAT16, DT_BFLOAT16, DT_FLOAT64, DT_INT32, DT_INT64, DT_BOOL,
	DT_INT8, DT_UINT8, DT_INT16, DT_COMPLEX64, DT_COMPLEX128, DT_COUNT
};

#define DTM(d) (1u << (d))
#define DTM_FLOAT (DTM(DT_FLOAT32) | DTM(DT_FLOAT16) | DTM(DT_BFLOAT16) | DTM(DT_FLOAT64))
#define DTM_INT (DTM(DT_INT32) | DTM(DT_INT64))
#define DTM_NUM (DTM_FLOAT | DTM_INT)
#define DTM_ALL (DTM_NUM | DTM(DT_BOOL))
/* The small integers: an op takes them only where it names them, since eager
 * supports them unevenly (CPU matmul yes, CUDA no; pooling never). */
#define DTM_SMALL (DTM(DT_INT8) | DTM(DT_UINT8) | DTM(DT_INT16))
#define DTM_INTS (DTM_INT | DTM_SMALL)
#define DTM_EVERY (DTM_ALL | DTM_SMALL)
/* The complex types: an op takes them only where it names them. Their fp64
 * reference is complex128, as float64 is float32's. */
#define DTM_COMPLEX (DTM(DT_COMPLEX64) | DTM(DT_COMPLEX128))
#define DTM_F32 DTM(DT_FLOAT32)
#define DTM_F32_F64 (DTM(DT_FLOAT32) | DTM(DT_FLOAT64))

enum dtype_cat { CAT_BOOL, CAT_INT, CAT_FLOAT, CAT_COMPLEX };

struct dtype_info {
	const char *name;  /* "float32": the readable text form */
	const char *torch; /* "torch.float32": the Python spelling */
	enum dtype_cat cat;
	int bits;
	int64_t min, max; /* integers: the values the type holds */
	double fmax;      /* floats and complex: the largest finite value of a part */
};

const struct dtype_info *dtype_info(unsigned dt); /* NULL when out of range */
int dtype_from_name(const char *name);            /* -1 when unknown */
int dtype_is_float(unsigned dt);
int dtype_is_low_precision(unsigned dt);         /* float16, bfloat16 */
int dtype_is_int(unsigned dt);                   /* the integer types, not bool */
int dtype_is_complex(unsigned dt);
int dtype_is_inexact(unsigned dt);               /* float or complex: values with float parts */
unsigned dtype_parts(unsigned dt);               /* 2 for complex (real, imaginary), else 1 */
/* complex64 <-> float32 and complex128 <-> float64; -1 for any other type */
int dtype_complex_of(unsigned dt);
int dtype_real_of(unsigned dt);
/* The type of dt's parts: a complex type's real type, dt itself otherwise
 * (what torch.real, abs and angle return for a float or complex tensor). */
enum dtype dtype_part_type(unsigned dt);

/* torch.promote_types(a, b). */
enum dtype dtype_promote(enum dtype a, enum dtype b);

/* torch.result_type over operands where zero-dim tensors take part only when
 * their category is higher than that of the dimensioned operands. */
enum dtype dtype_result(const enum dtype *dts, const int *zero_dim, int n);

#endif
