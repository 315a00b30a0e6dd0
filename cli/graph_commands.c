/* The commands on one graph file: ops, configs, gen, show, emit, check, parse. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../config/settings.h"
#include "../graph/broken.h"
#include "../graph/capabilities.h"
#include "../graph/codec.h"
#include "../graph/emit.h"
#include "../graph/emit_plain.h"
#include "../graph/op.h"
#include "../graph/text.h"
#include "../mutators/gen.h"
#include "../pipeline/check.h"
#include "../pipeline/cli.h"
#include "../pipeline/graphio.h"
#include "../triage/plain.h"
#include "commands.h"

static const struct option no_options[] = {{NULL, 0, NULL, 0}};
static const struct option out_option[] = {{"out", required_argument, NULL, 0}, {NULL, 0, NULL, 0}};
static const struct option emit_options[] = {
	{"backend", required_argument, NULL, 0}, {"mode", required_argument, NULL, 0},
	{"plain", no_argument, NULL, 0},        {"binding", required_argument, NULL, 0},
	{"dynamic", required_argument, NULL, 0}, {"device", required_argument, NULL, 0},
	{NULL, 0, NULL, 0}};
static const struct option gen_options[] = {
	{"seed", required_argument, NULL, 0},  {"count", required_argument, NULL, 0},
	{"size", required_argument, NULL, 0},  {"components", required_argument, NULL, 0},
	{"family", required_argument, NULL, 0},
	{"dynamic", required_argument, NULL, 0}, {"near-invalid", required_argument, NULL, 0},
	{"break", required_argument, NULL, 0}, {"grad", required_argument, NULL, 0},
	{"configs", required_argument, NULL, 0},
	{"target", required_argument, NULL, 0}, {"stats", no_argument, NULL, 0},
	{"out", required_argument, NULL, 0},   {NULL, 0, NULL, 0}};

/* The command's one positional argument (the graph file), when it has at most one. */
static int parse_one_file(struct cli *c, const char *cmd, int argc, char **argv, const struct option *table,
			  const char **file)
{
	if (cli_parse(c, cmd, argc, argv, (const struct option *const[]){table, NULL}, 0))
		return -1;
	if (c->npos > 1) {
		fprintf(stderr, "%s: one graph file, not %d (see `%s --help`)\n", cmd, c->npos, cmd);
		c->status = 2;
		return -1;
	}
	*file = c->npos ? c->pos[0] : NULL;
	return 0;
}

