#include "isolate.h"
#include <string.h>
#include <xxhash.h>
#include "../graph/fail.h"
#include "../mutators/edits.h"

int isolate_applies(const struct graph *g, const struct check_result *whole)
{
	enum verdict_kind k = whole->v.kind;
	return (k == V_BEHAVIOUR || k == V_MISSING_ERROR || k == V_INVALID) && !g->broken && !whole->run.crashed &&
	       !whole->run.hung && graph_node_components(g) > 1;
}

/* The failure a part must show to be the culprit: the verdict kind, and the
 * type and bucketed message of the first exception of the mode that raised
 * (compiled, else eager); never the op set, which differs part by part. */
static uint64_t failure_key(const struct check_result *r)
{
	char text[600];
	const struct mode_result *m = NULL;
	for (int mode = RM_COMPILED; mode >= RM_EAGER && !m; mode--)
		for (unsigned b = 0; b < r->run.nbind && b < G_MAX_BIND && !m; b++)
			if (r->run.m[mode][b].ran && !r->run.m[mode][b].ok)
				m = &r->run.m[mode][b];
	char msg[300];
	oracle_bucket_message(m ? m->emsg : "", msg, sizeof msg);
	int len = snprintf(text, sizeof text, "%s %s %s", verdict_name(r->v.kind), m ? m->etype : "", msg);
	return XXH64(text, len > 0 ? (size_t)len : 0, 0);
}

/* g with only the components in keep (by comp). 0, or -1. */
static int keep_components(const struct graph *g, const uint8_t *comp, const uint8_t *keep, struct graph *out)
{
	uint8_t del[G_MAX_NODES];
	for (unsigned k = 0; k < g->nnodes; k++)
		del[k] = !keep[comp[k]];
	return edit_delete_nodes(g, del, out);
}

/* Checks g with the components in keep into part; 1 when it shows key,
 * 0 when not (or the part cannot be built), -1 with a reason. */
static int check_keeping(struct executor *x, const struct graph *g, const uint8_t *comp, const uint8_t *keep,
			 const struct check_cfg *c, uint64_t key, struct check_part *part, char *why, size_t n)
{
	if (keep_components(g, comp, keep, &part->g))
		return 0;
	if (check_graph(x, &part->g, c, &part->r, why, n))
		return -1;
	return failure_key(&part->r) == key;
}

/* The component of cur (components ncomp, comp) that alone shows key, into
 * part: its index, ncomp when none does, -1 with a reason. */
static int find_culprit(struct executor *x, const struct graph *cur, const uint8_t *comp, unsigned ncomp,
			const struct check_cfg *c, uint64_t key, struct check_part *part, char *why, size_t n)
{
	uint8_t cand[G_MAX_NODES], keep[G_MAX_NODES];
	unsigned lo = 0, hi = ncomp; /* the candidates: components lo..hi-1 */
	int alone = 0;               /* part holds candidate lo checked alone, showing key */
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;
		memset(keep, 0, sizeof keep);
		memset(keep + lo, 1, mid - lo);
		check_result_free(&part->r);
		int shows = check_keeping(x, cur, comp, keep, c, key, part, why, n);
		if (shows < 0)
			return -1;
		if (shows)
			hi = mid;
		else
			lo = mid; /* not in the first half: in the second, if anywhere */
		alone = shows && hi - lo == 1;
	}
	if (!alone) { /* the last candidate was never run alone */
		memset(cand, 0, sizeof cand);
		cand[lo] = 1;
		check_result_free(&part->r);
		int shows = check_keeping(x, cur, comp, cand, c, key, part, why, n);
		if (shows <= 0) {
			check_result_free(&part->r);
			return shows < 0 ? -1 : (int)ncomp;
		}
	}
	return (int)lo;
}

int isolate_parts(struct executor *x, const struct graph *g, const struct check_cfg *c,
		  const struct check_result *whole, struct check_part *parts, unsigned cap, char *why, size_t n)
{
	static _Thread_local struct graph cur;
	uint8_t comp[G_MAX_NODES], keep[G_MAX_NODES];
	if (cap < 2 || !isolate_applies(g, whole))
		return 0;
	cur = *g;
	uint64_t key = failure_key(whole);
	unsigned np = 0;
	for (;;) {
		unsigned ncomp = graph_node_component_ids(&cur, comp);
		struct check_part *culprit = &parts[np];
		memset(&culprit->r, 0, sizeof culprit->r);
		int at = find_culprit(x, &cur, comp, ncomp, c, key, culprit, why, n);
		if (at < 0)
			return -1;
		if ((unsigned)at == ncomp) /* no component alone shows it: the graph's own failure */
			break;
		np++;
		/* The rest, checked again without the culprit. */
		memset(keep, 1, sizeof keep);
		keep[at] = 0;
		struct check_part *rest = &parts[np];
		memset(&rest->r, 0, sizeof rest->r);
		if (keep_components(&cur, comp, keep, &rest->g))
			return (int)np;
		if (check_graph(x, &rest->g, c, &rest->r, why, n))
			return -1;
		np++;
		/* Another component fails the same way: pin it too, while there is room. */
		if (np + 1 >= cap || !isolate_applies(&rest->g, &rest->r) || failure_key(&rest->r) != key)
			return (int)np;
		cur = rest->g;
		check_result_free(&rest->r);
		np--;
	}
	return (int)np;
}
