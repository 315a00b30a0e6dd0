#include "known_breaks.h"
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KNOWN_BREAKS_MAX 512

static struct {
	char path[PATH_MAX];
	off_t size;    /* of the file as read */
	unsigned n;
	char line[KNOWN_BREAKS_MAX][96]; /* "TORCH_MINOR\tOP\tCONSTRAINT" */
} kb;

/* "2.11\tOP\tCONSTRAINT" into out; 0, or -1 when torch has no MAJOR.MINOR. */
static int key(const char *torch, const char *op, const char *constraint, char *out, size_t n)
{
	const char *dot = strchr(torch, '.');
	int minor = dot ? (int)(strcspn(dot + 1, ".+") + (size_t)(dot + 1 - torch)) : 0;
	if (!minor)
		return -1;
	int len = snprintf(out, n, "%.*s\t%s\t%s", minor, torch, op, constraint);
	return len > 0 && (size_t)len < n ? 0 : -1;
}

/* Reads findings's file when it is another file or grew since. */
static void refresh(const char *findings)
{
	char path[PATH_MAX];
	struct stat st;
	if (snprintf(path, sizeof path, "%s/%s", findings, KNOWN_BREAKS_FILE) >= (int)sizeof path)
		return;
	int same = !strcmp(path, kb.path);
	if (stat(path, &st) || (same && st.st_size == kb.size))
		return;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	snprintf(kb.path, sizeof kb.path, "%s", path);
	kb.size = st.st_size;
	kb.n = 0;
	char buf[512];
	while (kb.n < KNOWN_BREAKS_MAX && fgets(buf, sizeof buf, f)) {
		char *tab = strchr(buf, '\t');
		tab = tab ? strchr(tab + 1, '\t') : NULL;
		tab = tab ? strchr(tab + 1, '\t') : NULL; /* the third: ISSUE follows */
		if (tab && (size_t)(tab - buf) < sizeof kb.line[0])
			snprintf(kb.line[kb.n++], sizeof kb.line[0], "%.*s", (int)(tab - buf), buf);
	}
	fclose(f);
}

static int listed(const char *k)
{
	for (unsigned i = 0; i < kb.n; i++)
		if (!strcmp(kb.line[i], k))
			return 1;
	return 0;
}

int known_breaks_hit(const char *findings, const char *torch, const char *op, const char *constraint)
{
	char k[sizeof kb.line[0]];
	if (key(torch, op, constraint, k, sizeof k))
		return 0;
	refresh(findings);
	return listed(k);
}

int known_breaks_add(const char *findings, const char *torch, const char *op, const char *constraint,
		     const char *issue)
{
	char k[sizeof kb.line[0]], path[PATH_MAX], line[sizeof k + 128];
	if (key(torch, op, constraint, k, sizeof k))
		return -1;
	refresh(findings);
	if (listed(k))
		return 0;
	int len = snprintf(line, sizeof line, "%s\t%.100s\n", k, issue);
	if (len <= 0 || (size_t)len >= sizeof line ||
	    snprintf(path, sizeof path, "%s/%s", findings, KNOWN_BREAKS_FILE) >= (int)sizeof path)
		return -1;
	/* one write of O_APPEND: jobs adding at once never interleave a line */
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd < 0)
		return -1;
	int ok = write(fd, line, (size_t)len) == len;
	close(fd);
	if (ok && kb.n < KNOWN_BREAKS_MAX)
		snprintf(kb.line[kb.n++], sizeof kb.line[0], "%s", k);
	return ok ? 0 : -1;
}
