/* A campaign's background triage in slots (fuzz/campaign.h triager_poll):
 * the slots run side by side, each over one finding of an unknown bucket,
 * never two of one bucket at once, known bugs never; a finding is marked
 * .triaged once its process ended, and the freed slot takes the next; a
 * bucket already reduced comes last. The triage command is a stand-in
 * script that logs its finding, "reduces" it and writes the batch's
 * triage.md. Two runners sharing a --sync directory triage a finding they
 * both hold once: one claims it, the other takes its triage. */
#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "../fuzz/campaign.h"
#include "test.h"
#include "testkit.h"

static char root[64];

/* A finding folder in findings: its meta.json with verdict, message and ops. */
static void finding_in(const char *findings, const char *name, const char *message, const char *ops)
{
	char path[600];
	snprintf(path, sizeof path, "%s/%s", findings, name);
	mkdir(path, 0777);
	snprintf(path, sizeof path, "%s/%s/meta.json", findings, name);
	json_t *m = json_pack("{s:s, s:s, s:s, s:s, s:s, s:[s]}", "signature", name, "verdict", "behaviour", "exception",
			      "RuntimeError", "message", message, "eager_exception", "", "ops", ops);
	json_dump_file(m, path, 0);
	json_decref(m);
}

static void finding(const char *name, const char *message, const char *ops)
{
	char findings[100];
	snprintf(findings, sizeof findings, "%s/findings", root);
	finding_in(findings, name, message, ops);
}

static int marked(const char *name)
{
	char path[300];
	snprintf(path, sizeof path, "%s/findings/%s/.triaged", root, name);
	return !access(path, F_OK);
}

static unsigned log_lines(void)
{
	char path[300];
	snprintf(path, sizeof path, "%s/started.log", root);
	return tk_file_lines(path);
}

/* Polls until nothing runs (at most ~20 s). */
static void drain(struct triager *t, struct campaign_paths *p, struct target_args *ta)
{
	for (int i = 0; i < 400 && (t->running || i == 0); i++) {
		usleep(50000);
		triager_poll(t, p, ta, 1);
	}
}

TEST(triage_slots_run_side_by_side_one_bucket_each)
{
	snprintf(root, sizeof root, "/tmp/pt2fuzz-slots.XXXXXX");
	if (!CHECK(mkdtemp(root) != NULL))
		return;
	static struct campaign_paths p;
	static struct target_args ta;
	static struct triager t;
	char path[300];
	snprintf(p.out, sizeof p.out, "%s", root);
	snprintf(p.findings, sizeof p.findings, "%s/findings", root);
	mkdir(p.findings, 0777);
	snprintf(p.self, sizeof p.self, "%s/triage.sh", root);
	FILE *f = fopen(p.self, "w");
	if (!CHECK(f != NULL))
		return;
	/* argv: self triage BATCH ...: one line per start, then a while later reduced/ and triage.md */
	fprintf(f,
		"#!/bin/sh\nls \"$2\" >>%s/started.log\nsleep 1\nfor l in \"$2\"/*; do mkdir \"$l/reduced\"; "
		": >\"$l/reduced/graph.bin\"; done\n: >\"$2/triage.md\"\n",
		root);
	fclose(f);
	chmod(p.self, 0755);
	finding("behaviour-0000000000000001", "RuntimeError: first bug", "relu");
	finding("behaviour-0000000000000002", "RuntimeError: first bug", "relu");
	finding("behaviour-0000000000000003", "RuntimeError: second bug", "exp");
	finding("behaviour-0000000000000004", "RuntimeError: third bug", "exp");
	/* a known bug (the built-in list): never triaged in the background */
	finding("behaviour-0000000000000005", "RuntimeError: A view was created in no_grad mode and is being modified",
		"inplace_view:param");
	t.slots = 2;
	t.secs = 5;
	triager_poll(&t, &p, &ta, 1);
	CHECK_EQ(t.running, 2);
	CHECK_EQ(t.pending, 4);
	CHECK(t.slot[0].bucket != t.slot[1].bucket);
	drain(&t, &p, &ta);
	CHECK_EQ(log_lines(), 4);
	CHECK_EQ(t.done, 4);
	CHECK(marked("behaviour-0000000000000001") && marked("behaviour-0000000000000002"));
	CHECK(marked("behaviour-0000000000000003") && marked("behaviour-0000000000000004"));
	CHECK(!marked("behaviour-0000000000000005"));
	/* the first bug's second finding last: its bucket was reduced already */
	char last[128] = "";
	snprintf(path, sizeof path, "%s/started.log", root);
	f = fopen(path, "r");
	while (f && fgets(last, sizeof last, f))
		;
	if (f)
		fclose(f);
	if (!CHECK(!strncmp(last, "behaviour-000000000000000", 25) && (last[25] == '1' || last[25] == '2')))
		fprintf(stderr, "  last started: %s", last);
	snprintf(path, sizeof path, "rm -rf %s", root);
	CHECK_EQ(system(path), 0);
}

static char sync_dir[100];

