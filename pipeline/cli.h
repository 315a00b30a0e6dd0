/* Command-line parsing shared by the subcommands: "--name value" options,
 * value-less flags, and the positional arguments left over. */
#ifndef PT2FUZZ_CLI_H
#define PT2FUZZ_CLI_H

/* The value of "--name VALUE", or NULL. */
const char *cli_opt(int argc, char **argv, const char *name);

/* Whether the value-less flag "--name" is present. */
int cli_flag(int argc, char **argv, const char *name);

/* A number option in [lo, hi] (default dflt); -1 with a message on stderr. */
int cli_num(int argc, char **argv, const char *name, long long dflt, long long lo, long long hi, long long *out);

/* The positional arguments: those that are neither options nor their
 * values. flags lists the value-less flags (NULL-terminated). Returns the count. */
int cli_positionals(int argc, char **argv, const char *const *flags, char **out, int cap);

#endif
