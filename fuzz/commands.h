/* Subcommands that live in their own files; fuzz/main.c holds the table. */
#ifndef PT2FUZZ_COMMANDS_H
#define PT2FUZZ_COMMANDS_H

#define RUN_USAGE \
	"[--backend B] [--mode M] [--dynamic marks|true|false] [--device D] [--jobs N]\n" \
	"          [--timeout SEC] [--findings DIR] [--plugin FILE.py] [--modes eager,compiled,fp64]\n" \
	"          [--inductor NAME=VALUE] FILE|DIR..."
int cmd_run(int argc, char **argv);

#define FUZZ_USAGE \
	"[--time SEC] [--out DIR] [--jobs N | --workers-per-gpu N] [--seeds DIR] [--sync DIR]\n" \
	"          [--merge-every SEC] [--sync-every SEC] [--stats-every SEC] [--triage-time SEC]\n" \
	"          [--findings DIR] [--near-invalid PCT] [--no-triage] [--no-lender] [--no-coverage] [--size N]\n" \
	"          [run options]"
int cmd_fuzz(int argc, char **argv);

int cmd_report(int argc, char **argv);

#define PLOT_USAGE "OUT|PLOT_DATA [--out FILE.png]"
int cmd_plot(int argc, char **argv);

#define REDUCE_USAGE "FINDING|FILE [--out DIR] [--jobs N] [--time SEC] [run options]"
int cmd_reduce(int argc, char **argv);

#define BISECT_USAGE "FINDING [--jobs N] [run options]"
int cmd_bisect(int argc, char **argv);

#define TRIAGE_USAGE "DIR [--jobs N] [--time SEC per finding] [--reruns N] [run options]"
int cmd_triage(int argc, char **argv);

#endif
