#include "reduce.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../graph/codec.h"
#include "../graph/compile_config.h"
#include "../graph/op.h"
#include "../harness/protocol.h"
#include "../mutators/edits.h"
#include "conditioning.h"

/* ---- the edits the search tries, cheapest and biggest first ---- */

/* The value id of output i (outputs in value order). */
static int output_value(const struct graph *g, unsigned i)
{
	for (unsigned v = 0; v < g->nvalues; v++)
		if (g->v[v].out && !i--)
			return (int)v;
	return -1;
}

static unsigned count_outputs(const struct graph *g) { return graph_noutputs(g); }
static unsigned count_chunks(const struct graph *g) { return g->nnodes >= 4 ? 2 + 4 + 8 : 0; }
static unsigned count_nodes(const struct graph *g) { return g->nnodes; }
static unsigned count_dynamic(const struct graph *g) { return g->nbind > 1; }
static unsigned count_third_binding(const struct graph *g) { return g->nbind == 3; }
static unsigned count_dims(const struct graph *g) { return g->nvalues * G_MAX_RANK * 2; }
static unsigned count_syms(const struct graph *g) { return g->nsym * g->nbind * 2; }
static unsigned count_values(const struct graph *g) { return g->nvalues; }
static unsigned count_attrs(const struct graph *g) { return g->nnodes * G_MAX_ATTR * 3; }

/* Keep one output's cone: the finding's output first. */
static int make_cone(const struct graph *g, unsigned i, int output, struct graph *out)
{
	unsigned n = graph_noutputs(g);
	if (n < 2)
		return -1;
	unsigned pick = output >= 0 && (unsigned)output < n ? (i == 0 ? (unsigned)output : i <= (unsigned)output ? i - 1 : i)
							      : i;
	int v = output_value(g, pick);
	return v < 0 ? -1 : edit_keep_cone(g, (unsigned)v, out);
}

/* Halves, quarters, eighths of the node list deleted at once. */
static int make_chunk(const struct graph *g, unsigned i, int output, struct graph *out)
{
	(void)output;
	unsigned parts = i < 2 ? 2 : i < 6 ? 4 : 8, j = i < 2 ? i : i < 6 ? i - 2 : i - 6;
	uint8_t del[G_MAX_NODES] = {0};
	for (unsigned k = j * g->nnodes / parts; k < (j + 1) * g->nnodes / parts; k++)
		del[k] = 1;
	return edit_delete_nodes(g, del, out);
}

/* One node deleted, from the last back. */
static int make_delete(const struct graph *g, unsigned i, int output, struct graph *out)
{
	(void)output;
	uint8_t del[G_MAX_NODES] = {0};
	del[g->nnodes - 1 - i] = 1;
	return edit_delete_nodes(g, del, out);
}

static int make_static(const struct graph *g, unsigned i, int output, struct graph *out)
{
	(void)i, (void)output;
	return edit_make_static(g, out);
}

static int make_two_bindings(const struct graph *g, unsigned i, int output, struct graph *out)
{
	(void)i, (void)output;
	return edit_drop_binding(g, out);
}

/* A static leaf dim halved, or one smaller. */
static int make_dim(const struct graph *g, unsigned i, int output, struct graph *out)
{
	(void)output;
	unsigned v = i / (G_MAX_RANK * 2), d = i / 2 % G_MAX_RANK;
	const struct value *x = &g->v[v];
	if (x->kind == VK_NODE || d >= x->rank || x->ld[d].sym >= 0 || x->dim[0][d] <= 1)
		return -1;
	int32_t size = i % 2 ? x->dim[0][d] - 1 : x->dim[0][d] / 2;
	return i % 2 && x->dim[0][d] / 2 == x->dim[0][d] - 1 ? -1 : edit_leaf_dim(g, v, d, size, out);
}

/* A symbol's value at one binding halved, or one smaller. */
static int make_sym(const struct graph *g, unsigned i, int output, struct graph *out)
{
	(void)output;
	unsigned s = i / (g->nbind * 2), b = i / 2 % g->nbind;
	int32_t v = g->sym[b][s], nv = i % 2 ? v - 1 : v / 2;
	if (nv < G_MIN_SYMVAL || nv == v)
		return -1;
	return edit_sym(g, s, b, nv, out);
}

static int make_float32(const struct graph *g, unsigned i, int output, struct graph *out)
{
	(void)output;
	const struct value *x = &g->v[i];
	if (x->kind == VK_NODE || !dtype_is_float(x->dtype) || x->dtype == DT_FLOAT32)
		return -1;
	return edit_leaf_dtype(g, i, DT_FLOAT32, out);
}

