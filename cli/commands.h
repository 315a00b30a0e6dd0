/* The subcommands whose code lives in cli/, beside the table in cli/main.c. */
#ifndef PT2FUZZ_COMMANDS_H
#define PT2FUZZ_COMMANDS_H

/* cli/graph_commands.c: one graph file at a time. */
int cmd_ops(int argc, char **argv);
int cmd_configs(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_emit(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_parse(int argc, char **argv);

#define RUN_USAGE \
	"[--backend B] [--mode M] [--dynamic marks|true|false] [--device D] [--jobs N]\n" \
	"          [--timeout SEC] [--findings DIR] [--plugin FILE.py] [--modes eager,compiled,fp64,nudged]\n" \
	"          [--inductor NAME=VALUE] FILE|DIR..."
int cmd_run(int argc, char **argv);

#define OPDB_USAGE "[--list mapped|excluded|unmapped|all | --dtypes]"
int cmd_opdb(int argc, char **argv);

#define PLOT_USAGE "OUT|PLOT_DATA [--out FILE.png]"
int cmd_plot(int argc, char **argv);

#endif
