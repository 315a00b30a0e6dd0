/* pt2fuzz: the command-line tool. One table entry per subcommand. */
#include <stdio.h>
#include <string.h>
#include "../fuzz/fuzz_command.h"
#include "../pipeline/cli.h"
#include "../pipeline/runopts.h"
#include "../triage/triage_commands.h"
#include "commands.h"

static const struct command {
	const char *name, *usage, *help;
	int (*run)(int argc, char **argv);
} commands[] = {
	{"ops", "", "list the operator catalogue: `name family` per line", cmd_ops},
	{"configs", "",
	 "list the compile settings' catalogue: `name type devices values torch>=SINCE[,<UNTIL] [effects]` per "
	 "line (values: the default first; effects: numerics, random, not-aoti, backward, slow-compile), then `clash A B: why` per pair a configuration does not set together",
	 cmd_configs},
	{"opdb", OPDB_USAGE,
	 "the catalogue measured against PyTorch's operator database (op_db) on the installed torch: the entries "
	 "mapped to catalogue rows, excluded with a reason, or left to add; --dtypes: each mapped row's input-0 dtypes "
	 "on each device it runs on against its entries' OpInfos, one line per disagreement `ROW TAB ENTRIES TAB "
	 "cpu|cuda TAB claims-unsupported|unclaimed TAB DTYPES TAB wrong|allowed: REASON|-`, exit 1 on a wrong one",
	 cmd_opdb},
	{"gen", "--seed S --count N [--size M] [--components K] [--family F] [--dynamic PCT] [--near-invalid PCT] [--break C] [--grad PCT] [--configs PCT] [--target T] [--stats] [--out DIR]",
	 "generate N valid graphs (deterministic for S); PCT% (--break: all) near-invalid, breaking C or any "
	 "constraint; --configs: PCT% with a compile configuration other than the default",
	 cmd_gen},
	{"show", "FILE", "print a graph in readable text form, with shapes at each binding", cmd_show},
	{"emit", "FILE [--backend B] [--mode M], or --plain FILE|FINDING [--binding B] [--backend B] [--mode M] "
		 "[--dynamic D] [--device cpu|cuda]",
	 "print the standalone PyTorch program of a graph; --plain: its plain repro, some thirty lines of ordinary "
	 "PyTorch at one input binding (a finding's: its graph and configuration)",
	 cmd_emit},
	{"check", "FILE", "exit 0 iff FILE is a valid graph (binary or text)", cmd_check},
	{"parse", "TEXTFILE --out FILE", "turn the readable text form into the binary form", cmd_parse},
	{"fuzz", FUZZ_USAGE,
	 "a coverage-guided campaign (its own loop over persistent targets) from the seeds into OUT/corpus and OUT/findings", cmd_fuzz},
	{"bisect", BISECT_USAGE,
	 "the compiler layer a finding first appears in, and what settings matter (writes bisect.json)", cmd_bisect},
	{"triage", TRIAGE_USAGE, "reduce, bisect and rerun every finding in DIR; bucket them in DIR/triage.md",
	 cmd_triage},
	{"reduce", REDUCE_USAGE,
	 "the smallest graph that still shows a finding (default out: FINDING/reduced)", cmd_reduce},
	{"run", RUN_USAGE, "run graphs (or emitted .py programs) in eager, compiled and fp64 modes and judge them",
	 cmd_run},
	{"repro", REPRO_USAGE,
	 "run a finding's repro.py (reduced/repro.py when there is one), or with --plain its plain repro, in the "
	 "configured Python, through stdin; exits with its status",
	 cmd_repro},
	{"recheck", RECHECK_USAGE,
	 "rerun every finding in DIR on this torch: still failing, fixed or changed (written to its meta.json)",
	 cmd_recheck},
	{"plot", PLOT_USAGE, "a campaign's coverage, findings and speed over time as a PNG (default OUT/plot.png)", cmd_plot},
	{"report", "FINDING [--out FILE] [run options]",
	 "the GitHub issue text PyTorch asks of fuzzer reports, with a TORCH_TRACE log (FINDING/report.md)", cmd_report},
};

#define USAGE_WIDTH 100
#define USAGE_INDENT 10

/* words (text's runs of non-space: the usages hold line breaks of their own)
 * from column `at`, broken before USAGE_WIDTH, each further line indented
 * USAGE_INDENT. */
static void print_wrapped(FILE *f, const char *words, unsigned at)
{
	static char flat[4096];
	size_t n = 0;
	for (const char *w = words + strspn(words, " \n"); *w && n + 1 < sizeof flat; w++)
		if (*w != ' ' && *w != '\n')
			flat[n++] = *w;
		else if (w[1] && !strchr(" \n", w[1]))
			flat[n++] = ' ';
	flat[n] = 0;
	const char *text = flat;
	while (*text) {
		size_t len = strlen(text), cut = len;
		if (at + len > USAGE_WIDTH) {
			cut = USAGE_WIDTH - at;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (!cut) /* one word longer than the line */
				cut = strcspn(text, " ");
		}
		fprintf(f, "%.*s\n", (int)cut, text);
		text += cut + (text[cut] == ' ');
		if (*text)
			fprintf(f, "%*s", USAGE_INDENT, "");
		at = USAGE_INDENT;
	}
}

/* README's "The command-line tool" is this text (tests/integration/test_cli_help.sh). */
static void usage(FILE *f)
{
	fprintf(f, "usage: pt2fuzz COMMAND [ARGS]\n\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (*commands[i].usage) {
			fprintf(f, "  %-7s ", commands[i].name);
			print_wrapped(f, commands[i].usage, USAGE_INDENT);
		} else {
			fprintf(f, "  %s\n", commands[i].name);
		}
		fprintf(f, "%*s", USAGE_INDENT, "");
		print_wrapped(f, commands[i].help, USAGE_INDENT);
	}
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
		/* What `pt2fuzz COMMAND --help` prints (pipeline/cli.c): it must not start the work. */
		static char help[8192];
		int run_opts = commands[i].run == cmd_run || strstr(commands[i].usage, "run options");
		snprintf(help, sizeof help, "usage: pt2fuzz %s %s\n  %s\n%s%s", commands[i].name, commands[i].usage,
			 commands[i].help, run_opts ? "\nrun options:\n" : "", run_opts ? RUN_OPTS_HELP : "");
		cli_set_help(help);
		return commands[i].run(argc - 2, argv + 2);
	}
	fprintf(stderr, "pt2fuzz: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
