#include "finding_list.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../pipeline/findings.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

int finding_list(const char *dir, char (*names)[FINDING_NAME_MAX], unsigned cap)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	unsigned n = 0;
	char sub[4200], path[4300];
	struct stat st;
	for (struct dirent *e; n < cap && (e = readdir(d));)
		if (e->d_name[0] != '.' && !findings_path(sub, sizeof sub, dir, e->d_name) &&
		    !findings_path(path, sizeof path, sub, "meta.json") && !stat(path, &st))
			snprintf(names[n++], FINDING_NAME_MAX, "%.*s", FINDING_NAME_MAX - 1, e->d_name);
	closedir(d);
	qsort(names, n, FINDING_NAME_MAX, by_name);
	return (int)n;
}
