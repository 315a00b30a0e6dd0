/* Where a manager-engine slot's worker goes on a node of several GPUs: the
 * GPU with the most free memory, then the fewest slots, and never one that
 * the worker would push past PLACEMENT_FULL_PCT of its memory (the slot then
 * waits). The memory comes from nvidia-smi, or from the command named by
 * PT2FUZZ_NVIDIA_SMI (which prints nvidia-smi's lines: tests fake GPUs so). */
#ifndef PT2FUZZ_PLACEMENT_H
#define PT2FUZZ_PLACEMENT_H
#include <stddef.h>
#include <stdint.h>

#define PLACEMENT_GPUS 64
#define PLACEMENT_FULL_PCT 90
#define PLACEMENT_WORKER_MIB 2048 /* a worker's CUDA context, caching allocator and autotuning */

/* One GPU as placement sees it. */
struct gpu_load {
	unsigned long used_mib, total_mib;
	unsigned slots; /* the manager's slots on it */
};

/* --- pure parts --- */

/* The GPU of g[0..n) for one more worker of need_mib: the most free memory
 * (counted in workers' worth: free memory within one worker of another's
 * ties), then the fewest slots, then the lowest index. A GPU's used memory
 * is at least its slots' need (a worker just started has not taken its
 * memory yet). -1 when the worker would push every GPU past
 * PLACEMENT_FULL_PCT of its memory. */
int placement_pick(const struct gpu_load *g, unsigned n, unsigned long need_mib);

/* Parses nvidia-smi's "index, memory.used, memory.total" lines into g (at
 * most max GPUs, slots 0), in CUDA's order: with visible (CUDA_VISIBLE_DEVICES,
 * or NULL) the GPUs it lists, in its order. The count, or -1 with a reason
 * (a line that is not three numbers, a visible GPU nvidia-smi does not list
 * or names by UUID). */
int placement_parse(const char *text, const char *visible, struct gpu_load *g, unsigned max, char *why, size_t n);

/* --- the node --- */

/* The node's GPUs (PT2FUZZ_NVIDIA_SMI or nvidia-smi, CUDA_VISIBLE_DEVICES
 * honoured). The count, or -1 with a reason (the command failed). */
int placement_query(struct gpu_load *g, unsigned max, char *why, size_t n);

/* The placement state of a campaign: the GPUs and their peak use. */
struct placement {
	unsigned n;
	struct gpu_load gpu[PLACEMENT_GPUS];
	unsigned long peak_mib[PLACEMENT_GPUS];
	unsigned most_slots[PLACEMENT_GPUS];
	int64_t retry_ms;   /* when no GPU had room: no new query before this */
};

/* Queries the GPUs once. 0, or -1 with a reason (the command failed, or
 * it lists no GPU). */
int placement_begin(struct placement *p, char *why, size_t n);

/* A GPU for one more slot, given the slots each GPU holds now (slots[i]
 * for GPU i): the memory queried again, the peaks noted. The GPU, or -1
 * when none has room (or a query failed: why says so; the slot waits). */
int placement_take(struct placement *p, const unsigned *slots, char *why, size_t n);

/* One line per GPU: "cuda:N: S slots (most M), U/T MiB used (peak P)", the
 * memory queried once more. */
void placement_text(struct placement *p, const unsigned *slots, char *out, size_t n);

#endif
