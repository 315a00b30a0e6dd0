/* Building small graphs by hand in tests. */
#ifndef PT2FUZZ_TESTKIT_H
#define PT2FUZZ_TESTKIT_H
#include "../graph/graph.h"
#include "../graph/op.h"

/* A graph with one binding (nothing dynamic). */
void tk_static(struct graph *g);
/* A graph with one symbol s0 bound to vals[0..nbind-1]. */
void tk_dynamic(struct graph *g, unsigned nbind, const int32_t *vals);
/* A graph input of dtype dt; dims: rank values, where a negative value -k
 * means k*s0 (a dynamic dim). Returns the value id (aborts on failure). */
int tk_input(struct graph *g, enum dtype dt, unsigned rank, const int *dims);
/* A graph input of any fill: values in [lo, hi] for FILL_RANGE and FILL_PERM
 * (aborts on failure). */
int tk_leaf(struct graph *g, enum dtype dt, unsigned rank, const int *dims, enum fill fill, int64_t lo, int64_t hi);
/* The choice of those inputs and attributes. */
struct op_choice tk_choice(unsigned nin, const int *in, unsigned nattr, const int64_t *attr);
/* Adds a node of the named op; returns the node index or -1 (reason in why). */
int tk_node(struct graph *g, const char *op, unsigned nin, const int *in, unsigned nattr, const int64_t *attr,
	    char *why, size_t n);
/* g's text form (text_write; with shapes when shapes), malloc'd: free it. */
char *tk_text(const struct graph *g, int shapes);
/* First output value of node k. */
const struct value *tk_out(const struct graph *g, int node, unsigned k);
/* The lines of the file at path (0 when it cannot be read). */
unsigned tk_file_lines(const char *path);

#endif
