/* A campaign's background triage in slots (fuzz/campaign.h triager_poll):
 * the slots run side by side, each over one finding of an unknown bucket,
 * never two of one bucket at once, known bugs never; a finding is marked
 * .triaged once its process ended, and the freed slot takes the next; a
 * bucket already reduced comes last. The triage command is a stand-in
 * script that logs its finding, "reduces" it and writes the batch's
 * triage.md. */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../fuzz/campaign.h"
#include "test.h"
#include "testkit.h"

static char root[64];

/* A finding folder: its meta.json with verdict, message and ops. */
static void finding(const char *name, const char *message, const char *ops)
{
	char path[300];
	snprintf(path, sizeof path, "%s/findings/%s", root, name);
	mkdir(path, 0777);
	snprintf(path, sizeof path, "%s/findings/%s/meta.json", root, name);
	json_t *m = json_pack("{s:s, s:s, s:s, s:s, s:s, s:[s]}", "signature", name, "verdict", "behaviour", "exception",
			      "RuntimeError", "message", message, "eager_exception", "", "ops", ops);
	json_dump_file(m, path, 0);
	json_decref(m);
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
