/* Layout (all integers LEB128 varints; signed ones zigzag-encoded):
 *   "P2F" version
 *   nbind nsym seed broken target  sym[b][s] for each binding b, symbol s
 *     (version 1 has no `broken`: it decodes as 0, a valid graph; versions
 *     before 4 no `target`: TARGET_ANY)
 *   nrecords, then per record a tag byte:
 *     0 input / 1 param / 3 buffer: dtype rank fill lo hi [layout: version 4 on],
 *       then per dim: sym (-1 static), add, mul if sym >= 0
 *     2 node: op-hash (u32 little endian) nin in... nattr attr...
 *   noutputs, value ids
 *   ngrads, value ids of the leaves that require grad (version 3 on; older
 *     versions decode with none)
 *   mode dynamic backend fullgraph nsettings, then per setting its hash (u32
 *     little endian: XXH32 of its name) and its value: a bool 0/1, an int
 *     zigzag, a float in thousandths zigzag, a string its XXH32 (u32 little
 *     endian) (version 5 on; older versions decode with the default
 *     configuration)
 * Decoding goes through graph_add_leaf/graph_add_node, so whatever decodes
 * is valid by construction. */
#include "codec.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include "../config/settings.h"
#include "broken.h"
#include "compile_config.h"
#include "fail.h"
#include "op.h"

enum { TAG_INPUT, TAG_PARAM, TAG_NODE, TAG_BUFFER };

static const uint8_t kind_tag[VK_COUNT] = {[VK_INPUT] = TAG_INPUT, [VK_PARAM] = TAG_PARAM, [VK_BUFFER] = TAG_BUFFER};
static const uint8_t tag_kind[] = {[TAG_INPUT] = VK_INPUT, [TAG_PARAM] = VK_PARAM, [TAG_BUFFER] = VK_BUFFER};

struct wr {
	uint8_t *p;
	size_t len, cap;
};

static void put_u(struct wr *w, uint64_t x)
{
	do {
		uint8_t b = x & 0x7f;
		x >>= 7;
		if (w->len < w->cap)
			w->p[w->len] = (uint8_t)(b | (x ? 0x80 : 0));
		w->len++;
	} while (x);
}

static void put_s(struct wr *w, int64_t x) { put_u(w, ((uint64_t)x << 1) ^ (uint64_t)(x >> 63)); }

static void put_byte(struct wr *w, uint8_t b)
{
	if (w->len < w->cap)
		w->p[w->len] = b;
	w->len++;
}

static void put_u32(struct wr *w, uint32_t h)
{
	for (int k = 0; k < 4; k++)
		put_byte(w, (uint8_t)(h >> (8 * k)));
}

/* A setting's value as its type stores it: what the catalogue's text reads as. */
static int64_t setting_stored(const struct setting *s, unsigned v)
{
	const char *t = s->values[v];
	switch (s->type) {
	case SET_BOOL:
		return !strcmp(t, "True");
	case SET_INT:
		return strtoll(t, NULL, 10);
	case SET_FLOAT:
		return llround(strtod(t, NULL) * 1000);
	default:
		return XXH32(t, strlen(t), 0);
	}
}

static void put_config(struct wr *w, const struct graph_config *c)
{
	put_u(w, c->mode);
	put_u(w, c->dynamic);
	put_u(w, c->backend);
	put_u(w, c->fullgraph);
	put_u(w, c->nsettings);
	for (unsigned k = 0; k < c->nsettings; k++) {
		const struct setting *s = setting_get(c->set[k].id);
		put_u32(w, setting_hash(c->set[k].id));
		if (setting_is_text(s))
			put_u32(w, (uint32_t)setting_stored(s, c->set[k].value));
		else
			put_s(w, setting_stored(s, c->set[k].value));
	}
}

size_t codec_encode(const struct graph *g, uint8_t *buf, size_t cap)
{
	return codec_encode_version(g, CODEC_VERSION, buf, cap);
}

