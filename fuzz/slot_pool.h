/* The manager's slots (fuzz/manager.h): its persistent target processes
 * (slot.h), each with the input it runs, where each starts (placement.h)
 * and when one is stuck (the watchdog). The manager fills the pool's
 * settings from its own and feeds the slots; the pool knows nothing of the
 * corpus or the mutators. */
#ifndef PT2FUZZ_SLOT_POOL_H
#define PT2FUZZ_SLOT_POOL_H
#include <stddef.h>
#include <stdint.h>
#include "../graph/codec.h"
#include "placement.h"
#include "slot.h"

#define POOL_SLOTS 256

struct check_cfg;

/* One slot: its target process and the input it runs. */
struct pool_slot {
	struct slot s;
	int busy;
	int mutator;             /* the mutator that made the input, -1 for a corpus or seed input */
	int of_corpus;           /* the input is one of the corpus folder's: kept whatever it shows */
	int gpu;                 /* the GPU its process runs on (placement), -1 when none */
	int64_t sent_ms;         /* when its input was sent (the watchdog's clock) */
	size_t size;
	uint8_t data[CODEC_MAX_SIZE];
};

struct slot_pool {
	unsigned jobs;           /* slots in use, at most POOL_SLOTS */
	char *const *argv;       /* a slot's command line (pt2fuzz_fuzzer ... --serve) */
	int log_fd;              /* the slots' stderr */
	int place;               /* each slot on a GPU by free memory (placement.h) */
	const char *device;      /* the slots' --device without placement */
	int64_t watchdog_ms;     /* a slot in one input longer is killed and replaced (0: never) */
	const char *findings;    /* where the watchdog files its hang findings */
	const char *crashes;     /* where it keeps their inputs */
	const struct check_cfg *check; /* the slots' configuration, for those findings' programs */
	struct placement placement;
	struct pool_slot slot[POOL_SLOTS];
};

/* Marks p's slots empty and, with placement, reads the GPUs. p's settings
 * are set. 0, or -1 with why. */
int slot_pool_begin(struct slot_pool *p, char *why, size_t n);

/* Starts s's process: with placement, on the GPU placement_take chooses
 * (--device cuda:N, said in the log), or not at all while no GPU has room.
 * 0, or -1 (it is tried again at the next feed). */
int slot_pool_start(struct slot_pool *p, struct pool_slot *s);

/* Kills s's target if it has not exited by end_ms, and removes the
 * half-written finding folder it may leave (atomic_sweep_writer). Whether it
 * had to kill. Its workers are the caller's to wait for (slot_await), so
 * that many slots' die together. */
int slot_pool_kill(struct slot_pool *p, struct pool_slot *s, int64_t end_ms);

/* The watchdog: a slot in one input longer than watchdog_ms is killed, its
 * input filed as a hang finding and kept in crashes/ (libFuzzer's timeout-
 * name); the slot starts again at its next feed. How many it killed. */
unsigned slot_pool_watch(struct slot_pool *p, int64_t now);

/* The GPUs' slots and memory (placement_text), for the summary. */
void slot_pool_placement_text(struct slot_pool *p, char *out, size_t n);

#endif
