#include "json_file.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../graph/fail.h"
#include "atomic_file.h"

json_t *json_file_load(const char *path, char *why, size_t n)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		int e = errno;
		fail(why, n, "%s: %s", path, strerror(e));
		errno = e;
		return NULL;
	}
	json_error_t err;
	json_t *v = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
	fclose(f);
	if (v && !json_is_object(v)) {
		json_decref(v);
		fail(why, n, "%s: not a JSON object", path);
		errno = EINVAL;
		return NULL;
	}
	if (!v) {
		fail(why, n, "%s: not valid JSON (line %d: %s)", path, err.line, err.text);
		errno = EINVAL;
	}
	return v;
}

int json_file_write(const char *path, const json_t *obj, int durable)
{
	/* Reals as %.6g, as precise as the oracle's numbers are worth. */
	char *text = json_dumps(obj, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	if (!text) {
		errno = ENOMEM;
		return -1;
	}
	struct atomic_file a;
	FILE *f = atomic_open(&a, path);
	if (f)
		fprintf(f, "%s\n", text); /* a short write sets the error flag atomic_commit checks */
	free(text);
	return f ? atomic_commit(&a, durable) : -1;
}

const char *json_file_str(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s ? s : "";
}

void json_file_copy(const json_t *obj, const char *key, char *out, size_t n)
{
	if (n)
		snprintf(out, n, "%s", json_file_str(obj, key));
}

double json_file_num(const json_t *obj, const char *key, double dflt)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_number(v) ? json_number_value(v) : dflt;
}

json_t *json_file_text(const char *s)
{
	json_t *v = json_string(s);
	if (v || !s)
		return v;
	char *ascii = strdup(s);
	for (char *p = ascii; p && *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	v = ascii ? json_string(ascii) : NULL;
	free(ascii);
	return v;
}

json_t *json_file_real(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}
