/* The manager's slots' processes (slot_pool.h). */
#include <stdio.h>
#include <string.h>
#include "../graph/codec.h"
#include "../pipeline/atomic_file.h"
#include "../pipeline/check.h"
#include "../pipeline/findings.h"
#include "slot_pool.h"

#define SLOT_ARGS 1024 /* a slot's command line (the runner's) and its --device */

/* The slots each GPU holds now. */
static void count_slots(const struct slot_pool *p, unsigned *slots)
{
	memset(slots, 0, PLACEMENT_GPUS * sizeof *slots);
	for (unsigned i = 0; i < p->jobs; i++)
		if (p->slot[i].s.pid && p->slot[i].gpu >= 0)
			slots[p->slot[i].gpu]++;
}

/* The device a slot's process runs on: its GPU's, or the slots' --device. */
static void slot_device(const struct slot_pool *p, int gpu, char *out, size_t n)
{
	if (p->place && gpu >= 0)
		snprintf(out, n, "cuda:%d", gpu);
	else
		snprintf(out, n, "%s", p->device);
}

int slot_pool_begin(struct slot_pool *p, char *why, size_t n)
{
	if (p->jobs > POOL_SLOTS) {
		snprintf(why, n, "the manager takes at most %d jobs", POOL_SLOTS);
		return -1;
	}
	for (unsigned i = 0; i < p->jobs; i++)
		p->slot[i].mutator = p->slot[i].gpu = -1;
	return p->place ? placement_begin(&p->placement, why, n) : 0;
}

int slot_pool_start(struct slot_pool *p, struct pool_slot *s)
{
	unsigned index = (unsigned)(s - p->slot);
	if (!p->place)
		return slot_start(&s->s, p->argv, p->log_fd);
	unsigned slots[PLACEMENT_GPUS];
	char why[400], device[24];
	count_slots(p, slots);
	int gpu = placement_take(&p->placement, slots, why, sizeof why);
	if (gpu < 0) {
		if (why[0])
			dprintf(p->log_fd, "pt2fuzz fuzz: slot %u waits: %s\n", index, why);
		return -1;
	}
	/* the target's --device is its last one (pipeline/cli.h) */
	char *argv[SLOT_ARGS];
	unsigned n = 0;
	while (p->argv[n] && n + 3 < SLOT_ARGS) {
		argv[n] = p->argv[n];
		n++;
	}
	slot_device(p, gpu, device, sizeof device);
	argv[n++] = "--device";
	argv[n++] = device;
	argv[n] = NULL;
	const struct gpu_load *g = &p->placement.gpu[gpu];
	dprintf(p->log_fd, "pt2fuzz fuzz: slot %u on %s (%lu of %lu MiB used, %u slots with this one)\n", index, device,
		g->used_mib, g->total_mib, g->slots);
	if (slot_start(&s->s, argv, p->log_fd))
		return -1;
	s->gpu = gpu;
	return 0;
}

/* Files s's input as a hang finding (a graph that decodes; the target's
 * own drops and draws of a seed are not redone). */
static void file_hang(const struct slot_pool *p, const struct pool_slot *s, long long secs)
{
	static struct graph g;
	static struct check_result r;
	char why[600] = "", detail[200], dir[4200] = "", device[24];
	int saved = -1;
	slot_device(p, s->gpu, device, sizeof device);
	snprintf(detail, sizeof detail, "the target ran this input for over %lld s (--watchdog) and was killed", secs);
	if (!codec_decode(&g, s->data, s->size, why, sizeof why) && !check_hung(&g, p->check, detail, &r, why, sizeof why)) {
		struct check_finding f;
		struct finding_ctx fc = {p->findings, p->check, NULL, device, "engine manager (watchdog)"};
		check_primary(&r, &f);
		saved = findings_record(&fc, &g, &r, &f, dir, sizeof dir, why, sizeof why);
		check_result_free(&r);
	}
	if (saved < 0)
		dprintf(p->log_fd, "pt2fuzz fuzz: the watchdog's hang finding is not filed: %s\n", why);
	else
		dprintf(p->log_fd, "pt2fuzz: %s finding %s: %s\n", saved ? "new" : "repeated", dir, detail);
}

int slot_pool_kill(struct slot_pool *p, struct pool_slot *s, int64_t end_ms)
{
	pid_t pid = s->s.pid;
	if (!slot_kill(&s->s, end_ms))
		return 0;
	atomic_sweep_writer(p->findings, pid); /* a finding it was writing when killed */
	return 1;
}

unsigned slot_pool_watch(struct slot_pool *p, int64_t now)
{
	unsigned killed = 0;
	for (unsigned i = 0; p->watchdog_ms && i < p->jobs; i++) {
		struct pool_slot *s = &p->slot[i];
		if (!s->busy || now - s->sent_ms <= p->watchdog_ms)
			continue;
		long long secs = (long long)(p->watchdog_ms / 1000);
		dprintf(p->log_fd, "pt2fuzz fuzz: watchdog: slot %u ran one input for over %lld s: killed, replaced\n", i,
			secs);
		slot_pool_kill(p, s, 0);
		slot_await(&s->s);
		s->busy = 0;
		killed++;
		atomic_save_by_hash(p->crashes, "timeout-", s->data, s->size);
		file_hang(p, s, secs);
	}
	return killed;
}

void slot_pool_placement_text(struct slot_pool *p, char *out, size_t n)
{
	unsigned slots[PLACEMENT_GPUS];
	count_slots(p, slots);
	out[0] = 0;
	if (p->place)
		placement_text(&p->placement, slots, out, n);
}
