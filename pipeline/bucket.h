/* Buckets: findings counted by bug, not by op set. A finding's signature
 * includes its op set, so one bug reached through different graphs gives
 * several findings; its bucket leaves the op set out. For behaviour,
 * missing-error and error-mismatch findings with an exception the bucket is
 * the verdict kind, the exception type (for error-mismatch also eager's) and
 * the error line normalized by oracle_bucket_message; for the other kinds
 * (numeric, stride, ...) and findings without an exception (a crash, a wrong
 * shape) it is the signature itself. A pure function of meta.json's
 * fields, so folders written before buckets existed get one too. */
#ifndef PT2FUZZ_BUCKET_H
#define PT2FUZZ_BUCKET_H
#include <jansson.h>
#include <stdint.h>
#include "../oracles/verdict.h"
#include "known_bugs.h"

struct finding_bucket {
	uint64_t hash;                 /* xxHash64 of text */
	char text[400];                /* "behaviour torch._inductor.exc.InductorError: LoweringException: ..." */
	int by_error;                  /* text is kind and error, not the signature */
	const struct known_bug *known; /* the known upstream bug it matches, or NULL */
};

/* The bucket of a meta.json object, matched against the known bugs (none
 * when the list is malformed: run_opts_parse reports that). */
void bucket_of(const json_t *meta, struct finding_bucket *b);

/* The bucket of DIR/meta.json; -1 with a reason when it cannot be read. */
int bucket_load(const char *dir, struct finding_bucket *b, char *why, size_t n);

/* Sets meta's "bucket", "bucket_text" and "known" keys from bucket_of. 0, or -1. */
int bucket_store(json_t *meta);

/* The known bug of a finding matched against the given op names: those of
 * its reduced graph, once triage has one (the original's other ops could
 * match another line, e.g. a random op the reduction removed). */
const struct known_bug *bucket_known(const json_t *meta, const char *const *ops, unsigned nops);

/* DIR/meta.json's "known" set from the ops of the graph triage reduced it
 * to, and *known to that bug (NULL: none); its "reduced_bucket" to
 * reduced_bucket (the bucket its reduced graph shows). 0, or -1 with a reason. */
int bucket_store_known_reduced(const char *dir, const char *const *ops, unsigned nops, uint64_t reduced_bucket,
			       const struct known_bug **known, char *why, size_t n);

/* A findings directory counted: folders "<kind>-<signature>" by kind, and
 * the bugs among them, each bucket once (the findings of one known or
 * reported bug counting once, by its issue, whatever their buckets), in
 * exactly one class: known upstream, reported by pt2fuzz (docs/findings),
 * a new bug once triage has reduced one of its findings (reduced/graph.bin;
 * a values finding then by its reduced graph's signature, bucket_store_known_reduced),
 * else awaiting triage. Nothing unreduced is called a bug. */
struct findings_census {
	unsigned total, by_kind[V_COUNT];
	unsigned buckets;  /* all distinct buckets */
	unsigned bugs;     /* new bugs: reduced, neither known nor reported */
	unsigned awaiting; /* buckets no finding of which is reduced yet */
	unsigned known;    /* known upstream bugs */
	unsigned reported; /* pt2fuzz's own written-up bugs */
};

void findings_census(const char *dir, struct findings_census *c);

#endif
