#include "testkit.h"
#include "../graph/text.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what, const char *why)
{
	fprintf(stderr, "testkit: %s: %s\n", what, why);
	abort();
}

void tk_static(struct graph *g)
{
	char why[200];
	if (graph_init(g, 1, 0, 1, why, sizeof why))
		die("graph_init", why);
}

void tk_dynamic(struct graph *g, unsigned nbind, const int32_t *vals)
{
	char why[200];
	if (graph_init(g, nbind, 1, 1, why, sizeof why) || graph_set_sym(g, 0, vals, why, sizeof why))
		die("graph_init", why);
}

int tk_leaf(struct graph *g, enum dtype dt, unsigned rank, const int *dims, enum fill fill, int64_t lo, int64_t hi)
{
	struct leaf_dim ld[G_MAX_RANK];
	char why[200];
	memset(ld, 0, sizeof ld);
	for (unsigned d = 0; d < rank; d++) {
		ld[d].sym = dims[d] < 0 ? 0 : -1;
		ld[d].mul = (int8_t)(dims[d] < 0 ? -dims[d] : 0);
		ld[d].add = (int16_t)(dims[d] < 0 ? 0 : dims[d]);
	}
	int id = graph_add_leaf(g, VK_INPUT, dt, rank, ld, fill, lo, hi, why, sizeof why);
	if (id < 0)
		die("tk_leaf", why);
	return id;
}

int tk_input(struct graph *g, enum dtype dt, unsigned rank, const int *dims)
{
	return tk_leaf(g, dt, rank, dims, dtype_is_float(dt) ? FILL_NORMAL : FILL_RANGE, 0, dt == DT_BOOL ? 1 : 5);
}

struct op_choice tk_choice(unsigned nin, const int *in, unsigned nattr, const int64_t *attr)
{
	struct op_choice ch;
	memset(&ch, 0, sizeof ch);
	ch.nin = (uint8_t)nin;
	ch.nattr = (uint8_t)nattr;
	for (unsigned i = 0; i < nin; i++)
		ch.in[i] = (uint16_t)in[i];
	for (unsigned i = 0; i < nattr; i++)
		ch.attr[i] = attr[i];
	return ch;
}

int tk_node(struct graph *g, const char *op, unsigned nin, const int *in, unsigned nattr, const int64_t *attr,
	    char *why, size_t n)
{
	int id = op_find(op);
	if (id < 0)
		die("tk_node: no such op", op);
	struct op_choice ch = tk_choice(nin, in, nattr, attr);
	return graph_add_node(g, (unsigned)id, &ch, why, n);
}

const struct value *tk_out(const struct graph *g, int node, unsigned k) { return &g->v[g->n[node].out0 + k]; }

char *tk_text(const struct graph *g, int shapes)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		die("open_memstream", "no memory");
	text_write(f, g, shapes);
	fclose(f);
	return text;
}

unsigned tk_file_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned n = 0;
	for (int c; f && (c = fgetc(f)) != EOF;)
		n += c == '\n';
	if (f)
		fclose(f);
	return n;
}
