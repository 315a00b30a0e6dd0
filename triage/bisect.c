/* Layer bisection: rerun a finding with backends that stop at successive
 * layers of torch.compile, and name the first layer where it appears:
 *   eager                       Dynamo only (graph capture, guards)
 *   aot_eager                   + AOTAutograd (functionalization, tracing)
 *   aot_eager_decomp_partition  + decompositions and the partitioner
 *   inductor                    + Inductor's lowering and code generation
 * A backward finding (a gradient diverged) reads the same ladder as
 * aot_eager (the joint forward-backward graph) -> aot_eager_decomp_partition
 * (the partitioner splitting it into forward and backward graphs) ->
 * inductor (the compiled backward graph).
 * A finding of --backend aoti that none of them shows is "aoti-only".
 * For Inductor findings, an ablation: whether fallback_random, max-autotune
 * and the dynamic marks change the outcome. */
#include "../pipeline/json_file.h"
#include "bisect.h"
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "../pipeline/cli.h"
#include "triage_commands.h"
#include "../pipeline/graphio.h"
#include "reduce.h"

static const struct {
	const char *backend, *layer, *backward_layer; /* the layer's name for forward / backward findings */
} layers[BISECT_LAYERS] = {
	{"eager", "dynamo", "dynamo"},
	{"aot_eager", "aot_autograd", "aot_autograd"},
	{"aot_eager_decomp_partition", "decompositions", "partitioner"},
	{"inductor", "inductor", "inductor"},
};

static const char *effect(const struct pool_result *r, uint64_t key)
{
	return !r->ran ? "n/a" : r->key == key ? "no effect" : "matters";
}

int bisect_graph(struct pool *p, const struct graph *g, const struct check_cfg *c, uint64_t key, int backward_pass,
		 struct bisect_result *br)
{
	struct check_cfg cfg[BISECT_LAYERS + 3];
	const struct check_cfg *cs[BISECT_LAYERS + 3];
	const struct graph *gs[BISECT_LAYERS + 3];
	struct pool_result res[BISECT_LAYERS + 3];
	unsigned n = 0;
	memset(br, 0, sizeof *br);
	for (unsigned i = 0; i < BISECT_LAYERS; i++, n++) {
		cfg[n] = *c;
		cfg[n].backend = layers[i].backend;
		cfg[n].compile_mode = NULL; /* modes are Inductor's */
	}
	/* The ablation, against the configuration the finding came from. */
	int inductor = !strcmp(c->backend, "inductor");
	unsigned abl = n;
	cfg[n] = *c; /* fallback_random off */
	if (inductor && cfg[n].ninductor < CHECK_MAX_INDUCTOR)
		cfg[n].inductor[cfg[n].ninductor++] = "fallback_random=0";
	n++;
	cfg[n] = *c; /* the other mode */
	cfg[n].compile_mode = c->compile_mode ? NULL : "max-autotune";
	n++;
	cfg[n] = *c; /* no dynamic marks: a static compile per binding */
	cfg[n].dynamic = "false";
	n++;
	for (unsigned i = 0; i < n; i++) {
		cfg[i].pinned |= PIN_BACKEND | PIN_DYNAMIC; /* each layer and ablation as it says */
		cs[i] = &cfg[i];
		gs[i] = g;
	}
	unsigned run = inductor ? n : BISECT_LAYERS;
	if (pool_run(p, gs, cs, run, res))
		return -1;
	br->layer = "not-reproduced";
	br->pass = backward_pass ? "backward" : "forward";
	for (unsigned i = 0; i < BISECT_LAYERS; i++) {
		br->verdict[i] = res[i].kind;
		if (res[i].key == key && !strcmp(br->layer, "not-reproduced"))
			br->layer = backward_pass ? layers[i].backward_layer : layers[i].layer;
	}
	/* An AOTInductor finding no torch.compile layer shows: export, packaging or the runner. */
	if (!strcmp(br->layer, "not-reproduced") && !strcmp(c->backend, "aoti"))
		br->layer = "aoti-only";
	br->fallback_random = br->max_autotune = br->dynamic = "n/a";
	if (inductor) {
		br->fallback_random = effect(&res[abl], key);
		br->max_autotune = effect(&res[abl + 1], key);
		br->dynamic = g->nbind > 1 && !strcmp(c->dynamic, "marks") ? effect(&res[abl + 2], key) : "n/a";
	}
	return 0;
}

int bisect_write(const char *path, const struct bisect_result *br)
{
	json_t *backends = json_object();
	for (unsigned i = 0; i < BISECT_LAYERS && backends; i++)
		if (json_object_set_new(backends, layers[i].backend, json_string(verdict_name(br->verdict[i])))) {
			json_decref(backends);
			backends = NULL;
		}
	json_t *json = json_pack("{s:s, s:s, s:o, s:s, s:s, s:s}", "layer", br->layer, "pass", br->pass, "backends",
				 backends, "fallback_random", br->fallback_random, "max_autotune", br->max_autotune,
				 "dynamic", br->dynamic);
	int rc = json ? json_file_write(path, json, 1) : -1;
	json_decref(json);
	return rc;
}

int cmd_bisect(int argc, char **argv)
{
	static struct run_opts ro;
	static struct graph g;
	static struct finding_meta meta;
	char **args, why[600], path[4200];
	static struct cli c;
	if (cli_parse(&c, "pt2fuzz bisect", argc, argv, (const struct option *const[]){run_opts_table, NULL}, 0))
		return c.status;
	if (run_opts_parse(&c, &ro))
		return 2;
	args = c.pos;
	if (c.npos != 1) {
		fprintf(stderr, "usage: pt2fuzz bisect %s\n", BISECT_USAGE);
		return 2;
	}
	/* The reduced graph when there is one: it compiles faster and says more. */
	if (findings_load(args[0], &g, &meta, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz bisect: %s\n", why);
		return 1;
	}
	struct stat st;
	if (!findings_path(path, sizeof path, args[0], "reduced/graph.bin") && !stat(path, &st) &&
	    graphio_load(path, &g, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz bisect: %s\n", why);
		return 1;
	}
	reduce_cfg_from_meta(&ro.check, &meta, &c);
	struct pool pool;
	struct pool_result first;
	struct bisect_result br;
	if (pool_start(&pool, ro.jobs, &ro, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz bisect: %s\n", why);
		return 1;
	}
	int rc = pool_check(&pool, &g, 1, &ro.check, &first);
	if (!rc && !first.key)
		fprintf(stderr, "pt2fuzz bisect: %s does not reproduce (verdict %s)\n", args[0], verdict_name(first.kind));
	else if (!rc)
		rc = bisect_graph(&pool, &g, &ro.check, first.key, !strcmp(meta.pass, "backward"), &br);
	pool_stop(&pool);
	if (rc || !first.key)
		return 1;
	if (findings_path(path, sizeof path, args[0], "bisect.json") || bisect_write(path, &br))
		fprintf(stderr, "pt2fuzz bisect: cannot write %s\n", path);
	for (unsigned i = 0; i < BISECT_LAYERS; i++)
		printf("%-28s %s\n", layers[i].backend, verdict_name(br.verdict[i]));
	printf("pass: %s\nlayer: %s\nfallback_random: %s\nmax-autotune: %s\ndynamic marks: %s\n", br.pass, br.layer, br.fallback_random,
	       br.max_autotune, br.dynamic);
	return 0;
}
