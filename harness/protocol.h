/* The worker protocol (docs/protocol.md): messages are a 4-byte
 * little-endian length and that many bytes, over the worker's stdin and
 * stdout; tensor values travel through a shared memory file (memfd) whose
 * layout is fixed here. Parsing trusts nothing the worker sends. */
#ifndef PT2FUZZ_PROTOCOL_H
#define PT2FUZZ_PROTOCOL_H
#include <stddef.h>
#include <stdint.h>
#include "result.h"

/* Shared memory: a header page (busy markers), the coverage map, values.
 * The map's regions: compiler lines and branches, then Inductor's kernel
 * names, then the compiler's decisions (patterns fired, fusions, fallbacks,
 * guards: all three filled by the worker, which gets this layout at
 * start-up), then the fuzz target's graph features (pipeline/features.h).
 * 256 KiB: a smaller map fills its compiler slots and its counters collide,
 * and a collision's varying counts read as new coverage; 256 Ki counters of
 * 8 buckets are libFuzzer's whole feature space (kFeatureSetSize, 2^21), so
 * nothing folds there either. */
#define SHM_HEADER 4096
#define SHM_COVERAGE (1u << 18)
#define SHM_COMPILER_SLOTS 0x34000u
#define SHM_KERNEL_SLOTS 0x4000u
#define SHM_DECISION_SLOTS 0x4000u
#define SHM_DATA (SHM_HEADER + SHM_COVERAGE)
#define SHM_BUSY_MODE 4     /* u32: enum run_mode being run, or ~0 when idle */
#define SHM_BUSY_BINDING 8  /* u32 */

#define PROTO_MAX_MESSAGE (16u << 20)
#define PROTO_HELLO_MAX 1024 /* the worker's hello, as the executor keeps it */
#define PROTO_CONSTANTS_MAX 2048 /* protocol_constants' text */

/* The protocol's version: a worker of another version refuses to start. */
#define PROTOCOL_VERSION 4

/* The constants both sides must agree on (docs/protocol.md, "Start-up"):
 * the version, the mode and dtype orders, the ranks, counts and string
 * sizes a reply may carry, the shared memory header's layout, and the
 * reply's layout (reply_PART=name:format,...: the worker packs by it, the
 * parser below reads by it; harness/protocol.c's reply_parts). They open
 * the start-up configuration as key=value lines, and the worker takes them
 * from there. $PT2FUZZ_PROTOCOL_OVERRIDE ("key=value") replaces the value
 * of one: how the tests make a worker refuse. Writes them into out (cap
 * bytes, NUL-terminated); returns their length, or -1 when they do not fit. */
int protocol_constants(char *out, size_t cap);

/* "eager", "compiled", "fp64", "nudged": enum run_mode's names, as the worker knows them. */
const char *run_mode_name(unsigned mode);

/* "request", "dynamo", ...: enum worker_stage's names, as the worker knows them. */
const char *worker_stage_name(unsigned stage);

/* Adds a response message's records to r (values point into data, data_len
 * bytes; r zeroed by the caller before a request's first part).
 * Returns the request id it answers, or -1 with a reason. *restart is set
 * when the worker will exit after this response (a poisoned CUDA context). */
long protocol_parse_response(const uint8_t *msg, size_t len, const uint8_t *data, size_t data_len,
			     struct run_result *r, int *restart, char *why, size_t n);

/* A tagged message's head (reply_tag: magic, request id): the offset of
 * what follows it, or -1 when msg has another magic or id or is too short. */
long protocol_parse_tagged(const uint8_t *msg, size_t len, const char *magic, uint64_t id);

/* A string at offset at of msg (reply_count bytes, then the text): the
 * offset of its text, its length in *str_len; -1 when it does not fit. */
long protocol_parse_string(const uint8_t *msg, size_t len, size_t at, size_t *str_len);

/* Blocking I/O of whole messages on fds, with a deadline (ms since an
 * arbitrary epoch: protocol_now_ms). read returns the length, 0 on EOF, -1
 * on error, -2 on timeout; *buf is malloc'd. While waiting, bytes that
 * arrive on drain_fd (>= 0) are handed to drain(ctx, bytes, len). */
long protocol_read_message(int fd, uint8_t **buf, int64_t deadline_ms, int drain_fd,
			   void (*drain)(void *ctx, const char *bytes, size_t len), void *ctx);
int protocol_write_message(int fd, const void *buf, size_t len);
int64_t protocol_now_ms(void);

#endif
