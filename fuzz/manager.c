/* The manager engine's loop (manager.h). One poll() over the slots' reply
 * pipes rather than a thread per slot: the mutators, the schedule and the
 * feature map are process-wide state (mutate_use_weights, rarity_use), so
 * one thread mutating and judging novelty keeps them unlocked, and a
 * reply is handled, and the slot handed its next input, as soon as it comes. */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include "../graph/codec.h"
#include "../harness/protocol.h"
#include "../mutators/config_draw.h"
#include "../mutators/gen.h"
#include "../mutators/gen_fill.h"
#include "../mutators/rarity.h"
#include "../graph/op.h"
#include "../pipeline/atomic_file.h"
#include "manager.h"
#include "torch_avoid.h"

enum { SYNC_EVERY_MS = 10000, RETIRE_GRACE_MS = 5000 };

/* Whether an input of another runner's folder is new here: neither one of
 * the corpus folder's (names are content hashes) nor one imported before.
 * Remembers it. */
static int import_is_new(struct manager *m, const char *name)
{
	char path[4400];
	snprintf(path, sizeof path, "%s/%s", m->c.corpus, name);
	if (!access(path, F_OK))
		return 0;
	uint64_t h = XXH64(name, strlen(name), 0);
	unsigned lo = 0, hi = m->nimported;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (m->imported[mid] < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->nimported && m->imported[lo] == h)
		return 0;
	uint64_t *grown = realloc(m->imported, (m->nimported + 1) * sizeof *grown);
	if (!grown)
		return 0;
	memmove(grown + lo + 1, grown + lo, (m->nimported - lo) * sizeof *grown);
	grown[lo] = h;
	m->imported = grown;
	m->nimported++;
	return 1;
}

/* Adds the regular files of dir to the queue (with imports, only those
 * import_is_new takes). How many, or -1 (out of memory). */
static int list_dir(struct manager *m, const char *dir, int imports)
{
	DIR *d = dir ? opendir(dir) : NULL;
	int added = 0;
	if (!d)
		return 0;
	for (struct dirent *e; (e = readdir(d));) {
		char path[4400];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (e->d_name[0] == '.' || stat(path, &st) || !S_ISREG(st.st_mode) || (imports && !import_is_new(m, e->d_name)))
			continue;
		char **q = realloc(m->queue, (m->nqueue + 1) * sizeof *q);
		if (!q || !(q[m->nqueue] = strdup(path))) {
			closedir(d);
			return -1;
		}
		m->queue = q;
		m->nqueue++;
		added++;
	}
	closedir(d);
	return added;
}

static void sync_learned(struct manager *m)
{
	char why[600];
	if (m->store.dir[0] && learned_sync(&m->store, &m->live, why, sizeof why))
		fprintf(stderr, "pt2fuzz fuzz: %s\n", why);
	schedule_refresh(&m->schedule);
	setting_schedule_refresh(&m->settings);
	m->synced_ms = protocol_now_ms();
}

/* The slots' torch, as the campaign read it (no worker runs here): the draw
 * spends nothing on settings and ops that torch lacks, nor on known bugs'
 * triggers. Unknown, it draws everything, and the slots drop what their
 * torch lacks (every input they run is dropped of it). */
static char slots_torch[64];

static const char *torch_of_slots(void) { return slots_torch; }

int manager_begin(struct manager *m, const struct manager_config *c, char *why, size_t n)
{
	m->c = *c;
	rng_seed(&m->draws, c->seed);
	m->active = c->jobs;
	m->pool.jobs = c->jobs;
	m->pool.argv = c->argv;
	m->pool.log_fd = c->log_fd;
	m->pool.place = c->place;
	m->pool.device = c->device;
	m->pool.watchdog_ms = c->watchdog_ms;
	m->pool.findings = c->findings;
	m->pool.crashes = c->crashes;
	m->pool.check = c->check;
	if (slot_pool_begin(&m->pool, why, n))
		return -1;
	if (list_dir(m, c->corpus, 0) < 0)
		goto oom;
	m->ncorpus_files = m->nqueue;
	for (unsigned i = 0; i < c->nseed_dirs; i++)
		if (list_dir(m, c->seed_dirs[i], 0) < 0)
			goto oom;
	m->op_runs = calloc(op_count(), sizeof *m->op_runs);
	m->pair_runs = calloc(rarity_pair_count(), sizeof *m->pair_runs);
	m->op_repeats = calloc(op_count(), sizeof *m->op_repeats);
	if (!m->op_runs || !m->pair_runs || !m->op_repeats)
		goto oom;
	/* what the slots' targets set for their own mutators (fuzz/pt2fuzz_fuzzer.c) */
	gen_set_campaign_shape(c->size, c->components);
	gen_set_campaign(c->target, c->backward);
	snprintf(slots_torch, sizeof slots_torch, "%s", c->torch ? c->torch : "");
	config_draw_set_campaign(c->config_pct, c->aoti, c->backward, torch_of_slots);
	if (slots_torch[0])
		torch_avoid_use(torch_of_slots, c->hunt_known, c->aoti, c->findings);
	rarity_use(m->op_runs, m->pair_runs, m->op_repeats);
	config_draw_use_counts(m->setting_draws);
	schedule_init(&m->schedule);
	mutate_use_weights(m->schedule.weight);
	setting_schedule_init(&m->settings);
	config_draw_use_weights(m->settings.weight);
	m->live = (struct learned){m->learned_seen, sizeof m->learned_seen, m->op_runs, m->op_repeats, m->pair_runs,
				   m->schedule.runs, m->schedule.yields, m->settings.runs, m->settings.yields};
	if (c->learned && learned_open(&m->store, c->learned, &m->live, why, n))
		return -1;
	sync_learned(m);
	return 0;
oom:
	snprintf(why, n, "out of memory listing the corpus");
	return -1;
}

