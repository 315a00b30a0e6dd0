/* The JSON files (pipeline/json_file.h) and the finding's meta.json they
 * carry: a repeat hit raises the count field itself, whatever text the
 * other fields hold or however the file is laid out. */
#include "test.h"
#include "../pipeline/findings.h"
#include "../pipeline/json_file.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void fresh_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/pt2fuzz-json.XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void rm_rf(const char *path)
{
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
	CHECK_EQ(system(cmd), 0);
}

/* A repeat hit of a signature whose meta.json's detail quotes `"count": 7`
 * and whose real count comes after it, with no space after the colon. */
TEST(findings_repeat_hit_raises_the_count_field_not_text_in_the_detail)
{
	static struct check_result r;
	static struct check_cfg cfg;
	char name[64], sub[200], meta_path[260], why[300], out[4200];
	const char *detail = "output 0: \"count\": 7 differs";
	fresh_dir();
	r.v.kind = V_NUMERIC;
	r.signature = 0x1234;
	findings_name(&r.v, r.signature, name, sizeof name);
	snprintf(sub, sizeof sub, "%s/%s", dir, name);
	CHECK_EQ(mkdir(sub, 0777), 0);
	snprintf(meta_path, sizeof meta_path, "%s/meta.json", sub);
	put(meta_path, "{\"signature\":\"numeric-0000000000001234\",\"verdict\":\"numeric\","
		       "\"detail\":\"output 0: \\\"count\\\": 7 differs\",\"count\":3,\"backend\":\"inductor\"}");
	struct finding_ctx fc = {.dir = dir, .cfg = &cfg};
	struct check_finding f;
	check_primary(&r, &f);
	CHECK_EQ(findings_record(&fc, NULL, &r, &f, out, sizeof out, why, sizeof why), 0); /* a repeat */
	CHECK(!strcmp(out, sub));
	json_t *meta = json_file_load(meta_path, why, sizeof why);
	CHECK(meta != NULL);
	CHECK_EQ(json_file_num(meta, "count", 0), 4);
	CHECK(json_is_integer(json_object_get(meta, "count")));
	CHECK(!strcmp(json_file_str(meta, "detail"), detail));
	CHECK(!strcmp(json_file_str(meta, "backend"), "inductor"));
	/* The five keys, and the bucket a folder from before buckets gets at its next hit. */
	CHECK_EQ(strlen(json_file_str(meta, "bucket")), 16);
	CHECK(!strcmp(json_file_str(meta, "bucket_text"), "numeric-0000000000001234"));
	CHECK(!strcmp(json_file_str(meta, "known"), ""));
	CHECK_EQ(json_object_size(meta), 8);
	json_decref(meta);
	/* Only meta.json changed: a repeat writes no repro, graph or log. */
	char repro[260];
	snprintf(repro, sizeof repro, "%s/repro.py", sub);
	CHECK(access(repro, F_OK) != 0);
	rm_rf(dir);
}

TEST(json_file_load_names_a_truncated_file_and_a_non_object)
{
	char path[128], why[300];
	fresh_dir();
	snprintf(path, sizeof path, "%s/meta.json", dir);
	put(path, "{\"signature\": \"numer");
	CHECK(json_file_load(path, why, sizeof why) == NULL);
	CHECK(strstr(why, path) != NULL && strstr(why, "not valid JSON") != NULL);
	put(path, "[1, 2]");
	CHECK(json_file_load(path, why, sizeof why) == NULL);
	CHECK(strstr(why, "not a JSON object") != NULL);
	put(path, "{\"count\": 1, \"count\": 2}");
	CHECK(json_file_load(path, why, sizeof why) == NULL); /* which one would be meant? */
	remove(path);
	CHECK(json_file_load(path, why, sizeof why) == NULL);
	CHECK(strstr(why, "No such file") != NULL);
	rm_rf(dir);
}

/* What the writer is given that JSON cannot hold as is: bytes that are not
 * UTF-8 and numbers that are not finite. The file stays valid JSON. */
TEST(json_file_write_keeps_odd_strings_and_numbers_valid)
{
	char path[128], why[300];
	fresh_dir();
	snprintf(path, sizeof path, "%s/x.json", dir);
	json_t *o = json_object();
	json_object_set_new(o, "message", json_file_text("cut mid-character \xc3"));
	json_object_set_new(o, "quoted", json_file_text("a \"b\" \\ c\nd"));
	json_object_set_new(o, "max_abs", json_file_real(NAN));
	json_object_set_new(o, "max_rel", json_file_real(0.25));
	CHECK_EQ(json_file_write(path, o, 0), 0);
	json_decref(o);
	json_t *back = json_file_load(path, why, sizeof why);
	CHECK(back != NULL);
	CHECK(!strcmp(json_file_str(back, "message"), "cut mid-character ?"));
	CHECK(!strcmp(json_file_str(back, "quoted"), "a \"b\" \\ c\nd"));
	CHECK(json_is_null(json_object_get(back, "max_abs")));
	CHECK_EQ(json_file_num(back, "max_abs", -1), -1);
	CHECK(json_file_num(back, "max_rel", 0) == 0.25);
	json_decref(back);
	rm_rf(dir);
}
