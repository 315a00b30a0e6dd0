#include "recipe.h"
#include <string.h>
#include "../graph/broken.h"
#include "../graph/compile_config.h"
#include "../graph/fail.h"

void recipe_from_graph(struct recipe *rc, const struct graph *g)
{
	rc->nbind = g->nbind;
	rc->nsym = g->nsym;
	rc->target = g->target;
	rc->config = g->config;
	rc->seed = g->seed;
	memcpy(rc->sym, g->sym, sizeof rc->sym);
	rc->n = 0;
	for (unsigned i = 0; i < g->nvalues; i++) {
		const struct value *v = &g->v[i];
		if (v->kind == VK_NODE && v->slot)
			continue;
		struct recipe_entry *e = &rc->e[rc->n];
		memset(e, 0, sizeof *e);
		rc->value_of[rc->n++] = (uint16_t)i;
		if (v->kind != VK_NODE) {
			e->leaf = (struct recipe_leaf){v->kind, v->dtype, v->rank, v->fill, {{0}}, v->lo, v->hi, v->grad,
						       v->layout};
			memcpy(e->leaf.ld, v->ld, sizeof e->leaf.ld);
			continue;
		}
		const struct node *nd = &g->n[v->node];
		e->is_node = 1;
		e->node.op = nd->op;
		e->node.nin = nd->nin;
		e->node.nattr = nd->nattr;
		e->node.broken = g->broken && v->node + 1 == g->nnodes ? g->broken : 0;
		memcpy(e->node.attr, nd->attr, sizeof e->node.attr);
		for (unsigned j = 0; j < nd->nin; j++)
			e->node.in[j] = recipe_ref_of(rc, nd->in[j]);
	}
}

struct recipe_ref recipe_ref_of(const struct recipe *rc, unsigned id)
{
	/* value_of is increasing: the last entry starting at or before id. */
	unsigned lo = 0, hi = rc->n;
	while (hi - lo > 1) {
		unsigned mid = (lo + hi) / 2;
		if (rc->value_of[mid] <= id)
			lo = mid;
		else
			hi = mid;
	}
	return (struct recipe_ref){(uint16_t)lo, (uint8_t)(id - rc->value_of[lo])};
}

static int build_entries(struct recipe *rc, unsigned count, struct graph *g, unsigned *bad, char *why, size_t n)
{
	char sub[200];
	if (bad)
		*bad = 0;
	if (graph_init(g, rc->nbind, rc->nsym, rc->seed, why, n) || graph_set_target(g, rc->target, why, n) ||
	    graph_set_config(g, &rc->config, why, n))
		return -1;
	for (unsigned s = 0; s < rc->nsym; s++) {
		int32_t vals[G_MAX_BIND];
		for (unsigned b = 0; b < rc->nbind; b++)
			vals[b] = rc->sym[b][s];
		if (graph_set_sym(g, s, vals, why, n))
			return -1;
	}
	for (unsigned i = 0; i < count; i++) {
		const struct recipe_entry *e = &rc->e[i];
		if (bad)
			*bad = i;
		rc->value_of[i] = g->nvalues;
		if (!e->is_node) {
			const struct recipe_leaf *l = &e->leaf;
			if (graph_add_leaf(g, (enum value_kind)l->kind, (enum dtype)l->dtype, l->rank, l->ld,
					   (enum fill)l->fill, l->lo, l->hi, sub, sizeof sub) < 0)
				return fail(why, n, "entry %u: %s", i, sub);
			if (l->grad && dtype_is_float(l->dtype) && graph_ngrads(g) < G_MAX_GRADS)
				graph_set_grad(g, g->nvalues - 1u, 1, NULL, 0); /* cannot fail: a float leaf, room left */
			if (l->layout) /* one that no longer suits the leaf (a mutated rank) is dropped */
				graph_set_layout(g, g->nvalues - 1u, l->layout, NULL, 0);
			continue;
		}
		struct op_choice ch;
		memset(&ch, 0, sizeof ch);
		ch.nin = e->node.nin;
		ch.nattr = e->node.nattr;
		memcpy(ch.attr, e->node.attr, sizeof ch.attr);
		for (unsigned j = 0; j < e->node.nin; j++) {
			struct recipe_ref r = e->node.in[j];
			unsigned nout = r.entry < i && rc->e[r.entry].is_node ? g->n[g->v[rc->value_of[r.entry]].node].nout : 1;
			if (r.entry >= i || r.slot >= nout)
				return fail(why, n, "entry %u: input %u refers to entry %u slot %u, not available", i, j,
					    r.entry, r.slot);
			ch.in[j] = (uint16_t)(rc->value_of[r.entry] + r.slot);
		}
		if ((e->node.broken ? graph_add_broken_node(g, e->node.op, &ch, e->node.broken, sub, sizeof sub)
				    : graph_add_node(g, e->node.op, &ch, sub, sizeof sub)) < 0)
			return fail(why, n, "entry %u: %s", i, sub);
	}
	return 0;
}