unsigned manager_import(struct manager *m, const char *dir)
{
	int added = list_dir(m, dir, 1);
	return added > 0 ? (unsigned)added : 0;
}

/* Reads the next queued file into s; 0 when the queue is done. */
static int next_queued(struct manager *m, struct pool_slot *s)
{
	while (m->next < m->nqueue) {
		FILE *f = fopen(m->queue[m->next++], "rb");
		if (!f)
			continue;
		s->size = fread(s->data, 1, sizeof s->data, f);
		fclose(f);
		s->mutator = -1;
		s->of_corpus = m->next <= m->ncorpus_files;
		return 1;
	}
	return 0;
}

/* A mutant of the corpus, as the libFuzzer target's custom mutator and
 * crossover make one (fuzz/pt2fuzz_fuzzer.c): a crossover as often as a
 * mutation, as libFuzzer asks for them. */
static void next_mutant(struct manager *m, struct pool_slot *s)
{
	static uint8_t other[CODEC_MAX_SIZE];
	uint64_t draw = rng_next(&m->draws);
	unsigned seed = (unsigned)(draw >> 32);
	s->mutator = -1;
	s->of_corpus = 0;
	if (m->c.no_coverage && (s->size = gen_fresh_bytes(s->data, sizeof s->data, seed, m->c.near_invalid, m->c.backward)))
		return;
	size_t size = manager_pick(&m->corpus, &m->energy, draw, s->data, sizeof s->data);
	int which = -1;
	if ((draw >> 17) & 1 && m->corpus.n > 1) {
		size_t osize = manager_pick(&m->corpus, &m->energy, draw | 1, other, sizeof other); /* odd: no energy spent */
		size = crossover_bytes(s->data, size, other, osize, s->data, sizeof s->data, seed, m->c.near_invalid, &which,
				       &m->mut);
	} else {
		size = gen_keep_component_bytes(s->data, size, seed);
		size = mutate_bytes(s->data, size, sizeof s->data, seed, m->c.near_invalid, &which, &m->mut);
	}
	s->size = gen_fill_bytes(s->data, size, sizeof s->data, seed);
	s->mutator = which;
}

/* A new finding's input goes to crashes/, as libFuzzer keeps it. */
static void new_finding(struct manager *m, struct pool_slot *s)
{
	m->new_findings++;
	if (s->mutator >= 0)
		schedule_note(&m->schedule, (unsigned)s->mutator, 0, 1);
	atomic_save_by_hash(m->c.crashes, "crash-", s->data, s->size);
}

/* What a reply says: a new input for the corpus, a yield for its mutator. */
static void take_reply(struct manager *m, struct pool_slot *s, int ret)
{
	m->execs++;
	if (ret == SLOT_NEW_FINDING) {
		new_finding(m, s);
		return;
	}
	/* The corpus keeps new code only (features.h's NOVEL_CODE): kept for any
	 * new feature, it held nearly every input run, which left seed choice,
	 * energy and the yields nothing to tell apart. */
	unsigned new_code = 0;
	int fresh = ret == 0 && features_novelty(m->map, m->seen, &new_code) == NOVEL_CODE;
	if (s->mutator >= 0) {
		schedule_note(&m->schedule, (unsigned)s->mutator, fresh ? new_code : 0, 0);
		m->mut_new[s->mutator] += (unsigned)fresh;
	}
	/* A resumed campaign's corpus is the corpus, as it was when kept: an
	 * input whose features an earlier one of the folder covers stays too. */
	if ((fresh || (s->of_corpus && ret == 0)) && !manager_corpus_add(&m->corpus, s->data, s->size)) {
		m->kept++;
		atomic_save_by_hash(m->c.corpus, "", s->data, s->size);
		if (s->mutator >= 0)
			energy_reward(&m->energy, s->data, s->size);
	}
}

