/* Mutators that edit the dataflow: insert, grow, delete, rewire, attr, swap. */
#include <string.h>
#include "../graph/op.h"
#include "gen.h"
#include "gen_choose.h"
#include "mutkit.h"

#define INSERT_ATTEMPTS 8 /* gen_append_op tries per insertion */
#define ATTR_TRIES 4      /* chooser runs until the attributes differ */
#define SWAP_PROBES 48    /* candidate ops tried on the node's inputs */
#define GROW_MAX 8        /* grow appends 2..GROW_MAX ops */

/* Any op the campaign's mode allows (gen_set_campaign). */
static const struct gen_opts *any_op(void)
{
	static _Thread_local struct gen_opts o;
	gen_default_opts(&o);
	o.size = 1;
	o.dyn_pct = 0;
	return &o;
}

/* A later node input that the inserted node's output may feed instead. */
struct feed {
	uint16_t node, input;
	uint8_t slot;
};

/* Inputs of g's nodes from value `from` on that output slots of node nd in p
 * can stand in for. */
static unsigned find_feeds(const struct graph *g, unsigned from, const struct graph *p, const struct node *nd,
			   struct feed *fs)
{
	unsigned n = 0;
	for (unsigned k = 0; k < g->nnodes; k++) {
		if (g->n[k].out0 < from)
			continue;
		for (unsigned j = 0; j < g->n[k].nin; j++)
			for (unsigned s = 0; s < nd->nout; s++)
				if (n < G_MAX_NODES * G_MAX_IN &&
				    mut_can_replace(g, &p->v[nd->out0 + s], &g->v[g->n[k].in[j]]))
					fs[n++] = (struct feed){(uint16_t)k, (uint16_t)j, (uint8_t)s};
	}
	return n;
}

/* Several ops after the last, generated on the whole graph (so they read its
 * values, and rare ops come first when the fuzzer asks for it): a mutant that
 * tries as many new ops as a fresh graph does, on top of what its parent
 * reached. insert alone adds one op per input, which
 * leaves feedback campaigns behind pure generation in the ops they lower. */
int mut_grow(struct mut_ctx *m)
{
	unsigned want = 2 + (unsigned)rng_below(m->r, GROW_MAX - 1), added = 0;
	if (recipe_build_prefix(&m->rc, m->rc.n, &m->prefix, NULL, NULL, 0))
		return -1;
	for (unsigned i = 0; i < want; i++)
		added += gen_append_op(&m->prefix, m->r, any_op(), 0, INSERT_ATTEMPTS) >= 0;
	if (!added || recipe_splice_prefix(&m->rc, m->rc.n, &m->prefix) < 0)
		return -1;
	return mut_finish(m);
}

/* One op at a random position: generated on the prefix before it, then the
 * rest replayed; sometimes a later input reads the new op, so it lies in the
 * middle of the dataflow rather than on a dead branch. */
int mut_insert(struct mut_ctx *m)
{
	const struct graph *g = m->g;
	unsigned pos = (unsigned)rng_below(m->r, m->rc.n + 1u);
	if (recipe_build_prefix(&m->rc, pos, &m->prefix, NULL, NULL, 0) ||
	    gen_append_op(&m->prefix, m->r, any_op(), 0, INSERT_ATTEMPTS) < 0)
		return -1;
	unsigned from = pos < m->rc.n ? m->rc.value_of[pos] : g->nvalues;
	static _Thread_local struct feed fs[G_MAX_NODES * G_MAX_IN];
	const struct node *nd = &m->prefix.n[m->prefix.nnodes - 1];
	unsigned nf = rng_chance(m->r, 75) ? find_feeds(g, from, &m->prefix, nd, fs) : 0;
	struct feed f = {0, 0, 0};
	unsigned entry = 0;
	if (nf) {
		f = fs[rng_below(m->r, nf)];
		entry = mut_node_entry(m, f.node);
	}
	int k = recipe_splice_prefix(&m->rc, pos, &m->prefix);
	if (k < 0)
		return -1;
	if (!nf)
		return mut_finish(m);
	static _Thread_local struct recipe unwired;
	unwired = m->rc;
	m->rc.e[entry + (unsigned)k].node.in[f.input] = (struct recipe_ref){(uint16_t)(pos + (unsigned)k - 1), f.slot};
	if (!mut_finish(m))
		return 0;
	m->rc = unwired; /* the rewiring broke a later node: keep the op on its own branch */
	return mut_finish(m);
}

