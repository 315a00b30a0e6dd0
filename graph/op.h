/* The operator catalogue: one table entry per operator.
 *
 * An entry says what the op accepts (arity, dtypes and ranks of its first
 * input), its shape rule (`infer`: checks the attributes and input shapes at
 * every binding and computes the outputs, or says why not), its attribute
 * chooser (`choose`: picks attributes and further operands that satisfy the
 * rule), and its Python spelling (`py`, and `ctor` for an nn.Module built in
 * __init__). Families live one per file in graph/ops/, joined by registry.c.
 *
 * Attributes are integers. `attrs` names them, space separated, with a
 * suffix that gives their kind (used by the codec's checks, the text form and
 * emission):
 *   name      integer            name?   bool (0 or 1)
 *   name~     number, in 1/1000  name$   string: index into `strs`
 *   name%     dtype (enum dtype)
 *   name^     real number: a double's IEEE bits (graph/real.h)
 *   name[]    integer list (must be last): a count, then the items
 *   name[@]   shape list (must be last): items >= 1 are sizes, -1 is "infer",
 *             -2-k is "size of input 0's dim k" (for dynamic dims)
 *
 * Spelling directives (emit.c): @N input N; #N attribute N by its kind;
 * #T dtype of input 0; #m the module built by `ctor`. Nothing else is
 * interpolated, so no byte of a corpus file ever reaches the program as text.
 * A spelling that starts with '!' is a statement (`!@0[#0:#1] = @1`) of an
 * in-place op: the node's value is then input 0 itself.
 *
 * Values: any float input may hold NaN or inf (a special fill, log of a
 * negative, an fp16 overflow); an op that raises on them in eager mode
 * sanitizes in its spelling (as the *_safe casts do). */
#ifndef PT2FUZZ_OP_H
#define PT2FUZZ_OP_H
#include <stdbool.h>
#include "graph.h"
#include "rng.h"

enum op_family {
	FAM_UNARY, FAM_BINARY, FAM_REDUCE, FAM_MATMUL, FAM_CONV, FAM_POOL, FAM_NORM, FAM_PAD,
	FAM_SHAPE, FAM_COMBINE, FAM_INDEX, FAM_ACTIVATION, FAM_CUMULATIVE, FAM_SORT, FAM_CAST,
	FAM_MISC, FAM_DATADEP, FAM_INPLACE, FAM_FACTORY, FAM_LOSS, FAM_SPECIAL, FAM_RANDOM, FAM_LINALG, FAM_FFT, FAM_SEARCH, FAM_SCALAR, FAM_COMPLEX, FAM_COUNT
};

/* How an output's memory layout follows from the inputs'. */
enum layout { LAYOUT_KEEP, /* contiguous iff every input is (elementwise ops keep strides) */
	      LAYOUT_FRESH, /* always a new contiguous tensor */
	      LAYOUT_VIEW, /* may be a strided view: never assumed contiguous */
	      LAYOUT_STRIDED /* a new tensor whose strides the kernel picks (LAPACK's column-major
			      * results): never assumed contiguous, sharing nothing */ };

struct infer_io {
	const struct graph *g;
	const struct op_def *op;
	unsigned nbind;
	unsigned nin, nattr;
	const struct value *in[G_MAX_IN];
	const int64_t *attr;
	/* filled by infer: */
	unsigned nout;
	/* dtype, rank, dim[][]; lo/hi for integer outputs; overlap for views whose
	 * elements share memory (expand, unfold with step < size) */
	struct value out[G_MAX_OUT];
	char why[160];
};

/* 1 with a reason when the in-place op's write, whose rule (io, inferred)
 * holds, is one eager raises at: a target whose elements share memory
 * (unless the op defines that), or a result type the target can't hold. */
int graph_inplace_breaks(const struct infer_io *io, char *why, size_t n);

/* The two halves of graph_add_node, shared with graph_add_broken_node
 * (graph/broken.c). graph_prepare_node checks everything but the shape rule
 * (op, arity, inputs defined and readable, input 0's dtype and rank,
 * attribute kinds) and fills io's inputs; graph_commit_node appends the node
 * with io's outputs. Both return -1 with a reason. */
int graph_prepare_node(const struct graph *g, unsigned op, const struct op_choice *ch, struct infer_io *io, char *why,
		       size_t n);
/* graph_prepare_node but for input 0's dtype (a broken node may lack a kernel for it). */
int graph_prepare_inputs(const struct graph *g, unsigned op, const struct op_choice *ch, struct infer_io *io,
			 char *why, size_t n);
int graph_commit_node(struct graph *g, unsigned op, const struct op_choice *ch, struct infer_io *io, char *why,
		      size_t n);

/* What a chooser may ask of the generator (mutators/ implements it). */
struct tensor_req {
	uint8_t dtype, rank;
	uint8_t fill;        /* enum fill for a fresh leaf */
	uint8_t want_param;  /* may be a module parameter (static, float) */
	uint8_t number;      /* a graph input passed as a Python number (layout NUMBER, rank 0) */
	int64_t lo, hi;      /* for FILL_RANGE / FILL_PERM */
	int32_t dim[G_MAX_BIND][G_MAX_RANK];
};

