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

int runtime_run_script(const char *start, const char *end, const char *input, size_t input_len, size_t cap,
		       struct runtime_output *r, char *why, size_t n)
{
	char python[4096];
	memset(r, 0, sizeof *r);
	if (runtime_python(python, sizeof python, why, n))
		return -1;
	FILE *in = tmpfile();
	int out[2] = {-1, -1};
	if (!in || runtime_write_frame(fileno(in), start, (size_t)(end - start)) ||
	    runtime_write_all(fileno(in), input, input_len) || lseek(fileno(in), 0, SEEK_SET) || pipe(out)) {
		snprintf(why, n, "cannot pass the input to Python: %s", strerror(errno));
		if (in)
			fclose(in);
		return -1;
	}
	pid_t pid = runtime_spawn(python, fileno(in), out[1], -1, -1, NULL, why, n);
	fclose(in);
	close(out[1]);
	size_t room = 1 << 16, len = 0;
	char *buf = pid < 0 ? NULL : malloc(room + 1);
	for (ssize_t got = 1; buf && got > 0 && len < cap;) {
		if (len == room) {
			char *grown = realloc(buf, (room *= 2) + 1);
			if (!grown)
				break;
			buf = grown;
		}
		got = read(out[0], buf + len, room - len);
		len += got > 0 ? (size_t)got : 0;
		if (got < 0 && errno == EINTR)
			got = 1;
	}
	close(out[0]);
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !buf) {
		if (pid >= 0)
			snprintf(why, n, "%.1000s: %s", python, buf ? strerror(errno) : "out of memory");
		free(buf);
		return -1;
	}
	buf[len] = 0;
	r->out = buf;
	r->len = len;
	r->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	return 0;
}

int runtime_torch_version(char *out, size_t n, char *why, size_t whysz)
{
	static const char program[] = "import importlib.metadata as m\nprint(m.version('torch'))\n";
	struct runtime_output r;
	if (runtime_run_script(program, program + sizeof program - 1, "", 0, n - 1, &r, why, whysz))
		return -1;
	snprintf(out, n, "%.*s", (int)strcspn(r.out, "\n"), r.out);
	free(r.out);
	if (r.exit_code || !out[0])
		return fail(why, whysz, "the runtime's python found no torch package (exit status %d)", r.exit_code);
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
