#include "target_options.h"
#include <stddef.h>

const struct option target_options[] = {
	{"size", required_argument, NULL, 0},    {"components", required_argument, NULL, 0},
	{"near-invalid", required_argument, NULL, 0},
	{"no-coverage", no_argument, NULL, 0},   {"stats", required_argument, NULL, 0},
	{"heartbeat", required_argument, NULL, 0}, {"replay-cache", required_argument, NULL, 0},
	{"keep-going", no_argument, NULL, 0},    {"learned", required_argument, NULL, 0},
	{NULL, 0, NULL, 0},
};
