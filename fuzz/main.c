/* pt2fuzz: the command-line tool. One table entry per subcommand. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../graph/broken.h"
#include "../graph/codec.h"
#include "../graph/emit.h"
#include "../graph/op.h"
#include "../graph/text.h"
#include "../mutators/gen.h"
#include "cli.h"
#include "commands.h"
#include "graphio.h"
#include "runopts.h"

static const char *positional(int argc, char **argv)
{
	char *first[1];
	return cli_positionals(argc, argv, NULL, first, 1) ? first[0] : NULL;
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

static int cmd_ops(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (unsigned i = 0; i < op_count(); i++)
		printf("%s %s\n", op_get(i)->name, op_family_name(op_get(i)->family));
	return 0;
}

static int family_by_name(const char *s)
{
	for (int f = 0; f < FAM_COUNT; f++)
		if (!strcmp(s, op_family_name((enum op_family)f)))
			return f;
	return -1;
}

static int cmd_gen(int argc, char **argv)
{
	long long seed, count, size, dyn, near, grad;
	const char *out = cli_opt(argc, argv, "--out"), *fam = cli_opt(argc, argv, "--family");
	const char *brk = cli_opt(argc, argv, "--break");
	struct gen_opts o;
	gen_default_opts(&o);
	if (cli_num(argc, argv, "--seed", 1, 0, (long long)UINT32_MAX, &seed) ||
	    cli_num(argc, argv, "--count", 1, 1, 10000000, &count) ||
	    cli_num(argc, argv, "--size", o.size, 1, G_MAX_NODES, &size) ||
	    cli_num(argc, argv, "--dynamic", o.dyn_pct, 0, 100, &dyn) ||
	    cli_num(argc, argv, "--near-invalid", brk ? 100 : 0, 0, 100, &near) ||
	    cli_num(argc, argv, "--grad", 0, 0, 100, &grad))
		return 2;
	o.break_pct = (unsigned)near;
	o.grad_pct = (unsigned)grad;
	if (brk && constraint_find(brk) < 0) {
		fprintf(stderr, "pt2fuzz gen: unknown constraint '%s' (see docs/formats.md)\n", brk);
		return 2;
	}
	o.constraint = brk ? (unsigned)constraint_find(brk) : C_NONE;
	if (!out) {
		fprintf(stderr, "pt2fuzz gen: --out DIR is required\n");
		return 2;
	}
	if (fam && (o.family = family_by_name(fam)) < 0) {
		fprintf(stderr, "pt2fuzz gen: unknown family '%s' (see `pt2fuzz ops`)\n", fam);
		return 2;
	}
	if (mkdir(out, 0777) && errno != EEXIST) {
		fprintf(stderr, "pt2fuzz gen: %s: %s\n", out, strerror(errno));
		return 1;
	}
	o.size = (unsigned)size;
	o.dyn_pct = (unsigned)dyn;
	unsigned made = 0;
	for (long long i = 0; i < count; i++) {
		char why[300], path[4096];
		if (gen_graph(&G, (uint64_t)seed * 0x100000001b3ull + (uint64_t)i, &o, why, sizeof why)) {
			fprintf(stderr, "pt2fuzz gen: graph %lld: %s\n", i, why);
			continue;
		}
		snprintf(path, sizeof path, "%s/g%llu_%06lld.bin", out, seed, i);
		if (graphio_save(path, &G, why, sizeof why)) {
			fprintf(stderr, "pt2fuzz gen: %s\n", why);
			return 1;
		}
		made++;
	}
	fprintf(stderr, "pt2fuzz gen: wrote %u graphs to %s\n", made, out);
	return made ? 0 : 1;
}

static int cmd_show(int argc, char **argv)
{
	if (load_or_complain(positional(argc, argv), &G))
		return 1;
	text_write(stdout, &G, 1);
	return 0;
}

static int cmd_emit(int argc, char **argv)
{
	const char *mode = cli_opt(argc, argv, "--mode");
	int backward = mode && !strncmp(mode, "backward", 8) && (!mode[8] || mode[8] == ',');
	struct emit_opts o = {cli_opt(argc, argv, "--backend"), backward ? (mode[8] ? mode + 9 : NULL) : mode, backward};
	if (load_or_complain(positional(argc, argv), &G))
		return 1;
	if (emit_program(stdout, &G, &o)) {
		fprintf(stderr, "pt2fuzz emit: bad --backend/--mode name, or write error\n");
		return 1;
	}
	return 0;
}

static int cmd_check(int argc, char **argv)
{
	if (load_or_complain(positional(argc, argv), &G))
		return 1;
	printf("valid: %u ops, %u values, %u bindings\n", G.nnodes, G.nvalues, G.nbind);
	return 0;
}

static int cmd_parse(int argc, char **argv)
{
	const char *out = cli_opt(argc, argv, "--out");
	char why[300];
	if (!out) {
		fprintf(stderr, "pt2fuzz parse: --out FILE is required\n");
		return 2;
	}
	if (load_or_complain(positional(argc, argv), &G))
		return 1;
	if (graphio_save(out, &G, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz parse: %s\n", why);
		return 1;
	}
	return 0;
}

static const struct command {
	const char *name, *usage, *help;
	int (*run)(int argc, char **argv);
} commands[] = {
	{"ops", "", "list the operator catalogue: `name family` per line", cmd_ops},
	{"gen", "--seed S --count N [--size M] [--family F] [--dynamic PCT] [--near-invalid PCT] [--break C] [--grad PCT] --out DIR",
	 "generate N valid graphs (deterministic for S); PCT% (--break: all) near-invalid, breaking C or any "
	 "constraint",
	 cmd_gen},
	{"show", "FILE", "print a graph in readable text form, with shapes at each binding", cmd_show},
	{"emit", "FILE [--backend B] [--mode M]", "print the standalone PyTorch program of a graph", cmd_emit},
	{"check", "FILE", "exit 0 iff FILE is a valid graph (binary or text)", cmd_check},
	{"parse", "TEXTFILE --out FILE", "turn the readable text form into the binary form", cmd_parse},
	{"fuzz", FUZZ_USAGE,
	 "a coverage-guided campaign (libFuzzer -fork) from the seeds into OUT/corpus and OUT/findings", cmd_fuzz},
	{"bisect", BISECT_USAGE,
	 "the compiler layer a finding first appears in, and what settings matter (writes bisect.json)", cmd_bisect},
	{"triage", TRIAGE_USAGE, "reduce, bisect and rerun every finding in DIR; bucket them in DIR/triage.md",
	 cmd_triage},
	{"reduce", REDUCE_USAGE,
	 "the smallest graph that still shows a finding (default out: FINDING/reduced)", cmd_reduce},
	{"run", RUN_USAGE, "run graphs (or emitted .py programs) in eager, compiled and fp64 modes and judge them",
	 cmd_run},
	{"plot", PLOT_USAGE, "a campaign's coverage, findings and speed over time as a PNG (default OUT/plot.png)", cmd_plot},
	{"report", "FINDING [--out FILE] [run options]",
	 "the GitHub issue text PyTorch asks of fuzzer reports, with a TORCH_TRACE log (FINDING/report.md)", cmd_report},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: pt2fuzz COMMAND [ARGS]\n\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-7s %s\n          %s\n", commands[i].name, commands[i].usage, commands[i].help);
	fprintf(f, "\nFILE is a binary graph (corpus format) or its text form; see docs/.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		for (int a = 2; a < argc; a++) /* `pt2fuzz fuzz --help` must not start a campaign */
			if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
				printf("usage: pt2fuzz %s %s\n  %s\n", commands[i].name, commands[i].usage, commands[i].help);
				if (commands[i].run == cmd_run || strstr(commands[i].usage, "run options"))
					printf("\nrun options:\n%s", RUN_OPTS_HELP);
				return 0;
			}
		return commands[i].run(argc - 2, argv + 2);
	}
	fprintf(stderr, "pt2fuzz: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
