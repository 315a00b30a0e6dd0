/* Where the seconds go (harness/profile.h): one request's time sorted into
 * rows, the shares of a wall time, the stats lines, and the reply's stage
 * timings (harness/protocol.c). */
#include "test.h"
#include "../harness/profile.h"
#include "../harness/protocol.h"
#include <stdio.h>
#include <string.h>

static uint64_t rows_sum(const struct profile *p)
{
	uint64_t s = 0;
	for (unsigned k = 0; k < PR_COUNT; k++)
		s += p->usec[k];
	return s;
}

/* Eager 1000, compiled 2 x 2500 (its compile 4000 by stage), fp64 500
 * microseconds, in a request of 8000 that took 9000 to come back. */
static void timed_request(struct run_result *r)
{
	static const uint32_t stages[WS_COUNT] = {[WS_REQUEST] = 8000, [WS_DYNAMO] = 1000, [WS_AOT_AUTOGRAD] = 500,
						  [WS_LOWERING] = 700, [WS_CODEGEN] = 300,  [WS_KERNELS] = 1500};
	memset(r, 0, sizeof *r);
	r->m[RM_EAGER][0] = (struct mode_result){.ran = 1, .usec = 1000};
	r->m[RM_COMPILED][0] = (struct mode_result){.ran = 1, .usec = 2500};
	r->m[RM_COMPILED][1] = (struct mode_result){.ran = 1, .usec = 2500};
	r->m[RM_FP64][0] = (struct mode_result){.ran = 1, .usec = 500};
	for (unsigned s = 0; s < WS_COUNT; s++)
		r->stage_usec[s] = stages[s];
}

TEST(profile_sorts_a_request_into_rows_that_add_up_to_its_round_trip)
{
	static struct run_result r;
	struct profile p = {0};
	timed_request(&r);
	profile_add_request(&p, &r, 9000, 0);
	CHECK_EQ(p.usec[PR_EAGER], 1000);
	CHECK_EQ(p.usec[PR_COMPILED], 1000); /* 5000 less the compile's 4000 */
	CHECK_EQ(p.usec[PR_FP64], 500);
	CHECK_EQ(p.usec[PR_DYNAMO], 1000);
	CHECK_EQ(p.usec[PR_KERNELS], 1500);
	CHECK_EQ(p.usec[PR_SETUP], 1500);    /* 8000 less the modes' 6500 */
	CHECK_EQ(p.usec[PR_PROTOCOL], 1000); /* 9000 less the worker's 8000 */
	CHECK_EQ(rows_sum(&p), 9000);
}

TEST(profile_of_a_worker_without_timings_keeps_the_compile_in_compiled_mode)
{
	static struct run_result r;
	struct profile p = {0};
	timed_request(&r);
	memset(r.stage_usec, 0, sizeof r.stage_usec);
	profile_add_request(&p, &r, 9000, 0);
	CHECK_EQ(p.usec[PR_COMPILED], 5000);
	CHECK_EQ(p.usec[PR_DYNAMO] + p.usec[PR_LOWERING] + p.usec[PR_SETUP], 0);
	CHECK_EQ(p.usec[PR_PROTOCOL], 2500);
	CHECK_EQ(rows_sum(&p), 9000);
}

TEST(profile_gives_a_crashed_part_to_the_mode_that_was_running)
{
	static struct run_result r;
	struct profile p = {0};
	timed_request(&r);
	r.crashed = 1;
	r.busy_mode = RM_FP64;
	profile_add_request(&p, &r, 9000, 4000);
	CHECK_EQ(p.usec[PR_FP64], 4500);
	CHECK_EQ(rows_sum(&p), 13000);
	/* a worker's clock a little ahead of ours: no row goes negative (wraps) */
	struct profile q = {0};
	profile_add_request(&q, &r, 7000, 0);
	CHECK_EQ(q.usec[PR_PROTOCOL], 0);
	CHECK_EQ(rows_sum(&q), 8000);
}

