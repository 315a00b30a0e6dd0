#include "torch_avoid.h"
#include <stdio.h>
#include <string.h>
#include "../config/compile.h"
#include "../graph/broken.h"
#include "../graph/compile_config.h"
#include "../graph/op.h"
#include "../mutators/avoid.h"
#include "../pipeline/known_bugs.h"
#include "known_breaks.h"

static const char *(*campaign_torch)(void);
static const char *campaign_findings;
static char campaign_backend_word[GRAPH_CONFIG_WORD_LEN]; /* --backend aoti's, as a drawn configuration writes it */

static int known_trigger_hits(const char *const *ops, unsigned nops)
{
	const char *words[G_MAX_NODES + GRAPH_STRUCTURE_WORDS + GRAPH_CONFIG_WORDS_MAX + 1];
	if (campaign_backend_word[0] && nops < sizeof words / sizeof *words) {
		memcpy(words, ops, nops * sizeof *ops);
		words[nops++] = campaign_backend_word;
		ops = words;
	}
	return known_trigger(known_bugs(NULL, 0), campaign_torch(), ops, nops) != NULL;
}

/* Generation redraws such a component and mutation drops it, as a known
 * bug's trigger, whatever --hunt-known says: the torch cannot run it. */
static int missing_in_torch(const char *const *ops, unsigned nops)
{
	for (unsigned i = 0; i < nops; i++) {
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)strcspn(ops[i], "@"), ops[i]);
		int op = op_find(name);
		if (op >= 0 && !op_in_torch(op_get((unsigned)op), campaign_torch()))
			return 1;
	}
	return 0;
}

static int avoided_hits(const char *const *ops, unsigned nops)
{
	return missing_in_torch(ops, nops) || known_trigger_hits(ops, nops);
}

static int known_break_hits(const char *op, unsigned constraint)
{
	const char *c = constraint_name(constraint);
	return c && (known_break_trigger(known_bugs(NULL, 0), campaign_torch(), op, c) ||
		     known_breaks_hit(campaign_findings, campaign_torch(), op, c));
}

void torch_avoid_use(const char *(*torch)(void), int hunt_known, int aoti, const char *findings)
{
	campaign_torch = torch;
	campaign_findings = findings;
	campaign_backend_word[0] = 0;
	if (aoti)
		graph_backend_word(compile_backend_name(CB_AOTI), campaign_backend_word);
	avoid_use(hunt_known ? missing_in_torch : avoided_hits);
	avoid_break_use(hunt_known ? NULL : known_break_hits);
}
