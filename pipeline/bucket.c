#include "bucket.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>
#include "../config/compile.h"
#include "../config/pins.h"
#include "../config/settings.h"
#include "../graph/compile_config.h"
#include "../graph/fail.h"
#include "../graph/graph.h"
#include "../oracles/signature.h"
#include "check_job.h"
#include "json_file.h"

/* Whether findings of this verdict kind are bucketed by their error, when they have one. */
static int by_error(const char *kind)
{
	static const enum verdict_kind by_error[] = {V_BEHAVIOUR, V_MISSING_ERROR, V_ERROR_MISMATCH};
	for (unsigned i = 0; i < sizeof by_error / sizeof *by_error; i++)
		if (!strcmp(kind, verdict_name(by_error[i])))
			return 1;
	return 0;
}

/* The words a known-bug line's OPS are matched against (known_bugs.h): the
 * finding's ops, then "break:CONSTRAINT" for a near-invalid finding's broken
 * node and "config:SETTING" for each setting of its compile configuration
 * (meta.json's "config", split as generation splits a graph's) and each
 * setting the command line pinned over it (meta.json's "pinned", as the text
 * form writes it), with the backend it ran under (meta.json's "backend")
 * where the command line chose one other than Inductor and the configuration
 * names none. */
struct match_words {
	const char *all[G_MAX_NODES + 2 + GRAPH_CONFIG_WORDS_MAX + CHECK_MAX_INDUCTOR];
	char broken[72];
	char config[GRAPH_CONFIG_WORDS_MAX][GRAPH_CONFIG_WORD_LEN];
	char pins[CHECK_MAX_INDUCTOR][GRAPH_CONFIG_WORD_LEN];
	char backend[GRAPH_CONFIG_WORD_LEN];
	unsigned n;
};

/* Whether one of the n words starts with prefix. */
static int word_starts(const char *const *words, unsigned n, const char *prefix)
{
	for (unsigned k = 0; k < n; k++)
		if (!strncmp(words[k], prefix, strlen(prefix)))
			return 1;
	return 0;
}

/* meta.json's pins as config words over the n configuration words from first: a
 * configuration word of a pinned setting is dropped (the pin is what ran). */
static void pin_words(const json_t *meta, unsigned first, struct match_words *w)
{
	json_t *pinned = json_object_get(meta, "pinned");
	for (size_t i = 0; i < json_array_size(pinned) && i < CHECK_MAX_INDUCTOR; i++) {
		const char *pin = json_string_value(json_array_get(pinned, i)), *eq = pin ? strchr(pin, '=') : NULL;
		char name[PIN_NAME_MAX], py[SETTING_PYTHON_MAX], why[8];
		if (!eq || pin_python(pin, name, sizeof name, py, sizeof py, why, sizeof why))
			continue;
		size_t len = strlen(GRAPH_CONFIG_WORD) + strlen(name);
		/* from the end, so that a word moved into a dropped one's place was already seen */
		for (unsigned k = w->n; k-- > first;)
			if (!strncmp(w->all[k], GRAPH_CONFIG_WORD, strlen(GRAPH_CONFIG_WORD)) &&
			    !strncmp(w->all[k] + strlen(GRAPH_CONFIG_WORD), name, strlen(name)) && w->all[k][len] == '=')
				w->all[k] = w->all[--w->n];
		/* the text form's value: a string bare, as the catalogue lists it */
		if (snprintf(w->pins[i], sizeof w->pins[i], "%s%s=%s", GRAPH_CONFIG_WORD, name, py[0] == '\'' ? eq + 1 : py) <
		    (int)sizeof w->pins[i])
			w->all[w->n++] = w->pins[i];
	}
}

static void match_words(const json_t *meta, const char *const *ops, unsigned n, struct match_words *w)
{
	w->n = 0;
	for (unsigned k = 0; k < n && k < G_MAX_NODES; k++)
		w->all[w->n++] = ops[k];
	const char *c = json_file_str(meta, "expect_error");
	if (c[0] && snprintf(w->broken, sizeof w->broken, "%s%s", KNOWN_BREAK_WORD, c) < (int)sizeof w->broken)
		w->all[w->n++] = w->broken;
	unsigned first = w->n;
	w->n += config_text_words(json_file_str(meta, "config"), w->config, w->all + w->n, GRAPH_CONFIG_WORDS_MAX);
	pin_words(meta, first, w);
	const char *backend = json_file_str(meta, "backend");
	if (backend[0] && strcmp(backend, compile_backend_name(CB_INDUCTOR)) &&
	    !word_starts(w->all + first, w->n - first, GRAPH_CONFIG_WORD GRAPH_BACKEND_KEY) &&
	    graph_backend_word(backend, w->backend)[0])
		w->all[w->n++] = w->backend;
}

