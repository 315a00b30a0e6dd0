/* The manager engine's pure parts: what is new to the feature map
 * (features_novel, as libFuzzer counts a feature: a counter's count bucket;
 * features_novelty, what the corpus keeps: new code)
 * and which input is mutated next (manager_pick: corpus, then energy); and
 * its side of --sync: which of the other runners' inputs it queues
 * (manager_import) and how finding folders travel (findings_share). */
#include "test.h"
#include "../fuzz/campaign.h"
#include "../fuzz/manager.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static uint8_t map[FEATURES_MAP], seen[FEATURES_MAP];

TEST(features_novel_counts_a_counter_bucket_once)
{
	memset(seen, 0, sizeof seen);
	memset(map, 0, sizeof map);
	map[7] = 1;
	CHECK(features_novel(map, seen));
	CHECK(!features_novel(map, seen)); /* seen now */
	map[7] = 2;                         /* another bucket of the same counter */
	CHECK(features_novel(map, seen));
	map[7] = 5;
	CHECK(features_novel(map, seen)); /* 4-7 */
	map[7] = 6;
	CHECK(!features_novel(map, seen)); /* still 4-7 */
	map[FEATURES_MAP - 1] = 200;        /* the graph region counts too */
	CHECK(features_novel(map, seen));
	CHECK(features_seen_count(seen) == 4);
	memset(map, 0, sizeof map);
	CHECK(!features_novel(map, seen)); /* an empty map (a repeated finding) is never new */
}

TEST(features_novelty_is_code_for_a_first_hit_outside_the_graphs_own_features)
{
	memset(seen, 0, sizeof seen);
	memset(map, 0, sizeof map);
	map[FEATURES_GRAPH_AT + 5] = 1; /* an op pair, say: drawn before or not, it steers nothing */
	CHECK_EQ(features_novelty(map, seen, NULL), NOVEL_COUNT);
	map[FEATURES_GRAPH_AT + 5] = 0;
	map[3] = 1; /* a compiler line never hit */
	CHECK_EQ(features_novelty(map, seen, NULL), NOVEL_CODE);
	map[3] = 9; /* the same line hit more often: a new bucket, not new code */
	CHECK_EQ(features_novelty(map, seen, NULL), NOVEL_COUNT);
	CHECK_EQ(features_novelty(map, seen, NULL), NOVEL_NONE);
	map[FEATURES_COMPILER + 1] = 1; /* a kernel name */
	map[FEATURES_NEAR_AT] = 1;      /* a nearer miss */
	map[FEATURES_GRAPH_AT + 6] = 1; /* not counted as code */
	unsigned new_code = 0;
	CHECK_EQ(features_novelty(map, seen, &new_code), NOVEL_CODE);
	CHECK_EQ(new_code, 2); /* the kernel and the miss; line 3 was hit before */
	map[FEATURES_COMPILER + 1] = 0;
	map[FEATURES_MAP - 1] = 1; /* another near miss, with counters seen beside it */
	CHECK_EQ(features_novelty(map, seen, &new_code), NOVEL_CODE);
	CHECK_EQ(new_code, 1);
	CHECK_EQ(features_novelty(map, seen, &new_code), NOVEL_NONE);
	CHECK_EQ(new_code, 0);
	CHECK(!features_novel(map, seen));
}

TEST(manager_pick_draws_the_corpus_and_gives_finders_their_energy)
{
	static struct seed_energy e;
	static uint8_t buf[CODEC_MAX_SIZE];
	struct manager_corpus c = {0};
	memset(&e, 0, sizeof e);
	CHECK(manager_pick(&c, &e, 2, buf, sizeof buf) == 0); /* nothing yet: the mutator generates */
	const uint8_t a[] = {1, 2, 3}, b[] = {4, 5, 6, 7}, hot[] = {9, 9, 9, 9, 9};
	CHECK(!manager_corpus_add(&c, a, sizeof a));
	CHECK(!manager_corpus_add(&c, b, sizeof b));
	unsigned got_a = 0, got_b = 0;
	for (uint64_t d = 0; d < 64; d++) {
		size_t n = manager_pick(&c, &e, d, buf, sizeof buf);
		got_a += n == sizeof a && !memcmp(buf, a, n);
		got_b += n == sizeof b && !memcmp(buf, b, n);
	}
	CHECK(got_a + got_b == 64 && got_a > 8 && got_b > 8); /* both drawn */
	energy_reward(&e, hot, sizeof hot);
	unsigned got_hot = 0;
	for (uint64_t d = 0; d < 32; d++) {
		size_t n = manager_pick(&c, &e, d, buf, sizeof buf);
		got_hot += n == sizeof hot && !memcmp(buf, hot, n);
	}
	CHECK(got_hot == ENERGY_PER_FIND); /* every other draw, until its energy is spent */
	manager_corpus_free(&c);
	CHECK(c.n == 0);
}

