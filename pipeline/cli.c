#include "cli.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cli_opt(int argc, char **argv, const char *name)
{
	for (int i = 0; i < argc - 1; i++)
		if (!strcmp(argv[i], name))
			return argv[i + 1];
	return NULL;
}

int cli_flag(int argc, char **argv, const char *name)
{
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], name))
			return 1;
	return 0;
}

int cli_num(int argc, char **argv, const char *name, long long dflt, long long lo, long long hi, long long *out)
{
	const char *s = cli_opt(argc, argv, name);
	*out = dflt;
	if (!s)
		return 0;
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 0);
	if (errno || *end || end == s || x < lo || x > hi) {
		fprintf(stderr, "pt2fuzz: %s %s: expected a number in [%lld, %lld]\n", name, s, lo, hi);
		return -1;
	}
	*out = x;
	return 0;
}

static int is_flag(const char *a, const char *const *flags)
{
	for (; flags && *flags; flags++)
		if (!strcmp(a, *flags))
			return 1;
	return 0;
}

int cli_positionals(int argc, char **argv, const char *const *flags, char **out, int cap)
{
	int k = 0;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "--", 2)) {
			i += !is_flag(argv[i], flags);
			continue;
		}
		if (k < cap)
			out[k++] = argv[i];
	}
	return k;
}
