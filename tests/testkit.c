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

int tk_node(struct graph *g, const char *op, unsigned nin, const int *in, unsigned nattr, const int64_t *attr,
	    char *why, size_t n)
{
	int id = op_find(op);
	if (id < 0)
		die("tk_node: no such op", op);
	struct op_choice ch;
	memset(&ch, 0, sizeof ch);
	ch.nin = (uint8_t)nin;
	ch.nattr = (uint8_t)nattr;
	for (unsigned i = 0; i < nin; i++)
		ch.in[i] = (uint16_t)in[i];
	for (unsigned i = 0; i < nattr; i++)
		ch.attr[i] = attr[i];
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

struct tk_wr {
	uint8_t *p;
	size_t len, cap;
};

static void tk_put_u(struct tk_wr *w, uint64_t x)
{
	do {
		uint8_t b = (uint8_t)(x & 0x7f);
		x >>= 7;
		if (w->len < w->cap)
			w->p[w->len] = (uint8_t)(b | (x ? 0x80 : 0));
		w->len++;
	} while (x);
}

static void tk_put_s(struct tk_wr *w, int64_t x) { tk_put_u(w, ((uint64_t)x << 1) ^ (uint64_t)(x >> 63)); }

size_t tk_encode_version(const struct graph *g, unsigned version, uint8_t *buf, size_t cap)
{
	struct tk_wr w = {buf, 0, cap};
	if ((version < 2 && g->broken) || (version < 3 && graph_ngrads(g)) || (version < 4 && g->target))
		return 0;
	tk_put_u(&w, 'P'), tk_put_u(&w, '2'), tk_put_u(&w, 'F'), tk_put_u(&w, version);
	tk_put_u(&w, g->nbind), tk_put_u(&w, g->nsym), tk_put_u(&w, g->seed);
	if (version >= 2)
		tk_put_u(&w, g->broken);
	if (version >= 4)
		tk_put_u(&w, g->target);
	for (unsigned b = 0; b < g->nbind; b++)
		for (unsigned s = 0; s < g->nsym; s++)
			tk_put_u(&w, (uint64_t)g->sym[b][s]);
	unsigned nrec = 0;
	for (unsigned i = 0; i < g->nvalues; i++)
		nrec += g->v[i].kind != VK_NODE || g->v[i].slot == 0;
	tk_put_u(&w, nrec);
	for (unsigned i = 0; i < g->nvalues; i++) {
		const struct value *v = &g->v[i];
		if (v->kind == VK_NODE) {
			if (v->slot)
				continue;
			const struct node *nd = &g->n[v->node];
			uint32_t h = op_hash(nd->op);
			tk_put_u(&w, 2);
			for (int k = 0; k < 4; k++)
				if (w.len < w.cap)
					w.p[w.len++] = (uint8_t)(h >> (8 * k));
			tk_put_u(&w, nd->nin);
			for (unsigned j = 0; j < nd->nin; j++)
				tk_put_u(&w, nd->in[j]);
			tk_put_u(&w, nd->nattr);
			for (unsigned j = 0; j < nd->nattr; j++)
				tk_put_s(&w, nd->attr[j]);
			continue;
		}
		if (version < 4 && (v->kind == VK_BUFFER || v->layout))
			return 0;
		tk_put_u(&w, v->kind == VK_INPUT ? 0 : v->kind == VK_PARAM ? 1 : 3);
		tk_put_u(&w, v->dtype), tk_put_u(&w, v->rank), tk_put_u(&w, v->fill);
		tk_put_s(&w, fill_has_bounds(v->fill) ? v->lo : 0);
		tk_put_s(&w, fill_has_bounds(v->fill) ? v->hi : 0);
		if (version >= 4)
			tk_put_u(&w, v->layout);
		for (unsigned d = 0; d < v->rank; d++) {
			tk_put_s(&w, v->ld[d].sym < 0 ? -1 : v->ld[d].sym);
			tk_put_s(&w, v->ld[d].add);
			if (v->ld[d].sym >= 0)
				tk_put_u(&w, (uint64_t)v->ld[d].mul);
		}
	}
	tk_put_u(&w, graph_noutputs(g));
	for (unsigned i = 0; i < g->nvalues; i++)
		if (g->v[i].out)
			tk_put_u(&w, i);
	if (version >= 3) {
		tk_put_u(&w, graph_ngrads(g));
		for (unsigned i = 0; i < g->nvalues; i++)
			if (g->v[i].grad)
				tk_put_u(&w, i);
	}
	return w.len <= cap ? w.len : 0;
}
