/* Real-valued attributes (`name^` in op_def.attrs): a double held in the
 * int64 attribute as its IEEE-754 bits, so that tiny and huge magnitudes,
 * -0.0, +-inf and NaN survive the codec (a signed varint of the bits) and
 * the text form exactly. */
#ifndef PT2FUZZ_REAL_H
#define PT2FUZZ_REAL_H
#include <stddef.h>
#include <stdint.h>
#include "rng.h"

int64_t real_bits(double x);
double real_value(int64_t bits);

/* The shortest decimal that reads back as x exactly, always with a '.' or an
 * exponent ("-0.0", "1e-06", "0.33333333333333331"); non-finite values as
 * "inf", "-inf", "nan", or in Python (python != 0) as float('inf') and so on. */
void real_format(char *buf, size_t n, double x, int python);
/* Reads what real_format writes (text form): a decimal number, inf, -inf or
 * nan. Returns the characters read, 0 when s holds none. */
size_t real_parse(const char *s, double *x);

/* The classes real_draw mixes: what kernels treat apart. */
enum real_class {
	RC_ORDINARY, /* a typical value: 0.5, -2.0, 3.0 */
	RC_FRACTION, /* an inexact fraction: 1/3, 1/300, 0.1 */
	RC_TINY,     /* 1e-6, 1e-12, 1e-30, the smallest normal float32 */
	RC_HUGE,     /* 1e10, 3e38, float32's max, 1e300 */
	RC_ZERO,     /* 0.0 */
	RC_NEG_ZERO, /* -0.0 */
	RC_POS_INF,
	RC_NEG_INF,
	RC_NAN,
	RC_COUNT
};
#define RCM(c) (1u << (c))
#define RCM_FINITE (RCM(RC_ORDINARY) | RCM(RC_FRACTION) | RCM(RC_TINY) | RCM(RC_HUGE) | RCM(RC_ZERO) | RCM(RC_NEG_ZERO))
#define RCM_ALL ((1u << RC_COUNT) - 1)
/* Positive and finite, as eps: ordinary, fraction, tiny or huge magnitudes. */
#define RCM_MAGNITUDE (RCM(RC_ORDINARY) | RCM(RC_FRACTION) | RCM(RC_TINY) | RCM(RC_HUGE))

enum real_class real_class_of(double x);
/* A value of one of the classes in mask (ordinary ones most often), its bits.
 * sign: 1 positive only, -1 negative only, 0 either; the zero, infinity and
 * NaN classes keep their own sign. */
int64_t real_draw(struct rng *r, unsigned mask, int sign);

#endif