size_t codec_encode_version(const struct graph *g, unsigned version, uint8_t *buf, size_t cap)
{
	struct wr w = {buf, 0, cap};
	if (version < 1 || version > CODEC_VERSION || (version < 2 && g->broken) || (version < 3 && graph_ngrads(g)) ||
	    (version < 4 && g->target) || (version < 5 && !graph_config_is_default(&g->config)))
		return 0;
	for (const char *m = CODEC_MAGIC; *m; m++)
		put_byte(&w, (uint8_t)*m);
	put_byte(&w, (uint8_t)version);
	put_u(&w, g->nbind);
	put_u(&w, g->nsym);
	put_u(&w, g->seed);
	if (version >= 2)
		put_u(&w, g->broken);
	if (version >= 4)
		put_u(&w, g->target);
	for (unsigned b = 0; b < g->nbind; b++)
		for (unsigned s = 0; s < g->nsym; s++)
			put_u(&w, (uint64_t)g->sym[b][s]);
	unsigned nrec = 0;
	for (unsigned i = 0; i < g->nvalues; i++)
		nrec += g->v[i].kind != VK_NODE || g->v[i].slot == 0;
	put_u(&w, nrec);
	for (unsigned i = 0; i < g->nvalues; i++) {
		const struct value *v = &g->v[i];
		if (v->kind == VK_NODE) {
			if (v->slot)
				continue;
			const struct node *nd = &g->n[v->node];
			uint32_t h = op_hash(nd->op);
			put_byte(&w, TAG_NODE);
			put_u32(&w, h);
			put_u(&w, nd->nin);
			for (unsigned j = 0; j < nd->nin; j++)
				put_u(&w, nd->in[j]);
			put_u(&w, nd->nattr);
			for (unsigned j = 0; j < nd->nattr; j++)
				put_s(&w, nd->attr[j]);
			continue;
		}
		if (version < 4 && (v->kind == VK_BUFFER || v->layout))
			return 0;
		put_byte(&w, kind_tag[v->kind]);
		put_u(&w, v->dtype);
		put_u(&w, v->rank);
		put_u(&w, v->fill);
		put_s(&w, fill_has_bounds(v->fill) ? v->lo : 0);
		put_s(&w, fill_has_bounds(v->fill) ? v->hi : 0);
		if (version >= 4)
			put_u(&w, v->layout);
		for (unsigned d = 0; d < v->rank; d++) {
			put_s(&w, v->ld[d].sym < 0 ? -1 : v->ld[d].sym);
			put_s(&w, v->ld[d].add);
			if (v->ld[d].sym >= 0)
				put_u(&w, (uint64_t)v->ld[d].mul);
		}
	}
	put_u(&w, graph_noutputs(g));
	for (unsigned i = 0; i < g->nvalues; i++)
		if (g->v[i].out)
			put_u(&w, i);
	if (version >= 3) {
		put_u(&w, graph_ngrads(g));
		for (unsigned i = 0; i < g->nvalues; i++)
			if (g->v[i].grad)
				put_u(&w, i);
	}
	if (version >= 5)
		put_config(&w, &g->config);
	return w.len <= cap ? w.len : 0;
}

struct rd {
	const uint8_t *p;
	size_t len, pos;
	int bad;
};

static uint64_t get_u(struct rd *r)
{
	uint64_t x = 0;
	for (unsigned shift = 0; shift < 64; shift += 7) {
		if (r->pos >= r->len) {
			r->bad = 1;
			return 0;
		}
		uint8_t b = r->p[r->pos++];
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return x;
	}
	r->bad = 1;
	return 0;
}