int recipe_build_prefix(struct recipe *rc, unsigned count, struct graph *g, unsigned *bad, char *why, size_t n)
{
	return build_entries(rc, count < rc->n ? count : rc->n, g, bad, why, n);
}

int recipe_build(struct recipe *rc, struct graph *g, unsigned *bad, char *why, size_t n)
{
	if (build_entries(rc, rc->n, g, bad, why, n))
		return -1;
	if (!g->nnodes)
		return fail(why, n, "no node left");
	graph_mark_sinks(g);
	return 0;
}

int recipe_insert(struct recipe *rc, unsigned pos, const struct recipe_entry *es, unsigned k)
{
	if (rc->n + k > G_MAX_VALUES || pos > rc->n)
		return -1;
	memmove(&rc->e[pos + k], &rc->e[pos], (rc->n - pos) * sizeof rc->e[0]);
	memcpy(&rc->e[pos], es, k * sizeof rc->e[0]);
	rc->n = (uint16_t)(rc->n + k);
	for (unsigned i = pos + k; i < rc->n; i++)
		if (rc->e[i].is_node)
			for (unsigned j = 0; j < rc->e[i].node.nin; j++)
				if (rc->e[i].node.in[j].entry >= pos)
					rc->e[i].node.in[j].entry = (uint16_t)(rc->e[i].node.in[j].entry + k);
	return 0;
}

void recipe_remove(struct recipe *rc, unsigned pos)
{
	memmove(&rc->e[pos], &rc->e[pos + 1], (rc->n - pos - 1) * sizeof rc->e[0]);
	rc->n--;
	for (unsigned i = pos; i < rc->n; i++)
		if (rc->e[i].is_node)
			for (unsigned j = 0; j < rc->e[i].node.nin; j++)
				if (rc->e[i].node.in[j].entry > pos)
					rc->e[i].node.in[j].entry--;
}

int recipe_splice_prefix(struct recipe *rc, unsigned pos, const struct graph *p)
{
	static _Thread_local struct recipe tail;
	recipe_from_graph(&tail, p);
	if (tail.n < pos)
		return -1;
	unsigned k = tail.n - pos;
	return recipe_insert(rc, pos, &tail.e[pos], k) ? -1 : (int)k;
}

unsigned recipe_redirect(struct recipe *rc, unsigned first, unsigned end, unsigned from, int slot,
			 struct recipe_ref to)
{
	unsigned changed = 0;
	for (unsigned i = first; i < end && i < rc->n; i++) {
		struct recipe_entry *e = &rc->e[i];
		for (unsigned j = 0; e->is_node && j < e->node.nin; j++) {
			struct recipe_ref *in = &e->node.in[j];
			if (in->entry != from || (slot >= 0 && in->slot != slot))
				continue;
			*in = slot < 0 ? (struct recipe_ref){to.entry, in->slot} : to;
			changed++;
		}
	}
	return changed;
}

unsigned recipe_users(const struct recipe *rc, unsigned entry)
{
	unsigned k = 0;
	for (unsigned i = entry + 1; i < rc->n; i++)
		if (rc->e[i].is_node)
			for (unsigned j = 0; j < rc->e[i].node.nin; j++)
				k += rc->e[i].node.in[j].entry == entry;
	return k;
}

void recipe_prune_leaves(struct recipe *rc)
{
	for (unsigned i = rc->n; i-- > 0;)
		if (!rc->e[i].is_node && !recipe_users(rc, i))
			recipe_remove(rc, i);
}