/* A slot whose process ended while running an input (the target itself
 * crashed, or a new finding could not be kept out of an abort): its input
 * is kept as a crash input, and the slot starts again at its next feed. */
static void slot_ended(struct manager *m, struct pool_slot *s)
{
	m->execs++;
	m->slot_deaths++;
	new_finding(m, s);
	slot_stop(&s->s, 0);
	s->busy = 0;
}

/* Hands an idle slot its next input, starting its process if need be. */
static void feed(struct manager *m, struct pool_slot *s)
{
	if (!s->s.pid) {
		if (slot_pool_start(&m->pool, s))
			return;
		m->slot_starts++;
	}
	if (!next_queued(m, s))
		next_mutant(m, s);
	if (slot_send(&s->s, s->data, s->size)) {
		slot_stop(&s->s, 0); /* it died idle: started again next time */
		return;
	}
	s->busy = 1;
	s->sent_ms = protocol_now_ms();
}

void manager_retire(struct manager *m, unsigned active) { m->active = active < m->c.jobs ? active : m->c.jobs; }

void manager_step(struct manager *m, int wait_ms)
{
	struct pollfd pf[POOL_SLOTS];
	unsigned at[POOL_SLOTS], np = 0;
	for (unsigned i = 0; i < m->c.jobs; i++) {
		if (!m->pool.slot[i].busy && i < m->active)
			feed(m, &m->pool.slot[i]);
		else if (!m->pool.slot[i].busy && m->pool.slot[i].s.pid)
			slot_stop(&m->pool.slot[i].s, protocol_now_ms() + RETIRE_GRACE_MS); /* retired: its stats written */
		if (m->pool.slot[i].busy) {
			pf[np] = (struct pollfd){m->pool.slot[i].s.from, POLLIN, 0};
			at[np++] = i;
		}
	}
	if (poll(pf, np, np ? wait_ms : 0) > 0)
		for (unsigned k = 0; k < np; k++) {
			struct pool_slot *s = &m->pool.slot[at[k]];
			int ret;
			if (!pf[k].revents)
				continue;
			if (slot_reply(&s->s, &ret, m->map, sizeof m->map)) {
				slot_ended(m, s);
				continue;
			}
			s->busy = 0;
			take_reply(m, s, ret);
			if (at[k] < m->active)
				feed(m, s);
		}
	unsigned hung = slot_pool_watch(&m->pool, protocol_now_ms());
	m->execs += hung;
	m->slot_hangs += hung;
	if (!np && wait_ms > 0)
		usleep((useconds_t)wait_ms * 1000); /* no slot could start: do not spin */
	if (protocol_now_ms() - m->synced_ms >= SYNC_EVERY_MS)
		sync_learned(m);
}

/* The manager's mutator counts, in the stats folder's format
 * (fuzz/campaign_stats.h): the slots' own files hold their runs. */
static void write_stats(const struct manager *m)
{
	char path[4400];
	struct atomic_file a;
	snprintf(path, sizeof path, "%s/fuzzer-%d.tsv", m->c.stats, (int)getpid());
	FILE *f = atomic_open(&a, path);
	if (!f)
		return;
	for (unsigned k = 0; k < mutator_count(); k++)
		fprintf(f, "mutator\t%s\t%llu\t%llu\t%llu\n", mutator_name(k), (unsigned long long)m->mut.tried[k],
			(unsigned long long)m->mut.valid[k], (unsigned long long)m->mut_new[k]);
	atomic_commit(&a, 0);
}

void manager_end(struct manager *m, int grace_ms)
{
	int64_t end = protocol_now_ms() + grace_ms;
	for (unsigned i = 0; i < m->c.jobs; i++)
		slot_close(&m->pool.slot[i].s); /* all told at once, then waited for together */
	for (unsigned i = 0; i < m->c.jobs; i++) {
		if (!slot_pool_kill(&m->pool, &m->pool.slot[i], end))
			continue;
		if (m->pool.slot[i].busy) {
			m->cut++;
			m->cut_usec += (uint64_t)(protocol_now_ms() - m->pool.slot[i].sent_ms) * 1000;
		}
	}
	for (unsigned i = 0; i < m->c.jobs; i++)
		slot_await(&m->pool.slot[i].s); /* their workers die together */
	sync_learned(m);
	learned_close(&m->store);
	config_draw_use_counts(NULL);
	write_stats(m);
	manager_corpus_free(&m->corpus);
	for (unsigned i = 0; i < m->nqueue; i++)
		free(m->queue[i]);
	free(m->queue);
	free(m->imported);
	free(m->op_runs);
	free(m->pair_runs);
	free(m->op_repeats);
}
