/* Command-line parsing shared by the subcommands, on getopt_long: each
 * command has a table of struct option (long names, without "--"; flag and
 * val are not used) and may append shared ones (the run options,
 * pipeline/runopts.h). "--name value" and "--name=value" both work,
 * positional arguments may come anywhere (GNU permutation), an unknown
 * option or a missing value is an error. */
#ifndef PT2FUZZ_CLI_H
#define PT2FUZZ_CLI_H
#include <getopt.h>

#define CLI_MAX_OPTIONS 64
#define CLI_MAX_ARGS 8192

struct cli {
	const char *cmd;                          /* "pt2fuzz gen": the start of every message */
	struct option opts[CLI_MAX_OPTIONS + 1];  /* the tables, in order; a name only once */
	struct {
		int opt;                          /* index into opts */
		const char *value;                /* NULL for a flag */
		char *arg;                        /* the argument that named it ("--name" or "--name=value") */
		int split;                        /* the value is the next argument */
	} given[CLI_MAX_ARGS];                    /* the options as given, in order */
	int ngiven;
	char *args[CLI_MAX_ARGS + 1];             /* cmd, then argv, as getopt_long permutes it */
	char **pos;                               /* the positional arguments */
	int npos;
	char **pass;                              /* with CLI_PASS_DASH: the -flag=value arguments set aside */
	int npass;
	int status;                               /* when cli_parse returns -1: 0 (help shown) or 2 (error) */
};

/* Single-dash arguments longer than "-x" (libFuzzer's -flag=value) are set
 * aside in c->pass instead of being parsed. */
#define CLI_PASS_DASH 1

/* The help text `--help` (or -h) prints; main sets it for the command it
 * runs. Without one, --help is an unknown option. */
void cli_set_help(const char *text);

/* Parses argv (the command's arguments, argv[0] the first of them) against
 * the NULL-terminated list of tables. 0, or -1 with c->status: 0 when the
 * help was printed, 2 after a message on stderr. */
int cli_parse(struct cli *c, const char *cmd, int argc, char **argv, const struct option *const *tables, int flags);

/* The last value given to option NAME (a name of the tables), or NULL. */
const char *cli_opt(const struct cli *c, const char *name);

/* Whether option NAME was given. */
int cli_flag(const struct cli *c, const char *name);

/* Option NAME as a number in [lo, hi] (default dflt); -1 with a message on stderr. */
int cli_num(const struct cli *c, const char *name, long long dflt, long long lo, long long hi, long long *out);

/* The table entry of option NAME; aborts for a name no table has (a bug). */
const struct option *cli_option(const struct cli *c, const char *name);

#endif
