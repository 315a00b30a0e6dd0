/* The text form's writer (the parser is text.c). */
#include "text.h"
#include <stddef.h>
#include "broken.h"
#include "compile_config.h"
#include "emit.h"
#include "op.h"

static const char kind_letter[VK_COUNT] = {[VK_INPUT] = 'x', [VK_PARAM] = 'p', [VK_NODE] = 'v', [VK_BUFFER] = 'b'};
static const char *const kind_word[VK_COUNT] = {[VK_INPUT] = "input", [VK_PARAM] = "param", [VK_BUFFER] = "buffer"};

static void name(FILE *f, const struct graph *g, unsigned id) { fprintf(f, "%c%u", kind_letter[g->v[id].kind], id); }

static void write_shape(FILE *f, const struct value *v, unsigned b)
{
	fputc('[', f);
	for (unsigned d = 0; d < v->rank; d++)
		fprintf(f, "%s%d", d ? ", " : "", (int)v->dim[b][d]);
	fputc(']', f);
}

/* `WORD name, ...` for the values whose flag byte (at offset `flag` of struct value) is set. */
static void write_list(FILE *f, const struct graph *g, const char *word, size_t flag)
{
	fputs(word, f);
	for (unsigned i = 0, k = 0; i < g->nvalues; i++)
		if (((const uint8_t *)&g->v[i])[flag]) {
			fputs(k++ ? ", " : " ", f);
			name(f, g, i);
		}
	fputc('\n', f);
}

void text_write(FILE *f, const struct graph *g, int shapes)
{
	fprintf(f, "# pt2fuzz graph: %u ops\n", g->nnodes);
	if (g->target != TARGET_ANY)
		fprintf(f, "target %s\n", target_name(g->target));
	fprintf(f, "bindings %u\nseed %u\n", g->nbind, g->seed);
	for (unsigned s = 0; s < g->nsym; s++) {
		fprintf(f, "sym s%u =", s);
		for (unsigned b = 0; b < g->nbind; b++)
			fprintf(f, " %d", (int)g->sym[b][s]);
		fputc('\n', f);
	}
	if (!graph_config_is_default(&g->config)) {
		fputs("config ", f);
		graph_config_write(f, &g->config);
		fputc('\n', f);
	}
	for (unsigned i = 0; i < g->nvalues; i++) {
		const struct value *v = &g->v[i];
		if (v->kind != VK_NODE) {
			name(f, g, i);
			fprintf(f, " = %s %s [", kind_word[v->kind], dtype_info(v->dtype)->name);
			for (unsigned d = 0; d < v->rank; d++) {
				const struct leaf_dim *ld = &v->ld[d];
				fputs(d ? ", " : "", f);
				if (ld->sym < 0) {
					fprintf(f, "%d", ld->add);
					continue;
				}
				if (ld->mul != 1)
					fprintf(f, "%d*", ld->mul);
				fprintf(f, "s%d", ld->sym);
				if (ld->add)
					fprintf(f, "%+d", ld->add);
			}
			fputc(']', f);
			if (v->fill == FILL_RANGE)
				fprintf(f, " range %lld %lld", (long long)v->lo, (long long)v->hi);
			else if (v->fill == FILL_PERM)
				fprintf(f, " perm %lld", (long long)v->hi);
			else if (v->fill == FILL_CONST)
				fputs(" const ", f), emit_milli(f, v->lo);
			else if (v->fill != FILL_NORMAL)
				fprintf(f, " %s", fill_name(v->fill));
			if (v->layout)
				fprintf(f, " %s", layout_name(v->layout));
			fputc('\n', f);
			continue;
		}
		if (v->slot)
			continue;
		const struct node *nd = &g->n[v->node];
		const struct op_def *op = op_get(nd->op);
		for (unsigned k = 0; k < nd->nout; k++) {
			fputs(k ? ", " : "", f);
			name(f, g, nd->out0 + k);
		}
		fprintf(f, " = %s(", op->name);
		for (unsigned j = 0; j < nd->nin; j++) {
			fputs(j ? ", " : "", f);
			name(f, g, nd->in[j]);
		}
		struct attr_spec s;
		op_attr_spec(op, &s);
		/* none where a number input gives the only one */
		unsigned nnamed = op->number && nd->nin > op->nin_max ? 0 : s.nscalar + (s.list >= 0);
		for (unsigned a = 0; a < nnamed; a++) {
			fprintf(f, "%s%s=", a ? ", " : "; ", s.name[a]);
			emit_attr(f, g, nd, a, 0);
		}
		fputc(')', f);
		int broken = g->broken && v->node + 1 == g->nnodes;
		if (broken)
			fprintf(f, " breaks %s", constraint_name(g->broken));
		if (shapes && broken) {
			fprintf(f, "  # raises: %s", constraint_about(g->broken));
		} else if (shapes) {
			fputs("  #", f);
			for (unsigned k = 0; k < nd->nout; k++) {
				const struct value *o = &g->v[nd->out0 + k];
				fprintf(f, "%s %s %s", k ? " ;" : "", dtype_info(o->dtype)->name,
					o->datadep ? "(data-dependent) at most " : "");
				for (unsigned b = 0; b < g->nbind; b++) {
					fputs(b ? " | " : "", f);
					write_shape(f, o, b);
				}
				if (o->tie)
					fputs(" (not compared)", f);
			}
		}
		fputc('\n', f);
	}
	write_list(f, g, "output", offsetof(struct value, out));
	if (graph_ngrads(g))
		write_list(f, g, "grad", offsetof(struct value, grad));
}
