/* The text form's parser (the writer is text_write.c). */
#include "text.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "broken.h"
#include "compile_config.h"
#include "fail.h"
#include "op.h"
#include "real.h"
#include "validate.h"

#define MAX_NAME 48 /* longer than any op name (a unit test checks) */

struct parser {
	const char *p;
	struct graph *g;
	char names[G_MAX_VALUES][MAX_NAME];
	char *why;
	size_t n;
	unsigned line;
	int nbind_set;
};

static void skip_ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r')
		ps->p++;
}

static int eat(struct parser *ps, const char *tok)
{
	skip_ws(ps);
	size_t l = strlen(tok);
	if (strncmp(ps->p, tok, l))
		return 0;
	ps->p += l;
	return 1;
}

static int perr(struct parser *ps, const char *what)
{
	char near[24];
	size_t l = strcspn(ps->p, "\n");
	if (l > sizeof near - 1)
		l = sizeof near - 1;
	memcpy(near, ps->p, l);
	near[l] = 0;
	return fail(ps->why, ps->n, "line %u: %s near '%s'", ps->line, what, near);
}

static int ident(struct parser *ps, char *out)
{
	skip_ws(ps);
	unsigned l = 0;
	if (!isalpha((unsigned char)*ps->p) && *ps->p != '_')
		return 0;
	while ((isalnum((unsigned char)*ps->p) || *ps->p == '_' || *ps->p == '.') && l < MAX_NAME - 1)
		out[l++] = *ps->p++;
	out[l] = 0;
	return 1;
}

static int integer(struct parser *ps, int64_t *out)
{
	skip_ws(ps);
	char *end;
	long long x = strtoll(ps->p, &end, 10);
	if (end == ps->p || (*ps->p != '-' && *ps->p != '+' && !isdigit((unsigned char)*ps->p)))
		return 0;
	if (x > (1LL << 40) || x < -(1LL << 40))
		return 0;
	ps->p = end;
	*out = x;
	return 1;
}

/* A decimal with at most three fraction digits, as thousandths. */
static int milli(struct parser *ps, int64_t *out)
{
	skip_ws(ps);
	int neg = *ps->p == '-';
	if (*ps->p == '-' || *ps->p == '+')
		ps->p++;
	if (!isdigit((unsigned char)*ps->p))
		return 0;
	int64_t whole = 0, frac = 0;
	while (isdigit((unsigned char)*ps->p) && whole < (1LL << 30))
		whole = whole * 10 + (*ps->p++ - '0');
	if (*ps->p == '.') {
		ps->p++;
		int digits = 0;
		while (isdigit((unsigned char)*ps->p)) {
			if (digits == 3)
				return 0;
			frac = frac * 10 + (*ps->p++ - '0');
			digits++;
		}
		while (digits++ < 3)
			frac *= 10;
	}
	*out = (neg ? -1 : 1) * (whole * 1000 + frac);
	return 1;
}

/* Names a value (names are at most MAX_NAME-1 characters: ident() stops there). */
static void set_name(struct parser *ps, unsigned id, const char *nm)
{
	size_t l = strnlen(nm, MAX_NAME - 1);
	memcpy(ps->names[id], nm, l);
	ps->names[id][l] = 0;
}

static int lookup(struct parser *ps, const char *nm)
{
	for (unsigned i = 0; i < ps->g->nvalues; i++)
		if (!strcmp(ps->names[i], nm))
			return (int)i;
	return -1;
}