/* Removes a node; each user reads another earlier value of the same type
 * instead, or a fresh input in the deleted node's place. */
int mut_delete(struct mut_ctx *m)
{
	const struct graph *g = m->g;
	struct recipe *rc = &m->rc;
	if (g->nnodes < 2)
		return -1;
	unsigned k = (unsigned)rng_below(m->r, g->nnodes), p = mut_node_entry(m, k);
	const struct node *nd = &g->n[k];
	int fresh_of[G_MAX_OUT] = {-1, -1, -1, -1};
	struct recipe_entry fresh[G_MAX_OUT];
	unsigned nfresh = 0;
	for (unsigned i = p + 1; i < rc->n; i++)
		for (unsigned j = 0; rc->e[i].is_node && j < rc->e[i].node.nin; j++) {
			struct recipe_ref *in = &rc->e[i].node.in[j];
			if (in->entry != p)
				continue;
			unsigned v = nd->out0 + in->slot;
			int c = mut_find_replacement(g, m->r, v, rc->value_of[i], (int)k);
			if (c >= 0 && !rng_chance(m->r, 15)) {
				*in = recipe_ref_of(rc, (unsigned)c);
				continue;
			}
			if (fresh_of[in->slot] < 0) {
				if (mut_leaf_like(g, &g->v[v], &fresh[nfresh]))
					return -1;
				fresh_of[in->slot] = (int)nfresh++;
			}
		}
	if (!nfresh) {
		recipe_remove(rc, p);
		return mut_finish(m);
	}
	/* Fresh leaves take the node's place; users still name (p, slot). */
	rc->e[p] = fresh[0];
	if (recipe_insert(rc, p + 1, &fresh[1], nfresh - 1))
		return -1;
	for (unsigned i = p + nfresh; i < rc->n; i++)
		for (unsigned j = 0; rc->e[i].is_node && j < rc->e[i].node.nin; j++) {
			struct recipe_ref *in = &rc->e[i].node.in[j];
			if (in->entry == p)
				*in = (struct recipe_ref){(uint16_t)(p + (unsigned)fresh_of[in->slot]), 0};
		}
	return mut_finish(m);
}

/* One node input reads another earlier value of the same type, or a fresh input. */
int mut_rewire(struct mut_ctx *m)
{
	const struct graph *g = m->g;
	unsigned k = (unsigned)rng_below(m->r, g->nnodes), p = mut_node_entry(m, k);
	const struct node *nd = &g->n[k];
	unsigned j = (unsigned)rng_below(m->r, nd->nin), v = nd->in[j];
	int c = rng_chance(m->r, 80) ? mut_find_replacement(g, m->r, v, nd->out0, -1) : -1;
	if (c >= 0) {
		m->rc.e[p].node.in[j] = recipe_ref_of(&m->rc, (unsigned)c);
		return mut_finish(m);
	}
	struct recipe_entry leaf;
	if (mut_leaf_like(g, &g->v[v], &leaf) || recipe_insert(&m->rc, p, &leaf, 1))
		return -1;
	m->rc.e[p + 1].node.in[j] = (struct recipe_ref){(uint16_t)p, 0};
	return mut_finish(m);
}

static int choice_differs(const struct op_choice *ch, const struct node *nd)
{
	return ch->nin != nd->nin || ch->nattr != nd->nattr || memcmp(ch->in, nd->in, sizeof ch->in) ||
	       memcmp(ch->attr, nd->attr, sizeof ch->attr);
}

/* Re-runs a node's attribute chooser on its primary input at its position;
 * operands the chooser makes go just before the node. */
