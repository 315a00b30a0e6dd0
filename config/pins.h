/* A setting pinned on the command line (`--inductor NAME=TEXT`), as the
 * emitted programs write it into their settings. */
#ifndef PT2FUZZ_PINS_H
#define PT2FUZZ_PINS_H
#include <stddef.h>

#define PIN_NAME_MAX 128

/* The pin's full name ("inductor." before a NAME of no module of ours) into
 * name, its Python value into py. A catalogue row types the text (-1 with the
 * reason for text its type cannot take); a setting outside the catalogue is
 * typed by the text alone: True/true and False/false a bool, a decimal a
 * number, anything else a string. -1 with a reason for a pin that is not
 * NAME=TEXT or whose name is not dotted words. */
int pin_python(const char *pin, char *name, size_t namesz, char *py, size_t pysz, char *why, size_t whysz);

#endif
