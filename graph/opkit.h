/* Helpers that op families share: for shape rules (io_*) and for attribute
 * choosers (pick_*, req_*). Every family file includes this and nothing else
 * of the graph core. */
#ifndef PT2FUZZ_OPKIT_H
#define PT2FUZZ_OPKIT_H
#include <stdbool.h>
#include "op.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define FOR_BIND(io, b) for (unsigned b = 0; b < (io)->nbind; b++)

/* ---- shape rules ---- */

/* Records a reason and returns false. */
bool io_fail(struct infer_io *io, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Output k gets src's shape (all bindings) and the given dtype; integer
 * bounds are reset to "unknown". */
void io_out_like(struct infer_io *io, unsigned k, const struct value *src, enum dtype dt);

/* Output k gets rank r and dtype dt; dims to be filled by the caller. */
void io_out_rank(struct infer_io *io, unsigned k, unsigned rank, enum dtype dt);

/* Normalizes a possibly negative dim for a tensor of rank `rank` (torch's
 * wrap rule; rank 0 accepts -1 and 0). Returns -1 when out of range. */
int io_dim(int64_t d, unsigned rank);

/* Broadcasts the shapes of a and b into out's dims at every binding (out->rank
 * set). False with a reason when they are not broadcastable at some binding. */
bool io_broadcast(struct infer_io *io, const struct value *a, const struct value *b, struct value *out);

/* The same size at every binding. */
bool io_dim_static(const struct infer_io *io, const struct value *v, unsigned d);

/* Smallest size of dim d over the bindings. */
int32_t io_dim_min(const struct infer_io *io, const struct value *v, unsigned d);

/* Checks that all inputs have one dtype. */
bool io_same_dtype(struct infer_io *io);

/* Checks attribute i is in [lo, hi]. */
bool io_attr_range(struct infer_io *io, unsigned i, int64_t lo, int64_t hi);

/* Checks a named quantity v is in [lo, hi] ("stride 0 not in [1, 4]"). */
bool io_in_range(struct infer_io *io, const char *what, int64_t v, int64_t lo, int64_t hi);
/* Real attribute `at` (graph/real.h) converts to float dtype dt without
 * overflow, as eager checks where it casts a number to the tensor's dtype
 * (clamp's bounds, pow's exponent, where's other value): finite beyond dt's
 * range fails, while infinities and NaN pass. */
bool io_real_fits(struct infer_io *io, unsigned at, enum dtype dt);

/* torch.result_type of the inputs (zero-dim tensors take part per ATen's rule). */
enum dtype io_result_dtype(const struct infer_io *io);

/* The rule of the op's `base` (in-place and copy entries share it). */
bool infer_as_base(struct infer_io *io);

/* ---- attribute choosers ---- */

/* The chooser of the op's `base`. */
bool choose_as_base(struct chooser *c, struct op_choice *ch);

/* A requirement shaped exactly like v (its dtype, rank, dims). */
struct tensor_req req_like(const struct value *v);

/* A requirement for a tensor of dtype dt and rank r with all dims static. */
struct tensor_req req_static(enum dtype dt, unsigned rank, const int32_t *dims);

/* Smallest size, over the bindings, of x's last nd dims (the spatial dims of
 * a conv or pool input). */
int64_t value_trailing_min(const struct graph *g, const struct value *x, unsigned nd);

/* A dim index in [0, rank), written negatively half of the time. */
int64_t pick_dim(struct chooser *c, unsigned rank);

/* One of the n values in xs. */
int64_t pick_of(struct chooser *c, const int64_t *xs, unsigned n);

/* A number attribute of domain [lo, hi]: one of its two edges in PICK_EDGE_PCT
 * percent of draws (tiny and huge scales, eps, alpha, margins: where kernels
 * take other paths), else one of the n typical values. */
#define PICK_EDGE_PCT 10
int64_t pick_edge_or(struct chooser *c, int64_t lo, int64_t hi, const int64_t *typical, unsigned n);

/* A partner that broadcasts with v: some leading dims dropped, some dims set
 * to 1, dtype dt. Found or made through c->operand; -1 on failure. */
int pick_broadcast_partner(struct chooser *c, const struct value *v, enum dtype dt);

/* The request pick_broadcast_partner makes, for callers that set its bounds
 * or fill before asking c->operand. */
struct tensor_req req_broadcast(struct chooser *c, const struct value *v, enum dtype dt);

/* A float operand shaped like r known to be positive: only a FILL_POSITIVE
 * leaf qualifies (a reused value may be anything), so a few tries; -1 when
 * none comes. */
int pick_positive(struct chooser *c, struct tensor_req r);

/* A random dtype from mask, weighted toward float32. */
enum dtype pick_dtype(struct chooser *c, unsigned mask);

/* A 0-dim tensor of x's dtype (a fill value, a scalar operand): a graph
 * value, a fresh input or, when float, now and then a module parameter. */
int pick_0dim_like(struct chooser *c, const struct value *x);
/* Chooser: input 1 is such a 0-dim tensor, no attributes. */
bool choose_0dim_operand(struct chooser *c, struct op_choice *ch);

/* Default chooser: no attributes, nothing more than input 0. */
bool choose_none(struct chooser *c, struct op_choice *ch);

#endif