int mut_attr(struct mut_ctx *m)
{
	const struct graph *g = m->g;
	unsigned cand[G_MAX_NODES], nc = 0;
	for (unsigned k = 0; k < g->nnodes; k++) {
		const struct op_def *op = op_get(g->n[k].op);
		if (op->attrs || op->nin_max > 1) /* else the chooser has nothing to choose */
			cand[nc++] = k;
	}
	if (!nc)
		return -1;
	unsigned k = cand[rng_below(m->r, nc)], p = mut_node_entry(m, k);
	const struct node *nd = &g->n[k];
	if (recipe_build_prefix(&m->rc, p, &m->prefix, NULL, NULL, 0))
		return -1;
	uint16_t nv = m->prefix.nvalues, nn = m->prefix.nnodes;
	unsigned t;
	for (t = 0; t < ATTR_TRIES; t++) {
		struct op_choice ch;
		memset(&ch, 0, sizeof ch);
		ch.nin = 1;
		ch.in[0] = nd->in[0];
		if (gen_choose_node(&m->prefix, m->r, nd->op, 0, &ch) >= 0 && choice_differs(&ch, nd))
			break;
		m->prefix.nvalues = nv;
		m->prefix.nnodes = nn;
	}
	if (t == ATTR_TRIES)
		return -1;
	int added = recipe_splice_prefix(&m->rc, p, &m->prefix);
	if (added < 0)
		return -1;
	unsigned old = p + (unsigned)added;
	recipe_redirect(&m->rc, old + 1, m->rc.n, old, -1, (struct recipe_ref){(uint16_t)(old - 1), 0});
	recipe_remove(&m->rc, old);
	return mut_finish(m);
}

static int same_outputs(const struct graph *g, const struct node *a, const struct graph *p, const struct node *b)
{
	if (a->nout != b->nout)
		return 0;
	for (unsigned s = 0; s < a->nout; s++) {
		const struct value *x = &g->v[a->out0 + s], *y = &p->v[b->out0 + s];
		if (x->dtype != y->dtype || !value_same_shape(g, x, y))
			return 0;
	}
	return 1;
}

/* Another op whose rule accepts the node's inputs and attributes; one whose
 * outputs have the same types is preferred (the rest of the graph then fits). */
int mut_swap(struct mut_ctx *m)
{
	const struct graph *g = m->g;
	unsigned k = (unsigned)rng_below(m->r, g->nnodes), p = mut_node_entry(m, k);
	const struct node *nd = &g->n[k];
	const struct value *x = &g->v[nd->in[0]];
	if (recipe_build_prefix(&m->rc, p, &m->prefix, NULL, NULL, 0))
		return -1;
	static _Thread_local uint16_t ops[1024];
	unsigned nops = 0;
	for (unsigned i = 0; i < op_count() && nops < 1024; i++) {
		const struct op_def *op = op_get(i);
		if (i != nd->op && op->weight && nd->nin >= op->nin_min && nd->nin <= op->nin_max &&
		    (op_dtypes(op, g->target) & DTM(x->dtype)) && x->rank >= op->rank_min && x->rank <= op->rank_max)
			ops[nops++] = (uint16_t)i;
	}
	struct op_choice ch;
	memset(&ch, 0, sizeof ch);
	ch.nin = nd->nin;
	ch.nattr = nd->nattr;
	memcpy(ch.in, nd->in, sizeof ch.in);
	memcpy(ch.attr, nd->attr, sizeof ch.attr);
	uint16_t nv = m->prefix.nvalues, nn = m->prefix.nnodes;
	int exact = -1, any = -1;
	for (unsigned t = 0; t < nops && t < SWAP_PROBES && exact < 0; t++) {
		unsigned pick = t + (unsigned)rng_below(m->r, nops - t); /* partial shuffle */
		uint16_t op = ops[pick];
		ops[pick] = ops[t];
		ops[t] = op;
		int added = graph_add_node(&m->prefix, op, &ch, NULL, 0);
		if (added >= 0) {
			if (same_outputs(g, nd, &m->prefix, &m->prefix.n[added]))
				exact = op;
			else if (any < 0)
				any = op;
		}
		m->prefix.nvalues = nv;
		m->prefix.nnodes = nn;
	}
	int op = exact >= 0 ? exact : any;
	if (op < 0)
		return -1;
	m->rc.e[p].node.op = (uint16_t)op;
	return mut_finish(m);
}