static int load_or_complain(const char *path, struct graph *g)
{
	char why[300];
	if (!path) {
		fprintf(stderr, "pt2fuzz: a graph file is required\n");
		return -1;
	}
	if (graphio_load(path, g, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz: invalid graph: %s\n", why);
		return -1;
	}
	return 0;
}

static struct graph G;

int cmd_ops(int argc, char **argv)
{
	struct cli c;
	if (cli_parse(&c, "pt2fuzz ops", argc, argv, (const struct option *const[]){no_options, NULL}, 0))
		return c.status;
	if (c.npos) {
		fprintf(stderr, "pt2fuzz ops: takes no arguments\n");
		return 2;
	}
	for (unsigned i = 0; i < op_count(); i++)
		printf("%s %s\n", op_get(i)->name, op_family_name(op_get(i)->family));
	return 0;
}

/* One line per setting: name, type, devices, values (the first the default), the torch versions that
 * have it, its effects, its drawing weight where not 1; then one line per pair that does not combine. */
int cmd_configs(int argc, char **argv)
{
	struct cli c;
	if (cli_parse(&c, "pt2fuzz configs", argc, argv, (const struct option *const[]){no_options, NULL}, 0))
		return c.status;
	if (c.npos) {
		fprintf(stderr, "pt2fuzz configs: takes no arguments\n");
		return 2;
	}
	for (unsigned i = 0; i < setting_count(); i++) {
		const struct setting *s = setting_get(i);
		printf("%s %s %s ", s->name, setting_type_name(s->type), setting_devices_name(s->devices));
		for (unsigned v = 0; v < setting_value_count(s); v++)
			printf("%s%s", v ? "," : "", s->values[v]);
		printf(" torch>=%s", s->since ? s->since : "any");
		if (s->until)
			printf(",<%s", s->until);
		printf("%s%s%s%s%s", s->effects & EFFECT_NUMERICS ? " numerics" : "",
		       s->effects & EFFECT_RANDOM ? " random" : "", s->effects & EFFECT_NOT_AOTI ? " not-aoti" : "",
		       s->effects & EFFECT_BACKWARD ? " backward" : "", s->effects & EFFECT_SLOW_COMPILE ? " slow-compile" : "");
		if (setting_weight(s) > 1)
			printf(" weight=%u", setting_weight(s));
		printf("\n");
	}
	for (unsigned i = 0; i < setting_clash_count(); i++) {
		const struct setting_clash *k = setting_clash_get(i);
		printf("clash %s %s: %s\n", k->a, k->b, k->why);
	}
	return 0;
}

static int family_by_name(const char *s)
{
	for (int f = 0; f < FAM_COUNT; f++)
		if (!strcmp(s, op_family_name((enum op_family)f)))
			return f;
	return -1;
}

int cmd_gen(int argc, char **argv)
{
	long long seed, count, size, parts, dyn, near, grad, configs;
	struct cli c;
	if (cli_parse(&c, "pt2fuzz gen", argc, argv, (const struct option *const[]){gen_options, NULL}, 0))
		return c.status;
	if (c.npos) {
		fprintf(stderr, "pt2fuzz gen: unexpected argument '%s'\n", c.pos[0]);
		return 2;
	}
	const char *out = cli_opt(&c, "out"), *fam = cli_opt(&c, "family");
	const char *brk = cli_opt(&c, "break");
	struct gen_opts o;
	gen_default_opts(&o);
	if (cli_num(&c, "seed", 1, 0, (long long)UINT32_MAX, &seed) ||
	    cli_num(&c, "count", 1, 1, 10000000, &count) ||
	    cli_num(&c, "size", o.size, 1, G_MAX_NODES, &size) ||
	    cli_num(&c, "components", o.components, 1, GEN_MAX_COMPONENTS, &parts) ||
	    cli_num(&c, "dynamic", o.dyn_pct, 0, 100, &dyn) ||
	    cli_num(&c, "near-invalid", brk ? 100 : 0, 0, 100, &near) ||
	    cli_num(&c, "grad", 0, 0, 100, &grad) || cli_num(&c, "configs", 0, 0, 100, &configs))
		return 2;
	o.config_pct = (unsigned)configs;
	o.break_pct = (unsigned)near;
	o.grad_pct = (unsigned)grad;
	if (brk && constraint_find(brk) < 0) {
		fprintf(stderr, "pt2fuzz gen: unknown constraint '%s' (see docs/formats.md)\n", brk);
		return 2;
	}
	o.constraint = brk ? (unsigned)constraint_find(brk) : C_NONE;
	int stats = cli_flag(&c, "stats"), target = cli_opt(&c, "target") ? target_find(cli_opt(&c, "target")) : TARGET_ANY;
	if (target < 0) {
		fprintf(stderr, "pt2fuzz gen: --target must be any, cpu or gpu\n");
		return 2;
	}
	o.target = (unsigned)target;
	if (!out && !stats) {
		fprintf(stderr, "pt2fuzz gen: --out DIR (or --stats) is required\n");
		return 2;
	}
	if (fam && (o.family = family_by_name(fam)) < 0) {
		fprintf(stderr, "pt2fuzz gen: unknown family '%s' (see `pt2fuzz ops`)\n", fam);
		return 2;
	}
	if (out && mkdir(out, 0777) && errno != EEXIST) {
		fprintf(stderr, "pt2fuzz gen: %s: %s\n", out, strerror(errno));
		return 1;
	}
	o.size = (unsigned)size;
	o.components = (unsigned)parts;
	o.dyn_pct = (unsigned)dyn;
	unsigned made = 0, used[64] = {0};
	for (long long i = 0; i < count; i++) {
		char why[300], path[4096];
		if (gen_graph(&G, (uint64_t)seed * 0x100000001b3ull + (uint64_t)i, &o, why, sizeof why)) {
			fprintf(stderr, "pt2fuzz gen: graph %lld: %s\n", i, why);
			continue;
		}
		snprintf(path, sizeof path, "%s/g%llu_%06lld.bin", out, seed, i);
		if (out && graphio_save(path, &G, why, sizeof why)) {
			fprintf(stderr, "pt2fuzz gen: %s\n", why);
			return 1;
		}
		for (unsigned k = 0; k < capability_count() && k < 64; k++)
			used[k] += (unsigned)capability_used(&G, k);
		made++;
	}
	if (out)
		fprintf(stderr, "pt2fuzz gen: wrote %u graphs to %s\n", made, out);
	if (stats && made) {
		printf("%-24s %8s %7s   (of %u generated graphs)\n", "capability", "graphs", "share", made);
		for (unsigned k = 0; k < capability_count() && k < 64; k++)
			printf("%-24s %8u %6.1f%%\n", capability_name(k), used[k], 100.0 * used[k] / made);
	}
	return made ? 0 : 1;
}

int cmd_show(int argc, char **argv)
{
	struct cli c;
	const char *file;
	if (parse_one_file(&c, "pt2fuzz show", argc, argv, no_options, &file))
		return c.status;
	if (load_or_complain(file, &G))
		return 1;
	text_write(stdout, &G, 1);
	return 0;
}

/* --plain: the plain program (graph/emit_plain.h) of a graph file, or of a
 * finding folder's graph under its meta.json's configuration (the command
 * line's options override it). */
static int emit_plain_cmd(const struct cli *c, const char *file)
{
	long long binding;
	const char *device = cli_opt(c, "device");
	if (cli_num(c, "binding", -1, 0, G_MAX_BIND - 1, &binding))
		return 2;
	if (device && strcmp(device, "cpu") && strcmp(device, "cuda")) {
		fprintf(stderr, "pt2fuzz emit: --device is cpu or cuda for a plain program\n");
		return 2;
	}
	char why[600];
	struct stat st;
	if (file && !stat(file, &st) && S_ISDIR(st.st_mode)) {
		struct plain_request rq = {PLAIN_AUTO, cli_opt(c, "backend"), cli_opt(c, "mode"), cli_opt(c, "dynamic"),
					   (int)binding, device ? !strcmp(device, "cuda") : -1};
		size_t len;
		char *prog = plain_of_finding(file, &rq, &len, why, sizeof why);
		if (prog)
			fwrite(prog, 1, len, stdout);
		else
			fprintf(stderr, "pt2fuzz emit: %s\n", why);
		free(prog);
		return prog ? 0 : 1;
	}
	struct plain_opts o = {cli_opt(c, "backend"), cli_opt(c, "mode"), cli_opt(c, "dynamic"),
			       binding < 0 ? 0 : (unsigned)binding, device && !strcmp(device, "cuda"), NULL, NULL};
	if (load_or_complain(file, &G))
		return 1;
	if (emit_plain(stdout, &G, &o, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz emit: %s\n", why);
		return 1;
	}
	return 0;
}

int cmd_emit(int argc, char **argv)
{
	struct cli c;
	const char *file;
	if (parse_one_file(&c, "pt2fuzz emit", argc, argv, emit_options, &file))
		return c.status;
	if (cli_flag(&c, "plain"))
		return emit_plain_cmd(&c, file);
	if (cli_opt(&c, "binding") || cli_opt(&c, "dynamic") || cli_opt(&c, "device")) {
		fprintf(stderr, "pt2fuzz emit: --binding, --dynamic and --device are for --plain\n");
		return 2;
	}
	const char *mode = cli_opt(&c, "mode");
	struct check_cfg cc;
	check_default_cfg(&cc); /* the graph's own configuration where the command line names none */
	cc.backward = mode && !strncmp(mode, "backward", 8) && (!mode[8] || mode[8] == ',');
	cc.compile_mode = cc.backward ? (mode[8] ? mode + 9 : NULL) : mode;
	if (cli_opt(&c, "backend")) {
		cc.backend = cli_opt(&c, "backend");
		cc.pinned |= PIN_BACKEND;
	}
	if (load_or_complain(file, &G))
		return 1;
	size_t len;
	char *prog = check_program_text(&G, &cc, &len);
	int rc = !prog || fwrite(prog, 1, len, stdout) != len || fflush(stdout);
	if (rc)
		fprintf(stderr, "pt2fuzz emit: bad --backend/--mode name, or write error\n");
	free(prog);
	return rc;
}

int cmd_check(int argc, char **argv)
{
	struct cli c;
	const char *file;
	if (parse_one_file(&c, "pt2fuzz check", argc, argv, no_options, &file))
		return c.status;
	if (load_or_complain(file, &G))
		return 1;
	printf("valid: %u ops, %u values, %u bindings\n", G.nnodes, G.nvalues, G.nbind);
	return 0;
}

int cmd_parse(int argc, char **argv)
{
	struct cli c;
	const char *file;
	if (parse_one_file(&c, "pt2fuzz parse", argc, argv, out_option, &file))
		return c.status;
	const char *out = cli_opt(&c, "out");
	char why[300];
	if (!out) {
		fprintf(stderr, "pt2fuzz parse: --out FILE is required\n");
		return 2;
	}
	if (load_or_complain(file, &G))
		return 1;
	if (graphio_save(out, &G, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz parse: %s\n", why);
		return 1;
	}
	return 0;
}