static int leaf_dim(struct parser *ps, struct leaf_dim *ld)
{
	int64_t x;
	skip_ws(ps);
	ld->sym = -1;
	ld->mul = 1;
	ld->add = 0;
	if (*ps->p != 's') {
		if (!integer(ps, &x) || x < 0 || x > G_MAX_DIM_GPU)
			return 0;
		if (*ps->p != '*') {
			ld->add = (int16_t)x;
			return 1;
		}
		ps->p++;
		if (x < 1 || x > 8)
			return 0;
		ld->mul = (int8_t)x;
	}
	if (*ps->p != 's' || !isdigit((unsigned char)ps->p[1]))
		return 0;
	ps->p++;
	ld->sym = (int8_t)(*ps->p++ - '0');
	if (*ps->p == '+' || *ps->p == '-') {
		if (!integer(ps, &x) || x < -G_MAX_DIM_GPU || x > G_MAX_DIM_GPU)
			return 0;
		ld->add = (int16_t)x;
	}
	return 1;
}

static int parse_leaf(struct parser *ps, const char *nm, enum value_kind kind)
{
	char w[MAX_NAME];
	struct leaf_dim ld[G_MAX_RANK];
	unsigned rank = 0;
	int dt;
	if (!ident(ps, w) || (dt = dtype_from_name(w)) < 0)
		return perr(ps, "expected a dtype");
	if (!eat(ps, "["))
		return perr(ps, "expected '['");
	if (!eat(ps, "]")) {
		do {
			if (rank == G_MAX_RANK || !leaf_dim(ps, &ld[rank++]))
				return perr(ps, "bad dim");
		} while (eat(ps, ","));
		if (!eat(ps, "]"))
			return perr(ps, "expected ']'");
	}
	enum fill fill = dtype_is_inexact(dt) ? FILL_NORMAL : FILL_RANGE;
	int64_t lo = 0, hi = dt == DT_BOOL ? 1 : 8;
	if (!dtype_is_inexact(dt) && dt != DT_BOOL && dt != DT_UINT8)
		lo = -8;
	int layout = IL_CONTIGUOUS;
	/* then a fill word, then a layout word, each optional */
	const char *save = ps->p;
	if (ident(ps, w)) {
		int f = fill_find(w);
		if (f == FILL_RANGE) {
			if (!integer(ps, &lo) || !integer(ps, &hi))
				return perr(ps, "range needs LO HI");
		} else if (f == FILL_PERM) {
			lo = 0;
			if (!integer(ps, &hi))
				return perr(ps, "perm needs HI");
		} else if (f == FILL_CONST) {
			if (!milli(ps, &lo))
				return perr(ps, "const needs a number with at most 3 decimals");
			hi = lo;
		}
		if (f >= 0)
			fill = (enum fill)f;
		else
			ps->p = save;
	}
	save = ps->p;
	if (ident(ps, w) && (layout = layout_find(w)) < 0) {
		ps->p = save;
		return perr(ps, "unknown fill or layout");
	}
	char sub[200];
	int id = graph_add_leaf(ps->g, kind, (enum dtype)dt, rank, ld, fill, lo, hi, sub, sizeof sub);
	if (id < 0 || (layout > IL_CONTIGUOUS && graph_set_layout(ps->g, (unsigned)id, (unsigned)layout, sub, sizeof sub)))
		return fail(ps->why, ps->n, "line %u: %s: %s", ps->line, nm, sub);
	set_name(ps, (unsigned)id, nm);
	return 0;
}

