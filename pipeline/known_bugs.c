#include "known_bugs.h"
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../graph/fail.h"
#include "../graph/op.h"
#include "../oracles/verdict.h"
#include "graphio.h"

extern const char pt2fuzz_known_bugs_txt[], pt2fuzz_known_bugs_txt_end[];

#define FIELDS 6

/* s[0..len) without the spaces around it, into out; -1 when it does not fit. */
static int trimmed(const char *s, size_t len, char *out, size_t n)
{
	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	if (len >= n)
		return -1;
	memcpy(out, s, len);
	out[len] = 0;
	return 0;
}

/* The next comma-separated word of *s (its length in *len), or NULL at the end. */
static const char *next_word(const char **s, size_t *len)
{
	const char *w = *s;
	if (!*w)
		return NULL;
	*len = strcspn(w, ",");
	*s = w + *len + (w[*len] == ',');
	return w;
}

/* Whether w[0..len) is one of the n names, or of the verdict names when names is NULL. */
static int among(const char *w, size_t len, const char *const *names, unsigned n)
{
	for (unsigned i = 0; i < (names ? n : V_COUNT); i++) {
		const char *name = names ? names[i] : verdict_name((enum verdict_kind)i);
		if (strlen(name) == len && !strncmp(name, w, len))
			return 1;
	}
	return 0;
}

/* The first word of list that is no verdict name (in word), or -1 when all are. */
static int bad_kind(const char *list, char *word, size_t n)
{
	size_t l;
	for (const char *w; (w = next_word(&list, &l));)
		if (!among(w, l, NULL, 0))
			return snprintf(word, n, "%.*s", (int)l, w);
	return -1;
}

static int parse_line(struct known_bug *b, const char *s, size_t len, char *why, size_t n, const char *where)
{
	char *const fields[FIELDS] = {b->issue, b->kinds, b->error, b->ops, b->torch, b->title};
	const size_t sizes[FIELDS] = {sizeof b->issue, sizeof b->kinds, sizeof b->error, sizeof b->ops, sizeof b->torch,
				      sizeof b->title};
	static const char *const names[FIELDS] = {"issue", "kinds", "error", "ops", "torch", "title"};
	for (unsigned f = 0; f < FIELDS; f++) {
		const char *bar = f + 1 < FIELDS ? memchr(s, '|', len) : NULL;
		if (f + 1 < FIELDS && !bar)
			return fail(why, n, "%s: %u fields, expected %u: ISSUE | KINDS | ERROR | OPS | TORCH | TITLE", where,
				    f + 1, FIELDS);
		size_t l = bar ? (size_t)(bar - s) : len;
		if (trimmed(s, l, fields[f], sizes[f]))
			return fail(why, n, "%s: the %s field is longer than %zu characters", where, names[f], sizes[f] - 1);
		if (!fields[f][0])
			return fail(why, n, "%s: the %s field is empty", where, names[f]);
		s += l + (bar != NULL);
		len -= l + (bar != NULL);
	}
	const char *digits = b->issue + strlen("pytorch#");
	int upstream = !strncmp(b->issue, "pytorch#", 8) && *digits && strspn(digits, "0123456789") == strlen(digits);
	if (!upstream && !known_is_reported(b))
		return fail(why, n, "%s: issue '%s': expected pytorch#NUMBER or " KNOWN_REPORTED_DIR "NAME.md", where, b->issue);
	char kind[sizeof b->kinds];
	if (strcmp(b->kinds, "*") && bad_kind(b->kinds, kind, sizeof kind) >= 0)
		return fail(why, n, "%s: kind '%s' is no verdict (behaviour, missing-error, numeric, ...)", where, kind);
	return 0;
}

int known_is_reported(const struct known_bug *b)
{
	size_t l = strlen(b->issue), d = strlen(KNOWN_REPORTED_DIR);
	return l > d + 3 && !strncmp(b->issue, KNOWN_REPORTED_DIR, d) && !strcmp(b->issue + l - 3, ".md") &&
	       !strchr(b->issue + d, '/');
}

int known_parse(struct known_list *l, const char *text, const char *file, char *why, size_t n)
{
	unsigned lineno = 0;
	for (const char *s = text; *s;) {
		size_t len = strcspn(s, "\n");
		const char *t = s;
		while (t < s + len && (*t == ' ' || *t == '\t' || *t == '\r'))
			t++;
		lineno++;
		if (t < s + len && *t != '#') {
			char where[300];
			snprintf(where, sizeof where, "%s:%u", file, lineno);
			struct known_bug *grown = realloc(l->bugs, (l->n + 1) * sizeof *grown);
			if (!grown)
				return fail(why, n, "%s: out of memory", where);
			l->bugs = grown;
			if (parse_line(&l->bugs[l->n], s, len, why, n, where))
				return -1;
			l->n++;
		}
		s += len + (s[len] == '\n');
	}
	return 0;
}

