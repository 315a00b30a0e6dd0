#include "campaign.h"
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "../harness/protocol.h"

/* libFuzzer's exit status after a crash (its -error_exitcode). */
#define LIBFUZZER_CRASH_EXIT 77

/* Inputs per process: with lent workers, one while there are few (so that
 * slow ones spread over the slots), more for a large shared corpus, whose
 * inputs the cache mostly holds (a process start each would cost more than
 * their replays); without, a slot's share in one process, which starts a
 * worker of its own. */
static unsigned chunk(const struct first_pass *fp)
{
	unsigned most = fp->lent ? 16u : FIRST_PASS_CHUNK, left = fp->n - fp->next;
	unsigned per = fp->lent ? left / (fp->slots * 4u) : (fp->n + fp->slots - 1) / fp->slots;
	return per < 1 ? 1 : per > most ? most : per;
}

int first_pass_begin(struct first_pass *fp, const char *const *dirs, unsigned ndirs, unsigned slots, int lent)
{
	memset(fp, 0, sizeof *fp);
	fp->lent = lent;
	fp->slots = slots < 1 ? 1 : slots > FIRST_PASS_SLOTS ? FIRST_PASS_SLOTS : slots;
	for (unsigned d = 0; d < ndirs; d++) {
		DIR *dir = dirs[d] ? opendir(dirs[d]) : NULL;
		for (struct dirent *e; dir && (e = readdir(dir));) {
			char path[CAMPAIGN_PATH];
			struct stat st;
			snprintf(path, sizeof path, "%.2000s/%.1000s", dirs[d], e->d_name);
			if (e->d_name[0] == '.' || stat(path, &st) || !S_ISREG(st.st_mode))
				continue;
			if (fp->n % 64 == 0) {
				char **more = realloc(fp->files, (fp->n + 64) * sizeof *more);
				if (!more) {
					closedir(dir);
					first_pass_end(fp);
					return -1;
				}
				fp->files = more;
			}
			if (!(fp->files[fp->n] = strdup(path))) {
				closedir(dir);
				first_pass_end(fp);
				return -1;
			}
			fp->n++;
		}
		if (dir)
			closedir(dir);
	}
	return 0;
}

/* `fuzzer -flags FILES... -ignore_remaining_args=1 --stats STATS --heartbeat
 * BEAT OPTIONS`: libFuzzer runs each file once (a new finding aborts it; the
 * merge runs what it left). */
static pid_t start_slot(struct first_pass *fp, unsigned s, const struct campaign_paths *p,
			const struct target_args *ta, int log_fd)
{
	static char art[CAMPAIGN_PATH + 32];
	char *argv[CAMPAIGN_MAX_ARGS + FIRST_PASS_CHUNK + 16];
	int n = 0;
	snprintf(art, sizeof art, "-artifact_prefix=%.4100s/", p->crashes);
	snprintf(fp->beat[s].path, sizeof fp->beat[s].path, "%.4100s/heartbeat-first-%u", p->stats, s);
	static char *const fixed[] = {"-timeout=900", "-rss_limit_mb=16384"};
	argv[n++] = (char *)p->fuzzer;
	argv[n++] = art;
	for (unsigned i = 0; i < sizeof fixed / sizeof *fixed; i++)
		argv[n++] = fixed[i];
	for (unsigned k = chunk(fp); k-- && fp->next < fp->n;)
		argv[n++] = fp->files[fp->next++];
	argv[n++] = "-ignore_remaining_args=1";
	argv[n++] = "--stats";
	argv[n++] = (char *)p->stats;
	argv[n++] = "--heartbeat";
	argv[n++] = fp->beat[s].path;
	for (int i = 0; i < ta->n && n < (int)(sizeof argv / sizeof *argv) - 1; i++)
		argv[n++] = ta->v[i];
	argv[n] = NULL;
	heartbeat_arm(&fp->beat[s], protocol_now_ms());
	return campaign_spawn(argv, log_fd, 0);
}

int first_pass_step(struct first_pass *fp, const struct campaign_paths *p, const struct target_args *ta, int log_fd,
		    int64_t quiet_ms)
{
	unsigned running = 0;
	for (unsigned s = 0; s < fp->slots; s++) {
		int status;
		int64_t now = protocol_now_ms();
		if (fp->pid[s] && quiet_ms > 0 && heartbeat_quiet_ms(&fp->beat[s], now) > quiet_ms) {
			campaign_stop_group(fp->pid[s], 2000); /* stuck: the merge runs what it had */
			fp->pid[s] = 0;
			fp->stuck++;
		}
		if (fp->pid[s] && waitpid(fp->pid[s], &status, WNOHANG) == fp->pid[s]) {
			kill(-fp->pid[s], SIGKILL); /* anything it left in its group */
			fp->pid[s] = 0;
			int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
			fp->aborted += code == LIBFUZZER_CRASH_EXIT; /* a new finding's abort() */
			fp->failed += code != 0 && code != LIBFUZZER_CRASH_EXIT;
		}
		if (!fp->pid[s] && fp->next < fp->n) {
			pid_t pid = start_slot(fp, s, p, ta, log_fd);
			fp->pid[s] = pid > 0 ? pid : 0;
			fp->processes += pid > 0;
		}
		running += fp->pid[s] != 0;
	}
	return running > 0 || fp->next < fp->n;
}

void first_pass_end(struct first_pass *fp)
{
	for (unsigned s = 0; s < fp->slots; s++)
		if (fp->pid[s]) {
			campaign_stop_group(fp->pid[s], 2000);
			fp->pid[s] = 0;
		}
	for (unsigned i = 0; i < fp->n; i++)
		free(fp->files[i]);
	free(fp->files);
	fp->files = NULL;
	fp->n = fp->next = 0;
}
