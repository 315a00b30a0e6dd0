/* Python emission: a graph becomes a standalone PyTorch program (the repro is
 * exactly what runs). See docs/formats.md for the program's shape. */
#ifndef PT2FUZZ_EMIT_H
#define PT2FUZZ_EMIT_H
#include <stdio.h>
#include "graph.h"

struct emit_opts {
	const char *backend; /* default compile backend of the program ("inductor") */
	const char *mode;    /* default torch.compile mode, or NULL */
	int backward;        /* GRADS lists the graph's grad leaves (else it is empty) */
	const char *dynamic; /* "marks", "true", "false", or NULL */
	/* NULL backend, mode or dynamic: the graph's own configuration's */
	const char *const *pins; /* "NAME=TEXT" settings over the graph's own (--inductor; config/pins.h) */
	unsigned npins;
};

/* Writes the program for a valid graph to f. Returns 0, or -1 on a write error. */
int emit_program(FILE *f, const struct graph *g, const struct emit_opts *o);

/* The same into a malloc'd string (NUL-terminated); NULL on failure. */
char *emit_program_string(const struct graph *g, const struct emit_opts *o, size_t *len);

/* The graph input (value id) that compiled mode's judged call gets changed in
 * place, with fresh values of its fill, after a first compiled call on the
 * same tensors; the other modes get it changed alike (docs/oracle.md, "Inputs
 * changed between calls"). The first tensor input some node reads that owns
 * its memory (not expanded), in a valid graph whose inputs share no memory
 * and that writes none of its inputs, outside settings whose contract is that
 * the module's values do not change (inductor.freezing) and inference inputs
 * (which may not be written outside inference mode); -1 when none. */
int emit_remutated_input(const struct graph *g);
/* A binding's inputs are drawn from a generator seeded seed * this +
 * binding (the program's SEED_STRIDE), each binding's apart. */
#define EMIT_SEED_STRIDE 1000003u
/* Those fresh values are drawn from seed * EMIT_SEED_STRIDE + binding + this: a
 * generator of their own, apart from every binding's (the program's
 * REMUTATE_DRAW, the plain program's line). */
#define EMIT_REMUTATE_DRAW 500009u

/* The leaves the program's MUTATED names, in value order, into ids (room for
 * G_MAX_VALUES): those forward() writes in place, parameters and buffers
 * only where the backend keeps the module's state in the module (not aoti).
 * Their count. */
unsigned emit_written_leaves(const struct graph *g, const struct emit_opts *o, uint16_t *ids);

/* What the program returns, in order: forward()'s outputs, the written
 * leaves (emit_written_leaves), and in backward mode the gradients; for each,
 * whether it is compared (not what tie-broken indices decide) into cmp
 * (room for cap). Their count (at most cap). */
unsigned emit_compared(const struct graph *g, const struct emit_opts *o, uint8_t *cmp, unsigned cap);

/* The values the program's returns (in emit_compared's order) are, or read
 * from (a written or graded leaf), into ids (room for 3 * G_MAX_VALUES).
 * Their count. */
unsigned emit_returned_values(const struct graph *g, const struct emit_opts *o, uint16_t *ids);

/* ---- Pieces the plain program (graph/emit_plain.h) shares ---- */

/* Value id's name in forward(): "x0", "self.p1", "v2", "self.b3". */
void emit_value_name(FILE *f, const struct graph *g, unsigned id);

/* Value v's shape at binding b as a Python tuple: "(2, 3)", "(4,)", "()". */
void emit_shape(FILE *f, const struct value *v, unsigned b);

/* Whether s may reach the program as a string literal (a backend or mode
 * name): 1 to 64 letters, digits, '_', '-', '.'. */
int emit_safe_name(const char *s);

/* Writes an expression that draws leaf id's values from the generator `gen`. */
typedef void emit_draw_fn(FILE *f, const struct graph *g, unsigned id);

/* Model.__init__'s lines after its head: the parameters and buffers (their
 * values written by draw), then the modules the ops' constructors build. */
void emit_model_state(FILE *f, const struct graph *g, emit_draw_fn *draw);

/* Model.forward: its signature, one line per node (two for an in-place
 * statement), the return. */
void emit_forward(FILE *f, const struct graph *g);

/* SPECIALS and special(shape, gen), which draws a special fill (graph/emit_special.py). */
void emit_special_helper(FILE *f);

/* nonfinite(t), each position's NaN/Inf class as the oracle compares it
 * (graph/emit_nonfinite.py): the runner's and a nonfinite finding's plain program's. */
void emit_nonfinite_helper(FILE *f);

/* as_inference(x), which makes an input an inference tensor (graph/emit_inference.py). */
void emit_inference_helper(FILE *f);

/* Upcast, the mode the fp64 reference runs the model in: the upcast graph
 * (graph/emit_upcast.py), with g's ops whose eager kernel it replaces
 * (eager_reference.h). */
void emit_upcast_helper(FILE *f, const struct graph *g);

/* Writes a number given in thousandths ("-0.5"; also used by the text form). */
void emit_milli(FILE *f, int64_t x);
/* A real attribute (graph/real.h) by its bits: exact, as Python (float('inf')) or the text form (inf). */
void emit_real(FILE *f, int64_t bits, int python);

/* Writes attribute i of node nd in Python form (also used by the text form). */
void emit_attr(FILE *f, const struct graph *g, const struct node *nd, unsigned i, int python);

#endif
