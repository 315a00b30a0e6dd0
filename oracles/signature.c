/* A finding's dedup identity: what went wrong, never where or by how much.
 * Two inputs that hit one bug should hash equal although their bindings,
 * sizes, buffer names, addresses and temp paths differ. */
#include "signature.h"
#include <ctype.h>
#include <string.h>
#include <xxhash.h>
#include "../graph/broken.h"
#include "errline.h"

#define NORM_CAP 200

/* Length of a number starting at s (a digit): 0x hex, a bare hex run of 8+
 * with a letter in it (an address or hash), or a decimal with optional
 * fraction and exponent. */
static size_t number_len(const char *s)
{
	size_t i = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2])) {
		for (i = 2; isxdigit((unsigned char)s[i]);)
			i++;
		return i;
	}
	int letter = 0;
	while (isxdigit((unsigned char)s[i]))
		letter |= isalpha((unsigned char)s[i++]);
	if (i >= 8 && letter)
		return i;
	for (i = 0; isdigit((unsigned char)s[i]);)
		i++;
	if (s[i] == '.' && isdigit((unsigned char)s[i + 1]))
		for (i++; isdigit((unsigned char)s[i]);)
			i++;
	size_t e = i + 1 + (s[i + 1] == '+' || s[i + 1] == '-');
	if ((s[i] == 'e' || s[i] == 'E') && isdigit((unsigned char)s[e]))
		for (i = e; isdigit((unsigned char)s[i]);)
			i++;
	return i;
}

/* Length of a quoted identifier at s ('buf12', "x.y", `name`), quotes
 * included; 0 when s does not start one. */
static size_t quoted_ident_len(const char *s)
{
	if (*s != '\'' && *s != '"' && *s != '`')
		return 0;
	size_t i = 1;
	while (is_ident_char((unsigned char)s[i]) || s[i] == '.')
		i++;
	return i > 1 && s[i] == s[0] ? i + 1 : 0;
}

void oracle_normalize_message(const char *msg, char *out, size_t n)
{
	if (!n)
		return;
	const char *line;
	size_t len;
	oracle_error_line(msg ? msg : "", &line, &len);
	/* Drop tokens that contain '/': file paths (temp dirs, site-packages). */
	char kept[1024];
	size_t k = 0;
	for (size_t i = 0; i < len && k < sizeof kept - 1;) {
		size_t t = i;
		while (t < len && !isspace((unsigned char)line[t]))
			t++;
		if (!memchr(line + i, '/', t - i)) {
			size_t copy = t - i < sizeof kept - 1 - k ? t - i : sizeof kept - 1 - k;
			memcpy(kept + k, line + i, copy);
			k += copy;
		}
		if (t < len && k < sizeof kept - 1)
			kept[k++] = ' ';
		i = t + (t < len);
	}
	kept[k] = 0;
	/* Numbers to N, quoted names to '', whitespace collapsed, capped. */
	size_t cap = n - 1 < NORM_CAP ? n - 1 : NORM_CAP, o = 0;
	for (const char *s = kept; *s && o < cap;) {
		size_t q;
		if (isdigit((unsigned char)*s)) {
			out[o++] = 'N';
			s += number_len(s);
		} else if ((q = quoted_ident_len(s))) {
			out[o++] = *s;
			if (o < cap)
				out[o++] = *s;
			s += q;
		} else if (isspace((unsigned char)*s)) {
			if (o && out[o - 1] != ' ')
				out[o++] = ' ';
			s++;
		} else {
			out[o++] = *s++;
		}
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = 0;
}

/* Whether the word s[0..len) is (part of) an expression: only numbers (N),
 * size symbols (sN, uN), brackets, operators and separators. */
static int expression_word(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if ((s[i] == 's' || s[i] == 'u') && i + 1 < len && s[i + 1] == 'N')
			i++;
		else if (s[i] != 'N' && !strchr("()[]{}+-*/%<>=!,.", s[i]))
			return 0;
	}
	return len > 0;
}

void oracle_bucket_message(const char *msg, char *out, size_t n)
{
	char norm[NORM_CAP + 1];
	oracle_normalize_message(msg, norm, sizeof norm);
	size_t o = 0;
	int last_hash = 0;
	for (const char *s = norm; *s && n;) {
		size_t len = strcspn(s, " ");
		int expr = expression_word(s, len);
		if (!(expr && last_hash)) {
			const char *w = expr ? "#" : s;
			size_t wl = expr ? 1 : len;
			if (o + (o > 0) + wl >= n)
				break;
			if (o)
				out[o++] = ' ';
			memcpy(out + o, w, wl);
			o += wl;
		}
		last_hash = expr;
		s += len + (s[len] == ' ');
	}
	if (n)
		out[o < n ? o : n - 1] = 0;
}

static uint64_t mix(uint64_t h, const void *p, size_t len) { return XXH64(p, len, h); }
static uint64_t mix_str(uint64_t h, const char *s) { return mix(h, s, strlen(s)); }

/* The mode whose exception names the finding, or NULL. */
static const struct mode_result *raising_mode(const struct verdict *v, const struct run_result *r)
{
	if (v->binding < 0 || v->binding >= G_MAX_BIND || v->what == MM_CRASHED)
		return NULL;
	const struct mode_result *e = &r->m[RM_EAGER][v->binding], *c = &r->m[RM_COMPILED][v->binding];
	if ((v->kind == V_BEHAVIOUR || v->kind == V_ERROR_MISMATCH || v->kind == V_EXPORT) && c->ran && !c->ok)
		return c;
	if ((v->kind == V_MISSING_ERROR || v->kind == V_INVALID) && e->ran && !e->ok)
		return e;
	return NULL;
}

uint64_t oracle_signature(const struct verdict *v, const struct run_result *r, const char *const *ops, unsigned nops)
{
	/* Each piece is hashed on its own, seeded by the hash so far, so piece
	 * boundaries count ("ab","c" differs from "a","bc"). */
	uint64_t h = mix_str(0x70743266757a7aULL, verdict_name(v->kind));
	h = mix_str(h, mismatch_name(v->what));
	if (v->backward) /* forward findings hash as before backward mode existed */
		h = mix_str(h, "backward");
	if (v->broken)
		h = mix_str(h, constraint_name(v->broken) ? constraint_name(v->broken) : "?");
	if (v->kind == V_ERROR_MISMATCH && v->binding >= 0 && v->binding < G_MAX_BIND)
		h = mix_str(h, r->m[RM_EAGER][v->binding].etype); /* the type compiled mode should have raised */
	const struct mode_result *m = raising_mode(v, r);
	if (m) {
		char norm[NORM_CAP + 1];
		oracle_normalize_message(m->emsg, norm, sizeof norm);
		h = mix_str(h, m->etype);
		h = mix_str(h, norm);
	}
	if (v->what == MM_CRASHED || v->what == MM_LATER) { /* later: the later program's crash */
		int32_t how[2] = {r->term_signal, r->term_signal ? 0 : r->exit_code};
		h = mix(h, how, sizeof how);
	}
	/* The op set: sorted and de-duplicated by repeated selection of the
	 * next greater name (graphs are small; no allocation). */
	const char *prev = NULL;
	for (;;) {
		const char *next = NULL;
		for (unsigned i = 0; i < nops; i++)
			if (ops[i] && (!prev || strcmp(ops[i], prev) > 0) && (!next || strcmp(ops[i], next) < 0))
				next = ops[i];
		if (!next)
			break;
		h = mix(h, next, strlen(next) + 1);
		prev = next;
	}
	return h;
}
