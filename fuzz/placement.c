/* Slot placement by free GPU memory (placement.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../harness/protocol.h"
#include "../harness/spawn.h"
#include "placement.h"

#define PLACEMENT_RETRY_MS 5000 /* a slot that found no room asks again this much later */

static int fail(char *why, size_t n, const char *what, const char *detail)
{
	snprintf(why, n, "%s%s", what, detail);
	return -1;
}

/* Memory g holds, counting each of its slots at need_mib at least. */
static unsigned long held_mib(const struct gpu_load *g, unsigned long need_mib)
{
	unsigned long slots = (unsigned long)g->slots * need_mib;
	return g->used_mib > slots ? g->used_mib : slots;
}

int placement_pick(const struct gpu_load *g, unsigned n, unsigned long need_mib)
{
	int best = -1;
	unsigned long best_units = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned long held = held_mib(&g[i], need_mib);
		if (held + need_mib > g[i].total_mib * PLACEMENT_FULL_PCT / 100)
			continue;
		unsigned long units = (g[i].total_mib - held) / (need_mib ? need_mib : 1);
		if (best < 0 || units > best_units || (units == best_units && g[i].slots < g[best].slots)) {
			best = (int)i;
			best_units = units;
		}
	}
	return best;
}

int placement_parse(const char *text, const char *visible, struct gpu_load *g, unsigned max, char *why, size_t n)
{
	struct {
		unsigned long index, used, total;
	} rows[PLACEMENT_GPUS];
	unsigned nrows = 0;
	for (const char *p = text; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		if (strspn(p, " \t\r") == strcspn(p, "\n"))
			continue; /* a blank line */
		if (nrows == PLACEMENT_GPUS)
			break;
		if (sscanf(p, "%lu , %lu , %lu", &rows[nrows].index, &rows[nrows].used, &rows[nrows].total) != 3 ||
		    !rows[nrows].total) {
			snprintf(why, n, "expected 'index, memory.used, memory.total' in MiB, got '%.*s'", (int)strcspn(p, "\n"),
				 p);
			return -1;
		}
		nrows++;
	}
	unsigned count = 0;
	/* CUDA stops at the first entry that names no GPU ("-1" hides them all) */
	for (const char *v = visible; v && *v && *v != '-' && count < max; v += strcspn(v, ","), v += *v == ',') {
		char *end;
		unsigned long want = strtoul(v, &end, 10);
		if (end == v || (*end && *end != ','))
			return fail(why, n, "CUDA_VISIBLE_DEVICES names a GPU by other than its index: ", v);
		unsigned r = 0;
		while (r < nrows && rows[r].index != want)
			r++;
		if (r == nrows)
			return fail(why, n, "CUDA_VISIBLE_DEVICES lists a GPU the query does not: ", v);
		g[count++] = (struct gpu_load){rows[r].used, rows[r].total, 0};
	}
	for (unsigned r = 0; !visible && r < nrows && count < max; r++)
		g[count++] = (struct gpu_load){rows[r].used, rows[r].total, 0};
	return (int)count;
}

int placement_query(struct gpu_load *g, unsigned max, char *why, size_t n)
{
	const char *cmd = getenv("PT2FUZZ_NVIDIA_SMI") && getenv("PT2FUZZ_NVIDIA_SMI")[0] ? getenv("PT2FUZZ_NVIDIA_SMI")
											: "nvidia-smi";
	char *const argv[] = {(char *)cmd, "--query-gpu=index,memory.used,memory.total", "--format=csv,noheader,nounits",
			      NULL};
	char out[8192], parse_why[300];
	if (spawn_capture(argv, out, sizeof out) < 0)
		return fail(why, n, cmd, ": the GPU memory query failed (set PT2FUZZ_NVIDIA_SMI to a command that prints "
					 "nvidia-smi's 'index, memory.used, memory.total' lines)");
	int count = placement_parse(out, getenv("CUDA_VISIBLE_DEVICES"), g, max, parse_why, sizeof parse_why);
	if (count < 0)
		snprintf(why, n, "%s: %s", cmd, parse_why);
	return count;
}

/* Queries the GPUs into p, keeping slots and noting peaks. 0, or -1. */
static int refresh(struct placement *p, const unsigned *slots, char *why, size_t n)
{
	struct gpu_load now[PLACEMENT_GPUS];
	int count = placement_query(now, PLACEMENT_GPUS, why, n);
	if (count < 0)
		return -1;
	if (p->n && (unsigned)count != p->n) {
		snprintf(why, n, "the GPU memory query listed %u GPUs, then %d", p->n, count);
		return -1;
	}
	p->n = (unsigned)count;
	for (unsigned i = 0; i < p->n; i++) {
		p->gpu[i] = now[i];
		p->gpu[i].slots = slots ? slots[i] : 0;
		if (now[i].used_mib > p->peak_mib[i])
			p->peak_mib[i] = now[i].used_mib;
		if (p->gpu[i].slots > p->most_slots[i])
			p->most_slots[i] = p->gpu[i].slots;
	}
	return 0;
}

int placement_begin(struct placement *p, char *why, size_t n)
{
	memset(p, 0, sizeof *p);
	if (refresh(p, NULL, why, n))
		return -1;
	return p->n ? 0 : fail(why, n, "the GPU memory query lists no GPU", "");
}

int placement_take(struct placement *p, const unsigned *slots, char *why, size_t n)
{
	int64_t now = protocol_now_ms();
	why[0] = 0;
	if (now < p->retry_ms)
		return -1;
	if (refresh(p, slots, why, n)) {
		p->retry_ms = now + PLACEMENT_RETRY_MS;
		return -1;
	}
	int gpu = placement_pick(p->gpu, p->n, PLACEMENT_WORKER_MIB);
	if (gpu < 0) {
		p->retry_ms = now + PLACEMENT_RETRY_MS;
		snprintf(why, n, "no GPU has room for a worker of %d MiB under %d%% of its memory", PLACEMENT_WORKER_MIB,
			 PLACEMENT_FULL_PCT);
		return -1;
	}
	p->gpu[gpu].slots++;
	if (p->gpu[gpu].slots > p->most_slots[gpu])
		p->most_slots[gpu] = p->gpu[gpu].slots;
	return gpu;
}

void placement_text(struct placement *p, const unsigned *slots, char *out, size_t n)
{
	char failed[300];
	out[0] = 0;
	if (refresh(p, slots, failed, sizeof failed))
		snprintf(out, n, "(the last memory query failed: %.200s) ", failed);
	size_t k = strlen(out);
	for (unsigned i = 0; i < p->n && k < n; i++)
		k += (size_t)snprintf(out + k, n - k, "%scuda:%u %u slots (most %u), %lu/%lu MiB (peak %lu)", i ? "; " : "", i,
				      p->gpu[i].slots, p->most_slots[i], p->gpu[i].used_mib, p->gpu[i].total_mib,
				      p->peak_mib[i]);
}
