/* Mutators that bring in new structure: splice (crossover) and regenerate. */
#include <string.h>
#include "../graph/codec.h"
#include "gen.h"
#include "gen_choose.h"
#include "mutkit.h"

#define SPLICE_NODES 8  /* at most this many nodes copied */
#define REGEN_SIZE 24   /* regenerated graphs have 1..REGEN_SIZE ops: 12.5 on average, as a fresh graph */

struct splice {
	struct mut_ctx *m;
	const struct graph *h;              /* the donor */
	int sym_to[G_MAX_SYM];              /* donor symbol -> ours, or -1: static at binding 0 */
	int16_t entry_of[G_MAX_VALUES];     /* donor value -> entry holding it here, -1 unmapped */
	uint8_t slot_of[G_MAX_VALUES];
	unsigned nadd;
	struct recipe_entry add[G_MAX_VALUES]; /* appended entries: leaves and copied nodes */
};

/* The donor's value u, as a type of ours: leaf dims with donor symbols mapped
 * onto ours, and its concrete shape at our bindings. */
static int translate(struct splice *sp, const struct value *u, struct recipe_leaf *l, struct value *as)
{
	const struct graph *g = sp->m->g, *h = sp->h;
	memset(l, 0, sizeof *l);
	*as = *u;
	l->kind = u->kind == VK_PARAM ? VK_PARAM : VK_INPUT;
	l->dtype = u->dtype;
	l->rank = u->rank;
	l->fill = u->kind != VK_NODE ? u->fill : FILL_NORMAL;
	mut_leaf_fill(l, u->lo, u->hi);
	for (unsigned d = 0; d < u->rank; d++) {
		struct leaf_dim hd = u->ld[d];
		if (u->kind == VK_NODE) {
			int32_t sizes[G_MAX_BIND];
			for (unsigned b = 0; b < h->nbind; b++)
				sizes[b] = u->dim[b][d];
			if (gen_leaf_dim_for(h, sizes, &hd))
				return -1;
		}
		if (hd.sym >= 0 && sp->sym_to[hd.sym] < 0)
			hd = (struct leaf_dim){-1, 0, (int16_t)(hd.mul * h->sym[0][hd.sym] + hd.add)};
		else if (hd.sym >= 0)
			hd.sym = (int8_t)sp->sym_to[hd.sym];
		if (hd.sym >= 0)
			l->kind = VK_INPUT; /* parameters are static */
		l->ld[d] = hd;
		for (unsigned b = 0; b < g->nbind; b++)
			as->dim[b][d] = hd.sym < 0 ? hd.add : hd.mul * g->sym[b][hd.sym] + hd.add;
	}
	return 0;
}

/* Maps a donor value read by the copied nodes but produced outside them: a
 * value of ours of the same type when there is one, else a fresh leaf. */
static int map_frontier(struct splice *sp, unsigned id)
{
	const struct graph *g = sp->m->g;
	struct recipe_leaf l;
	struct value as;
	if (translate(sp, &sp->h->v[id], &l, &as))
		return -1;
	if (rng_chance(sp->m->r, 75)) {
		unsigned cand[G_MAX_VALUES], nc = 0;
		for (unsigned i = 0; i < g->nvalues; i++)
			if (mut_can_replace(g, &g->v[i], &as))
				cand[nc++] = i;
		if (nc) {
			struct recipe_ref r = recipe_ref_of(&sp->m->rc, cand[rng_below(sp->m->r, nc)]);
			sp->entry_of[id] = (int16_t)r.entry;
			sp->slot_of[id] = r.slot;
			return 0;
		}
	}
	memset(&sp->add[sp->nadd], 0, sizeof sp->add[0]);
	sp->add[sp->nadd].leaf = l;
	sp->entry_of[id] = (int16_t)(sp->m->rc.n + sp->nadd++);
	sp->slot_of[id] = 0;
	return 0;
}

/* Copies a node of the other graph with its nearest ancestors (a connected
 * subgraph) after the end of this one. */
int mut_splice(struct mut_ctx *m)
{
	static _Thread_local struct splice sp;
	const struct graph *g = m->g, *h = m->other;
	unsigned room = G_MAX_NODES - g->nnodes, cap = room < SPLICE_NODES ? room : SPLICE_NODES;
	if (!h || !h->nnodes || !cap)
		return -1;
	memset(&sp, 0, offsetof(struct splice, add));
	sp.m = m;
	sp.h = h;
	for (unsigned t = 0; t < h->nsym; t++)
		sp.sym_to[t] = g->nsym && rng_chance(m->r, 80) ? (int)rng_below(m->r, g->nsym) : -1;
	memset(sp.entry_of, 0xff, sizeof sp.entry_of);
	uint8_t chosen[G_MAX_NODES] = {0};
	unsigned queue[G_MAX_NODES], nq = 0;
	queue[nq++] = (unsigned)rng_below(m->r, h->nnodes);
	chosen[queue[0]] = 1;
	for (unsigned q = 0; q < nq; q++)
		for (unsigned j = 0; j < h->n[queue[q]].nin; j++) {
			const struct value *u = &h->v[h->n[queue[q]].in[j]];
			if (u->kind == VK_NODE && !chosen[u->node] && nq < cap && !rng_chance(m->r, 15)) {
				chosen[u->node] = 1;
				queue[nq++] = (unsigned)u->node;
			}
		}
	for (unsigned k = 0; k < h->nnodes; k++) { /* in the donor's (topological) order */
		const struct node *nd = &h->n[k];
		if (!chosen[k])
			continue;
		struct recipe_entry e;
		memset(&e, 0, sizeof e);
		e.is_node = 1;
		e.node.op = nd->op;
		e.node.nin = nd->nin;
		e.node.nattr = nd->nattr;
		memcpy(e.node.attr, nd->attr, sizeof e.node.attr);
		for (unsigned j = 0; j < nd->nin; j++) {
			unsigned u = nd->in[j];
			if (sp.entry_of[u] < 0 && map_frontier(&sp, u))
				return -1;
			e.node.in[j] = (struct recipe_ref){(uint16_t)sp.entry_of[u], sp.slot_of[u]};
		}
		for (unsigned s = 0; s < nd->nout; s++) {
			sp.entry_of[nd->out0 + s] = (int16_t)(m->rc.n + sp.nadd);
			sp.slot_of[nd->out0 + s] = (uint8_t)s;
		}
		sp.add[sp.nadd++] = e;
	}
	if (recipe_insert(&m->rc, m->rc.n, sp.add, sp.nadd))
		return -1;
	return mut_finish(m);
}

/* A fresh graph, smaller until it fits the size limit. */
int mut_regenerate(struct mut_ctx *m)
{
	static _Thread_local uint8_t buf[CODEC_MAX_SIZE];
	struct gen_opts o;
	gen_default_opts(&o);
	for (o.size = 1 + (unsigned)rng_below(m->r, REGEN_SIZE); o.size; o.size /= 2)
		if (!gen_graph(&m->out, rng_next(m->r), &o, NULL, 0) && codec_encode(&m->out, buf, m->max_size))
			return 0;
	return -1;
}
