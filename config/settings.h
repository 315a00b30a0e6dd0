/* The catalogue of compile settings: torch._inductor.config,
 * torch._dynamo.config and torch._functorch.config entries a graph's
 * configuration may set, one row each, and the pairs that do not combine;
 * and the global modes forward() runs under (mode.*: deterministic
 * algorithms, grad mode, inference-mode inputs, autocast), set by the
 * program around eager, compiled and float64 runs alike; and backward mode
 * (mode.backward), which the harness runs.
 * tests/integration/test_config_catalogue.sh checks the rows against the
 * installed torch (each exists where `since`/`until` say, takes each of its
 * values, and has a default of the row's type). */
#ifndef PT2FUZZ_CONFIG_SETTINGS_H
#define PT2FUZZ_CONFIG_SETTINGS_H
#include <stddef.h>
#include <stdint.h>

/* SET_DICT: a dict of pass names to their options, as Inductor's
 * pre_grad_fusion_options takes one; a value is its names joined by '+'
 * (batch_linear+batch_relu), each with its default options ({}), or none
 * for the empty dict. */
enum setting_type { SET_BOOL, SET_INT, SET_FLOAT, SET_STRING, SET_DICT, SET_TYPE_COUNT };

/* The devices a setting has an effect on (bits). */
enum setting_device { ON_CPU = 1, ON_CUDA = 2, ON_ANY = ON_CPU | ON_CUDA };

enum setting_effect {
	EFFECT_NUMERICS = 1,  /* a legitimate change of numerics against eager (lower precision, fast math) */
	EFFECT_RANDOM = 2,    /* compiled code draws other random numbers than eager */
	EFFECT_NOT_AOTI = 4,  /* no effect on, or not accepted by, torch.export + AOTInductor */
	EFFECT_BACKWARD = 8,  /* the partitioner's: no effect without a backward graph */
	EFFECT_SLOW_COMPILE = 16, /* compiles take longer (autotuning, benchmarking, a C++ build) when set off its
				   * default: the request's time limit grows (graph_config_time_factor) */
};

#define SETTING_MAX_VALUES 6
#define SETTING_PYTHON_MAX 128 /* a value's Python form, its terminating NUL included, at most */

struct setting {
	const char *name;  /* module and attribute: inductor.max_autotune, dynamo.specialize_int, functorch.cse;
			    * or mode.NAME */
	enum setting_type type;
	/* The values a graph may take, as Python reads them (True, 8, 0.5) but
	 * strings unquoted and dicts as their names (SET_DICT); values[0] is the
	 * default of the newest torch known. */
	const char *values[SETTING_MAX_VALUES];
	unsigned devices;  /* enum setting_device */
	const char *since; /* the first torch (MAJOR.MINOR) known to have it (2.11: checked there, not before);
			    * NULL: every supported one */
	const char *until; /* the first torch without it; NULL: still there */
	unsigned effects;  /* enum setting_effect */
	/* The value under which EFFECT_NUMERICS or EFFECT_RANDOM hold (fallback_random's False): a
	 * configuration with the other values runs as pt2fuzz's harness runs anyway */
	const char *effect_at;
	/* How often a configuration draws it against a knob's 1 (0: 1): settings
	 * that pick whole code paths (autotuning, freezing, the C++ wrapper, CUDA
	 * graphs, combo kernels) reach more new compiler code per graph. */
	unsigned weight;
};

/* The setting that turns backward mode on for one graph (graph_config_backward). */
#define GRAPH_CONFIG_BACKWARD "mode.backward"

#define SETTING_ROWS_MAX 128 /* the catalogue's rows at most (a fixed size for per-row state) */
#define SETTING_CODE_PATH 8  /* the weight of a setting that picks a code path */

/* Two settings a configuration does not set together, and why. */
struct setting_clash {
	const char *a, *b;
	const char *why;
};

unsigned setting_count(void);
const struct setting *setting_get(unsigned id); /* NULL when out of range */
int setting_find(const char *name);             /* id, or -1 */
/* The setting's stored identity: XXH32 of its name (codec), and back. */
uint32_t setting_hash(unsigned id);
int setting_by_hash(uint32_t h); /* id, or -1 */
unsigned setting_value_count(const struct setting *s);
/* Its drawing weight: the row's, 1 where it gives none. */
unsigned setting_weight(const struct setting *s);

unsigned setting_clash_count(void);
const struct setting_clash *setting_clash_get(unsigned i);
/* The clash that keeps settings a and b apart, or NULL. */
const struct setting_clash *settings_clash(unsigned a, unsigned b);

const char *setting_type_name(enum setting_type t);
/* "cpu", "cuda" or "any". */
const char *setting_devices_name(unsigned devices);

/* Whether a torch ("2.11.0+cu130"; "" unknown: yes) has the setting. */
int setting_in_torch(const struct setting *s, const char *torch);
/* MAJOR.MINOR of a version as one number (2.11 is 2011), or -1. */
long torch_minor_number(const char *version);

/* Reads text as a value of s's type ("False", "false" and "0" for a bool;
 * decimal integers; decimals; a string or dict of the row's values) and
 * writes its canonical Python form into out (True, 8, 0.5, 'dp',
 * {'batch_linear': {}}). Returns the index of
 * that value among the row's values, SETTING_MAX_VALUES when the type takes it
 * but the row lists it not (an int or float off the list), or -1 after
 * writing the reason into why. */
int setting_parse_value(const struct setting *s, const char *text, char *out, size_t outsz, char *why,
			size_t whysz);
/* Whether s's values are names, not numbers: a string's or a dict's, taken
 * only from the row's list and stored by their text's hash. */
int setting_is_text(const struct setting *s);
/* Value v of s as Python reads it (strings quoted, dicts written out), into out. */
void setting_value_python(const struct setting *s, unsigned v, char *out, size_t outsz);

#endif