int reduce_attr_candidate(const struct graph *g, unsigned k, unsigned a, unsigned which, int64_t *v)
{
	const struct node *nd = &g->n[k];
	if (a >= nd->nattr)
		return -1;
	struct attr_spec s;
	op_attr_spec(op_get(nd->op), &s);
	if ((s.list >= 0 && a == s.nscalar) || attr_kind_at(&s, a) == AK_REAL)
		return -1;
	int64_t old = nd->attr[a];
	*v = which == 0 ? 0 : which == 1 ? 1 : old / 2;
	return llabs(*v) >= llabs(old) ? -1 : 0;
}

static int make_attr(const struct graph *g, unsigned i, int output, struct graph *out)
{
	(void)output;
	unsigned k = i / (G_MAX_ATTR * 3), a = i / 3 % G_MAX_ATTR;
	int64_t v;
	return reduce_attr_candidate(g, k, a, i % 3, &v) ? -1 : edit_attr(g, k, a, v, out);
}

/* A leaf laid out contiguously, with plain values. */
static int make_plain(const struct graph *g, unsigned i, int output, struct graph *out)
{
	(void)output;
	return edit_leaf_plain(g, i, out);
}

/* An integer input's range halved. */
static int make_range(const struct graph *g, unsigned i, int output, struct graph *out)
{
	(void)output;
	const struct value *x = &g->v[i];
	if (x->kind == VK_NODE || dtype_is_float(x->dtype) || x->fill != FILL_RANGE || x->hi - x->lo < 1)
		return -1;
	return edit_leaf_range(g, i, x->lo, x->lo + (x->hi - x->lo) / 2, out);
}

/* The compile configuration's parts: each setting, then mode, dynamic, backend, fullgraph. */
static unsigned count_config(const struct graph *g) { return g->config.nsettings + 4u; }

/* One part of the configuration back at its default: setting i dropped, or
 * the mode, dynamic, backend or fullgraph (so the plain repro sets exactly
 * the settings the finding needs). */
static int make_config(const struct graph *g, unsigned i, int output, struct graph *out)
{
	(void)output;
	struct graph_config c = g->config;
	unsigned k = i - c.nsettings;
	uint8_t *part[] = {&c.mode, &c.dynamic, &c.backend, &c.fullgraph};
	if (i < c.nsettings)
		graph_config_drop(&c, i);
	else if (!*part[k])
		return -1;
	else
		*part[k] = 0;
	*out = *g;
	return graph_set_config(out, &c, NULL, 0);
}

static const struct reduce_pass {
	const char *name;
	unsigned (*count)(const struct graph *g);
	int (*make)(const struct graph *g, unsigned i, int output, struct graph *out);
	int changes_math; /* what is computed, not how much of it: conditioning_kept's keep_math */
} passes[] = {
	{"one output", count_outputs, make_cone, 0},  {"node chunks", count_chunks, make_chunk, 0},
	{"nodes", count_nodes, make_delete, 0},        {"dynamic dims", count_dynamic, make_static, 0},
	{"bindings", count_third_binding, make_two_bindings, 0},
	{"dims", count_dims, make_dim, 0},             {"symbols", count_syms, make_sym, 0},
	{"dtypes", count_values, make_float32, 1},     {"attributes", count_attrs, make_attr, 1},
	{"input ranges", count_values, make_range, 0}, {"plain inputs", count_values, make_plain, 0},
	{"configuration", count_config, make_config, 0},
};

/* ---- the search ---- */

/* Smaller, lexicographically: nodes, bindings, leaf elements, non-float32
 * leaves, attribute magnitudes, integer ranges, leaves laid out or filled
 * otherwise than plainly, parts of the compile configuration not at their
 * defaults. Every edit lowers one of these, so the search cannot cycle. */
#define MEASURES 8
static void measure(const struct graph *g, int64_t m[MEASURES])
{
	memset(m, 0, MEASURES * sizeof *m);
	m[0] = g->nnodes;
	m[1] = g->nbind;
	for (unsigned v = 0; v < g->nvalues; v++) {
		const struct value *x = &g->v[v];
		if (x->kind == VK_NODE)
			continue;
		m[2] += value_numel(x, 0);
		m[3] += dtype_is_float(x->dtype) && x->dtype != DT_FLOAT32;
		m[5] += x->fill == FILL_RANGE ? x->hi - x->lo : 0;
		m[6] += x->layout != IL_CONTIGUOUS || x->fill == FILL_CONST || x->fill == FILL_SPECIAL;
	}
	for (unsigned k = 0; k < g->nnodes; k++) {
		struct attr_spec s;
		op_attr_spec(op_get(g->n[k].op), &s);
		for (unsigned a = 0; a < g->n[k].nattr; a++)
			if (attr_kind_at(&s, a) != AK_REAL)
				m[4] += llabs(g->n[k].attr[a]) < (1LL << 40) ? llabs(g->n[k].attr[a]) : (1LL << 40);
	}
	const struct graph_config *c = &g->config;
	m[7] = c->nsettings + (c->mode != 0) + (c->dynamic != 0) + (c->backend != 0) + (c->fullgraph != 0);
}

