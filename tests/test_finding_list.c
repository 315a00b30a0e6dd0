/* The finding folders of a findings directory (triage/finding_list.h), as
 * triage and recheck see them: those with a meta.json, sorted. */
#include "test.h"
#include "../triage/finding_list.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void make(const char *root, const char *sub, int with_meta)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", root, sub);
	CHECK_EQ(mkdir(path, 0777), 0);
	if (!with_meta)
		return;
	snprintf(path, sizeof path, "%s/%s/meta.json", root, sub);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
}

static void unmake(const char *root, const char *sub, int with_meta)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s/meta.json", root, sub);
	if (with_meta)
		CHECK_EQ(remove(path), 0);
	snprintf(path, sizeof path, "%s/%s", root, sub);
	CHECK_EQ(rmdir(path), 0);
}

TEST(finding_list_has_the_folders_with_meta_json_sorted)
{
	static const struct {
		const char *name;
		int meta;
	} subs[] = {{"numeric-b", 1}, {"behaviour-a", 1}, {"corpus", 0}, {".hidden", 1}, {"hang-c", 1}};
	char root[64], names[8][FINDING_NAME_MAX];
	snprintf(root, sizeof root, "/tmp/pt2fuzz-list.XXXXXX");
	CHECK(mkdtemp(root) != NULL);
	for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
		make(root, subs[i].name, subs[i].meta);
	CHECK_EQ(finding_list(root, names, 8), 3);
	CHECK(!strcmp(names[0], "behaviour-a"));
	CHECK(!strcmp(names[1], "hang-c"));
	CHECK(!strcmp(names[2], "numeric-b"));
	CHECK_EQ(finding_list(root, names, 2), 2); /* at most cap */
	for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
		unmake(root, subs[i].name, subs[i].meta);
	CHECK_EQ(finding_list(root, names, 8), 0);
	CHECK_EQ(rmdir(root), 0);
	CHECK_EQ(finding_list(root, names, 8), -1);
}
