/* `pt2fuzz fuzz`: a bounded campaign. Runs build/pt2fuzz_fuzzer under
 * libFuzzer's -fork (findings do not stop it) from the shipped seeds into
 * OUT/corpus and OUT/findings, keeps libFuzzer's log in OUT/fuzzer.log,
 * prints a status line while it runs and a summary at the end. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../harness/protocol.h"
#include "../oracles/oracle.h"
#include "campaign_stats.h"
#include "cli.h"
#include "commands.h"
#include "runopts.h"

/* What libFuzzer's fork-mode status lines say. */
struct progress {
	unsigned long long execs, features, corpus, crashes, job;
	double exec_rate;
	int seen;
};

/* Parses "#N: cov: C ft: F corp: K exec/s: E oom/timeout/crash: a/b/c time: Ts job: J ...". */
static void parse_status(const char *line, struct progress *p)
{
	unsigned long long n, cov, ft, corp, oom, tmo, cr, t, job;
	double eps;
	if (sscanf(line, "#%llu: cov: %llu ft: %llu corp: %llu exec/s: %lf oom/timeout/crash: %llu/%llu/%llu time: %llus job: %llu",
		   &n, &cov, &ft, &corp, &eps, &oom, &tmo, &cr, &t, &job) == 10) {
		*p = (struct progress){n, ft, corp, cr, job, eps, 1};
		return;
	}
	/* Non-fork status lines: "#N NEW/pulse ft: F corp: K/... exec/s: E ..." */
	const char *ft_s = strstr(line, "ft: "), *corp_s = strstr(line, "corp: "), *e_s = strstr(line, "exec/s: ");
	if (line[0] == '#' && sscanf(line + 1, "%llu", &n) == 1 && ft_s && corp_s) {
		p->execs = n;
		p->features = strtoull(ft_s + 4, NULL, 10);
		p->corpus = strtoull(corp_s + 6, NULL, 10);
		if (e_s)
			p->exec_rate = strtod(e_s + 8, NULL);
		p->seen = 1;
	}
}

/* Unique findings by kind: the directory names are "<kind>-<signature>". */
static unsigned count_findings(const char *dir, unsigned by_kind[V_COUNT])
{
	unsigned total = 0;
	memset(by_kind, 0, V_COUNT * sizeof *by_kind);
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		for (unsigned k = 0; k < V_COUNT; k++) {
			size_t l = strlen(verdict_name((enum verdict_kind)k));
			if (!strncmp(e->d_name, verdict_name((enum verdict_kind)k), l) && e->d_name[l] == '-' &&
			    strlen(e->d_name) == l + 17) {
				by_kind[k]++;
				total++;
			}
		}
	if (d)
		closedir(d);
	return total;
}

