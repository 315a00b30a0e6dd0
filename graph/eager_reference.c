/* Where eager's own kernel is wrong on values pt2fuzz draws, a float64 run
 * of the same kernel shares the error, and the oracle, which blames compiled
 * where eager agrees with the float64 reference, would blame a compiled
 * result that is right. So the reference computes such an op from its
 * definition instead: one row an op. */
#include "eager_reference.h"

static const struct eager_reference rows[] = {
	{"std_mean", "torch.std_mean",
	 "lambda x, dim=None, *, correction=None, keepdim=False: (torch.std(x, dim, correction=correction, "
	 "keepdim=keepdim), torch.mean(x, dim, keepdim=keepdim))",
	 "pytorch#138570: the mean of a row holding an infinity is NaN (Welford's inf - inf), torch.mean's the infinity"},
	{"var_mean", "torch.var_mean",
	 "lambda x, dim=None, *, correction=None, keepdim=False: (torch.var(x, dim, correction=correction, "
	 "keepdim=keepdim), torch.mean(x, dim, keepdim=keepdim))",
	 "pytorch#138570: the same"},
};

unsigned eager_reference_count(void) { return sizeof rows / sizeof rows[0]; }

const struct eager_reference *eager_reference_get(unsigned i) { return i < eager_reference_count() ? &rows[i] : NULL; }

int eager_reference_in(const struct graph *g)
{
	for (unsigned i = 0; i < eager_reference_count(); i++)
		if (graph_holds_op(g, rows[i].op))
			return 1;
	return 0;
}

void emit_eager_reference(FILE *f, const struct graph *g)
{
	fputs("REFERENCE = {  # eager kernels wrong on such values: the float64 reference computes the op from its "
	      "definition\n",
	      f);
	for (unsigned i = 0; i < eager_reference_count(); i++)
		if (graph_holds_op(g, rows[i].op))
			fprintf(f, "    %s: %s,  # %s\n", rows[i].call, rows[i].reference, rows[i].why);
	fputs("}\n", f);
}
