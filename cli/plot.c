/* `pt2fuzz plot OUT [--out FILE.png]`: a campaign's stats/plot_data drawn
 * as four panels over time: compiler lines covered, coverage features,
 * unique findings by kind, execs per second. This file decides what is drawn
 * (series, titles, axes) and writes it as a JSON figure; cli/plot.py, run by
 * the worker's Python (linked in: cli/python_blob.S), draws it with matplotlib. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../harness/runtime.h"
#include "../pipeline/atomic_file.h"
#include "../pipeline/cli.h"
#include "commands.h"
#include "python_script.h"

#define MAX_COLS 32
#define IMG_W 1200
#define IMG_H 780
#define PLOT_NO_MATPLOTLIB 3 /* cli/plot.py's exit status when matplotlib does not import */
#define MAX_PNG (64u << 20)

/* plot_data: named columns, rows of numbers. */
struct table {
	char name[MAX_COLS][32];
	unsigned ncols;
	double *v; /* row-major, MAX_COLS a row */
	size_t nrows;
};

static int column(const struct table *t, const char *name)
{
	for (unsigned i = 0; i < t->ncols; i++)
		if (!strcmp(t->name[i], name))
			return (int)i;
	return -1;
}

static double at(const struct table *t, size_t row, int col) { return t->v[row * MAX_COLS + (unsigned)col]; }

static int load(const char *path, struct table *t)
{
	FILE *f = fopen(path, "r");
	char line[2048];
	size_t cap = 0;
	memset(t, 0, sizeof *t);
	while (f && fgets(line, sizeof line, f)) {
		if (line[0] == '#') {
			t->ncols = 0;
			for (char *save = NULL, *tok = strtok_r(line + 1, ", \n", &save); tok && t->ncols < MAX_COLS;
			     tok = strtok_r(NULL, ", \n", &save))
				snprintf(t->name[t->ncols++], sizeof t->name[0], "%.31s", tok);
			continue;
		}
		if (!t->ncols)
			continue;
		if (t->nrows == cap) {
			cap = cap ? 2 * cap : 256;
			double *v = realloc(t->v, cap * MAX_COLS * sizeof *v);
			if (!v)
				break;
			t->v = v;
		}
		char *p = line;
		for (unsigned c = 0; c < t->ncols; c++) {
			t->v[t->nrows * MAX_COLS + c] = strtod(p, &p);
			p += strspn(p, ", ");
		}
		t->nrows++;
	}
	if (f)
		fclose(f);
	return f && t->nrows && column(t, "elapsed_s") >= 0 && t->ncols < MAX_COLS ? 0 : -1;
}

/* A column of execs per second over a sliding window (a twentieth of the
 * run, at least five minutes): libFuzzer counts a job's execs when the job
 * ends, so the per-interval rate jumps. */
static int add_smoothed_rate(struct table *t)
{
	int te = column(t, "elapsed_s"), ex = column(t, "execs");
	if (ex < 0)
		return -1;
	double span = at(t, t->nrows - 1, te), window = fmax(300, span / 20);
	unsigned c = t->ncols++;
	snprintf(t->name[c], sizeof t->name[c], "execs/s");
	for (size_t i = 0, j = 0; i < t->nrows; i++) {
		while (at(t, i, te) - at(t, j, te) > window)
			j++;
		double dt = at(t, i, te) - at(t, j, te);
		t->v[i * MAX_COLS + c] = dt > 0 ? (at(t, i, ex) - at(t, j, ex)) / dt : 0;
	}
	return (int)c;
}

struct panel {
	const char *title;
	int cols[8];
	unsigned ncols;
	int zero_based;  /* counts and rates start at 0; coverage zooms on its range (0 there: not measured yet) */
	int integer;     /* counts: ticks at whole numbers */
};

/* Titles and column names as JSON strings: quotes and backslashes escaped,
 * control characters (none are expected) as spaces. */
static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else
			fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
	fputc('"', f);
}

/* One series: its points over time (xdiv seconds a unit); a coverage panel
 * leaves out the zeros of before it was measured. */
static void write_series(FILE *f, const struct table *t, const struct panel *p, int col, double xdiv)
{
	int ex = column(t, "elapsed_s");
	for (int axis = 0; axis < 2; axis++) {
		const char *sep = "";
		fprintf(f, axis ? ", \"y\": [" : "{\"name\": ");
		if (!axis) {
			json_string(f, t->name[col]);
			fprintf(f, ", \"x\": [");
		}
		for (size_t i = 0; i < t->nrows; i++)
			if ((p->zero_based || at(t, i, col) > 0) && isfinite(at(t, i, col)) && isfinite(at(t, i, ex))) {
				fprintf(f, "%s%.10g", sep, axis ? at(t, i, col) : at(t, i, ex) / xdiv);
				sep = ", ";
			}
		fputc(']', f);
	}
	fputc('}', f);
}

/* The figure cli/plot.py draws; the number of series in *nseries. */
static void write_figure(FILE *f, const struct table *t, const struct panel *panels, unsigned npanels,
			 const char *title, double xdiv, const char *xunit, unsigned *nseries)
{
	const char *sep = "";
	fprintf(f, "{\"width\": %d, \"height\": %d, \"title\": ", IMG_W, IMG_H);
	json_string(f, title);
	fprintf(f, ", \"xlabel\": ");
	json_string(f, xunit);
	fprintf(f, ", \"panels\": [");
	*nseries = 0;
	for (const struct panel *p = panels; p < panels + npanels; p++) {
		if (p->cols[0] < 0)
			continue;
		fprintf(f, "%s{\"title\": ", sep);
		json_string(f, p->title);
		fprintf(f, ", \"zero_based\": %d, \"integer\": %d, \"series\": [", p->zero_based, p->integer);
		for (unsigned c = 0; c < p->ncols; c++) {
			fprintf(f, c ? ", " : "");
			write_series(f, t, p, p->cols[c], xdiv);
		}
		fprintf(f, "]}");
		sep = ", ";
		*nseries += p->ncols;
	}
	fprintf(f, "]}\n");
}

