#include "python_script.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../harness/runtime.h"

int python_script_run(const char *start, const char *end, const char *input, size_t input_len, size_t cap,
		      struct script_result *r, char *why, size_t n)
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
