/* A palette-indexed drawing surface for the plots: rectangles, lines and
 * text in the built-in font (cli/font.h); written out by cli/png.h. */
#ifndef PT2FUZZ_RASTER_H
#define PT2FUZZ_RASTER_H
#include <stdint.h>

struct raster {
	int w, h;
	uint8_t *px; /* w * h palette indices, row after row */
};

/* A w x h surface filled with colour bg. 0, or -1 when out of memory. */
int raster_init(struct raster *r, int w, int h, uint8_t bg);
void raster_free(struct raster *r);

/* The filled rectangle with corners (x0, y0) and (x1, y1), inclusive; clipped. */
void raster_rect(struct raster *r, int x0, int y0, int x1, int y1, uint8_t c);

/* A line `thick` pixels wide. */
void raster_line(struct raster *r, int x0, int y0, int x1, int y1, uint8_t c, int thick);

/* Text with its top-left corner at (x, y), each font pixel scale x scale;
 * returns its width in pixels. raster_text_width measures without drawing. */
int raster_text(struct raster *r, int x, int y, const char *s, uint8_t c, int scale);
int raster_text_width(const char *s, int scale);

#endif
