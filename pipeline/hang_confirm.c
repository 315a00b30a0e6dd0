#include "hang_confirm.h"
#include <stdio.h>
#include <string.h>
#include "../harness/protocol.h"

/* The rerun's limit: HANG_RERUN_FACTOR times the first, cut to what is left
 * before until (protocol_now_ms's clock). */
static int64_t rerun_limit(int64_t first, int64_t until)
{
	int64_t limit = first * HANG_RERUN_FACTOR, left = until == HANG_RERUN_ANY_TIME ? limit : until - protocol_now_ms();
	return left < limit ? left : limit;
}

void hang_confirm(struct executor *x, const struct check_job *j, int64_t until_ms, struct check_result *out)
{
	if (!until_ms || !out->run.hung || out->v.kind != V_HANG)
		return;
	struct check_blame *b = &out->blame;
	unsigned factor = j->time_factor ? j->time_factor : 1;
	int64_t first = (int64_t)x->o.timeout_ms * factor;
	b->status = BLAME_UNCONFIRMED;
	snprintf(b->note, sizeof b->note, "unconfirmed: no time left for a rerun given longer than its %lld s",
		 (long long)(first / 1000));
	if (rerun_limit(first, until_ms) <= first)
		return;
	struct executor f;
	struct executor_opts o = x->o;
	o.coverage = 0;
	char why[600];
	if (executor_init(&f, &o, why, sizeof why)) {
		snprintf(b->note, sizeof b->note, "unconfirmed: no worker for a rerun: %.300s", why);
		return;
	}
	static _Thread_local struct check_result again;
	int64_t limit = 0, t0 = 0;
	if (executor_start(&f, why, sizeof why)) {
		snprintf(b->note, sizeof b->note, "unconfirmed: no worker for a rerun: %.300s", why);
		goto done;
	}
	limit = rerun_limit(first, until_ms); /* from now, its worker started: the rerun ends by until */
	if (limit <= first)
		goto done;
	f.o.timeout_ms = (unsigned)(limit / factor);
	t0 = protocol_now_ms();
	if (check_job_run(&f, j, &again, why, sizeof why)) {
		snprintf(b->note, sizeof b->note, "unconfirmed: the rerun failed: %.300s", why);
	} else if (again.run.hung && limit < first * HANG_RERUN_FACTOR) {
		/* a rerun the deadline cut short says no more than the first run did */
		snprintf(b->note, sizeof b->note,
			 "unconfirmed: it hung again alone in a fresh worker given %lld s, cut by the deadline from %lld s",
			 (long long)(limit / 1000), (long long)(first * HANG_RERUN_FACTOR / 1000));
	} else if (again.run.hung) {
		b->status = BLAME_CONFIRMED;
		snprintf(b->note, sizeof b->note, "confirmed: it hung again alone in a fresh worker given %lld s",
			 (long long)(limit / 1000));
	} else {
		check_forget_values(&again.run);
		out->run = again.run;
		out->v = again.v;
		out->signature = again.signature;
		out->nops = again.nops;
		memcpy(out->ops, again.ops, sizeof out->ops);
		b->status = BLAME_SLOW;
		snprintf(b->note, sizeof b->note,
			 "not a hang: alone in a fresh worker given %lld s it finished in %lld s (its limit: %lld s)",
			 (long long)(limit / 1000), (long long)((protocol_now_ms() - t0 + 500) / 1000),
			 (long long)(first / 1000));
	}
done:
	for (unsigned k = 0; k < PR_COUNT; k++) /* the rerun's time is the input's: in its rows, not the target's own */
		x->prof.usec[k] += f.prof.usec[k];
	executor_free(&f);
}
