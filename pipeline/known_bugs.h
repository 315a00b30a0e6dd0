/* Known upstream bugs: a list of patterns over finding buckets
 * (pipeline/bucket.h), one line per PyTorch issue, so that a finding of a
 * bug PyTorch already tracks is marked with its issue and not counted as new.
 * The list is pipeline/known_bugs.txt (linked into the binaries), plus the
 * file PT2FUZZ_KNOWN_BUGS names (set by --known). Its format:
 *   ISSUE | KINDS | ERROR | OPS | TORCH | TITLE
 * ISSUE pytorch#NUMBER, or docs/findings/NAME.md for a bug pt2fuzz found and
 * wrote up there (reported, awaiting upstream: counted apart from new bugs
 * and from upstream ones); KINDS verdict names, comma separated, or *; ERROR a
 * glob (fnmatch) over the bucket's error line (oracle_bucket_message: numbers
 * are N, expressions #); OPS op names that must all be in the finding's op
 * set (a word "family:NAME": some op of that family), or *; TORCH the
 * versions it was seen on; TITLE free text. Blank lines
 * and lines starting with # are comments. */
#ifndef PT2FUZZ_KNOWN_BUGS_H
#define PT2FUZZ_KNOWN_BUGS_H
#include <stddef.h>

struct known_bug {
	char issue[96], kinds[96], error[200], ops[200], torch[64], title[200];
};

struct known_list {
	struct known_bug *bugs;
	unsigned n;
};

/* An OPS word for a near-invalid graph's broken node: "break:CONSTRAINT"
 * (graph/broken.h's names), held by a finding of a graph that breaks it and,
 * as a trigger, by the broken node the breakers would make (mutators/avoid.h
 * avoid_break). */
#define KNOWN_BREAK_WORD "break:"

/* An OPS word for a setting of a finding's compile configuration:
 * "config:" and the setting as the configuration's text writes it
 * ("config:inductor.triton.cudagraphs=True", "config:mode=max-autotune";
 * GRAPH_CONFIG_WORD and config_text_words, graph/compile_config.h). A
 * finding made under that setting holds it. Such a line is a trigger of the configuration, not of
 * the ops: a configuration is not drawn, nor mutated into, that would make
 * a graph's component hold it (mutators/avoid.h avoid_config), and the ops
 * stay in reach where the setting is not drawn. */

/* Where pt2fuzz's written-up findings are, in the repository: the ISSUE of
 * its own reported bugs. */
#define KNOWN_REPORTED_DIR "docs/findings/"

/* Whether b is one of pt2fuzz's own reported bugs (ISSUE docs/findings/NAME.md). */
int known_is_reported(const struct known_bug *b);

/* Appends the lines of text (named file in messages) to l. 0, or -1 with
 * "FILE:LINE: what is wrong" in why (l keeps the lines before). */
int known_parse(struct known_list *l, const char *text, const char *file, char *why, size_t n);

/* The first bug of l that a finding matches: its verdict kind, its bucket
 * error line, its op names (which give no inputs: an OPS word "op@dtype",
 * "op@0d" or "op@strided" matches op). NULL when none. */
const struct known_bug *known_match(const struct known_list *l, const char *kind, const char *error,
				   const char *const *ops, unsigned nops);

/* The first bug of l whose trigger n ops hold (mutators/avoid.h), each a
 * node's graph_op_word ("op@dtype" and its input's marks, graph/graph.h):
 * its OPS (not *) all among them (an OPS word "op@dtype" only where that op
 * reads that dtype, "op@0d" only where it reads a 0-d tensor, "op@strided"
 * one not known contiguous, "op@int64@0d" both), on a torch it was seen on (torch, as
 * "2.11.0+cu130", by MAJOR.MINOR among its TORCH versions). Draw bugs
 * (below) are no triggers: the oracle stops comparing what they change;
 * nor are bugs of near-invalid graphs alone (KINDS missing-error,
 * error-mismatch), whose trigger is the broken op and its constraint
 * (learned from findings: fuzz/known_breaks.h). NULL when none. */
const struct known_bug *known_trigger(const struct known_list *l, const char *torch, const char *const *ops,
				     unsigned nops);

/* The same among draw bugs: numeric bugs whose OPS are random ops alone
 * (family:random, or their names), which make compiled code draw other
 * numbers than eager (pipeline/draws.h). */
const struct known_bug *known_draw_bug(const struct known_list *l, const char *torch, const char *const *ops,
				      unsigned nops);

/* The first bug of l, on torch, whose OPS name a broken node (a
 * KNOWN_BREAK_WORD word) that op breaking constraint (graph/broken.h's
 * name) holds: "break:unsupported_dtype" alone holds for every op. NULL when
 * none. */
const struct known_bug *known_break_trigger(const struct known_list *l, const char *torch, const char *op,
					   const char *constraint);

/* The first stride bug of l, on torch, of any graph (OPS *) whose ERROR
 * names a detail (not *) and matches a stride finding's detail (a sample of
 * what the oracle says, e.g. of ORACLE_PADDED_LAYOUT): the oracle judges
 * around it there. NULL when none. */
const struct known_bug *known_stride_bug(const struct known_list *l, const char *torch, const char *detail);

/* The built-in list and PT2FUZZ_KNOWN_BUGS's file, parsed once; NULL with
 * the reason (then, and on later calls) when one is malformed or unreadable. */
const struct known_list *known_bugs(char *why, size_t n);

void known_free(struct known_list *l);

#endif