/* The length of op word w[0..len)'s name: up to its "@DTYPE", if any. */
static size_t name_len(const char *w, size_t len)
{
	size_t k = 0;
	while (k < len && w[k] != '@')
		k++;
	return k;
}

/* The next "@qualifier" in *s up to end: its text after the '@' (len
 * bytes), *s moved past it; NULL where none is left. */
static const char *next_qualifier(const char **s, const char *end, size_t *len)
{
	const char *at = memchr(*s, '@', (size_t)(end - *s));
	if (!at)
		return NULL;
	at++;
	const char *stop = memchr(at, '@', (size_t)(end - at));
	*len = (size_t)((stop ? stop : end) - at);
	*s = at + *len;
	return at;
}

/* Whether the qualifier q[0..len) ("int64", "0d") is one of quals' ("@int64@0d@strided"). */
static int has_qualifier(const char *quals, const char *q, size_t len)
{
	size_t l;
	for (const char *p = quals, *end = quals + strlen(quals), *at; (at = next_qualifier(&p, end, &l));)
		if (l == len && !strncmp(at, q, len))
			return 1;
	return 0;
}

/* Whether op word w[0..len) ("op", or "op" with qualifiers, "@dtype", "@0d",
 * "@strided", op a glob such as "batch_norm*") names op t ("op", or a
 * node's graph_op_word when the caller knows its input): the op matches, and
 * every qualifier of w's is among t's where t gives any. */
static int names_op(const char *w, size_t len, const char *t)
{
	size_t wn = name_len(w, len), tn = strcspn(t, "@");
	char pattern[64], name[64];
	if (wn >= sizeof pattern || tn >= sizeof name)
		return 0;
	snprintf(pattern, sizeof pattern, "%.*s", (int)wn, w);
	snprintf(name, sizeof name, "%.*s", (int)tn, t);
	if (fnmatch(pattern, name, 0))
		return 0;
	if (!t[tn])
		return 1;
	size_t l;
	for (const char *p = w + wn, *q; (q = next_qualifier(&p, w + len, &l));)
		if (!has_qualifier(t + tn, q, l))
			return 0;
	return 1;
}

/* Whether op word w[0..len) names one of the n ops. */
static int op_among(const char *w, size_t len, const char *const *ops, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (names_op(w, len, ops[i]))
			return 1;
	return 0;
}

/* The op id of name ("op" or "op@dtype"), or -1. */
static int op_of(const char *name)
{
	char op[64];
	size_t l = strcspn(name, "@");
	return l < sizeof op ? (snprintf(op, sizeof op, "%.*s", (int)l, name), op_find(op)) : -1;
}

/* Whether one of the n op names is of the family named by w (l bytes). */
static int family_among(const char *w, size_t l, const char *const *names, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		int op = op_of(names[i]);
		const char *f = op < 0 ? "" : op_family_name(op_get((unsigned)op)->family);
		if (strlen(f) == l && !strncmp(f, w, l))
			return 1;
	}
	return 0;
}

/* Whether every word of list names one of the n ops (names_op), or is a
 * "family:NAME" with an op of that family among them ("*": yes). */
static int all_among(const char *list, const char *const *names, unsigned n)
{
	static const char family[] = "family:";
	size_t l, fl = sizeof family - 1;
	if (!strcmp(list, "*"))
		return 1;
	for (const char *w; (w = next_word(&list, &l));)
		if (l > fl && !strncmp(w, family, fl) ? !family_among(w + fl, l - fl, names, n) : !op_among(w, l, names, n))
			return 0;
	return 1;
}

/* Whether word is one of list's words ("*": yes). */
static int listed(const char *list, const char *word)
{
	size_t l;
	if (!strcmp(list, "*"))
		return 1;
	for (const char *w; (w = next_word(&list, &l));)
		if (l == strlen(word) && !strncmp(w, word, l))
			return 1;
	return 0;
}

const struct known_bug *known_match(const struct known_list *l, const char *kind, const char *error,
				   const char *const *ops, unsigned nops)
{
	for (unsigned i = 0; l && i < l->n; i++) {
		const struct known_bug *b = &l->bugs[i];
		if (listed(b->kinds, kind) && !fnmatch(b->error, error, 0) && all_among(b->ops, ops, nops))
			return b;
	}
	return NULL;
}

/* torch's MAJOR.MINOR ("2.11.0+cu130": "2.11") into minor; 0, or -1. */
static int torch_minor(const char *torch, char *minor, size_t n)
{
	const char *dot = strchr(torch, '.');
	size_t len = dot ? strcspn(dot + 1, ".+") + (size_t)(dot + 1 - torch) : 0;
	if (!len || len >= n)
		return -1;
	memcpy(minor, torch, len);
	minor[len] = 0;
	return 0;
}

