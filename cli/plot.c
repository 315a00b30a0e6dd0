/* `pt2fuzz plot OUT [--out FILE.png]`: a campaign's stats/plot_data drawn
 * as four panels over time: compiler lines covered, libFuzzer features,
 * unique findings by kind, execs per second. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../pipeline/cli.h"
#include "commands.h"
#include "png.h"
#include "raster.h"

#define MAX_COLS 32
#define IMG_W 1200
#define IMG_H 780
#define TITLE_H 44

enum colour { WHITE, BLACK, GRID, BLUE, RED, GREEN, ORANGE, PURPLE, GREY, TEAL, NCOLOURS };
static const uint8_t palette[NCOLOURS][3] = {{255, 255, 255}, {20, 20, 20},  {225, 225, 225}, {31, 119, 180},
					      {214, 39, 40},   {44, 160, 44}, {255, 127, 14},  {148, 103, 189},
					      {110, 110, 110}, {23, 190, 207}};
static const uint8_t series_colours[] = {BLUE, RED, GREEN, ORANGE, PURPLE, TEAL, GREY};

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

/* 1, 2 or 5 times a power of ten, about range / target. */
static double nice_step(double range, int target)
{
	double raw = range / target, mag = pow(10, floor(log10(raw))), f = raw / mag;
	return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

static void number_text(double v, char *out, size_t n)
{
	double a = fabs(v);
	if (a >= 1e6)
		snprintf(out, n, "%.3gm", v / 1e6);
	else if (a >= 1e4)
		snprintf(out, n, "%.4gk", v / 1e3);
	else if (a == floor(a))
		snprintf(out, n, "%.0f", v);
	else
		snprintf(out, n, "%.2g", v);
}

struct panel {
	const char *title;
	int cols[8];
	unsigned ncols;
	int zero_based;  /* counts and rates start at 0; coverage zooms on its range (0 there: not measured yet) */
	int integer;     /* counts: ticks at whole numbers */
};

struct frame {
	int x, y, w, h;         /* the plotting area */
	double x0, x1, y0, y1;  /* the data range it shows */
};

static int px_x(const struct frame *f, double v) { return f->x + (int)lround((v - f->x0) / (f->x1 - f->x0) * f->w); }
static int px_y(const struct frame *f, double v) { return f->y + f->h - (int)lround((v - f->y0) / (f->y1 - f->y0) * f->h); }

static void axes(struct raster *r, struct frame *f, const char *xunit, int integer)
{
	char label[32];
	double xs = nice_step(f->x1 - f->x0, 6), ys = fmax(nice_step(f->y1 - f->y0, 5), integer ? 1 : 0);
	for (double v = ceil(f->y0 / ys) * ys; v <= f->y1 + ys * 1e-9; v += ys) {
		int y = px_y(f, v);
		raster_rect(r, f->x, y, f->x + f->w, y, GRID);
		raster_rect(r, f->x - 5, y, f->x, y, BLACK);
		number_text(v, label, sizeof label);
		raster_text(r, f->x - 8 - raster_text_width(label, 1), y - 4, label, BLACK, 1);
	}
	for (double v = ceil(f->x0 / xs) * xs; v <= f->x1 + xs * 1e-9; v += xs) {
		int x = px_x(f, v);
		raster_rect(r, x, f->y, x, f->y + f->h, GRID);
		raster_rect(r, x, f->y + f->h, x, f->y + f->h + 5, BLACK);
		number_text(v, label, sizeof label);
		raster_text(r, x - raster_text_width(label, 1) / 2, f->y + f->h + 9, label, BLACK, 1);
	}
	raster_rect(r, f->x, f->y + f->h, f->x + f->w, f->y + f->h + 1, BLACK);
	raster_rect(r, f->x - 1, f->y, f->x, f->y + f->h, BLACK);
	raster_text(r, f->x + f->w - raster_text_width(xunit, 1), f->y + f->h + 22, xunit, GREY, 1);
}

static void draw_panel(struct raster *r, int x, int y, int w, int h, const struct table *t, const struct panel *p,
		       double xdiv, const char *xunit)
{
	int ex = column(t, "elapsed_s");
	struct frame f = {x + 78, y + 40, w - 110, h - 86, at(t, 0, ex) / xdiv, at(t, t->nrows - 1, ex) / xdiv, 0, 0};
	double lo = INFINITY, hi = -INFINITY;
	for (unsigned c = 0; c < p->ncols; c++)
		for (size_t i = 0; i < t->nrows; i++)
			if (p->zero_based || at(t, i, p->cols[c]) > 0) {
				lo = fmin(lo, at(t, i, p->cols[c]));
				hi = fmax(hi, at(t, i, p->cols[c]));
			}
	if (p->zero_based || lo == INFINITY)
		lo = 0;
	hi = hi > lo ? hi : lo + 1;
	double step = fmax(nice_step(hi - lo, 5), p->integer ? 1 : 0);
	f.y0 = floor(lo / step) * step;
	f.y1 = ceil(hi / step) * step;
	if (f.x1 <= f.x0)
		f.x1 = f.x0 + 1;
	raster_text(r, x + 78, y + 12, p->title, BLACK, 2);
	axes(r, &f, xunit, p->integer);
	int legend_x = f.x + 10;
	for (unsigned c = 0; c < p->ncols; c++) {
		uint8_t colour = series_colours[c % sizeof series_colours];
		for (size_t i = 1; i < t->nrows; i++)
			if (p->zero_based || at(t, i - 1, p->cols[c]) > 0)
				raster_line(r, px_x(&f, at(t, i - 1, ex) / xdiv), px_y(&f, at(t, i - 1, p->cols[c])),
				    px_x(&f, at(t, i, ex) / xdiv), px_y(&f, at(t, i, p->cols[c])), colour, 2);
		if (p->ncols > 1) { /* a legend along the top of the area */
			raster_rect(r, legend_x, f.y + 6, legend_x + 9, f.y + 13, colour);
			legend_x += 14 + raster_text(r, legend_x + 14, f.y + 6, t->name[p->cols[c]], BLACK, 1) + 16;
		}
	}
}

int cmd_plot(int argc, char **argv)
{
	char *args[2], path[4200], out[4200], head[300], when[64];
	struct stat st;
	struct table t;
	struct raster r;
	if (cli_positionals(argc, argv, NULL, args, 2) != 1) {
		fprintf(stderr, "usage: pt2fuzz plot %s\n", PLOT_USAGE);
		return 2;
	}
	int is_dir = !stat(args[0], &st) && S_ISDIR(st.st_mode);
	snprintf(path, sizeof path, is_dir ? "%.4000s/stats/plot_data" : "%.4000s", args[0]);
	snprintf(out, sizeof out, "%.4000s", cli_opt(argc, argv, "--out") ? cli_opt(argc, argv, "--out") : "");
	if (!out[0])
		snprintf(out, sizeof out, is_dir ? "%.4000s/plot.png" : "%.4000s.png", args[0]);
	if (load(path, &t)) {
		fprintf(stderr, "pt2fuzz plot: %s: no rows of plot_data (a campaign writes them: `pt2fuzz fuzz`)\n", path);
		free(t.v);
		return 1;
	}
	double secs = at(&t, t.nrows - 1, column(&t, "elapsed_s"));
	double xdiv = secs > 3 * 3600 ? 3600 : 60;
	struct panel panels[4] = {{"compiler lines covered", {column(&t, "compiler_lines")}, 1, 0, 1},
				  {"libfuzzer features", {column(&t, "features")}, 1, 0, 1},
				  {"unique findings", {column(&t, "findings")}, 1, 1, 1},
				  {"execs per second", {-1}, 1, 1, 0}};
	/* Findings: the total, then each kind that occurred (columns after "findings"). */
	for (unsigned c = (unsigned)panels[2].cols[0] + 1; panels[2].cols[0] >= 0 && c < t.ncols && panels[2].ncols < 8; c++)
		if (at(&t, t.nrows - 1, (int)c) > 0)
			panels[2].cols[panels[2].ncols++] = (int)c;
	panels[3].cols[0] = add_smoothed_rate(&t); /* after the kinds: it is a column too */
	if (raster_init(&r, IMG_W, IMG_H, WHITE)) {
		free(t.v);
		return 1;
	}
	int last_findings = column(&t, "findings");
	snprintf(when, sizeof when, secs >= 3600 ? "%.1f hours" : "%.1f minutes", secs >= 3600 ? secs / 3600 : secs / 60);
	snprintf(head, sizeof head, "pt2fuzz campaign: %s, %.0f execs, %.0f findings", when,
		 column(&t, "execs") >= 0 ? at(&t, t.nrows - 1, column(&t, "execs")) : 0,
		 last_findings >= 0 ? at(&t, t.nrows - 1, last_findings) : 0);
	raster_text(&r, 20, 14, head, BLACK, 2);
	for (unsigned i = 0; i < 4; i++)
		if (panels[i].cols[0] >= 0)
			draw_panel(&r, (int)(i % 2) * IMG_W / 2, TITLE_H + (int)(i / 2) * (IMG_H - TITLE_H) / 2, IMG_W / 2,
				   (IMG_H - TITLE_H) / 2, &t, &panels[i], xdiv, xdiv == 3600 ? "hours" : "minutes");
	int rc = png_write(out, r.px, IMG_W, IMG_H, palette, NCOLOURS);
	raster_free(&r);
	free(t.v);
	if (rc) {
		fprintf(stderr, "pt2fuzz plot: cannot write %s\n", out);
		return 1;
	}
	printf("%s: %zu points over %s\n", out, t.nrows, when);
	return 0;
}
