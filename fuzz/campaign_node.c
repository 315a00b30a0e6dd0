/* What the node has, and the processes a campaign owns on it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../harness/protocol.h"
#include "../harness/runtime.h"
#include "../harness/spawn.h"
#include "../pipeline/atomic_file.h"
#include "campaign.h"
#include "placement.h"

#define WORKER_HOST_MIB 3072 /* python, torch and CUDA libraries, Inductor's caches */

/* The smallest GPU's memory in MiB, 0 when unknown. */
static unsigned long gpu_memory_mib(void)
{
	struct gpu_load g[PLACEMENT_GPUS];
	char ignored[300];
	unsigned long least = 0;
	for (int i = 0, n = placement_query(g, PLACEMENT_GPUS, ignored, sizeof ignored); i < n; i++)
		least = !least || g[i].total_mib < least ? g[i].total_mib : least;
	return least;
}

static unsigned long host_available_mib(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long kib = 0;
	while (f && fgets(line, sizeof line, f) && sscanf(line, "MemAvailable: %lu kB", &kib) != 1)
		;
	if (f)
		fclose(f);
	return kib / 1024;
}

unsigned node_default_jobs(unsigned per_gpu)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned gpus = runtime_gpu_count();
	if (!gpus) /* CPU Inductor: eager and compiled code use every core already */
		return cores >= 8 ? (unsigned)cores / 4 : 1;
	if (per_gpu)
		return per_gpu * gpus;
	/* Compilation is CPU-bound: one worker per core, one compile thread each. */
	unsigned long n = cores > (long)gpus ? (unsigned long)cores / gpus : 1;
	unsigned long gpu_mib = gpu_memory_mib(), host = host_available_mib() / WORKER_HOST_MIB / gpus;
	if (gpu_mib && gpu_mib / PLACEMENT_WORKER_MIB < n)
		n = gpu_mib / PLACEMENT_WORKER_MIB;
	if (host && host < n)
		n = host;
	return (unsigned)(n ? n : 1) * gpus;
}

/* Whether process pid's environment holds "PT2FUZZ_CAMPAIGN=token". */
static int carries_token(const char *pid, const char *token)
{
	char path[300], want[128];
	static char env[1 << 18];
	snprintf(path, sizeof path, "/proc/%.200s/environ", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC), wl = snprintf(want, sizeof want, "PT2FUZZ_CAMPAIGN=%.90s", token);
	ssize_t len = fd < 0 ? -1 : read(fd, env, sizeof env - 1);
	if (fd >= 0)
		close(fd);
	if (len > 0)
		env[len] = 0;
	for (ssize_t i = 0; i < len; i += (ssize_t)strlen(env + i) + 1) {
		if (!strncmp(env + i, want, (size_t)wl) && !env[i + wl])
			return 1;
	}
	return 0;
}

/* SIGKILLs every process started by the campaign that had this token. */
static unsigned kill_token(const char *token)
{
	unsigned n = 0;
	DIR *d = opendir("/proc");
	for (struct dirent *e; d && (e = readdir(d));) {
		int pid = atoi(e->d_name);
		if (pid > 1 && pid != getpid() && carries_token(e->d_name, token))
			n += kill(pid, SIGKILL) == 0;
	}
	if (d)
		closedir(d);
	return n;
}

unsigned node_sweep(void)
{
	const char *token = getenv("PT2FUZZ_CAMPAIGN");
	return token && token[0] ? kill_token(token) : 0;
}

int node_claim(const char *out)
{
	char path[CAMPAIGN_PATH + 16], old[128] = "", token[64];
	snprintf(path, sizeof path, "%s/.runner", out);
	FILE *f = fopen(path, "r");
	if (f) {
		if (!fgets(old, sizeof old, f))
			old[0] = 0;
		old[strcspn(old, "\n")] = 0;
		fclose(f);
	}
	char pid_s[32];
	snprintf(pid_s, sizeof pid_s, "%d", atoi(old));
	if (old[0] && carries_token(pid_s, old)) {
		fprintf(stderr, "pt2fuzz fuzz: %s is in use by runner %s (stop it first)\n", out, pid_s);
		return -1;
	}
	unsigned killed = old[0] ? kill_token(old) : 0;
	if (killed)
		fprintf(stderr, "pt2fuzz fuzz: stopped %u processes a previous runner of %s left behind\n", killed, out);
	snprintf(path, sizeof path, "%s/.lock", out);
	int lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	for (int tries = 0; lock >= 0 && flock(lock, LOCK_EX | LOCK_NB); tries++) {
		if (tries == 150) {
			fprintf(stderr, "pt2fuzz fuzz: %s is locked by another runner\n", out);
			close(lock);
			return -1;
		}
		usleep(100000);
	}
	if (lock < 0) {
		fprintf(stderr, "pt2fuzz fuzz: %s: %s\n", path, strerror(errno));
		return -1;
	}
	snprintf(token, sizeof token, "%d.%lld", (int)getpid(), (long long)time(NULL));
	setenv("PT2FUZZ_CAMPAIGN", token, 1);
	snprintf(path, sizeof path, "%s/.runner", out);
	char line[sizeof token + 1];
	atomic_write(path, line, (size_t)snprintf(line, sizeof line, "%s\n", token), 0);
	return lock;
}

int open_log(const char *path) { return open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666); }

pid_t campaign_spawn(char *const *argv, int out_fd, int nice_level)
{
	struct spawn_opts o = SPAWN_OPTS;
	o.argv = argv;
	o.stdio[1] = o.stdio[2] = out_fd;
	o.new_group = 1;
	o.die_with_parent = 1;
	o.nice = nice_level;
	o.default_signals = 1;
	char why[128];
	pid_t pid = spawn(&o, why, sizeof why);
	if (pid < 0)
		fprintf(stderr, "pt2fuzz fuzz: %s\n", why);
	return pid;
}

int campaign_stop_group(pid_t pid, int grace_ms)
{
	int status = 0;
	kill(pid, SIGINT);
	for (int64_t end = protocol_now_ms() + grace_ms; protocol_now_ms() < end;) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			kill(-pid, SIGKILL); /* what the leader left: fork jobs, a triage's pool */
			return status;
		}
		usleep(50000);
	}
	kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}
