#include "runtime.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../graph/fail.h"
#include "spawn.h"

#ifndef PT2FUZZ_ROOT
#define PT2FUZZ_ROOT "."
#endif

/* The one line Python is started with: read a framed script, run it. */
static const char boot[] =
	"import sys;exec(compile(sys.stdin.buffer.read(int(sys.stdin.buffer.readline())),'<pt2fuzz-worker>','exec'))";

int runtime_python(char *cmd, size_t cap, char *why, size_t n)
{
	const char *env = getenv("PT2FUZZ_PYTHON");
	if (env && *env) {
		snprintf(cmd, cap, "%s", env);
		return 0;
	}
	const char *root = getenv("PT2FUZZ_HOME");
	char path[4096];
	snprintf(path, sizeof path, "%s/build/runtime.env", root && *root ? root : PT2FUZZ_ROOT);
	FILE *f = fopen(path, "r");
	if (!f)
		return fail(why, n, "no torch runtime: %s: %s (run `make setup`, or set PT2FUZZ_PYTHON)", path,
			    strerror(errno));
	char line[4096];
	int found = 0;
	while (!found && fgets(line, sizeof line, f)) {
		if (strncmp(line, "PT2FUZZ_PYTHON=", 15))
			continue;
		line[strcspn(line, "\n")] = 0;
		/* scripts/setup writes printf %q: undo backslash escapes. */
		size_t k = 0;
		for (const char *p = line + 15; *p && k + 1 < cap; p++) {
			if (*p == '\\' && p[1])
				p++;
			cmd[k++] = *p;
		}
		cmd[k] = 0;
		found = k > 0;
	}
	fclose(f);
	if (!found)
		return fail(why, n, "%s names no PT2FUZZ_PYTHON (rerun `make setup`)", path);
	return 0;
}

/* $1 is split into words on purpose: the command may carry arguments. */
static pid_t start_python(const char *cmd, const char *line, const struct spawn_opts *base, char *why, size_t n)
{
	char *const argv[] = {"/bin/sh", "-c", (char *)line, "sh", (char *)cmd, (char *)boot, NULL};
	struct spawn_opts o = *base;
	o.argv = argv;
	o.new_group = 1; /* a kill reaches the compile subprocesses too */
	return spawn(&o, why, n);
}

pid_t runtime_spawn(const char *cmd, int in_fd, int out_fd, int err_fd, int extra_fd, const char *const *env, char *why,
		    size_t n)
{
	struct spawn_opts o = SPAWN_OPTS;
	o.stdio[0] = in_fd;
	o.stdio[1] = out_fd;
	o.stdio[2] = err_fd;
	o.keep_fd = extra_fd;
	o.env = env;
	return start_python(cmd, "exec $1 -u -c \"$2\"", &o, why, n);
}

pid_t runtime_spawn_program(const char *cmd, int in_fd, int out_fd, int err_fd, char *why, size_t n)
{
	struct spawn_opts o = SPAWN_OPTS;
	o.stdio[0] = in_fd;
	o.stdio[1] = out_fd;
	o.stdio[2] = err_fd;
	o.keep_fd = -1; /* only stdio: the write end of a stdin pipe must not stay open in the child */
	o.die_with_parent = 1;
	return start_python(cmd, "exec $1 -u -", &o, why, n);
}

int runtime_torch_version(char *out, size_t n, char *why, size_t whysz)
{
	static const char program[] = "import importlib.metadata as m\nprint(m.version('torch'))\n";
	char python[4096];
	int io[2] = {-1, -1};
	if (runtime_python(python, sizeof python, why, whysz))
		return -1;
	FILE *in = tmpfile();
	if (!in || runtime_write_all(fileno(in), program, sizeof program - 1) || lseek(fileno(in), 0, SEEK_SET) ||
	    pipe(io)) {
		fail(why, whysz, "cannot ask python for torch's version: %s", strerror(errno));
		if (in)
			fclose(in);
		return -1;
	}
	pid_t pid = runtime_spawn_program(python, fileno(in), io[1], -1, why, whysz);
	fclose(in);
	close(io[1]);
	size_t len = 0;
	for (ssize_t got = 1; pid > 0 && got && len + 1 < n;) {
		got = read(io[0], out + len, n - 1 - len);
		if (got < 0 && errno != EINTR)
			break;
		len += got > 0 ? (size_t)got : 0;
	}
	close(io[0]);
	int status = -1;
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	out[len] = 0;
	out[strcspn(out, "\n")] = 0;
	if (pid <= 0)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) || !out[0])
		return fail(why, whysz, "%.1000s found no torch package (exit status %d)", python,
			    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}

int runtime_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, p + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

int runtime_write_frame(int fd, const void *buf, size_t len)
{
	char head[32];
	int hl = snprintf(head, sizeof head, "%zu\n", len);
	return runtime_write_all(fd, head, (size_t)hl) || runtime_write_all(fd, buf, len) ? -1 : 0;
}

unsigned runtime_gpu_count(void)
{
	const char *visible = getenv("CUDA_VISIBLE_DEVICES");
	unsigned n = 0;
	if (visible) {
		for (const char *p = visible; *p; p += strcspn(p, ","), p += *p == ',')
			n += *p != ',' && *p != '-'; /* "-1" hides every GPU */
		return n;
	}
	DIR *d = opendir("/proc/driver/nvidia/gpus");
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}
