#include "cli.h"
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *help_text;

void cli_set_help(const char *text) { help_text = text; }

static const struct option help_option[] = {{"help", no_argument, NULL, 0}, {NULL, 0, NULL, 0}};

/* The tables' options into c->opts, each name once (a command's own entry
 * wins over a shared one of the same name: fuzz's --jobs). */
static int gather(struct cli *c, const struct option *const *tables)
{
	unsigned n = 0;
	for (; *tables; tables++)
		for (const struct option *o = *tables; o->name; o++) {
			int seen = 0;
			for (unsigned i = 0; i < n; i++)
				seen |= !strcmp(c->opts[i].name, o->name);
			if (seen)
				continue;
			if (n == CLI_MAX_OPTIONS) {
				fprintf(stderr, "%s: more than %d options\n", c->cmd, CLI_MAX_OPTIONS);
				return -1;
			}
			c->opts[n] = *o;
			c->opts[n].flag = NULL;
			c->opts[n++].val = 0;
		}
	memset(&c->opts[n], 0, sizeof c->opts[n]);
	return 0;
}

static int fail_usage(struct cli *c)
{
	fprintf(stderr, "%s: see `%s --help`\n", c->cmd, c->cmd);
	c->status = 2;
	return -1;
}

int cli_parse(struct cli *c, const char *cmd, int argc, char **argv, const struct option *const *tables, int flags)
{
	const struct option *const *all = tables;
	const struct option *with_help[16];
	unsigned k = 0;
	memset(c, 0, offsetof(struct cli, args));
	c->cmd = cmd;
	c->status = 2;
	if (help_text) { /* --help first: it wins over a command's own option of that name */
		with_help[k++] = help_option;
		for (; *tables && k < 15; tables++)
			with_help[k++] = *tables;
		with_help[k] = NULL;
		all = with_help;
	}
	if (gather(c, all))
		return -1;
	if (argc > CLI_MAX_ARGS - 1) {
		fprintf(stderr, "%s: more than %d arguments\n", cmd, CLI_MAX_ARGS - 1);
		return -1;
	}
	/* Set aside first, then getopt sees only ours; they go after the
	 * positionals at the end of c->args. */
	int n = 1, npass = 0;
	char *pass[CLI_MAX_ARGS];
	c->args[0] = (char *)cmd;
	for (int i = 0; i < argc; i++)
		if ((flags & CLI_PASS_DASH) && argv[i][0] == '-' && argv[i][1] != '-' && strlen(argv[i]) > 2)
			pass[npass++] = argv[i];
		else
			c->args[n++] = argv[i];
	optind = 0; /* a fresh scan: GNU getopt starts over */
	opterr = 1;
	for (int idx = -1, ch; (ch = getopt_long(n, c->args, help_text ? "h" : "", c->opts, &idx)) != -1; idx = -1) {
		if (ch == 'h' || (ch == 0 && idx == 0 && help_text)) {
			fputs(help_text, stdout);
			c->status = 0;
			return -1;
		}
		if (ch != 0 || idx < 0)
			return fail_usage(c);
		int split = optarg && optarg == c->args[optind - 1];
		c->given[c->ngiven].opt = idx;
		c->given[c->ngiven].value = optarg;
		c->given[c->ngiven].arg = c->args[optind - 1 - split];
		c->given[c->ngiven++].split = split;
	}
	c->pos = c->args + optind;
	c->npos = n - optind;
	memcpy(c->args + n, pass, (size_t)npass * sizeof *pass);
	c->pass = c->args + n;
	c->npass = npass;
	c->args[n + npass] = NULL;
	return 0;
}

static int option_index(const struct cli *c, const char *name)
{
	for (int i = 0; c->opts[i].name; i++)
		if (!strcmp(c->opts[i].name, name))
			return i;
	fprintf(stderr, "%s: no option --%s in its table\n", c->cmd, name);
	abort();
}

const struct option *cli_option(const struct cli *c, const char *name) { return &c->opts[option_index(c, name)]; }

const char *cli_opt(const struct cli *c, const char *name)
{
	int o = option_index(c, name);
	for (int i = c->ngiven - 1; i >= 0; i--)
		if (c->given[i].opt == o)
			return c->given[i].value;
	return NULL;
}

int cli_flag(const struct cli *c, const char *name)
{
	int o = option_index(c, name);
	for (int i = 0; i < c->ngiven; i++)
		if (c->given[i].opt == o)
			return 1;
	return 0;
}

int cli_num(const struct cli *c, const char *name, long long dflt, long long lo, long long hi, long long *out)
{
	const char *s = cli_opt(c, name);
	*out = dflt;
	if (!s)
		return 0;
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 0);
	if (errno || *end || end == s || x < lo || x > hi) {
		fprintf(stderr, "%s: --%s %s: expected a number in [%lld, %lld]\n", c->cmd, name, s, lo, hi);
		return -1;
	}
	*out = x;
	return 0;
}
