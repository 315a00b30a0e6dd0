/* The index family's two files: index.c holds the shape rules and the
 * table, index_choose.c the attribute choosers declared here. */
#ifndef PT2FUZZ_INDEX_OPS_H
#define PT2FUZZ_INDEX_OPS_H
#include "../opkit.h"

#define INDEX_CHOOSER(tag) bool index_choose_##tag(struct chooser *c, struct op_choice *ch);
INDEX_CHOOSER(gather)
INDEX_CHOOSER(scatter)
INDEX_CHOOSER(scatter_add)
INDEX_CHOOSER(scatter_value)
INDEX_CHOOSER(scatter_reduce)
INDEX_CHOOSER(take_along_dim)
INDEX_CHOOSER(index_select)
INDEX_CHOOSER(index_add)
INDEX_CHOOSER(index_copy)
INDEX_CHOOSER(index_fill)
INDEX_CHOOSER(take)
INDEX_CHOOSER(index0)
INDEX_CHOOSER(index1)
INDEX_CHOOSER(masked_fill)
INDEX_CHOOSER(index_fill_tensor)
INDEX_CHOOSER(masked_fill_tensor)
INDEX_CHOOSER(masked_scatter)
INDEX_CHOOSER(index_put)
INDEX_CHOOSER(index_put2)
INDEX_CHOOSER(slice_scatter)
INDEX_CHOOSER(index_reduce)
INDEX_CHOOSER(put)
INDEX_CHOOSER(select_scatter)
INDEX_CHOOSER(diagonal_scatter)
INDEX_CHOOSER(unravel_index)
#undef INDEX_CHOOSER

#endif
