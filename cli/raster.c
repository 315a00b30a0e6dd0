#include "raster.h"
#include <stdlib.h>
#include <string.h>
#include "font.h"

int raster_init(struct raster *r, int w, int h, uint8_t bg)
{
	r->w = w;
	r->h = h;
	r->px = malloc((size_t)w * (size_t)h);
	if (!r->px)
		return -1;
	memset(r->px, bg, (size_t)w * (size_t)h);
	return 0;
}

void raster_free(struct raster *r)
{
	free(r->px);
	r->px = NULL;
}

void raster_rect(struct raster *r, int x0, int y0, int x1, int y1, uint8_t c)
{
	if (x0 > x1) {
		int t = x0;
		x0 = x1;
		x1 = t;
	}
	if (y0 > y1) {
		int t = y0;
		y0 = y1;
		y1 = t;
	}
	x0 = x0 < 0 ? 0 : x0;
	y0 = y0 < 0 ? 0 : y0;
	x1 = x1 >= r->w ? r->w - 1 : x1;
	y1 = y1 >= r->h ? r->h - 1 : y1;
	for (int y = y0; y <= y1; y++)
		for (int x = x0; x <= x1; x++)
			r->px[(size_t)y * (size_t)r->w + (size_t)x] = c;
}

/* Bresenham's line, each point a thick x thick square. */
void raster_line(struct raster *r, int x0, int y0, int x1, int y1, uint8_t c, int thick)
{
	int dx = abs(x1 - x0), dy = -abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, err = dx + dy;
	int lo = -(thick - 1) / 2, hi = thick / 2;
	for (;;) {
		raster_rect(r, x0 + lo, y0 + lo, x0 + hi, y0 + hi, c);
		if (x0 == x1 && y0 == y1)
			break;
		int e2 = 2 * err;
		if (e2 >= dy) {
			err += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			err += dx;
			y0 += sy;
		}
	}
}

int raster_text_width(const char *s, int scale)
{
	int n = (int)strlen(s);
	return n ? (n * (FONT_W + 1) - 1) * scale : 0;
}

int raster_text(struct raster *r, int x, int y, const char *s, uint8_t c, int scale)
{
	for (int i = 0; s[i]; i++) {
		const char *g = font_glyph(s[i]);
		for (int row = 0; g && row < FONT_H; row++)
			for (int col = 0; col < FONT_W; col++)
				if (g[row * FONT_W + col] == '#') {
					int px = x + (i * (FONT_W + 1) + col) * scale, py = y + row * scale;
					raster_rect(r, px, py, px + scale - 1, py + scale - 1, c);
				}
	}
	return raster_text_width(s, scale);
}
