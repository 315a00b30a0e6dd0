/* Where the torch runtime is: the python3 command that scripts/setup chose
 * (build/runtime.env), or $PT2FUZZ_PYTHON when set. Python programs reach it
 * through stdin, never through paths, so a chroot'd python works unchanged. */
#ifndef PT2FUZZ_RUNTIME_H
#define PT2FUZZ_RUNTIME_H
#include <stddef.h>
#include <sys/types.h>

/* The command that starts python3 (may hold arguments, e.g. a chroot
 * wrapper). 0, or -1 with a reason when neither source names one. */
int runtime_python(char *cmd, size_t cap, char *why, size_t n);

/* Starts `cmd -c BOOT` where BOOT reads a Python script framed as
 * "<length>\n<source>" from stdin and executes it; the script then owns the
 * rest of stdin. The child's stdin/stdout are in_fd/out_fd (stderr: err_fd,
 * or inherited when -1); extra_fd (or -1) stays open in the child under the
 * same number; env (NULL or NULL-terminated "NAME=VALUE" strings) is added
 * to its environment. Returns the pid, or -1 with a reason. */
pid_t runtime_spawn(const char *cmd, int in_fd, int out_fd, int err_fd, int extra_fd, const char *const *env, char *why,
		    size_t n);

/* Starts `cmd -u -`: Python running the program it reads from in_fd (its
 * stdin; `<stdin>` in tracebacks) with out_fd and err_fd as its stdout and
 * stderr (-1: the caller's), in its own process group (kill the group to
 * stop its subprocesses too), SIGTERM'd when the caller dies. An exec that
 * fails exits 127. Returns the pid, or -1 with a reason. */
pid_t runtime_spawn_program(const char *cmd, int in_fd, int out_fd, int err_fd, char *why, size_t n);

/* What a script run by the runtime's python printed. */
struct runtime_output {
	char *out;     /* its stdout (malloc'd, NUL-terminated), up to the caller's cap */
	size_t len;
	int exit_code; /* its exit status, or -1 when a signal ended it */
};

/* Runs the Python script [start, end) on input (both go in on stdin, from a
 * file: nothing waits on a pipe). 0 with *r filled, or -1 with a reason when
 * it could not start or be read (its own errors are on stderr). */
int runtime_run_script(const char *start, const char *end, const char *input, size_t input_len, size_t cap,
		       struct runtime_output *r, char *why, size_t n);

/* The installed torch's version ("2.11.0+cu130") into out, read from its
 * package metadata by the runtime's python without importing torch (a
 * fraction of a second). 0, or -1 with a reason. */
int runtime_torch_version(char *out, size_t n, char *why, size_t whysz);

/* The GPUs a worker may use: CUDA_VISIBLE_DEVICES' entries when it is set,
 * else the NVIDIA driver's GPUs (/proc/driver/nvidia/gpus); 0 on a CPU machine. */
unsigned runtime_gpu_count(void);

/* Writes all len bytes to fd (retrying short writes and EINTR); 0, or -1. */
int runtime_write_all(int fd, const void *buf, size_t len);

/* Writes the frame "<length>\n<bytes>" to fd; 0, or -1. */
int runtime_write_frame(int fd, const void *buf, size_t len);

#endif
