/* Children a campaign stops at once: a process group that exists as soon
 * as spawn returns, so that a stop right after the start kills the child
 * instead of waiting for it to finish (a triage started in a campaign's
 * last second once held the campaign 65 s past --time). */
#include "test.h"
#include "../harness/spawn.h"
#include "../fuzz/campaign.h"
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t start_group(const char *script)
{
	char *const argv[] = {"sh", "-c", (char *)script, NULL};
	struct spawn_opts o = SPAWN_OPTS;
	o.argv = argv;
	o.new_group = 1;
	o.default_signals = 1;
	return spawn(&o, NULL, 0);
}

static void swallow(int sig) { (void)sig; }

/* The campaign's own SIGINT handler is what a child has until it resets
 * its signals: a SIGINT sent before that is swallowed, and only the
 * group's SIGKILL stops it. */
TEST(campaign_stop_group_kills_a_child_stopped_right_after_its_start)
{
	struct sigaction sa = {.sa_handler = swallow}, old;
	sigaction(SIGINT, &sa, &old);
	for (int i = 0, killed = 1; i < 20 && killed; i++) { /* a child missed runs its 30 s: one is enough */
		pid_t pid = start_group("exec sleep 30");
		CHECK(pid > 0);
		int status = campaign_stop_group(pid, 0);
		killed = WIFSIGNALED(status);
		CHECK(killed);
	}
	sigaction(SIGINT, &old, NULL);
}

/* A stop waits for what a killed worker held (its folder's lock, its GPU
 * memory) by waiting for its group: every member, not only the leader, and
 * a zombie leader not yet reaped counts as exited. */
TEST(spawn_group_ended_waits_for_every_member_of_the_group)
{
	pid_t pid = start_group("sleep 30 & sleep 30");
	CHECK(pid > 0);
	CHECK_EQ(spawn_group_ended(pid, 100), 0);
	kill(-pid, SIGKILL);
	CHECK_EQ(spawn_group_ended(pid, 5000), 1); /* the leader is a zombie: not reaped yet */
	int status;
	CHECK_EQ(waitpid(pid, &status, 0), pid);

	/* the leader gone, a member it left runs on in the group */
	pid = start_group("sleep 30 & exit 0");
	CHECK(pid > 0);
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK_EQ(spawn_group_ended(pid, 100), 0);
	kill(-pid, SIGKILL);
	CHECK_EQ(spawn_group_ended(pid, 5000), 1);
}
