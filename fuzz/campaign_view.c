/* What a campaign shows: the status view drawn, and stats/plot_data (one
 * line per interval, like AFL's plot_data) appended and resumed. */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "campaign.h"

unsigned count_files(const char *dir)
{
	unsigned n = 0;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static const char *const fixed_columns =
	"unix_time, elapsed_s, execs, execs_per_s, corpus, features, compiler_lines, workers, findings";

void plot_resume(const char *path, struct plot_row *last)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	memset(last, 0, sizeof *last);
	while (f && fgets(line, sizeof line, f))
		if (line[0] != '#' && strchr(line, '\n')) /* not a row cut short */
			sscanf(line, "%lld, %lf, %llu", &last->unix_time, &last->elapsed, &last->execs);
	if (f)
		fclose(f);
}

/* A row goes in with one write; one a full disk cut short is taken back, so
 * every row of plot_data is whole. */
int plot_append(const char *path, const struct plot_row *r)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	struct stat st;
	char *row = NULL;
	size_t len = 0;
	FILE *f = fd < 0 || fstat(fd, &st) ? NULL : open_memstream(&row, &len);
	if (!f) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	unsigned total = 0;
	for (unsigned k = 0; k < V_COUNT; k++)
		total += verdict_is_compiler_bug((enum verdict_kind)k) ? r->findings[k] : 0;
	if (st.st_size == 0) {
		fprintf(f, "# %s", fixed_columns);
		for (unsigned k = 0; k < V_COUNT; k++)
			if (verdict_is_finding((enum verdict_kind)k))
				fprintf(f, ", %s", verdict_name((enum verdict_kind)k));
		fputc('\n', f);
	}
	fprintf(f, "%lld, %.0f, %llu, %.3f, %u, %llu, %llu, %u, %u", r->unix_time, r->elapsed, r->execs, r->rate,
		r->corpus, r->features, r->lines, r->workers, total);
	for (unsigned k = 0; k < V_COUNT; k++)
		if (verdict_is_finding((enum verdict_kind)k))
			fprintf(f, ", %u", r->findings[k]);
	fputc('\n', f);
	int bad = fclose(f) || write(fd, row, len) != (ssize_t)len;
	if (bad && ftruncate(fd, st.st_size))
		bad = 1;
	free(row);
	return close(fd) || bad ? -1 : 0;
}

/* "12 (2 new, 3 awaiting, 2 known, 1 reported; behaviour 6, numeric 6)" */
static void findings_text(const struct plot_row *r, char *out, size_t n)
{
	const unsigned *by = r->findings;
	unsigned total = 0;
	for (unsigned k = 0; k < V_COUNT; k++)
		total += by[k];
	int k = snprintf(out, n, "%u", total);
	if (total && k > 0 && (size_t)k < n)
		k += snprintf(out + k, n - (size_t)k, " (%u new, %u awaiting, %u known, %u reported;", r->census.bugs,
			      r->census.awaiting, r->census.known, r->census.reported);
	const char *sep = " ";
	for (unsigned v = 0; v < V_COUNT && k > 0 && (size_t)k < n; v++)
		if (by[v]) {
			k += snprintf(out + k, n - (size_t)k, "%s%s %u", sep, verdict_name((enum verdict_kind)v), by[v]);
			sep = ", ";
		}
	if (total && k > 0 && (size_t)k < n)
		snprintf(out + k, n - (size_t)k, ")");
}

static void clock_text(double secs, char *out, size_t n)
{
	long s = (long)secs;
	if (s >= 3600)
		snprintf(out, n, "%ldh%02ldm%02lds", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(out, n, "%ldm%02lds", s / 60, s % 60);
}

static unsigned drawn; /* lines of the block on the terminal */

void view_clear(FILE *f, int tty)
{
	if (tty && drawn)
		fprintf(f, "\033[%uA\033[J", drawn);
	drawn = 0;
}

void view_draw(FILE *f, int tty, const struct view *v)
{
	char fnd[300], run[32], total[32], limit[32] = "";
	const struct plot_row *r = &v->row;
	findings_text(r, fnd, sizeof fnd);
	clock_text(v->secs, run, sizeof run);
	clock_text(r->elapsed, total, sizeof total);
	if (v->limit > 0)
		clock_text(v->limit, limit, sizeof limit);
	double overall = r->elapsed > 0 ? (double)r->execs / r->elapsed : 0;
	if (!tty) {
		fprintf(f, "[%s] execs %llu (%.2f/s) corpus %u features %llu lines %llu findings %s workers %u", run,
			r->execs, r->rate, r->corpus, r->features, r->lines, fnd, r->workers);
		if (v->restarts)
			fprintf(f, " watchdog-restarts %u", v->restarts);
		fputc('\n', f);
		return;
	}
	view_clear(f, tty);
	drawn = 6 + (v->restarts != 0);
	fprintf(f, "pt2fuzz fuzz %s   run %s%s%s   campaign %s   %s\n", v->out, run, limit[0] ? " of " : "", limit,
		total, v->engine);
	fprintf(f, "  execs     %llu   %.2f/s now, %.2f/s overall\n", r->execs, r->rate, overall);
	fprintf(f, "  coverage  %llu compiler lines, %llu features, corpus %u inputs\n", r->lines, r->features, r->corpus);
	fprintf(f, "  findings  %s\n", fnd);
	fprintf(f, "  workers   %u alive: %s\n", r->workers, v->workers);
	fprintf(f, "  behind    %s\n", v->background);
	if (v->restarts)
		fprintf(f, "  watchdog  %u stalled jobs restarted\n", v->restarts);
	fflush(f);
}