/* One attribute value of kind k, appended to ch. */
static int parse_attr_value(struct parser *ps, const struct op_def *op, const struct attr_spec *s, enum attr_kind k,
			    struct op_choice *ch)
{
	char w[MAX_NAME];
	int64_t x;
	if (ch->nattr >= G_MAX_ATTR)
		return perr(ps, "too many attributes");
	switch (k) {
	case AK_BOOL:
		if (!ident(ps, w) || (strcmp(w, "True") && strcmp(w, "False")))
			return perr(ps, "expected True or False");
		ch->attr[ch->nattr++] = !strcmp(w, "True");
		return 0;
	case AK_MILLI:
		if (!milli(ps, &x))
			return perr(ps, "expected a number with at most 3 decimals");
		ch->attr[ch->nattr++] = x;
		return 0;
	case AK_REAL: {
		double r;
		skip_ws(ps);
		size_t l = real_parse(ps->p, &r);
		if (!l)
			return perr(ps, "expected a real number, inf, -inf or nan");
		ps->p += l;
		ch->attr[ch->nattr++] = real_bits(r);
		return 0;
	}
	case AK_DTYPE:
		if (!ident(ps, w) || (x = dtype_from_name(w)) < 0)
			return perr(ps, "expected a dtype");
		ch->attr[ch->nattr++] = x;
		return 0;
	case AK_STR: {
		if (!eat(ps, "'"))
			return perr(ps, "expected a quoted string");
		size_t l = strcspn(ps->p, "'\n");
		for (unsigned i = 0; i < s->nstrs; i++)
			if (strlen(op->strs[i]) == l && !strncmp(op->strs[i], ps->p, l)) {
				ps->p += l + 1;
				ch->attr[ch->nattr++] = i;
				return 0;
			}
		return perr(ps, "string not among the op's choices");
	}
	case AK_LIST:
	case AK_SHAPE: {
		unsigned at = ch->nattr++;
		ch->attr[at] = 0;
		if (!eat(ps, "["))
			return perr(ps, "expected '['");
		if (eat(ps, "]"))
			return 0;
		do {
			if (ch->nattr >= G_MAX_ATTR)
				return perr(ps, "list too long");
			if (k == AK_SHAPE && eat(ps, "@")) {
				if (!integer(ps, &x) || x < 0)
					return perr(ps, "expected @dim");
				x = -2 - x;
			} else if (!integer(ps, &x)) {
				return perr(ps, "expected an integer");
			}
			ch->attr[ch->nattr++] = x;
			ch->attr[at]++;
		} while (eat(ps, ","));
		return eat(ps, "]") ? 0 : perr(ps, "expected ']'");
	}
	default:
		if (!integer(ps, &x))
			return perr(ps, "expected an integer");
		ch->attr[ch->nattr++] = x;
		return 0;
	}
}

static int parse_node(struct parser *ps, char outs[G_MAX_OUT][MAX_NAME], unsigned nout)
{
	char w[MAX_NAME];
	if (!ident(ps, w))
		return perr(ps, "expected an op name");
	int opid = op_find(w);
	if (opid < 0)
		return fail(ps->why, ps->n, "line %u: unknown op '%s'", ps->line, w);
	const struct op_def *op = op_get((unsigned)opid);
	struct op_choice ch;
	memset(&ch, 0, sizeof ch);
	if (!eat(ps, "("))
		return perr(ps, "expected '('");
	while (!eat(ps, ")") && !eat(ps, ";")) {
		if (ch.nin && !eat(ps, ","))
			return perr(ps, "expected ','");
		int id;
		if (ch.nin == G_MAX_IN || !ident(ps, w) || (id = lookup(ps, w)) < 0)
			return perr(ps, "expected a defined value");
		ch.in[ch.nin++] = (uint16_t)id;
	}
	if (ps->p[-1] == ';') {
		struct attr_spec s;
		op_attr_spec(op, &s);
		unsigned nnamed = s.nscalar + (s.list >= 0);
		for (unsigned a = 0; a < nnamed; a++) {
			if (a && !eat(ps, ","))
				return perr(ps, "expected ','");
			if (!ident(ps, w) || strcmp(w, s.name[a]) || !eat(ps, "="))
				return fail(ps->why, ps->n, "line %u: %s expects attribute '%s=' here", ps->line,
					    op->name, s.name[a]);
			if (parse_attr_value(ps, op, &s, a < s.nscalar ? s.kind[a] : (enum attr_kind)s.list, &ch))
				return -1;
		}
		if (!eat(ps, ")"))
			return perr(ps, "expected ')'");
	}
	/* "... ) breaks NAME": the node that breaks a constraint on purpose. */
	int constraint = 0;
	const char *save = ps->p;
	if (ident(ps, w)) {
		if (strcmp(w, "breaks") || !ident(ps, w))
			ps->p = save;
		else if ((constraint = constraint_find(w)) < 0)
			return fail(ps->why, ps->n, "line %u: unknown constraint '%s'", ps->line, w);
	}
	char sub[200];
	int k = constraint ? graph_add_broken_node(ps->g, (unsigned)opid, &ch, (unsigned)constraint, sub, sizeof sub)
			   : graph_add_node(ps->g, (unsigned)opid, &ch, sub, sizeof sub);
	if (k < 0)
		return fail(ps->why, ps->n, "line %u: %s", ps->line, sub);
	if (ps->g->n[k].nout != nout)
		return fail(ps->why, ps->n, "line %u: %s has %u outputs, %u names given", ps->line, op->name,
			    ps->g->n[k].nout, nout);
	for (unsigned j = 0; j < nout; j++)
		set_name(ps, ps->g->n[k].out0 + j, outs[j]);
	return 0;
}

