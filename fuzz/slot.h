/* A persistent target process: the unit of `pt2fuzz fuzz`'s engine
 * (fuzz/manager.h). pt2fuzz_fuzzer with --serve runs inputs the manager
 * sends, one at a time, through the same entry point libFuzzer calls, with
 * one worker for its whole life, and answers each with what libFuzzer would
 * have seen: the entry point's return and the feature map. A new finding,
 * which aborts a libFuzzer job, is a return of its own instead (the manager
 * keeps the input as libFuzzer keeps a crash input); a process that ends
 * anyway (a crash of the target itself) is started again.
 * Frames on the target's stdin and stdout: to the target, a u32 length and the input; back, an
 * i32 return and the FEATURES_MAP bytes of the map. */
#ifndef PT2FUZZ_SLOT_H
#define PT2FUZZ_SLOT_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The entry point's return for a new finding, in a served target only
 * (libFuzzer knows 0 and -1); its map is empty. */
#define SLOT_NEW_FINDING 1

/* The target's side: runs one(input) for each frame on stdin and replies
 * on stdout (both moved out of the way first: stdout then goes to stderr,
 * so that nothing the process or its worker prints can break a frame) with
 * its return and map (map_len bytes), until the manager closes the pipe.
 * Returns then (0), or -1 when a pipe broke. */
int slot_serve(int (*one)(const uint8_t *, size_t), const uint8_t *map, size_t map_len);

#define SLOT_CHILD_GROUPS 8 /* a target runs one worker; a few more are kept in view */

/* The manager's side: one target process and its pipes. */
struct slot {
	pid_t pid;      /* 0: none runs */
	int to, from;   /* the input pipe's write end, the reply pipe's read end; -1 when closed */
	pid_t killed[SLOT_CHILD_GROUPS]; /* its children's groups slot_kill killed, until slot_await */
	unsigned nkilled;
};

/* Starts argv (a pt2fuzz_fuzzer with --serve) in a process group of its
 * own, its stdin and stdout the pipes, stderr on log_fd. 0, or -1. */
int slot_start(struct slot *s, char *const *argv, int log_fd);

/* Sends one input. 0, or -1 when the target is gone. */
int slot_send(struct slot *s, const uint8_t *data, size_t size);

/* Reads a reply (s->from is readable): its return into *ret, its map into
 * map. 0, or -1 when the target ended (a new finding aborts it) or broke
 * the frame. */
int slot_reply(struct slot *s, int *ret, uint8_t *map, size_t map_len);

/* Closes the pipes: a serving target exits (writing its stats) once its
 * input is done. */
void slot_close(struct slot *s);

/* Closes the pipes if open, waits until end_ms (protocol_now_ms()'s clock)
 * for the process to exit, then kills its process group and its children's
 * (its worker's); reaps it. 1 when it had to kill it, else 0. */
int slot_kill(struct slot *s, int64_t end_ms);

/* Waits (a bounded while) for the children's groups slot_kill killed to
 * exit: a worker's lock on its temporary folder and its GPU memory go then,
 * not when the kill is sent. Many slots are killed first, then awaited. */
void slot_await(struct slot *s);

/* slot_kill, then slot_await. */
int slot_stop(struct slot *s, int64_t end_ms);

#endif
