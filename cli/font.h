/* The plots' bitmap font (cli/font.c). */
#ifndef PT2FUZZ_FONT_H
#define PT2FUZZ_FONT_H

#define FONT_W 5
#define FONT_H 8

/* c's glyph: FONT_H rows of FONT_W characters, '#' for a set pixel; NULL
 * for a character the font lacks. */
const char *font_glyph(char c);

#endif