/* What a known-bug line's ERROR is matched against: the exception's message,
 * or for a finding of none (values, strides) the verdict's detail, both
 * normalized (oracle_bucket_message). */
static void known_error_line(const json_t *meta, char *error, size_t n)
{
	const char *message = json_file_str(meta, "message");
	oracle_bucket_message(message[0] ? message : json_file_str(meta, "detail"), error, n);
}

void bucket_of(const json_t *meta, struct finding_bucket *b)
{
	const char *kind = json_file_str(meta, "verdict");
	char error[256];
	oracle_bucket_message(json_file_str(meta, "message"), error, sizeof error);
	b->by_error = by_error(kind) && json_file_str(meta, "exception")[0];
	if (b->by_error) {
		const char *eager = !strcmp(kind, verdict_name(V_ERROR_MISMATCH)) ? json_file_str(meta, "eager_exception") : "";
		snprintf(b->text, sizeof b->text, "%s %s%s%s: %s", kind, eager, eager[0] ? " -> " : "",
			 json_file_str(meta, "exception"), error);
	} else {
		snprintf(b->text, sizeof b->text, "%s", json_file_str(meta, "signature"));
	}
	b->hash = XXH64(b->text, strlen(b->text), 0);
	const char *ops[G_MAX_NODES];
	unsigned nops = 0;
	json_t *list = json_object_get(meta, "ops"), *op;
	size_t i;
	json_array_foreach(list, i, op)
		if (json_is_string(op) && nops < G_MAX_NODES)
			ops[nops++] = json_string_value(op);
	struct match_words w;
	match_words(meta, ops, nops, &w);
	known_error_line(meta, error, sizeof error);
	b->known = known_match(known_bugs(NULL, 0), kind, error, w.all, w.n);
}

const struct known_bug *bucket_known(const json_t *meta, const char *const *ops, unsigned nops)
{
	char error[256];
	struct match_words w;
	known_error_line(meta, error, sizeof error);
	match_words(meta, ops, nops, &w);
	return known_match(known_bugs(NULL, 0), json_file_str(meta, "verdict"), error, w.all, w.n);
}

/* DIR/meta.json, its path left in path (size bytes); NULL with a reason. */
static json_t *load_meta(const char *dir, char *path, size_t size, char *why, size_t n)
{
	int k = snprintf(path, size, "%s/meta.json", dir);
	if (k < 0 || (size_t)k >= size) {
		fail(why, n, "%s: path too long", dir);
		return NULL;
	}
	return json_file_load(path, why, n);
}

int bucket_store_known_reduced(const char *dir, const char *const *ops, unsigned nops, uint64_t reduced_bucket,
			       const struct known_bug **known, char *why, size_t n)
{
	char path[4200], hex[17];
	json_t *meta = load_meta(dir, path, sizeof path, why, n);
	if (!meta)
		return -1;
	*known = bucket_known(meta, ops, nops);
	snprintf(hex, sizeof hex, "%016llx", (unsigned long long)reduced_bucket);
	int bad = json_object_set_new(meta, "known", json_string(*known ? (*known)->issue : "")) ||
		  json_object_set_new(meta, "reduced_bucket", json_string(hex)) || json_file_write(path, meta, 1);
	json_decref(meta);
	return bad ? fail(why, n, "%s: cannot write", path) : 0;
}

int bucket_load(const char *dir, struct finding_bucket *b, char *why, size_t n)
{
	char path[4200];
	json_t *meta = load_meta(dir, path, sizeof path, why, n);
	if (!meta)
		return -1;
	bucket_of(meta, b);
	json_decref(meta);
	return 0;
}

int bucket_store(json_t *meta)
{
	struct finding_bucket b;
	char hash[17];
	bucket_of(meta, &b);
	snprintf(hash, sizeof hash, "%016llx", (unsigned long long)b.hash);
	return json_object_set_new(meta, "bucket", json_string(hash)) ||
	       json_object_set_new(meta, "bucket_text", json_file_text(b.text)) ||
	       json_object_set_new(meta, "known", json_string(b.known ? b.known->issue : ""));
}

/* DIR/meta.json's "reduced_bucket" (written by triage), else fallback. */
static uint64_t reduced_bucket(const char *dir, uint64_t fallback)
{
	char path[4200], why[300];
	json_t *meta = load_meta(dir, path, sizeof path, why, sizeof why);
	const char *hex = json_file_str(meta, "reduced_bucket");
	uint64_t h = hex[0] ? strtoull(hex, NULL, 16) : fallback;
	json_decref(meta);
	return h;
}

