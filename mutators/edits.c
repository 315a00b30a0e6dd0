#include "edits.h"
#include <stdlib.h>
#include <string.h>
#include "mutkit.h"
#include "recipe.h"

/* Recipes are large (a graph's worth of entries): one scratch per call. */
static _Thread_local struct recipe RC;

static int finish(struct recipe *rc, struct graph *out)
{
	mut_tidy(rc);
	return recipe_build(rc, out, NULL, NULL, 0);
}

static unsigned entry_of(const struct recipe *rc, unsigned id) { return recipe_ref_of(rc, id).entry; }

/* A value to stand in for output v of node k: a same-typed input of k, else
 * the nearest earlier same-typed value; -1 when there is none. */
static int stand_in(const struct graph *g, unsigned k, unsigned v)
{
	const struct node *nd = &g->n[k];
	for (unsigned i = 0; i < nd->nin; i++)
		if (mut_can_replace(g, &g->v[nd->in[i]], &g->v[v]))
			return nd->in[i];
	for (int c = (int)nd->out0 - 1; c >= 0; c--)
		if (mut_can_replace(g, &g->v[c], &g->v[v]))
			return c;
	return -1;
}

/* Whether an input of an entry after p reads output slot s of entry p. */
static int slot_read(const struct recipe *rc, unsigned p, unsigned s)
{
	for (unsigned i = p + 1; i < rc->n; i++)
		for (unsigned j = 0; rc->e[i].is_node && j < rc->e[i].node.nin; j++)
			if (rc->e[i].node.in[j].entry == p && rc->e[i].node.in[j].slot == s)
				return 1;
	return 0;
}

int edit_delete_nodes(const struct graph *g, const uint8_t *del, struct graph *out)
{
	struct recipe *rc = &RC;
	recipe_from_graph(rc, g);
	/* From the last node back: entries before p keep their place, so value
	 * ids below the node still map to their entries. A stand-in made by a
	 * node deleted later is rewired again when that node goes. */
	for (int k = (int)g->nnodes - 1; k >= 0; k--) {
		if (!del[k])
			continue;
		const struct node *nd = &g->n[k];
		unsigned p = entry_of(rc, nd->out0);
		for (unsigned s = 0; s < nd->nout; s++) {
			if (!slot_read(rc, p, s))
				continue;
			int c = stand_in(g, (unsigned)k, nd->out0 + s);
			struct recipe_ref to;
			if (c >= 0) {
				to = recipe_ref_of(rc, (unsigned)c);
			} else {
				struct recipe_entry leaf;
				if (mut_leaf_like(g, &g->v[nd->out0 + s], &leaf) || recipe_insert(rc, p, &leaf, 1))
					return -1;
				to = (struct recipe_ref){(uint16_t)p, 0};
				p++; /* the node moved one entry on */
			}
			recipe_redirect(rc, p + 1, rc->n, p, (int)s, to);
		}
		recipe_remove(rc, p);
	}
	return finish(rc, out);
}

int edit_keep_cone(const struct graph *g, unsigned id, struct graph *out)
{
	uint8_t need[G_MAX_VALUES] = {0}, del[G_MAX_NODES] = {0};
	if (id >= g->nvalues)
		return -1;
	need[id] = 1;
	for (int v = (int)g->nvalues - 1; v >= 0; v--) {
		const struct value *x = &g->v[v];
		if (!need[v] || x->kind != VK_NODE)
			continue;
		const struct node *nd = &g->n[x->node];
		for (unsigned i = 0; i < nd->nin; i++)
			need[nd->in[i]] = 1;
	}
	for (unsigned k = 0; k < g->nnodes; k++) {
		int any = 0;
		for (unsigned s = 0; s < g->n[k].nout; s++)
			any |= need[g->n[k].out0 + s];
		del[k] = !any;
	}
	return edit_delete_nodes(g, del, out);
}

int edit_make_static(const struct graph *g, struct graph *out)
{
	struct recipe *rc = &RC;
	if (g->nbind == 1)
		return -1;
	recipe_from_graph(rc, g);
	for (unsigned i = 0; i < rc->n; i++) {
		struct recipe_entry *e = &rc->e[i];
		for (unsigned d = 0; !e->is_node && d < e->leaf.rank; d++) {
			struct leaf_dim *ld = &e->leaf.ld[d];
			if (ld->sym >= 0)
				*ld = (struct leaf_dim){-1, 0, (int16_t)(ld->mul * rc->sym[0][ld->sym] + ld->add)};
		}
	}
	return finish(rc, out);
}

int edit_drop_binding(const struct graph *g, struct graph *out)
{
	struct recipe *rc = &RC;
	if (g->nbind < 3)
		return -1;
	recipe_from_graph(rc, g);
	rc->nbind--;
	return finish(rc, out);
}

/* The recipe entry of leaf value id, or NULL. */
static struct recipe_leaf *leaf_of(const struct graph *g, unsigned id)
{
	if (id >= g->nvalues || g->v[id].kind == VK_NODE)
		return NULL;
	recipe_from_graph(&RC, g);
	return &RC.e[entry_of(&RC, id)].leaf;
}

int edit_leaf_dim(const struct graph *g, unsigned id, unsigned d, int32_t size, struct graph *out)
{
	struct recipe_leaf *l = leaf_of(g, id);
	if (!l || d >= l->rank || l->ld[d].sym >= 0 || size < 1 || size > G_MAX_DIM)
		return -1;
	l->ld[d].add = (int16_t)size;
	return finish(&RC, out);
}

int edit_sym(const struct graph *g, unsigned s, unsigned b, int32_t v, struct graph *out)
{
	if (s >= g->nsym || b >= g->nbind)
		return -1;
	recipe_from_graph(&RC, g);
	RC.sym[b][s] = v;
	return finish(&RC, out);
}

int edit_leaf_dtype(const struct graph *g, unsigned id, enum dtype dt, struct graph *out)
{
	struct recipe_leaf *l = leaf_of(g, id);
	if (!l || dtype_is_inexact(dt) != dtype_is_inexact(l->dtype))
		return -1;
	l->dtype = (uint8_t)dt;
	return finish(&RC, out);
}

int edit_leaf_plain(const struct graph *g, unsigned id, struct graph *out)
{
	struct recipe_leaf *l = leaf_of(g, id);
	if (!l || (!l->layout && l->fill != FILL_CONST && l->fill != FILL_SPECIAL))
		return -1;
	l->layout = IL_CONTIGUOUS;
	if (l->fill == FILL_CONST || l->fill == FILL_SPECIAL) {
		l->fill = FILL_NORMAL;
		l->lo = l->hi = 0;
	}
	return finish(&RC, out);
}

int edit_leaf_range(const struct graph *g, unsigned id, int64_t lo, int64_t hi, struct graph *out)
{
	struct recipe_leaf *l = leaf_of(g, id);
	if (!l || dtype_is_inexact(l->dtype) || l->fill != FILL_RANGE)
		return -1;
	l->lo = lo;
	l->hi = hi;
	return finish(&RC, out);
}

int edit_attr(const struct graph *g, unsigned k, unsigned i, int64_t v, struct graph *out)
{
	if (k >= g->nnodes || i >= g->n[k].nattr)
		return -1;
	recipe_from_graph(&RC, g);
	RC.e[entry_of(&RC, g->n[k].out0)].node.attr[i] = v;
	return finish(&RC, out);
}
