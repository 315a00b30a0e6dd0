/* The triage subcommands: reduce, bisect, triage, report, repro, recheck; cli/main.c holds the table. */
#ifndef PT2FUZZ_TRIAGE_COMMANDS_H
#define PT2FUZZ_TRIAGE_COMMANDS_H

int cmd_report(int argc, char **argv);

#define REDUCE_USAGE "FINDING|FILE [--out DIR] [--jobs N] [--time SEC] [run options]"
int cmd_reduce(int argc, char **argv);

#define BISECT_USAGE "FINDING [--jobs N] [run options]"
int cmd_bisect(int argc, char **argv);

#define TRIAGE_USAGE "DIR [--jobs N] [--time SEC per finding] [--reruns N] [run options]"
int cmd_triage(int argc, char **argv);

#define REPRO_USAGE "FINDING|FILE.py [--reduced|--original] [--plain] [--timeout SEC] [--plugin FILE.py]"
int cmd_repro(int argc, char **argv);

#define RECHECK_USAGE "DIR [--jobs N] [--timeout SEC] [run options]"
int cmd_recheck(int argc, char **argv);

#endif