static int64_t get_s(struct rd *r)
{
	uint64_t u = get_u(r);
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static uint8_t get_byte(struct rd *r)
{
	if (r->pos >= r->len) {
		r->bad = 1;
		return 0;
	}
	return r->p[r->pos++];
}

/* Reads an unsigned varint and checks it is at most max. */
static int get_bounded(struct rd *r, uint64_t max, uint64_t *out)
{
	*out = get_u(r);
	return !r->bad && *out <= max;
}

static uint32_t get_u32(struct rd *r)
{
	uint32_t h = 0;
	for (int k = 0; k < 4; k++)
		h |= (uint32_t)get_byte(r) << (8 * k);
	return h;
}

static int decode_config(struct rd *r, struct graph *g, char *why, size_t n)
{
	struct graph_config c;
	uint64_t x[5];
	memset(&c, 0, sizeof c);
	for (unsigned i = 0; i < 5; i++)
		if (!get_bounded(r, 255, &x[i]))
			return fail(why, n, "configuration truncated or out of range");
	c.mode = (uint8_t)x[0], c.dynamic = (uint8_t)x[1], c.backend = (uint8_t)x[2], c.fullgraph = (uint8_t)x[3];
	if (x[4] > G_MAX_SETTINGS)
		return fail(why, n, "configuration: more than %d settings", G_MAX_SETTINGS);
	c.nsettings = (uint8_t)x[4];
	for (unsigned k = 0; k < c.nsettings; k++) {
		uint32_t h = get_u32(r);
		int id = setting_by_hash(h);
		if (r->bad)
			return fail(why, n, "configuration truncated");
		if (id < 0)
			return fail(why, n, "configuration: unknown setting (hash %08x)", h);
		const struct setting *s = setting_get((unsigned)id);
		int64_t stored = setting_is_text(s) ? (int64_t)get_u32(r) : get_s(r);
		if (r->bad)
			return fail(why, n, "configuration truncated");
		int value = -1;
		for (unsigned v = 0; v < setting_value_count(s) && value < 0; v++)
			if (setting_stored(s, v) == stored)
				value = (int)v;
		if (value < 0)
			return fail(why, n, "configuration: %s has no value %lld", s->name, (long long)stored);
		c.set[k] = (struct graph_setting){(uint16_t)id, (uint8_t)value};
	}
	return graph_set_config(g, &c, why, n);
}

static int decode_grads(struct rd *r, struct graph *g, char *why, size_t n)
{
	uint64_t ngrad, x;
	if (!get_bounded(r, G_MAX_GRADS, &ngrad))
		return fail(why, n, "grad count missing or out of range");
	for (unsigned i = 0; i < ngrad; i++) {
		if (!get_bounded(r, G_MAX_VALUES, &x))
			return fail(why, n, "grad %u out of range", i);
		if (x < g->nvalues && g->v[x].grad)
			return fail(why, n, "grad v%u listed twice", (unsigned)x);
		if (graph_set_grad(g, (unsigned)x, 1, why, n))
			return -1;
	}
	return 0;
}

int codec_decode(struct graph *g, const uint8_t *buf, size_t len, char *why, size_t n)
{
	struct rd r = {buf, len, 0, 0};
	uint64_t nbind, nsym, seed, broken = C_NONE, target = TARGET_ANY, nrec, x;
	char sub[200];
	if (len > CODEC_MAX_SIZE)
		return fail(why, n, "input of %zu bytes exceeds %d", len, CODEC_MAX_SIZE);
	if (len < 4 || memcmp(buf, CODEC_MAGIC, 3))
		return fail(why, n, "not a pt2fuzz graph (bad magic)");
	r.pos = 3;
	uint8_t version = get_byte(&r);
	if (version < 1 || version > CODEC_VERSION)
		return fail(why, n, "unsupported format version %u", version);
	if (!get_bounded(&r, G_MAX_BIND, &nbind) || !get_bounded(&r, G_MAX_SYM, &nsym) ||
	    !get_bounded(&r, UINT32_MAX, &seed) || (version >= 2 && !get_bounded(&r, C_COUNT - 1, &broken)) ||
	    (version >= 4 && !get_bounded(&r, TARGET_COUNT - 1, &target)))
		return fail(why, n, "truncated or out-of-range header");
	if (graph_init(g, (unsigned)nbind, (unsigned)nsym, (uint32_t)seed, why, n) ||
	    graph_set_target(g, (unsigned)target, why, n))
		return -1;
	int32_t vals[G_MAX_SYM][G_MAX_BIND];
	for (unsigned b = 0; b < nbind; b++)
		for (unsigned s = 0; s < nsym; s++) {
			if (!get_bounded(&r, G_MAX_SYMVAL, &x))
				return fail(why, n, "symbol value out of range");
			vals[s][b] = (int32_t)x;
		}
	for (unsigned s = 0; s < nsym; s++)
		if (graph_set_sym(g, s, vals[s], why, n))
			return -1;
	if (!get_bounded(&r, G_MAX_VALUES, &nrec))
		return fail(why, n, "record count out of range");
	for (unsigned i = 0; i < nrec; i++) {
		uint8_t tag = get_byte(&r);
		if (r.bad)
			return fail(why, n, "truncated at record %u", i);
		if (tag == TAG_NODE) {
			uint32_t h = get_u32(&r);
			int op = op_by_hash(h);
			struct op_choice ch;
			memset(&ch, 0, sizeof ch);
			uint64_t nin, nattr;
			if (!get_bounded(&r, G_MAX_IN, &nin))
				return fail(why, n, "record %u: input count out of range", i);
			ch.nin = (uint8_t)nin;
			for (unsigned j = 0; j < nin; j++) {
				if (!get_bounded(&r, G_MAX_VALUES, &x))
					return fail(why, n, "record %u: input out of range", i);
				ch.in[j] = (uint16_t)x;
			}
			if (!get_bounded(&r, G_MAX_ATTR, &nattr))
				return fail(why, n, "record %u: attribute count out of range", i);
			ch.nattr = (uint8_t)nattr;
			for (unsigned j = 0; j < nattr; j++)
				ch.attr[j] = get_s(&r);
			if (r.bad)
				return fail(why, n, "truncated at record %u", i);
			if (op < 0)
				return fail(why, n, "record %u: unknown op (hash %08x)", i, h);
			int rc = broken && i + 1 == nrec
					 ? graph_add_broken_node(g, (unsigned)op, &ch, (unsigned)broken, sub, sizeof sub)
					 : graph_add_node(g, (unsigned)op, &ch, sub, sizeof sub);
			if (rc < 0)
				return fail(why, n, "record %u: %s", i, sub);
			continue;
		}
		if (tag != TAG_INPUT && tag != TAG_PARAM && (tag != TAG_BUFFER || version < 4))
			return fail(why, n, "record %u: unknown tag %u", i, tag);
		if (broken && i + 1 == nrec)
			return fail(why, n, "record %u: a near-invalid graph ends with its broken node, not a leaf", i);
		uint64_t dt, rank, fill;
		if (!get_bounded(&r, DT_COUNT - 1, &dt) || !get_bounded(&r, G_MAX_RANK, &rank) ||
		    !get_bounded(&r, FILL_COUNT - 1, &fill))
			return fail(why, n, "record %u: leaf header out of range", i);
		int64_t lo = get_s(&r), hi = get_s(&r);
		uint64_t layout = IL_CONTIGUOUS;
		if (version >= 4 && !get_bounded(&r, IL_COUNT - 1, &layout))
			return fail(why, n, "record %u: layout out of range", i);
		struct leaf_dim ld[G_MAX_RANK];
		memset(ld, 0, sizeof ld);
		for (unsigned d = 0; d < rank; d++) {
			int64_t sym = get_s(&r), add = get_s(&r);
			if (sym < -1 || sym >= G_MAX_SYM || add < -G_MAX_DIM_GPU || add > G_MAX_DIM_GPU)
				return fail(why, n, "record %u: dim %u out of range", i, d);
			ld[d].sym = (int8_t)sym;
			ld[d].add = (int16_t)add;
			if (sym >= 0) {
				if (!get_bounded(&r, 8, &x))
					return fail(why, n, "record %u: dim %u multiplier out of range", i, d);
				ld[d].mul = (int8_t)x;
			}
		}
		if (r.bad)
			return fail(why, n, "truncated at record %u", i);
		int id = graph_add_leaf(g, (enum value_kind)tag_kind[tag], (enum dtype)dt, (unsigned)rank, ld,
					(enum fill)fill, lo, hi, sub, sizeof sub);
		if (id < 0 || (layout != IL_CONTIGUOUS && graph_set_layout(g, (unsigned)id, (unsigned)layout, sub, sizeof sub)))
			return fail(why, n, "record %u: %s", i, sub);
	}
	if (g->broken != broken)
		return fail(why, n, "a near-invalid graph without records");
	uint64_t nout;
	if (!get_bounded(&r, G_MAX_VALUES, &nout) || nout == 0)
		return fail(why, n, "output count missing or zero");
	for (unsigned i = 0; i < nout; i++) {
		if (!get_bounded(&r, G_MAX_VALUES, &x))
			return fail(why, n, "output %u out of range", i);
		if (x < g->nvalues && g->v[x].out)
			return fail(why, n, "output v%u listed twice", (unsigned)x);
		if (graph_set_output(g, (unsigned)x, 1, why, n))
			return -1;
	}
	if ((version >= 3 && decode_grads(&r, g, why, n)) || (version >= 5 && decode_config(&r, g, why, n)))
		return -1;
	if (r.pos != len)
		return fail(why, n, "%zu trailing bytes", len - r.pos);
	return graph_check_broken_output(g, why, n) || graph_check_returns(g, why, n) ? -1 : 0;
}

uint64_t codec_hash(const struct graph *g)
{
	static _Thread_local uint8_t buf[CODEC_MAX_SIZE];
	size_t len = codec_encode(g, buf, sizeof buf);
	return XXH64(buf, len, 0);
}
