#include "target_options.h"
#include "../mutators/gen.h"
#include "../pipeline/cli.h"
#include <stddef.h>

const struct option target_options[] = {
	{"size", required_argument, NULL, 0},    {"components", required_argument, NULL, 0},
	{"near-invalid", required_argument, NULL, 0},
	{"no-coverage", no_argument, NULL, 0},   {"stats", required_argument, NULL, 0},
	{"replay-cache", required_argument, NULL, 0},
	{"keep-going", no_argument, NULL, 0},    {"learned", required_argument, NULL, 0},
	{"no-configs", no_argument, NULL, 0},    {"serve", no_argument, NULL, 0},
	{"hang-rerun-within", required_argument, NULL, 0}, {"campaign-end-ms", required_argument, NULL, 0},
	{NULL, 0, NULL, 0},
};

int target_numbers_parse(const struct cli *c, struct target_numbers *t)
{
	return cli_num(c, "size", 8, 1, G_MAX_NODES, &t->size) ||
			       cli_num(c, "components", 8, 1, GEN_MAX_COMPONENTS, &t->components) ||
			       cli_num(c, "near-invalid", 10, 0, 100, &t->near_invalid)
		       ? -1
		       : 0;
}