static int smaller(const struct graph *a, const struct graph *b)
{
	int64_t ma[MEASURES], mb[MEASURES];
	measure(a, ma);
	measure(b, mb);
	for (unsigned i = 0; i < MEASURES; i++)
		if (ma[i] != mb[i])
			return ma[i] < mb[i];
	return 0;
}

/* Verdict keys by graph hash: a candidate is checked once. */
#define CACHE_SLOTS 4096
struct cache {
	uint64_t hash[CACHE_SLOTS], key[CACHE_SLOTS];
};

static int cache_get(const struct cache *c, uint64_t h, uint64_t *key)
{
	for (unsigned i = h % CACHE_SLOTS, n = 0; c->hash[i] && n < CACHE_SLOTS; i = (i + 1) % CACHE_SLOTS, n++)
		if (c->hash[i] == h) {
			*key = c->key[i];
			return 1;
		}
	return 0;
}

static void cache_put(struct cache *c, uint64_t h, uint64_t key)
{
	for (unsigned i = h % CACHE_SLOTS, n = 0; n < CACHE_SLOTS; i = (i + 1) % CACHE_SLOTS, n++)
		if (!c->hash[i] || c->hash[i] == h) {
			c->hash[i] = h;
			c->key[i] = key;
			return;
		}
}

int reduce_graph(struct pool *p, const struct graph *g, const struct check_cfg *c, uint64_t key, int output,
		 double time_limit, struct graph *out, struct reduce_stats *st, reduce_taken_fn *taken, void *arg)
{
	static struct graph batch[POOL_MAX], cur;
	static struct cache cache;
	struct pool_result res[POOL_MAX];
	struct check_cfg followed = *c; /* each check reports the finding of this key, where it shows */
	followed.want.key = key;
	c = &followed;
	int64_t t0 = protocol_now_ms(), deadline = t0 + (int64_t)(time_limit * 1000);
	/* a check in flight at the deadline is cut there (not run, so not kept) */
	followed.cut_ms = c->cut_ms && c->cut_ms < deadline ? c->cut_ms : deadline;
	memset(st, 0, sizeof *st);
	memset(&cache, 0, sizeof cache);
	st->ops_before = g->nnodes;
	*out = cur = *g;
	if (pool_check(p, &cur, 1, c, res))
		return -1;
	st->checks++;
	st->not_run += !res[0].ran;
	st->last = res[0];
	if (!res[0].key || (key && res[0].key != key)) {
		st->ops_after = g->nnodes;
		st->seconds = (double)(protocol_now_ms() - t0) / 1000.0;
		return 0;
	}
	key = followed.want.key = res[0].key;
	st->reproduced = 1;
	cache_put(&cache, codec_hash(&cur), key);
	for (int progress = 1; progress && protocol_now_ms() < deadline;) {
		progress = 0;
		for (unsigned ps = 0; ps < sizeof passes / sizeof passes[0] && protocol_now_ms() < deadline; ps++) {
			for (unsigned i = 0; i < passes[ps].count(&cur) && protocol_now_ms() < deadline;) {
				/* The next candidates of this pass, up to one per worker. */
				unsigned n = 0, first = i;
				for (; i < passes[ps].count(&cur) && n < p->n; i++) {
					uint64_t k;
					if (passes[ps].make(&cur, i, output, &batch[n]) || !smaller(&batch[n], &cur))
						continue;
					if (cache_get(&cache, codec_hash(&batch[n]), &k)) {
						st->cache_hits++;
						if (k != key)
							continue;
					}
					n++;
				}
				if (!n)
					continue;
				if (pool_check(p, batch, n, c, res))
					return -1;
				st->checks += n;
				unsigned hit = n;
				for (unsigned j = 0; j < n; j++) {
					st->not_run += !res[j].ran;
					/* a numeric candidate whose eager drifts from fp64 counts as not
					 * showing the finding: cached so, it is not tried again */
					int kept = res[j].key == key &&
						   conditioning_kept(&st->last, &res[j], passes[ps].changes_math);
					cache_put(&cache, codec_hash(&batch[j]), kept ? key : 0);
					st->refused += res[j].key == key && !kept;
					if (hit == n && kept)
						hit = j;
				}
				if (hit < n) { /* take the first that kept the finding; go on from there */
					cur = batch[hit];
					st->last = res[hit];
					progress = 1;
					i = first;
					st->ops_after = cur.nnodes;
					st->seconds = (double)(protocol_now_ms() - t0) / 1000.0;
					if (taken)
						taken(&cur, st, arg);
				}
			}
		}
	}
	*out = cur;
	st->ops_after = cur.nnodes;
	st->seconds = (double)(protocol_now_ms() - t0) / 1000.0;
	return 0;
}