static char root[64];

/* A fresh root folder for a test. */
static int make_root(const char *name)
{
	snprintf(root, sizeof root, "/tmp/pt2fuzz-%s.XXXXXX", name);
	return CHECK(mkdtemp(root) != NULL);
}

/* root/rel, in buf (300 bytes). */
static char *at(const char *rel, char *buf)
{
	snprintf(buf, 300, "%s/%s", root, rel);
	return buf;
}

/* root/rel holding text (a folder when text is NULL). */
static void put(const char *rel, const char *text)
{
	char path[300];
	if (!text) {
		mkdir(at(rel, path), 0777);
		return;
	}
	FILE *f = fopen(at(rel, path), "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int exists(const char *rel)
{
	char path[300];
	return !access(at(rel, path), F_OK);
}

static void remove_root(void)
{
	char cmd[100];
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	CHECK(system(cmd) == 0);
}

TEST(manager_import_queues_the_inputs_new_here_once)
{
	static struct manager m;
	char corpus[300], sync[300];
	if (!make_root("import"))
		return;
	put("corpus", NULL);
	put("sync", NULL);
	put("corpus/00000000000000aa", "ours");
	put("sync/00000000000000aa", "ours");       /* published by us: already ours */
	put("sync/00000000000000bb", "theirs");
	put("sync/.00000000000000cc.tmp.1", "half"); /* being written */
	memset(&m, 0, sizeof m);
	m.c.corpus = at("corpus", corpus);
	CHECK_EQ(manager_import(&m, at("sync", sync)), 1);
	CHECK(m.nqueue == 1 && strstr(m.queue[0], "/sync/00000000000000bb"));
	CHECK_EQ(manager_import(&m, sync), 0); /* queued once, kept or not */
	put("sync/00000000000000dd", "later");
	put("sync/00000000000000ee", "later too");
	CHECK_EQ(manager_import(&m, sync), 2);
	CHECK_EQ(manager_import(&m, sync), 0);
	CHECK_EQ(m.nqueue, 3);
	for (unsigned i = 0; i < m.nqueue; i++)
		free(m.queue[i]);
	free(m.queue);
	free(m.imported);
	remove_root();
}

TEST(findings_share_copies_each_finished_folder_whole_once)
{
	char a[300], shared[300], b[300], path[300], text[32] = "";
	if (!make_root("share"))
		return;
	put("a", NULL);
	put("a/numeric-0000000000000001", NULL);
	put("a/numeric-0000000000000001/meta.json", "{\"count\": 1}");
	put("a/numeric-0000000000000001/graph.bin", "graph");
	put("a/numeric-0000000000000001/.lock", "");
	put("a/numeric-0000000000000001/reduced", NULL); /* triage's: not shared */
	put("a/numeric-0000000000000002", NULL);         /* being filed: no meta.json yet */
	put("a/numeric-0000000000000002/graph.bin", "graph");
	CHECK_EQ(findings_share(at("a", a), at("shared", shared)), 1);
	CHECK(exists("shared/numeric-0000000000000001/meta.json") && exists("shared/numeric-0000000000000001/graph.bin"));
	CHECK(!exists("shared/numeric-0000000000000001/.lock") && !exists("shared/numeric-0000000000000001/reduced"));
	CHECK(!exists("shared/numeric-0000000000000002"));
	CHECK_EQ(findings_share(a, shared), 0); /* there already */
	put("a/numeric-0000000000000002/meta.json", "{\"count\": 1}");
	CHECK_EQ(findings_share(a, shared), 1);
	/* The other way: a folder the runner has is left as it is (its own count). */
	put("b", NULL);
	put("b/numeric-0000000000000001", NULL);
	put("b/numeric-0000000000000001/meta.json", "{\"count\": 5}");
	CHECK_EQ(findings_share(shared, at("b", b)), 1);
	FILE *f = fopen(at("b/numeric-0000000000000001/meta.json", path), "r");
	CHECK(f && fgets(text, sizeof text, f) && !strcmp(text, "{\"count\": 5}"));
	if (f)
		fclose(f);
	CHECK(exists("b/numeric-0000000000000002/graph.bin"));
	remove_root();
}
