/* Known bugs of near-invalid graphs, learned from findings. A known-bug line
 * of an error pattern alone (OPS *) names no trigger, and one of
 * missing-error or error-mismatch shows only where a node breaks a
 * constraint; but a finding of a near-invalid graph that matches such a line
 * names its trigger: the broken node's op and constraint. The campaign's
 * jobs share those pairs in FINDINGS/.known-breaks.tsv, one line each
 * ("TORCH_MINOR\tOP\tCONSTRAINT\tISSUE"), appended as they are found and
 * read by every job (mutators/avoid.h avoid_break), this campaign's and the
 * next ones'. */
#ifndef PT2FUZZ_KNOWN_BREAKS_H
#define PT2FUZZ_KNOWN_BREAKS_H

#define KNOWN_BREAKS_FILE ".known-breaks.tsv"

/* Whether findings's file names op and constraint (by name) on torch
 * ("2.11.0+cu130", by MAJOR.MINOR); the file is read again when it grew. */
int known_breaks_hit(const char *findings, const char *torch, const char *op, const char *constraint);

/* Adds the pair (for issue) to findings's file unless it is there. 0, or -1. */
int known_breaks_add(const char *findings, const char *torch, const char *op, const char *constraint,
		     const char *issue);

#endif
