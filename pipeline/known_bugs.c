#include "known_bugs.h"
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../graph/fail.h"
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

/* The first comma-separated word of list that is no verdict name, or NULL. */
static const char *bad_kind(const char *list)
{
	static char word[64];
	for (const char *s = list; *s;) {
		size_t l = strcspn(s, ",");
		snprintf(word, sizeof word, "%.*s", (int)(l < 63 ? l : 63), s);
		int found = 0;
		for (unsigned k = 0; k < V_COUNT; k++)
			found |= !strcmp(word, verdict_name((enum verdict_kind)k));
		if (!found)
			return word;
		s += l + (s[l] == ',');
	}
	return NULL;
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
	if (strncmp(b->issue, "pytorch#", 8) || !*digits || strspn(digits, "0123456789") != strlen(digits))
		return fail(why, n, "%s: issue '%s': expected pytorch#NUMBER", where, b->issue);
	const char *kind = strcmp(b->kinds, "*") ? bad_kind(b->kinds) : NULL;
	if (kind)
		return fail(why, n, "%s: kind '%s' is no verdict (behaviour, missing-error, numeric, ...)", where, kind);
	return 0;
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

/* Whether word is one of list's comma-separated words. */
static int in_list(const char *list, const char *word)
{
	size_t wl = strlen(word);
	for (const char *s = list; *s;) {
		size_t l = strcspn(s, ",");
		if (l == wl && !strncmp(s, word, l))
			return 1;
		s += l + (s[l] == ',');
	}
	return 0;
}

/* Whether every op of list is among ops. */
static int has_ops(const char *list, const char *const *ops, unsigned nops)
{
	if (!strcmp(list, "*"))
		return 1;
	for (const char *s = list; *s;) {
		size_t l = strcspn(s, ",");
		int found = 0;
		for (unsigned i = 0; i < nops && !found; i++)
			found = strlen(ops[i]) == l && !strncmp(ops[i], s, l);
		if (!found)
			return 0;
		s += l + (s[l] == ',');
	}
	return 1;
}

const struct known_bug *known_match(const struct known_list *l, const char *kind, const char *error,
				   const char *const *ops, unsigned nops)
{
	for (unsigned i = 0; l && i < l->n; i++) {
		const struct known_bug *b = &l->bugs[i];
		if ((!strcmp(b->kinds, "*") || in_list(b->kinds, kind)) && !fnmatch(b->error, error, 0) &&
		    has_ops(b->ops, ops, nops))
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
