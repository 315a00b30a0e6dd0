/* A graph of several independent components (mutators/gen.h) whose compile
 * fails, or whose eager run raises, tells nothing about its other
 * components: the one failure stands for the whole graph. Isolation pins
 * such a failure on the component that makes it, by halving the set of
 * components and checking each half, then checks the remaining components
 * again without it, as often as another of them fails the same way. Each
 * part is then a finding (or a pass) of its own: one bug, known or not,
 * hides nothing in the components beside it. */
#ifndef PT2FUZZ_ISOLATE_H
#define PT2FUZZ_ISOLATE_H
#include "check.h"

/* A part of a graph with its check. */
struct check_part {
	struct graph g;
	struct check_result r;
};

/* Whether whole's verdict is one isolation pins on a component: an
 * exception (behaviour, missing-error, invalid) in a graph of two or more
 * components. Hangs and crashes have blame confirmation (blame.h), and
 * values findings are per output already (check_result.more). */
int isolate_applies(const struct graph *g, const struct check_result *whole);

/* The parts of g whose check was whole (check_graph's, with c): each
 * culprit component alone with its finding, then the remaining components
 * together with their check, at most cap parts (the caller frees each
 * part's result). 0 when whole's verdict does not apply or no component
 * alone shows it (then whole stands for the graph); -1 with a reason (no
 * worker). */
int isolate_parts(struct executor *x, const struct graph *g, const struct check_cfg *c,
		  const struct check_result *whole, struct check_part *parts, unsigned cap, char *why, size_t n);

#endif
