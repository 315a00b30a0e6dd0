#include "compile.h"
#include <string.h>

static const char *const modes[CM_COUNT] = {"default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"};
static const char *const dynamics[CD_COUNT] = {"marks", "true", "false"};
static const char *const backends[CB_COUNT] = {"inductor", "aot_eager", "aot_eager_decomp_partition"};

static int find(const char *const *names, unsigned count, const char *name)
{
	for (unsigned i = 0; name && i < count; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

const char *compile_mode_name(unsigned m) { return m < CM_COUNT ? modes[m] : "?"; }
const char *compile_dynamic_name(unsigned d) { return d < CD_COUNT ? dynamics[d] : "?"; }
const char *compile_backend_name(unsigned b) { return b < CB_COUNT ? backends[b] : "?"; }
int compile_mode_find(const char *name) { return find(modes, CM_COUNT, name); }
int compile_dynamic_find(const char *name) { return find(dynamics, CD_COUNT, name); }
int compile_backend_find(const char *name) { return find(backends, CB_COUNT, name); }