static int by_hash(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The classes of the census, in the low bits of a folder's entry; of a
 * bucket's findings the highest class counts (one reduced makes it a bug). */
enum census_class { CC_AWAITING, CC_NEW, CC_KNOWN, CC_REPORTED, CC_MASK = 3 };

/* A folder's census entry: its bucket (for a known or reported bug, its
 * issue: one bug, whatever errors and op sets its findings show; for a
 * reduced values finding, its reduced graph's) with the low bits replaced
 * by its class. A campaign counts every 2 seconds: an entry that can no
 * longer change (known, reported, reduced) is kept, by path; an awaiting one
 * is read again, since triage may reduce it. */
static uint64_t census_entry(const char *path)
{
	static struct {
		uint64_t *keys, *vals; /* key 0: empty slot */
		size_t n, cap;
	} memo;
	uint64_t key = XXH64(path, strlen(path), 0) | 1;
	for (size_t j = memo.cap ? key & (memo.cap - 1) : 0; memo.cap && memo.keys[j]; j = (j + 1) & (memo.cap - 1))
		if (memo.keys[j] == key)
			return memo.vals[j];
	/* A folder without a readable meta.json yet (being written) is its own bucket, asked again next time. */
	struct finding_bucket b = {0};
	char why[300], reduced[4300];
	if (bucket_load(path, &b, why, sizeof why))
		return key & ~(uint64_t)CC_MASK;
	snprintf(reduced, sizeof reduced, "%s/reduced/graph.bin", path);
	uint64_t val;
	if (b.known)
		val = (XXH64(b.known->issue, strlen(b.known->issue), 0) & ~(uint64_t)CC_MASK) |
		      (known_is_reported(b.known) ? CC_REPORTED : CC_KNOWN);
	else if (access(reduced, F_OK))
		return (b.hash & ~(uint64_t)CC_MASK) | CC_AWAITING;
	else
		val = (reduced_bucket(path, b.hash) & ~(uint64_t)CC_MASK) | CC_NEW;
	if (2 * (memo.n + 1) > memo.cap) { /* grow: at most half full */
		size_t cap = memo.cap ? 2 * memo.cap : 256;
		uint64_t *keys = calloc(cap, sizeof *keys), *vals = calloc(cap, sizeof *vals);
		if (!keys || !vals) {
			free(keys);
			free(vals);
			return val;
		}
		for (size_t i = 0; i < memo.cap; i++)
			if (memo.keys[i]) {
				size_t j = memo.keys[i] & (cap - 1);
				while (keys[j])
					j = (j + 1) & (cap - 1);
				keys[j] = memo.keys[i];
				vals[j] = memo.vals[i];
			}
		free(memo.keys);
		free(memo.vals);
		memo.keys = keys;
		memo.vals = vals;
		memo.cap = cap;
	}
	size_t j = key & (memo.cap - 1);
	while (memo.keys[j])
		j = (j + 1) & (memo.cap - 1);
	memo.keys[j] = key;
	memo.vals[j] = val;
	memo.n++;
	return val;
}

void findings_census(const char *dir, struct findings_census *c)
{
	memset(c, 0, sizeof *c);
	/* Each folder's census_entry: sorted, the distinct buckets counted by their highest class. */
	uint64_t *hashes = NULL;
	size_t cap = 0, nh = 0;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		for (unsigned k = 0; k < V_COUNT; k++) {
			size_t l = strlen(verdict_name((enum verdict_kind)k));
			if (strncmp(e->d_name, verdict_name((enum verdict_kind)k), l) || e->d_name[l] != '-' ||
			    strlen(e->d_name) != l + 17)
				continue;
			c->by_kind[k]++;
			c->total++;
			if (nh == cap) {
				uint64_t *h = realloc(hashes, (cap ? 2 * cap : 64) * sizeof *h);
				if (!h)
					continue; /* counted by kind, not bucketed */
				hashes = h;
				cap = cap ? 2 * cap : 64;
			}
			char sub[4200];
			int len = snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
			hashes[nh++] = len < 0 || (size_t)len >= sizeof sub ? XXH64(e->d_name, l + 17, 0) & ~(uint64_t)CC_MASK
									 : census_entry(sub);
		}
	if (d)
		closedir(d);
	if (hashes)
		qsort(hashes, nh, sizeof *hashes, by_hash);
	for (size_t i = 0; i < nh; i++) {
		if (i + 1 < nh && hashes[i + 1] >> 2 == hashes[i] >> 2)
			continue; /* the last of a bucket's entries has its highest class */
		c->buckets++;
		unsigned *in_class[] = {[CC_AWAITING] = &c->awaiting, [CC_NEW] = &c->bugs, [CC_KNOWN] = &c->known,
					[CC_REPORTED] = &c->reported};
		(*in_class[hashes[i] & CC_MASK])++;
	}
	free(hashes);
}