struct chooser {
	const struct graph *g;
	const struct op_def *op; /* the op being chosen for */
	struct rng *rng;
	/* An existing value of exactly this dtype and shape at every binding
	 * (and within [lo,hi] for index tensors), or a fresh leaf; -1 if neither. */
	int (*operand)(struct chooser *c, const struct tensor_req *req);
	void *impl;
};

struct op_def {
	const char *name;      /* unique: the text form and `pt2fuzz ops` */
	enum op_family family;
	uint8_t nin_min, nin_max;
	uint8_t rank_min, rank_max; /* of input 0 */
	uint16_t dtypes;       /* DTM mask accepted for input 0 */
	uint16_t dtypes_cpu, dtypes_gpu; /* more for input 0 in graphs for that device only (TARGET_CPU,
				* TARGET_GPU): eager has kernels for them there, not on the other */
	uint8_t layout;        /* enum layout */
	uint8_t tie;           /* bit k: output k is a tie-broken index */
	uint8_t nograd;        /* bit j: eager autograd has no derivative through input j, so no
				* requires-grad leaf may reach it (graph_set_grad refuses) */
	uint8_t tuple;         /* Python returns a tuple even for one output */
	uint8_t datadep;       /* output shapes depend on the data: dims are upper bounds, and
				* no node may read the outputs (graph outputs only) */
	uint8_t weight;        /* generator weight; 0 = never generated */
	uint8_t inplace;       /* writes input 0 in place and returns it (Tensor.add_): output 0 is input 0 */
	uint8_t overlap_ok;    /* in-place: eager defines writing a target whose elements share memory
				* (fill_ of an expanded view); other in-place ops raise there */
	uint8_t aliases;       /* output 0 may be input 0 or a view of it although layout is not VIEW
				* (x.contiguous(), x.to(its own dtype)) */
	uint8_t empty_ok;      /* takes and makes tensors with a zero-size dim */
	uint8_t reinterprets;  /* output 0 reads input 0's bits as another dtype (x.view(torch.int32)) */
	uint8_t cpu_only;      /* eager runs it on the CPU only (integer matmul): TARGET_CPU graphs */
	uint8_t step;          /* a float output jumps where an input crosses a point (floor, sign,
				* fmod, a draw against p): an input moved by an ulp may move it a whole step */
	uint8_t number;        /* attribute 0 is a Python number (its only attribute) that a graph input
				* of layout NUMBER may give instead: read as one more input (index nin_max),
				* attribute 0 left out */
	uint8_t neutral;       /* enum op_neutral: attribute 0's value at which output 0 is input 0 unchanged */
	uint8_t same_dtype;    /* eager wants its float operands of one dtype, without promotion: under
				* torch.autocast one may come lowered and the other not (graph/autocast.h) */
	const char *base;      /* in-place and copy entries: the op whose rule and chooser they share */
	const char *since;     /* the first torch (MAJOR.MINOR) known to have the call; NULL: every one */
	const char *attrs;
	const char *py;
	const char *ctor;
	const char *const *strs; /* the `$` attributes' choices, NULL-terminated */
	bool (*infer)(struct infer_io *io);
	bool (*choose)(struct chooser *c, struct op_choice *ch); /* ch->in[0], ch->nin=1 preset */
};

/* Where an op is the identity (x + 0, x * 1): compilers drop such a node,
 * and a graph output it made may then be its input itself. */
enum op_neutral { NEUTRAL_NONE, NEUTRAL_ZERO, NEUTRAL_ONE };

/* Input 0's dtypes in a graph for target. */
static inline unsigned op_dtypes(const struct op_def *op, enum graph_target target)
{
	return op->dtypes | (target == TARGET_CPU ? op->dtypes_cpu : 0u) | (target == TARGET_GPU ? op->dtypes_gpu : 0u);
}

/* registry.c */
unsigned op_count(void);
const struct op_def *op_get(unsigned id); /* NULL when out of range */
/* Whether a torch ("2.11.0+cu130"; "" unknown: yes) has op's call. */
int op_in_torch(const struct op_def *op, const char *torch);
int op_find(const char *name);            /* id, or -1 */
const struct op_def *op_base(const struct op_def *op); /* the out-of-place op an in-place entry names, or NULL */
uint32_t op_hash(unsigned id);            /* stable id in the binary format */
int op_by_hash(uint32_t h);               /* id, or -1 */
const char *op_family_name(enum op_family f);

/* Attribute kinds parsed from op_def.attrs. */
enum attr_kind { AK_INT, AK_BOOL, AK_MILLI, AK_STR, AK_DTYPE, AK_LIST, AK_SHAPE, AK_REAL };
struct attr_spec {
	unsigned nscalar;          /* attributes before the list, if any */
	int list;                  /* kind of the trailing list (AK_LIST/AK_SHAPE), or -1 */
	enum attr_kind kind[G_MAX_ATTR];
	char name[G_MAX_ATTR][24];
	unsigned nstrs;            /* entries of op->strs */
};
void op_attr_spec(const struct op_def *op, struct attr_spec *s);
/* Kind of attribute index i of a node with these attrs (list items take the list's kind). */
enum attr_kind attr_kind_at(const struct attr_spec *s, unsigned i);

#endif
