/* Each family file defines one table; registry.c joins them. Adding a family
 * means one line here and one in registry.c; adding an op touches its family
 * file only. */
#ifndef PT2FUZZ_FAMILIES_H
#define PT2FUZZ_FAMILIES_H
#include "../op.h"

#define FAMILY(x) extern const struct op_def ops_##x[]; extern const unsigned ops_##x##_count;
FAMILY(unary)
FAMILY(binary)
FAMILY(reduce)
FAMILY(matmul)
FAMILY(conv)
FAMILY(pool)
FAMILY(norm)
FAMILY(pad)
FAMILY(shape)
FAMILY(combine)
FAMILY(index)
FAMILY(activation)
FAMILY(cumulative)
FAMILY(sort)
FAMILY(cast)
FAMILY(misc)
FAMILY(datadep)
FAMILY(inplace)
FAMILY(factory)
FAMILY(loss)
FAMILY(special)
FAMILY(random)
FAMILY(linalg)
FAMILY(fft)
FAMILY(search)
FAMILY(scalar)
FAMILY(complex)
#undef FAMILY

/* Ends a family file: defines its count. */
#define FAMILY_COUNT(x) const unsigned ops_##x##_count = NELEM(ops_##x)

#endif
