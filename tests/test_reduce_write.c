/* What a reduction writes: its repro.py is the program its checks ran
 * (check_program_text), under the finding's pinned configuration and with the
 * gradients a backward-mode graph compares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../graph/text.h"
#include "../pipeline/check.h"
#include "../triage/reduce.h"
#include "test.h"

static struct graph g;
static char why[300];

/* The text of dir/name (malloc'd), or NULL. */
static char *slurp(const char *dir, const char *name)
{
	char path[200];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *s = calloc(1, 1 << 20);
	if (s)
		s[fread(s, 1, (1 << 20) - 1, f)] = 0;
	fclose(f);
	return s;
}

static void parse_configured(void)
{
	CHECK(text_parse(&g,
			 "bindings 1\nseed 1\nconfig dynamic=true mode.backward=True\n"
			 "x0 = input float32 [3]\nv1 = relu(x0)\noutput v1\n",
			 why, sizeof why) == 0);
}

TEST(reduced_repro_runs_the_pinned_configuration_and_its_gradients)
{
	parse_configured();
	/* as reduce_cfg_from_meta leaves it: meta.json's backend and dynamic pinned */
	struct check_cfg c;
	check_default_cfg(&c);
	c.dynamic = "false";
	c.pinned = PIN_BACKEND | PIN_DYNAMIC;
	char dir[64] = "/tmp/pt2fuzz-reduce-write.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char sub[100];
	snprintf(sub, sizeof sub, "%s/reduced", dir);
	struct reduce_stats st = {.ops_before = 3, .ops_after = 1};
	CHECK(reduce_write(sub, &g, &c, &st) == 0);
	char *repro = slurp(sub, "repro.py");
	CHECK(repro != NULL);
	CHECK(strstr(repro, "COMPILE_DYNAMIC = \"false\"\n") != NULL); /* the checks' dynamic, not the graph's */
	CHECK(strstr(repro, "GRADS = (0,)\n") != NULL);
	size_t len;
	char *ran = check_program_text(&g, &c, &len);
	CHECK(ran && strlen(repro) == len && !memcmp(repro, ran, len));
	free(ran);
	free(repro);
	char cmd[120];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

TEST(check_program_text_runs_a_pinned_aoti_forward_only)
{
	parse_configured();
	struct check_cfg c;
	check_default_cfg(&c);
	size_t len;
	char *prog = check_program_text(&g, &c, &len);
	CHECK(prog && strstr(prog, "GRADS = (0,)\n") && strstr(prog, "COMPILE_DYNAMIC = \"true\"\n"));
	free(prog);
	c.backend = "aoti";
	c.pinned = PIN_BACKEND;
	prog = check_program_text(&g, &c, &len);
	CHECK(prog && strstr(prog, "GRADS = ()\n"));
	free(prog);
}