/* Whether b's values differ between modes only through draws: a numeric
 * bug whose OPS are random ops alone (their names, or family:random). */
static int is_draw_bug(const struct known_bug *b)
{
	static const char family[] = "family:random";
	const char *list = b->ops;
	size_t l;
	if (strcmp(b->kinds, "numeric") || !strcmp(list, "*"))
		return 0;
	for (const char *w; (w = next_word(&list, &l));) {
		char name[sizeof b->ops];
		snprintf(name, sizeof name, "%.*s", (int)l, w);
		int op = op_of(name);
		if (strcmp(name, family) && (op < 0 || op_get((unsigned)op)->family != FAM_RANDOM))
			return 0;
	}
	return 1;
}

/* Whether b shows in near-invalid graphs alone (missing-error,
 * error-mismatch: eager raises there) and its OPS name no broken node: no
 * component of ops alone holds it. */
static int near_invalid_only(const struct known_bug *b)
{
	const char *list = b->kinds;
	size_t l;
	if (!strcmp(list, "*") || strstr(b->ops, KNOWN_BREAK_WORD))
		return 0;
	for (const char *w; (w = next_word(&list, &l));)
		if (!among(w, l, (const char *const[]){"missing-error", "error-mismatch"}, 2))
			return 0;
	return 1;
}

/* The first bug of l, on torch, that ops hold, among draw bugs (draws 1) or
 * the others that a valid graph can show (draws 0). */
static const struct known_bug *on_torch(const struct known_list *l, const char *torch, const char *const *ops,
					unsigned nops, int draws)
{
	char minor[16];
	if (torch_minor(torch, minor, sizeof minor))
		return NULL;
	for (unsigned i = 0; l && i < l->n; i++) {
		const struct known_bug *b = &l->bugs[i];
		if (strcmp(b->ops, "*") && is_draw_bug(b) == draws && !near_invalid_only(b) && listed(b->torch, minor) &&
		    all_among(b->ops, ops, nops))
			return b;
	}
	return NULL;
}

const struct known_bug *known_trigger(const struct known_list *l, const char *torch, const char *const *ops,
				     unsigned nops)
{
	return on_torch(l, torch, ops, nops, 0);
}

const struct known_bug *known_draw_bug(const struct known_list *l, const char *torch, const char *const *ops,
				      unsigned nops)
{
	return on_torch(l, torch, ops, nops, 1);
}

const struct known_bug *known_break_trigger(const struct known_list *l, const char *torch, const char *op,
					   const char *constraint)
{
	char word[64], minor[16];
	const char *ops[] = {op, word};
	if (torch_minor(torch, minor, sizeof minor) ||
	    snprintf(word, sizeof word, "%s%s", KNOWN_BREAK_WORD, constraint) >= (int)sizeof word)
		return NULL;
	for (unsigned i = 0; l && i < l->n; i++) {
		const struct known_bug *b = &l->bugs[i];
		if (strstr(b->ops, KNOWN_BREAK_WORD) && listed(b->torch, minor) && all_among(b->ops, ops, 2))
			return b;
	}
	return NULL;
}

const struct known_bug *known_stride_bug(const struct known_list *l, const char *torch, const char *detail)
{
	char minor[16];
	if (torch_minor(torch, minor, sizeof minor))
		return NULL;
	for (unsigned i = 0; l && i < l->n; i++) {
		const struct known_bug *b = &l->bugs[i];
		if (strcmp(b->kinds, "*") && listed(b->kinds, "stride") && !strcmp(b->ops, "*") && strcmp(b->error, "*") &&
		    listed(b->torch, minor) && !fnmatch(b->error, detail, 0))
			return b;
	}
	return NULL;
}

const struct known_list *known_bugs(char *why, size_t n)
{
	static struct known_list list;
	static int loaded; /* 1: parsed, -1: failed */
	static char error[600];
	if (!loaded) {
		loaded = known_parse(&list, pt2fuzz_known_bugs_txt, "pipeline/known_bugs.txt", error, sizeof error) ? -1 : 1;
		const char *file = getenv("PT2FUZZ_KNOWN_BUGS");
		if (loaded > 0 && file && *file) {
			size_t len;
			char *text = (char *)graphio_read_file(file, 1 << 20, &len, error, sizeof error);
			loaded = text && !known_parse(&list, text, file, error, sizeof error) ? 1 : -1;
			free(text);
		}
	}
	if (loaded < 0) {
		fail(why, n, "known bugs: %s", error);
		return NULL;
	}
	return &list;
}

void known_free(struct known_list *l)
{
	free(l->bugs);
	l->bugs = NULL;
	l->n = 0;
}
