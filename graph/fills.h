/* A leaf's fill (enum fill) and a graph input's layout (enum input_layout):
 * one row each, the one source of their names (the text form's words), their
 * rules, and the Python that makes them: the plain program (emit_plain.c)
 * spells a row for one input, the harness program (emit.c) spells every row
 * into the tables its fill() and lay_out() read (graph/emit_fill.py). */
#ifndef PT2FUZZ_GRAPH_FILLS_H
#define PT2FUZZ_GRAPH_FILLS_H
#include <stdio.h>
#include "graph.h"

/* A row's Python holds directives, each expanded by the writer: %S the
 * shape, %L lo, %H hi + 1, %N the element count, %C the constant lo / 1000,
 * %R the input's dims reversed, %X the input laid out so far. */
struct fill_row {
	const char *name;
	int bounds;       /* keeps lo and hi (the rest keep the dtype's whole range) */
	const char *draw; /* the draw on the CPU, from the generator gen */
	unsigned made;    /* enum dtype: what the draw makes (the input's dtype is a .to() away) */
};

struct layout_row {
	const char *name;
	uint8_t rank_min, rank_max; /* the ranks it suits */
	uint8_t contig, overlap;    /* struct value's: dense row-major, elements that share memory */
	uint8_t one_row;            /* drawn with dim 0 of size 1 */
	const char *suffix;         /* NULL, or what is applied to the draw on the device */
	const char *remake;         /* NULL, or an expression of %X that remakes it */
	const char *share;          /* NULL, or the suffix that makes the partner's tensor this input's */
	const char *about;          /* what remake or share makes, for a comment */
};

extern const struct fill_row fill_rows[FILL_COUNT];
extern const struct layout_row layout_rows[IL_COUNT];

/* Writes fmt (NULL: nothing) with each directive %c expanded by word. */
typedef void fills_word_fn(FILE *f, char c, const void *ctx);
void fills_spell(FILE *f, const char *fmt, fills_word_fn *word, const void *ctx);

#endif
