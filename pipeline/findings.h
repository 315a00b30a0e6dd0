/* The findings directory: one folder per signature,
 *   findings/<kind>-<signature>/ repro.py graph.bin meta.json worker.log
 * A second hit of a signature raises meta.json's count (under a lock, so
 * several workers and fork-mode jobs can share the directory). */
#ifndef PT2FUZZ_FINDINGS_H
#define PT2FUZZ_FINDINGS_H
#include "check.h"
#include "json_file.h"

struct finding_ctx {
	const char *dir;            /* the findings directory */
	const struct check_cfg *cfg;
	const struct executor *x;   /* for the worker's log and versions */
	const char *device;
	const char *source;         /* where the input came from (a file, "libFuzzer") */
};

/* Records finding f of r (check_primary's, or one of r->more) for graph g (NULL for
 * a program without graph): a new signature's folder appears whole, meta.json
 * in it. Returns 1 for a new signature, 0 for a repeat, -1 with a reason. The
 * folder's name goes to path. */
int findings_record(const struct finding_ctx *fc, const struct graph *g, const struct check_result *r,
		    const struct check_finding *f, char *path, size_t pathlen, char *why, size_t n);

/* Sets DIR/meta.json's bucket and known bug afresh (pipeline/bucket.h),
 * under the folder's lock: for folders from before buckets, and after the
 * known bugs list has grown. 0, or -1 with a reason. */
int findings_mark(const char *dir, char *why, size_t n);

/* Copies what triage wrote into FROM/meta.json (the known bug of the
 * reduced graph, its bucket) into TO/meta.json, under TO's lock: a triage
 * done by another runner, its count and dates left as TO has them.
 * 0, or -1 with a reason. */
int findings_take_triage(const char *from, const char *to, char *why, size_t n);

/* meta.json's "pinned": the settings the command line pinned (`--inductor`) when the
 * finding was made, which its graph's configuration does not hold. */
struct finding_pins {
	char pin[CHECK_MAX_INDUCTOR][128];
	unsigned n;
};

/* Reads meta's pins into p (none for a meta.json from before them). 0, or -1 with a
 * reason for one that is not a pin (config/pins.h) or too many. */
int findings_pins_load(const json_t *meta, struct finding_pins *p, char *why, size_t n);

/* c runs under p's pins where its command line pinned none. */
void findings_pins_apply(const struct finding_pins *p, struct check_cfg *c);

/* What reduce, bisect, triage and report read back from a finding folder. */
struct finding_meta {
	char verdict[32], mismatch[32], backend[64], mode[64], dynamic[16], detail[300];
	int output;          /* the output that mismatched, -1 when none */
	unsigned count;      /* hits */
	char pass[16];       /* the pass that diverged: "forward" or "backward" */
	int backward;        /* found in backward mode (meta.json's passes) */
	struct finding_pins pins;
};

#define FINDINGS_BACKWARD_PASSES "forward+backward" /* meta.json's passes in backward mode */

/* Reads the meta.json of finding folder dir into m. 0, or -1 with a reason. */
int findings_meta_read(const json_t *meta, const char *dir, struct finding_meta *m, char *why, size_t n);

/* Loads DIR/graph.bin and DIR/meta.json. 0, or -1 with a reason. */
int findings_load(const char *dir, struct graph *g, struct finding_meta *m, char *why, size_t n);

/* Which of a finding's backend, mode and dynamic setting a command line gave. */
enum finding_given { GIVEN_BACKEND = 1, GIVEN_MODE = 2, GIVEN_DYNAMIC = 4 };

/* c runs a finding as m says it ran, but for what given names (c's own stands
 * there) and the pins, which are m's where c pins none. c keeps pointers into m. */
void findings_cfg_apply(const struct finding_meta *m, unsigned given, struct check_cfg *c);

/* dir/name into out; -1 (and nothing usable) when it does not fit. */
int findings_path(char *out, size_t n, const char *dir, const char *name);

/* The folder name of a signature: "<kind>-<16 hex digits>". */
void findings_name(const struct verdict *v, uint64_t sig, char *out, size_t n);

#endif