/* The PNG cli/plot.py draws of the figure. 0 with *png (malloc'd), or -1
 * with a reason. */
static int draw(const char *figure, size_t figure_len, char **png, size_t *png_len, char *why, size_t n)
{
	struct runtime_output r;
	if (runtime_run_script(pt2fuzz_plot_py, pt2fuzz_plot_py_end, figure, figure_len, MAX_PNG, &r, why, n))
		return -1;
	if (r.exit_code == PLOT_NO_MATPLOTLIB)
		snprintf(why, n,
			 "the worker's Python has no matplotlib: rerun scripts/setup, which adds it, or install it "
			 "yourself (`python3 -m pip install matplotlib` in a venv, apt-get install python3-matplotlib on "
			 "Debian)");
	else if (r.exit_code)
		snprintf(why, n, "the worker's Python did not draw the plot (%s %d; its error is above)",
			 r.exit_code < 0 ? "signal" : "exit", r.exit_code);
	else if (r.len < 8 || r.len >= MAX_PNG || memcmp(r.out, "\x89PNG\r\n\x1a\n", 8))
		snprintf(why, n, "the worker's Python wrote no PNG (%zu bytes)", r.len);
	else {
		*png = r.out;
		*png_len = r.len;
		return 0;
	}
	free(r.out);
	return -1;
}

int cmd_plot(int argc, char **argv)
{
	static const struct option options[] = {{"out", required_argument, NULL, 0}, {NULL, 0, NULL, 0}};
	char path[4200], out[4200], title[300], when[64], why[4600];
	struct stat st;
	struct table t;
	struct cli cl;
	if (cli_parse(&cl, "pt2fuzz plot", argc, argv, (const struct option *const[]){options, NULL}, 0))
		return cl.status;
	if (cl.npos != 1) {
		fprintf(stderr, "usage: pt2fuzz plot %s\n", PLOT_USAGE);
		return 2;
	}
	const char *arg = cl.pos[0];
	int is_dir = !stat(arg, &st) && S_ISDIR(st.st_mode);
	snprintf(path, sizeof path, is_dir ? "%.4000s/stats/plot_data" : "%.4000s", arg);
	snprintf(out, sizeof out, "%.4000s", cli_opt(&cl, "out") ? cli_opt(&cl, "out") : "");
	if (!out[0])
		snprintf(out, sizeof out, is_dir ? "%.4000s/plot.png" : "%.4000s.png", arg);
	if (load(path, &t)) {
		fprintf(stderr, "pt2fuzz plot: %s: no rows of plot_data (a campaign writes them: `pt2fuzz fuzz`)\n", path);
		free(t.v);
		return 1;
	}
	double secs = at(&t, t.nrows - 1, column(&t, "elapsed_s"));
	double xdiv = secs > 3 * 3600 ? 3600 : 60;
	struct panel panels[4] = {{"compiler lines covered", {column(&t, "compiler_lines")}, 1, 0, 1},
				  {"coverage features", {column(&t, "features")}, 1, 0, 1},
				  {"unique findings", {column(&t, "findings")}, 1, 1, 1},
				  {"execs per second", {-1}, 1, 1, 0}};
	/* Findings: the total, then each kind that occurred (columns after "findings"). */
	for (unsigned c = (unsigned)panels[2].cols[0] + 1; panels[2].cols[0] >= 0 && c < t.ncols && panels[2].ncols < 8; c++)
		if (at(&t, t.nrows - 1, (int)c) > 0)
			panels[2].cols[panels[2].ncols++] = (int)c;
	panels[3].cols[0] = add_smoothed_rate(&t); /* after the kinds: it is a column too */
	int last_findings = column(&t, "findings");
	snprintf(when, sizeof when, secs >= 3600 ? "%.1f hours" : "%.1f minutes", secs >= 3600 ? secs / 3600 : secs / 60);
	snprintf(title, sizeof title, "pt2fuzz campaign: %s, %.0f execs, %.0f findings", when,
		 column(&t, "execs") >= 0 ? at(&t, t.nrows - 1, column(&t, "execs")) : 0,
		 last_findings >= 0 ? at(&t, t.nrows - 1, last_findings) : 0);
	char *figure = NULL, *png = NULL;
	size_t figure_len = 0, png_len = 0;
	unsigned nseries = 0;
	FILE *f = open_memstream(&figure, &figure_len);
	if (f) {
		write_figure(f, &t, panels, 4, title, xdiv, xdiv == 3600 ? "hours" : "minutes", &nseries);
		fclose(f);
	}
	int rc = !f ? (snprintf(why, sizeof why, "out of memory"), -1) : draw(figure, figure_len, &png, &png_len, why, sizeof why);
	if (!rc && atomic_write(out, png, png_len, 0)) {
		snprintf(why, sizeof why, "cannot write %s: %s", out, strerror(errno));
		rc = -1;
	}
	free(figure);
	free(png);
	free(t.v);
	if (rc) {
		fprintf(stderr, "pt2fuzz plot: %s\n", why);
		return 1;
	}
	printf("%s: %zu points over %s, %u series in %dx%d\n", out, t.nrows, when, nseries, IMG_W, IMG_H);
	return 0;
}