static unsigned count_files(const char *dir)
{
	unsigned n = 0;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void findings_text(const char *dir, char *out, size_t n)
{
	unsigned by[V_COUNT], total = count_findings(dir, by);
	int k = snprintf(out, n, "%u", total);
	const char *sep = " (";
	for (unsigned v = 0; v < V_COUNT && k > 0 && (size_t)k < n; v++)
		if (by[v]) {
			k += snprintf(out + k, n - (size_t)k, "%s%s %u", sep, verdict_name((enum verdict_kind)v), by[v]);
			sep = ", ";
		}
	if (total && k > 0 && (size_t)k < n)
		snprintf(out + k, n - (size_t)k, ")");
}

static volatile sig_atomic_t stop;
static void on_signal(int sig) { stop = sig; }

/* The directory holding this executable (the fuzzer target sits beside it). */
static void exe_dir(char *out, size_t n)
{
	ssize_t k = readlink("/proc/self/exe", out, n - 1);
	out[k > 0 ? k : 0] = 0;
	char *slash = strrchr(out, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(out, n, ".");
}

static void print_status(int tty, long secs, const struct progress *p, const char *findings)
{
	char f[256];
	findings_text(findings, f, sizeof f);
	fprintf(stderr, "%s[%3ldm%02lds] execs %llu (%.1f/s) corpus %llu features %llu findings %s job %llu%s",
		tty ? "\r" : "", secs / 60, secs % 60, p->execs, p->exec_rate, p->corpus, p->features, f, p->job,
		tty ? "\033[K" : "\n");
}

/* One job on a CPU machine (compiles are CPU-bound and the worker uses the
 * cores); on a GPU node, one job per two cores, one compile thread each. */
static long long default_jobs(void)
{
	unsigned gpus = count_files("/proc/driver/nvidia/gpus");
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return gpus && cpus >= 4 ? cpus / 2 : 1;
}

int cmd_fuzz(int argc, char **argv)
{
	long long secs, jobs;
	const char *out = cli_opt(argc, argv, "--out") ? cli_opt(argc, argv, "--out") : "out";
	if (cli_num(argc, argv, "--time", 600, 1, 365LL * 86400, &secs) ||
	    cli_num(argc, argv, "--jobs", default_jobs(), 1, 256, &jobs))
		return 2;
	static struct run_opts ro; /* validates the target's options before starting anything */
	if (run_opts_parse(argc, argv, &ro))
		return 2;
	char dir[PATH_MAX], fuzzer[PATH_MAX + 32], seeds[PATH_MAX + 32], sub[5][PATH_MAX + 32];
	exe_dir(dir, sizeof dir);
	snprintf(fuzzer, sizeof fuzzer, "%s/pt2fuzz_fuzzer", dir);
	snprintf(seeds, sizeof seeds, "%s/seeds", dir);
	if (cli_opt(argc, argv, "--seeds"))
		snprintf(seeds, sizeof seeds, "%s", cli_opt(argc, argv, "--seeds"));
	if (access(fuzzer, X_OK)) {
		fprintf(stderr, "pt2fuzz fuzz: %s: %s (it is built with clang: `make`)\n", fuzzer, strerror(errno));
		return 1;
	}
	static const char *const names[5] = {"corpus", "findings", "crashes", "stats", "fuzzer.log"};
	mkdir(out, 0777);
	for (unsigned i = 0; i < 5; i++) {
		snprintf(sub[i], sizeof sub[i], "%s/%s", out, names[i]);
		if (i < 4 && mkdir(sub[i], 0777) && errno != EEXIST) {
			fprintf(stderr, "pt2fuzz fuzz: %s: %s\n", sub[i], strerror(errno));
			return 1;
		}
	}
	char a_fork[32], a_time[32], a_art[PATH_MAX + 64];
	snprintf(a_fork, sizeof a_fork, "-fork=%lld", jobs);
	snprintf(a_time, sizeof a_time, "-max_total_time=%lld", secs);
	snprintf(a_art, sizeof a_art, "-artifact_prefix=%s/", sub[2]);
	char *args[512];
	int n = 0;
	char *fixed[] = {fuzzer, a_fork, "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1", a_time,
			 "-timeout=900", "-rss_limit_mb=16384", "-max_len=8192", "-print_final_stats=1", a_art,
			 sub[0], seeds, "-ignore_remaining_args=1", "--findings", sub[1], "--stats", sub[3]};
	for (unsigned i = 0; i < sizeof fixed / sizeof *fixed; i++)
		args[n++] = fixed[i];
	if (jobs > 1 && !cli_opt(argc, argv, "--compile-threads")) {
		args[n++] = "--compile-threads";
		args[n++] = "1";
	}
	/* Every option but the campaign's own goes to the target. */
	for (int i = 0; i < argc && n < 500; i++) {
		int own = !strcmp(argv[i], "--time") || !strcmp(argv[i], "--out") || !strcmp(argv[i], "--jobs") ||
			  !strcmp(argv[i], "--seeds");
		if (own) {
			i++;
			continue;
		}
		args[n++] = argv[i];
	}
	args[n] = NULL;
	int log = open(sub[4], O_WRONLY | O_CREAT | O_APPEND, 0666), pipefd[2];
	if (log < 0 || pipe(pipefd)) {
		fprintf(stderr, "pt2fuzz fuzz: %s: %s\n", sub[4], strerror(errno));
		return 1;
	}
	fprintf(stderr, "pt2fuzz fuzz: %lld s, %lld job%s, seeds %s, output %s (libFuzzer log: %s)\n", secs, jobs,
		jobs > 1 ? "s" : "", seeds, out, sub[4]);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		execv(fuzzer, args);
		fprintf(stderr, "exec %s: %s\n", fuzzer, strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	static struct campaign_stats cs;
	cstats_init(&cs, sub[3]);
	int tty = isatty(2), forwarded = 0;
	struct progress p = {0};
	char line[8192];
	size_t have = 0;
	int64_t t0 = protocol_now_ms(), last = 0, last_collect = t0;
	for (;;) {
		if (stop && !forwarded) {
			kill(pid, SIGINT); /* libFuzzer stops its jobs and prints its final stats */
			forwarded = 1;
		}
		struct pollfd pf = {pipefd[0], POLLIN, 0};
		if (poll(&pf, 1, 1000) > 0) {
			ssize_t k = read(pipefd[0], line + have, sizeof line - 1 - have);
			if (k <= 0)
				break;
			if (write(log, line + have, (size_t)k) < 0)
				perror("pt2fuzz fuzz: log");
			have += (size_t)k;
			line[have] = 0;
			char *nl;
			while ((nl = strchr(line, '\n'))) {
				*nl = 0;
				parse_status(line, &p);
				if (strstr(line, "pt2fuzz: new finding") || strstr(line, "pt2fuzz_fuzzer: ") ||
				    strstr(line, "ERROR"))
					fprintf(stderr, "%s%s\n", tty ? "\r\033[K" : "", line);
				have -= (size_t)(nl + 1 - line);
				memmove(line, nl + 1, have + 1);
			}
			if (have == sizeof line - 1)
				have = 0; /* an overlong line: drop it */
		}
		int64_t now = protocol_now_ms();
		if (now - last >= (tty ? 2000 : 30000)) {
			print_status(tty, (long)((now - t0) / 1000), &p, sub[1]);
			last = now;
		}
		if (now - last_collect >= 30000) {
			cstats_collect(&cs, sub[3], 0);
			last_collect = now;
		}
	}
	int status = 0;
	waitpid(pid, &status, 0);
	close(log);
	char f[256];
	findings_text(sub[1], f, sizeof f);
	double wall = (double)(protocol_now_ms() - t0) / 1000.0;
	fprintf(stderr, "%s\npt2fuzz campaign summary\n", tty ? "\r\033[K" : "");
	fprintf(stderr, "  time            %.0f s\n  execs           %llu (%.2f/s)\n", wall, p.execs,
		wall > 0 ? (double)p.execs / wall : 0);
	fprintf(stderr, "  corpus          %u inputs in %s\n  features        %llu (libFuzzer ft)\n", count_files(sub[0]),
		sub[0], p.features);
	fprintf(stderr, "  findings        %s in %s\n  crash inputs    %u in %s\n", f, sub[1], count_files(sub[2]), sub[2]);
	cstats_collect(&cs, sub[3], 1);
	cstats_print(&cs, stderr);
	cstats_free(&cs);
	if (!p.seen)
		fprintf(stderr, "  (libFuzzer printed no status: see %s)\n", sub[4]);
	/* libFuzzer's -fork exits with a crashed job's code after findings: that is
	 * success for a campaign. A campaign that never fuzzed is not. */
	(void)status;
	return p.seen ? 0 : 1;
}