TEST(profile_shares_add_up_to_the_wall_and_the_rest_is_never_negative)
{
	struct profile p = {0}, s;
	p.usec[PR_EAGER] = 3000;
	p.usec[PR_DYNAMO] = 5000;
	p.usec[PR_REST] = 777; /* computed, never read */
	CHECK_EQ(profile_shares(&p, 10000, &s), 10000);
	CHECK_EQ(s.usec[PR_REST], 2000);
	CHECK_EQ(rows_sum(&s), 10000);
	CHECK_EQ(s.usec[PR_EAGER], 3000);
	/* rows beyond the wall (several processes' clocks): no rest, the total is theirs */
	CHECK_EQ(profile_shares(&p, 6000, &s), 8000);
	CHECK_EQ(s.usec[PR_REST], 0);
	CHECK_EQ(rows_sum(&s), 8000);
	CHECK_EQ(profile_shares(&(struct profile){0}, 0, &s), 0);
	CHECK_EQ(rows_sum(&s), 0);
}

TEST(profile_lines_read_back_and_add)
{
	struct profile p = {0}, q = {0};
	char line[128];
	for (unsigned k = 0; k < PR_COUNT; k++)
		p.usec[k] = 1000 + k;
	FILE *f = tmpfile();
	CHECK(f != NULL);
	profile_write(&p, f);
	profile_write(&p, f);
	rewind(f);
	unsigned lines = 0;
	while (fgets(line, sizeof line, f))
		lines += (unsigned)profile_read_line(&q, line);
	fclose(f);
	CHECK_EQ(lines, 2 * (PR_COUNT - 1));
	for (unsigned k = 0; k < PR_COUNT; k++)
		CHECK_EQ(q.usec[k], k == PR_REST ? 0 : 2 * p.usec[k]);
	CHECK(!profile_read_line(&q, "execs\t12\n"));
	CHECK(!profile_read_line(&q, "profile_nothing\t12\n"));
}

/* A reply of no records, then what follows them. */
static long parse(const uint8_t *tail, size_t tail_len, struct run_result *r)
{
	uint8_t msg[128] = "P2FR\1\0\0\0";
	char why[200];
	int restart;
	memset(msg + 8, 0, 16);
	memcpy(msg + 24, tail, tail_len);
	memset(r, 0, sizeof *r);
	return protocol_parse_response(msg, 24 + tail_len, NULL, 0, r, &restart, why, sizeof why);
}

TEST(protocol_reads_the_stage_timings_after_the_records_when_they_come)
{
	static struct run_result r;
	uint8_t tail[4 + 4 * WS_COUNT + 4] = {WS_COUNT};
	for (unsigned s = 0; s < WS_COUNT; s++)
		tail[4 + 4 * s] = (uint8_t)(10 + s), tail[5 + 4 * s] = 1; /* 266 + s */
	CHECK_EQ(parse(tail, 4 + 4 * WS_COUNT, &r), 1);
	CHECK_EQ(r.stage_usec[WS_REQUEST], 266);
	CHECK_EQ(r.stage_usec[WS_KERNELS], 266 + WS_KERNELS);
	CHECK_EQ(parse(tail, 0, &r), 1); /* a worker that sends none */
	CHECK_EQ(r.stage_usec[WS_REQUEST], 0);
	CHECK_EQ(parse(tail, 4 + 4 * WS_COUNT - 1, &r), -1); /* cut short */
	CHECK_EQ(parse(tail, 4 + 4 * WS_COUNT + 4, &r), -1); /* trailing bytes */
	tail[0] = WS_COUNT - 1;
	CHECK_EQ(parse(tail, 4 + 4 * (WS_COUNT - 1), &r), -1); /* another count */
	char constants[PROTO_CONSTANTS_MAX];
	CHECK(protocol_constants(constants, sizeof constants) > 0);
	CHECK(strstr(constants, "\nstages=request,dynamo,aot_autograd,lowering,codegen,kernels\n") != NULL);
}
