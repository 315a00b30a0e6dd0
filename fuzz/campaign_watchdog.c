/* The watchdog's evidence of progress: a heartbeat file per job (a libFuzzer
 * round, a corpus merge) that every pt2fuzz_fuzzer process of that job
 * touches as it takes on each input (--heartbeat FILE), whether the input
 * runs, replays from the cache or is rejected. A job whose file has not
 * moved for --watchdog seconds is stuck: the campaign restarts it. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "campaign.h"

void heartbeat_arm(struct heartbeat *h, int64_t now)
{
	struct stat st;
	int fd = open(h->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
	if (fd >= 0)
		close(fd);
	memset(&h->seen, 0, sizeof h->seen);
	if (!stat(h->path, &st))
		h->seen = st.st_mtim;
	h->last_ms = now;
}

void heartbeat_note(struct heartbeat *h, int64_t now) { h->last_ms = now; }

int64_t heartbeat_quiet_ms(struct heartbeat *h, int64_t now)
{
	struct stat st;
	if (!stat(h->path, &st) && (st.st_mtim.tv_sec != h->seen.tv_sec || st.st_mtim.tv_nsec != h->seen.tv_nsec)) {
		h->seen = st.st_mtim;
		h->last_ms = now;
	}
	return now - h->last_ms;
}
