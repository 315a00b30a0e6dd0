/* The op_db entries the catalogue leaves out on purpose, each with its
 * reason: reviewed, so that `pt2fuzz opdb` counts only what is left to add. */
#ifndef PT2FUZZ_OPDB_EXCLUSIONS_H
#define PT2FUZZ_OPDB_EXCLUSIONS_H

struct opdb_exclusion {
	const char *pattern; /* an op_db name, or a prefix ending in '*' */
	const char *reason;
};

extern const struct opdb_exclusion opdb_exclusions[];
extern const unsigned opdb_exclusion_count;

/* The row whose pattern matches name, or NULL. */
const struct opdb_exclusion *opdb_excluded(const char *name);

#endif