/* One runner of the triage-sharing test: OUT root/NAME, sharing root/sync. */
static void runner(struct campaign_paths *p, const char *name, const char *self)
{
	snprintf(p->out, sizeof p->out, "%s/%s", root, name);
	mkdir(p->out, 0777);
	snprintf(p->findings, sizeof p->findings, "%.4000s/findings", p->out);
	mkdir(p->findings, 0777);
	snprintf(p->self, sizeof p->self, "%s", self);
	snprintf(sync_dir, sizeof sync_dir, "%s/sync", root);
	p->sync = sync_dir;
}

static int exists(const char *fmt, const char *a, const char *b)
{
	char path[2 * CAMPAIGN_PATH];
	snprintf(path, sizeof path, fmt, a, b);
	return !access(path, F_OK);
}

TEST(runners_sharing_sync_triage_each_finding_once)
{
	snprintf(root, sizeof root, "/tmp/pt2fuzz-tsync.XXXXXX");
	if (!CHECK(mkdtemp(root) != NULL))
		return;
	static struct campaign_paths pa, pb;
	static struct target_args ta;
	static struct triager a, b;
	char self[300], shared[300], path[2 * CAMPAIGN_PATH];
	snprintf(self, sizeof self, "%s/triage.sh", root);
	FILE *f = fopen(self, "w");
	if (!CHECK(f != NULL))
		return;
	/* argv: self triage BATCH ...: a start logged in OUT/started.log; then
	 * reduced/, bisect.json and meta.json's reduced bucket, as triage writes */
	fputs("#!/bin/sh\nls \"$2\" >>\"$2/../../started.log\"\nsleep 1\nfor l in \"$2\"/*; do mkdir \"$l/reduced\"; "
	      ": >\"$l/reduced/graph.bin\"; echo '{}' >\"$l/bisect.json\"; "
	      "sed -i 's/^{/{\"reduced_bucket\": \"00000000000000ab\", /' \"$l/meta.json\"; done\n: >\"$2/triage.md\"\n",
	      f);
	fclose(f);
	chmod(self, 0755);
	runner(&pa, "a", self);
	runner(&pb, "b", self);
	snprintf(shared, sizeof shared, "%s/sync.findings", root);
	mkdir(shared, 0777);
	const char *both = "behaviour-0000000000000003", *own = "behaviour-0000000000000004";
	finding_in(pa.findings, both, "RuntimeError: second bug", "exp");
	finding_in(pb.findings, both, "RuntimeError: second bug", "exp"); /* as a findings sync leaves it */
	finding_in(pb.findings, own, "RuntimeError: third bug", "exp");
	a.slots = b.slots = 2;
	a.secs = b.secs = 5;

	/* A claims the finding (publishing it there first) and triages it ... */
	triager_poll(&a, &pa, &ta, 1);
	CHECK_EQ(a.running, 1);
	CHECK(exists("%s/%s/.triage-claim", shared, both));
	/* ... so B, meanwhile, triages only its own */
	triager_poll(&b, &pb, &ta, 1);
	CHECK_EQ(b.running, 1);
	CHECK_EQ(b.pending, 1);
	drain(&a, &pa, &ta);
	CHECK_EQ(a.done, 1);
	CHECK_EQ(a.published, 1);
	CHECK(exists("%s/%s/.triaged", shared, both) && exists("%s/%s/reduced/graph.bin", shared, both) &&
	      exists("%s/%s/bisect.json", shared, both));
	/* B takes A's triage: files, meta.json's reduced bucket, the mark */
	triager_refresh(&b);
	drain(&b, &pb, &ta);
	CHECK_EQ(b.imported, 1);
	CHECK_EQ(b.done, 1);
	CHECK(exists("%s/%s/.triaged", pb.findings, both) && exists("%s/%s/reduced/graph.bin", pb.findings, both) &&
	      exists("%s/%s/bisect.json", pb.findings, both));
	snprintf(path, sizeof path, "%s/%s/meta.json", pb.findings, both);
	json_t *meta = json_load_file(path, 0, NULL);
	CHECK(meta && !strcmp(json_string_value(json_object_get(meta, "reduced_bucket")) ?: "", "00000000000000ab"));
	CHECK(json_object_get(meta, "signature") != NULL); /* B's own fields kept */
	json_decref(meta);
	snprintf(path, sizeof path, "%s/started.log", pb.out);
	CHECK_EQ(tk_file_lines(path), 1); /* its own finding only */
	snprintf(path, sizeof path, "%s/started.log", pa.out);
	CHECK_EQ(tk_file_lines(path), 1);

	/* Claims: another's fresh one holds; ours (after a restart) and a stale one do not */
	CHECK_EQ(triage_claim(shared, pb.findings, own, "host:/elsewhere", 60), 0); /* B holds it */
	CHECK_EQ(triage_claim(shared, pb.findings, own, b.me, 60), 1);
	snprintf(path, sizeof path, "%s/%s/.triage-claim", shared, own);
	struct timespec old[2] = {{.tv_sec = time(NULL) - 3600}, {.tv_sec = time(NULL) - 3600}};
	CHECK_EQ(utimensat(AT_FDCWD, path, old, 0), 0);
	CHECK_EQ(triage_claim(shared, pb.findings, own, "host:/elsewhere", 60), 1);
	CHECK_EQ(triage_claim(shared, pb.findings, own, b.me, 60), 0);
	snprintf(path, sizeof path, "rm -rf %s", root);
	CHECK_EQ(system(path), 0);
}