/* `config KEY=VALUE ...` (graph/compile_config.h): after bindings, which start the graph over. */
static int parse_config(struct parser *ps)
{
	struct graph_config c = ps->g->config;
	char sub[200];
	for (;;) {
		skip_ws(ps);
		size_t l = strcspn(ps->p, " \t\r\n#");
		if (!l)
			break;
		char word[128];
		if (l >= sizeof word)
			return perr(ps, "setting too long");
		memcpy(word, ps->p, l);
		word[l] = 0;
		char *eq = strchr(word, '=');
		if (!eq)
			return perr(ps, "expected KEY=VALUE");
		*eq = 0;
		if (graph_config_read(&c, word, eq + 1, sub, sizeof sub))
			return fail(ps->why, ps->n, "line %u: %s", ps->line, sub);
		ps->p += l;
	}
	if (graph_set_config(ps->g, &c, sub, sizeof sub))
		return fail(ps->why, ps->n, "line %u: %s", ps->line, sub);
	return 0;
}

static int parse_line(struct parser *ps)
{
	char w[MAX_NAME];
	int64_t x;
	if (!ident(ps, w))
		return perr(ps, "expected a statement");
	if (!strcmp(w, "target")) {
		int t;
		char sub[200];
		if (!ident(ps, w) || (t = target_find(w)) < 0)
			return perr(ps, "expected any, cpu or gpu");
		if (graph_set_target(ps->g, (unsigned)t, sub, sizeof sub))
			return fail(ps->why, ps->n, "line %u: %s", ps->line, sub);
		return 0;
	}
	if (!strcmp(w, "config"))
		return parse_config(ps);
	if (!strcmp(w, "bindings") || !strcmp(w, "seed")) {
		if (!integer(ps, &x) || x < 0 || x > UINT32_MAX)
			return perr(ps, "expected a number");
		if (ps->g->nvalues)
			return perr(ps, "header after values");
		if (!graph_config_is_default(&ps->g->config))
			return perr(ps, "header after config");
		if (w[0] == 'b') {
			char sub[200];
			/* The symbol count is fixed by the sym lines that follow. */
			if (x < 1 || x > G_MAX_BIND)
				return perr(ps, "bindings must be 1-3");
			unsigned target = ps->g->target;
			if (graph_init(ps->g, (unsigned)x, x > 1 ? 1 : 0, ps->g->seed, sub, sizeof sub) ||
			    graph_set_target(ps->g, target, sub, sizeof sub))
				return fail(ps->why, ps->n, "line %u: %s", ps->line, sub);
			ps->g->nsym = 0;
			ps->nbind_set = 1;
		} else {
			ps->g->seed = (uint32_t)x;
		}
		return 0;
	}
	if (!strcmp(w, "sym")) {
		int32_t vals[G_MAX_BIND];
		if (!ident(ps, w) || w[0] != 's' || atoi(w + 1) != ps->g->nsym || !eat(ps, "="))
			return perr(ps, "expected 'sym sN =' with symbols in order");
		if (ps->g->nsym == G_MAX_SYM || ps->g->nbind < 2)
			return perr(ps, "too many symbols, or no bindings to vary over");
		for (unsigned b = 0; b < ps->g->nbind; b++) {
			if (!integer(ps, &x) || x < 0 || x > G_MAX_SYMVAL * 4)
				return perr(ps, "expected a value per binding");
			vals[b] = (int32_t)x;
		}
		char sub[200];
		ps->g->nsym++;
		if (graph_set_sym(ps->g, ps->g->nsym - 1u, vals, sub, sizeof sub))
			return fail(ps->why, ps->n, "line %u: %s", ps->line, sub);
		return 0;
	}
	/* Statements that mark a list of values: `output v5, v6`, `grad x0, p1`. */
	static const struct {
		const char *word;
		int (*mark)(struct graph *g, unsigned id, int on, char *why, size_t n);
	} lists[] = {{"output", graph_set_output}, {"grad", graph_set_grad}};
	for (unsigned l = 0; l < sizeof lists / sizeof lists[0]; l++) {
		if (strcmp(w, lists[l].word))
			continue;
		do {
			int id;
			char sub[200];
			if (!ident(ps, w) || (id = lookup(ps, w)) < 0)
				return perr(ps, "expected a defined value");
			if (lists[l].mark(ps->g, (unsigned)id, 1, sub, sizeof sub))
				return fail(ps->why, ps->n, "line %u: %s", ps->line, sub);
		} while (eat(ps, ","));
		return 0;
	}
	/* NAME[, NAME...] = input|param|op(...) */
	char outs[G_MAX_OUT][MAX_NAME];
	unsigned nout = 0;
	snprintf(outs[nout++], MAX_NAME, "%s", w);
	while (eat(ps, ",")) {
		if (nout == G_MAX_OUT || !ident(ps, outs[nout++]))
			return perr(ps, "expected a name");
	}
	for (unsigned j = 0; j < nout; j++)
		if (lookup(ps, outs[j]) >= 0)
			return fail(ps->why, ps->n, "line %u: '%s' is already defined", ps->line, outs[j]);
	if (!eat(ps, "="))
		return perr(ps, "expected '='");
	if (ps->g->nbind > 1 && ps->g->nsym == 0)
		return perr(ps, "bindings > 1 needs at least one sym line");
	const char *save = ps->p;
	static const struct {
		const char *word;
		enum value_kind kind;
	} leaves[] = {{"input", VK_INPUT}, {"param", VK_PARAM}, {"buffer", VK_BUFFER}};
	if (nout == 1 && ident(ps, w))
		for (unsigned l = 0; l < sizeof leaves / sizeof leaves[0]; l++)
			if (!strcmp(w, leaves[l].word))
				return parse_leaf(ps, outs[0], leaves[l].kind);
	ps->p = save;
	return parse_node(ps, outs, nout);
}

int text_parse(struct graph *g, const char *text, char *why, size_t n)
{
	static _Thread_local struct parser ps;
	memset(&ps, 0, sizeof ps);
	ps.p = text;
	ps.g = g;
	ps.why = why;
	ps.n = n;
	if (graph_init(g, 1, 0, 0, why, n))
		return -1;
	for (ps.line = 1; *ps.p; ps.line++) {
		skip_ws(&ps);
		if (*ps.p != '#' && *ps.p != '\n' && *ps.p) {
			if (parse_line(&ps))
				return -1;
			skip_ws(&ps);
			if (*ps.p != '#' && *ps.p != '\n' && *ps.p)
				return perr(&ps, "unexpected text");
		}
		ps.p += strcspn(ps.p, "\n");
		if (*ps.p)
			ps.p++;
	}
	return graph_validate(g, why, n);
}
