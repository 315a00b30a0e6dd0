#include "verdict.h"

static const char *const verdict_names[V_COUNT] = {
	[V_PASS] = "pass",       [V_INVALID] = "invalid", [V_BEHAVIOUR] = "behaviour",
	[V_HANG] = "hang",       [V_NUMERIC] = "numeric", [V_STRIDE] = "stride",
	[V_MISSING_ERROR] = "missing-error", [V_NOT_COMPILED] = "not-compiled",
	[V_ERROR_MISMATCH] = "error-mismatch", [V_EXPORT] = "export", [V_MEMORY] = "memory",
	[V_ALIAS] = "alias",
};

static const char *const mismatch_names[MM_COUNT] = {
	[MM_NONE] = "none",   [MM_VALUES] = "values", [MM_NONFINITE] = "nonfinite",
	[MM_SHAPE] = "shape", [MM_DTYPE] = "dtype",   [MM_STRIDE] = "stride",
	[MM_COUNT_OUT] = "count-out", [MM_RAISED] = "raised", [MM_CRASHED] = "crashed",
	[MM_LATER] = "later", [MM_ALIAS] = "alias",
};

static const uint8_t is_finding[V_COUNT] = {
	[V_BEHAVIOUR] = 1, [V_HANG] = 1, [V_NUMERIC] = 1, [V_STRIDE] = 1, [V_MISSING_ERROR] = 1,
	[V_ERROR_MISMATCH] = 1, [V_EXPORT] = 1, [V_MEMORY] = 1,
	[V_ALIAS] = 1,
};

const char *verdict_name(enum verdict_kind k) { return (unsigned)k < V_COUNT ? verdict_names[k] : "?"; }
const char *mismatch_name(enum mismatch m) { return (unsigned)m < MM_COUNT ? mismatch_names[m] : "?"; }
int verdict_is_finding(enum verdict_kind k) { return (unsigned)k < V_COUNT && is_finding[k]; }
/* Export rejecting a program is torch.export's limit, not a miscompilation. */
int verdict_is_compiler_bug(enum verdict_kind k) { return verdict_is_finding(k) && k != V_EXPORT; }
