#include "profile.h"
#include <stdio.h>
#include <string.h>
#include <time.h>

static const struct {
	const char *key, *title;
} rows[PR_COUNT] = {
	[PR_START] = {"worker_start", "worker start"},
	[PR_SETUP] = {"setup", "worker setup and reply"},
	[PR_EAGER] = {"eager", "eager runs"},
	[PR_DYNAMO] = {"dynamo", "compile: Dynamo"},
	[PR_AOT_AUTOGRAD] = {"aot_autograd", "compile: AOTAutograd"},
	[PR_LOWERING] = {"lowering", "compile: Inductor lowering, scheduling"},
	[PR_CODEGEN] = {"codegen", "compile: code generation"},
	[PR_KERNELS] = {"kernels", "compile: C++/Triton kernel build"},
	[PR_COMPILED] = {"compiled", "compiled runs"},
	[PR_FP64] = {"fp64", "fp64 reference"},
	[PR_PROTOCOL] = {"protocol", "protocol round trips"},
	[PR_JUDGE] = {"judge", "oracle comparison"},
	[PR_REPLAY] = {"replay", "corpus replays from OUT/replay"},
	[PR_MUTATE] = {"mutate", "mutation"},
	[PR_FINDINGS] = {"findings", "recording findings"},
	[PR_STATS] = {"stats", "stats, line dumps, learned state"},
	[PR_MERGE] = {"merge", "libFuzzer -merge=1 steps (less their requests)"},
	[PR_LIBFUZZER] = {"libfuzzer", "targets waiting for their next input"},
	[PR_WRAP_UP] = {"wrap_up", "job slots handed to triage's wrap-up"},
	[PR_CUT] = {"cut", "inputs cut off at the deadline"},
	[PR_REST] = {"rest", "outside the target processes: slot starts, idle slots"},
};

/* Each compile stage's row. */
static const enum profile_row stage_rows[WS_COUNT] = {
	[WS_DYNAMO] = PR_DYNAMO,     [WS_AOT_AUTOGRAD] = PR_AOT_AUTOGRAD, [WS_LOWERING] = PR_LOWERING,
	[WS_CODEGEN] = PR_CODEGEN,   [WS_KERNELS] = PR_KERNELS,
};
static const enum profile_row mode_rows[RM_COUNT] = {[RM_EAGER] = PR_EAGER, [RM_COMPILED] = PR_COMPILED, [RM_FP64] = PR_FP64,
								   [RM_NUDGED] = PR_EAGER};

uint64_t profile_clock_usec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

const char *profile_row_key(unsigned row) { return row < PR_COUNT ? rows[row].key : "?"; }
const char *profile_row_title(unsigned row) { return row < PR_COUNT ? rows[row].title : "?"; }

static uint64_t less(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

void profile_add_request(struct profile *p, const struct run_result *r, uint64_t replied_usec, uint64_t lost_usec)
{
	uint64_t modes[RM_COUNT] = {0}, in_modes = 0, compile = 0;
	for (unsigned m = 0; m < RM_COUNT; m++) {
		for (unsigned b = 0; b < G_MAX_BIND; b++)
			modes[m] += r->m[m][b].ran ? r->m[m][b].usec : 0;
		in_modes += modes[m];
	}
	for (unsigned s = WS_REQUEST + 1; s < WS_COUNT; s++) {
		p->usec[stage_rows[s]] += r->stage_usec[s];
		compile += r->stage_usec[s];
	}
	modes[RM_COMPILED] = less(modes[RM_COMPILED], compile); /* the compile happens in compiled mode */
	for (unsigned m = 0; m < RM_COUNT; m++)
		p->usec[mode_rows[m]] += modes[m];
	p->usec[PR_SETUP] += less(r->stage_usec[WS_REQUEST], in_modes);
	/* a worker that sends no timings: its request is at least its modes */
	uint64_t request = r->stage_usec[WS_REQUEST] > in_modes ? r->stage_usec[WS_REQUEST] : in_modes;
	p->usec[PR_PROTOCOL] += less(replied_usec, request);
	p->usec[mode_rows[r->busy_mode < RM_COUNT ? r->busy_mode : RM_EAGER]] += lost_usec;
}

uint64_t profile_shares(const struct profile *p, uint64_t wall_usec, struct profile *out)
{
	uint64_t held = 0;
	*out = *p;
	out->usec[PR_REST] = 0;
	for (unsigned k = 0; k < PR_COUNT; k++)
		held += out->usec[k];
	out->usec[PR_REST] = less(wall_usec, held);
	return held > wall_usec ? held : wall_usec;
}

void profile_write(const struct profile *p, FILE *f)
{
	for (unsigned k = 0; k < PR_COUNT; k++)
		if (k != PR_REST)
			fprintf(f, "profile_%s\t%llu\n", rows[k].key, (unsigned long long)p->usec[k]);
}

int profile_read_line(struct profile *p, const char *line)
{
	char key[64];
	unsigned long long usec;
	if (sscanf(line, "profile_%63[a-z0-9_]\t%llu", key, &usec) != 2)
		return 0;
	for (unsigned k = 0; k < PR_COUNT; k++)
		if (k != PR_REST && !strcmp(key, rows[k].key)) {
			p->usec[k] += usec;
			return 1;
		}
	return 0;
}
