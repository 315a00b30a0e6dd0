#include "compile.h"
#include <string.h>
#include "settings.h"

static const char *const modes[CM_COUNT] = {"default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"};
static const unsigned mode_effects[CM_COUNT] = {
	[CM_MAX_AUTOTUNE] = EFFECT_SLOW_COMPILE,
	[CM_MAX_AUTOTUNE_NO_CUDAGRAPHS] = EFFECT_SLOW_COMPILE,
};
static const char *const dynamics[CD_COUNT] = {"marks", "true", "false"};
static const char *const backends[CB_COUNT] = {"inductor", "aot_eager", "aot_eager_decomp_partition", "aoti"};
static const unsigned backend_effects[CB_COUNT] = {[CB_AOTI] = EFFECT_SLOW_COMPILE};

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
unsigned compile_mode_effects(unsigned m) { return m < CM_COUNT ? mode_effects[m] : 0; }
unsigned compile_backend_effects(unsigned b) { return b < CB_COUNT ? backend_effects[b] : 0; }
int compile_mode_find(const char *name) { return find(modes, CM_COUNT, name); }
int compile_dynamic_find(const char *name) { return find(dynamics, CD_COUNT, name); }
int compile_backend_find(const char *name) { return find(backends, CB_COUNT, name); }
