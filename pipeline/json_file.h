/* The JSON files every command shares (a finding's meta.json, bisect.json,
 * reduced/reduce.json), through jansson: read whole and parsed, so a corrupt
 * or truncated file is an error naming it; written whole from a json_t and
 * atomically (pipeline/atomic_file.h), one top-level key a line (so that
 * line tools such as scripts/findings-text read a field). */
#ifndef PT2FUZZ_JSON_FILE_H
#define PT2FUZZ_JSON_FILE_H
#include <jansson.h>
#include <stddef.h>

/* PATH's JSON object (the caller json_decref's it), or NULL with a reason
 * that names PATH: it cannot be read (errno kept, ENOENT when absent), is
 * not JSON (the line and what is wrong there), or is no object. */
json_t *json_file_load(const char *path, char *why, size_t n);

/* obj as PATH (indented, keys in the order they were set, a final newline),
 * written atomically; durable as atomic_commit's. 0, or -1 (errno set). */
int json_file_write(const char *path, const json_t *obj, int durable);

/* obj[key] when it is a string, else "" (obj may be NULL). */
const char *json_file_str(const json_t *obj, const char *key);

/* json_file_str, copied into out (cut to fit). */
void json_file_copy(const json_t *obj, const char *key, char *out, size_t n);

/* obj[key] when it is a number (integer or real), else dflt. */
double json_file_num(const json_t *obj, const char *key, double dflt);

/* A string value of s (NULL for NULL). JSON text is UTF-8: where s is not
 * (a worker message cut mid-character), its non-ASCII bytes become '?'. */
json_t *json_file_text(const char *s);

/* A number value of x; null for NaN and the infinities, which JSON lacks. */
json_t *json_file_real(double x);

#endif
