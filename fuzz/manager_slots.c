/* The manager's slots' processes: where each starts (placement.h) and when
 * one is stuck (the watchdog). */
#include <stdio.h>
#include <string.h>
#include "../graph/codec.h"
#include "../pipeline/check.h"
#include "../pipeline/findings.h"
#include "manager.h"

#define SLOT_ARGS 1024 /* a slot's command line (the runner's) and its --device */

/* The slots each GPU holds now. */
static void count_slots(const struct manager *m, unsigned *slots)
{
	memset(slots, 0, PLACEMENT_GPUS * sizeof *slots);
	for (unsigned i = 0; i < m->c.jobs; i++)
		if (m->slot[i].s.pid && m->slot[i].gpu >= 0)
			slots[m->slot[i].gpu]++;
}

/* The device a slot's process runs on: its GPU's, or the slots' --device. */
static void slot_device(const struct manager *m, int gpu, char *out, size_t n)
{
	if (m->c.place && gpu >= 0)
		snprintf(out, n, "cuda:%d", gpu);
	else
		snprintf(out, n, "%s", m->c.device);
}

int manager_slot_start(struct manager *m, struct manager_slot *s)
{
	unsigned index = (unsigned)(s - m->slot);
	if (!m->c.place)
		return slot_start(&s->s, m->c.argv, m->c.log_fd);
	unsigned slots[PLACEMENT_GPUS];
	char why[400], device[24];
	count_slots(m, slots);
	int gpu = placement_take(&m->place, slots, why, sizeof why);
	if (gpu < 0) {
		if (why[0])
			dprintf(m->c.log_fd, "pt2fuzz fuzz: slot %u waits: %s\n", index, why);
		return -1;
	}
	/* the target's --device is its last one (pipeline/cli.h) */
	char *argv[SLOT_ARGS];
	unsigned n = 0;
	while (m->c.argv[n] && n + 3 < SLOT_ARGS) {
		argv[n] = m->c.argv[n];
		n++;
	}
	slot_device(m, gpu, device, sizeof device);
	argv[n++] = "--device";
	argv[n++] = device;
	argv[n] = NULL;
	const struct gpu_load *g = &m->place.gpu[gpu];
	dprintf(m->c.log_fd, "pt2fuzz fuzz: slot %u on %s (%lu of %lu MiB used, %u slots with this one)\n", index, device,
		g->used_mib, g->total_mib, g->slots);
	if (slot_start(&s->s, argv, m->c.log_fd))
		return -1;
	s->gpu = gpu;
	return 0;
}

/* Files s's input as a hang finding (a graph that decodes; the target's
 * own drops and draws of a seed are not redone). */
static void file_hang(struct manager *m, const struct manager_slot *s, long long secs)
{
	static struct graph g;
	static struct check_result r;
	char why[600] = "", detail[200], dir[4200] = "", device[24];
	int saved = -1;
	slot_device(m, s->gpu, device, sizeof device);
	snprintf(detail, sizeof detail, "the target ran this input for over %lld s (--watchdog) and was killed", secs);
	if (!codec_decode(&g, s->data, s->size, why, sizeof why) && !check_hung(&g, m->c.check, detail, &r, why, sizeof why)) {
		struct check_finding f;
		struct finding_ctx fc = {m->c.findings, m->c.check, NULL, device, "engine manager (watchdog)"};
		check_primary(&r, &f);
		saved = findings_record(&fc, &g, &r, &f, dir, sizeof dir, why, sizeof why);
		check_result_free(&r);
	}
	if (saved < 0)
		dprintf(m->c.log_fd, "pt2fuzz fuzz: the watchdog's hang finding is not filed: %s\n", why);
	else
		dprintf(m->c.log_fd, "pt2fuzz: %s finding %s: %s\n", saved ? "new" : "repeated", dir, detail);
}

void manager_watch(struct manager *m, int64_t now)
{
	for (unsigned i = 0; m->c.watchdog_ms && i < m->c.jobs; i++) {
		struct manager_slot *s = &m->slot[i];
		if (!s->busy || now - s->sent_ms <= m->c.watchdog_ms)
			continue;
		long long secs = (long long)(m->c.watchdog_ms / 1000);
		dprintf(m->c.log_fd, "pt2fuzz fuzz: watchdog: slot %u ran one input for over %lld s: killed, replaced\n", i,
			secs);
		slot_stop(&s->s, 0);
		s->busy = 0;
		m->execs++;
		m->slot_hangs++;
		save_input(m->c.crashes, "timeout-", s->data, s->size);
		file_hang(m, s, secs);
	}
}

void manager_placement_text(struct manager *m, char *out, size_t n)
{
	unsigned slots[PLACEMENT_GPUS];
	count_slots(m, slots);
	out[0] = 0;
	if (m->c.place)
		placement_text(&m->place, slots, out, n);
}
