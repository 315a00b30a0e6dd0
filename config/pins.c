/* Pinned settings into Python: the worker types a pin by its setting's
 * default when it runs a program; a program that runs alone (repro.py, the
 * plain repro) carries the pin typed here, by the catalogue where the setting
 * is a row. */
#include "pins.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "settings.h"

static const char *const modules[] = {"inductor.", "dynamo.", "functorch.", "mode."};

static int dotted_words(const char *s)
{
	if (!*s || *s == '.')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && !(*s == '.' && s[1] && s[1] != '.'))
			return 0;
	return 1;
}

/* text as a Python string literal: quotes, backslashes and unprintable bytes escaped */
static int python_string(const char *text, char *py, size_t pysz)
{
	size_t k = 0;
	if (pysz < 3)
		return -1;
	py[k++] = '\'';
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		char esc[8];
		int len = *c == '\'' || *c == '\\' ? snprintf(esc, sizeof esc, "\\%c", *c)
			: isprint(*c)		    ? snprintf(esc, sizeof esc, "%c", *c)
						    : snprintf(esc, sizeof esc, "\\x%02x", *c);
		if (k + (size_t)len + 2 > pysz)
			return -1;
		memcpy(py + k, esc, (size_t)len);
		k += (size_t)len;
	}
	py[k++] = '\'';
	py[k] = 0;
	return 0;
}

/* A decimal integer or real number in text as Python writes it (no leading zeros, which
 * Python's literals refuse; not hex floats, nan or inf, which are names to Python).
 * 1 when it is one and fits. */
static int python_number(const char *text, char *py, size_t pysz)
{
	char *end;
	if (!*text || isspace((unsigned char)*text) || strpbrk(text, "xXnNiI"))
		return 0;
	errno = 0;
	long long i = strtoll(text, &end, 10);
	if (!*end && !errno)
		return snprintf(py, pysz, "%lld", i) < (int)pysz;
	errno = 0;
	double d = strtod(text, &end);
	if (*end || errno)
		return 0;
	int len = snprintf(py, pysz, "%.17g", d);
	if (!strpbrk(py, ".e"))
		len += snprintf(py + len, pysz > (size_t)len ? pysz - (size_t)len : 0, ".0");
	return len < (int)pysz;
}

int pin_python(const char *pin, char *name, size_t namesz, char *py, size_t pysz, char *why, size_t whysz)
{
	const char *eq = strchr(pin, '=');
	if (!eq || eq == pin || strchr(pin, '\n')) {
		snprintf(why, whysz, "inductor setting '%s' is not name=value", pin);
		return -1;
	}
	int ours = 0;
	for (unsigned i = 0; i < sizeof modules / sizeof modules[0]; i++)
		ours |= !strncmp(pin, modules[i], strlen(modules[i]));
	if (snprintf(name, namesz, "%s%.*s", ours ? "" : "inductor.", (int)(eq - pin), pin) >= (int)namesz ||
	    !dotted_words(name)) {
		snprintf(why, whysz, "setting name '%.*s' is not dotted words", (int)(eq - pin), pin);
		return -1;
	}
	if (!strcmp(name, GRAPH_CONFIG_BACKWARD)) { /* the harness's, not the program's: it decides what is compared */
		snprintf(why, whysz, "%s is backward mode: --mode backward pins it", name);
		return -1;
	}
	const char *text = eq + 1;
	int id = setting_find(name);
	if (id >= 0)
		return setting_parse_value(setting_get((unsigned)id), text, py, pysz, why, whysz) < 0 ? -1 : 0;
	int fits = !strcmp(text, "True") || !strcmp(text, "true")     ? snprintf(py, pysz, "True") < (int)pysz
		   : !strcmp(text, "False") || !strcmp(text, "false") ? snprintf(py, pysz, "False") < (int)pysz
		   : python_number(text, py, pysz) || !python_string(text, py, pysz);
	if (!fits) {
		snprintf(why, whysz, "setting %s: value too long", name);
		return -1;
	}
	return 0;
}
