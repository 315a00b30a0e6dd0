/* The compile call's own choices a graph's configuration makes beside its
 * settings: torch.compile's mode, dynamic and backend. Stored in the binary
 * form by their numbers (appended only), spelled by their names. */
#ifndef PT2FUZZ_CONFIG_COMPILE_H
#define PT2FUZZ_CONFIG_COMPILE_H

enum compile_mode { CM_DEFAULT, CM_REDUCE_OVERHEAD, CM_MAX_AUTOTUNE, CM_MAX_AUTOTUNE_NO_CUDAGRAPHS, CM_COUNT };
/* marks: torch._dynamo.maybe_mark_dynamic on the graph's dynamic dims; true, false: torch.compile(dynamic=) */
enum compile_dynamic { CD_MARKS, CD_TRUE, CD_FALSE, CD_COUNT };
/* Inductor, AOTAutograd without Inductor (with Inductor's decompositions and partitioner), and
 * AOTInductor: torch.export, an AOTInductor package, libtorch's C++ loader (inference only) */
enum compile_backend { CB_INDUCTOR, CB_AOT_EAGER, CB_AOT_EAGER_DECOMP_PARTITION, CB_AOTI, CB_COUNT };

/* "default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs" */
const char *compile_mode_name(unsigned m);
/* "marks", "true", "false" */
const char *compile_dynamic_name(unsigned d);
/* "inductor", "aot_eager", "aot_eager_decomp_partition", "aoti" */
const char *compile_backend_name(unsigned b);
/* The enum setting_effect bits (config/settings.h) mode m has: EFFECT_SLOW_COMPILE for the autotuning ones. */
unsigned compile_mode_effects(unsigned m);
/* The same of backend b: EFFECT_SLOW_COMPILE for aoti (a C++ build of the whole model). */
unsigned compile_backend_effects(unsigned b);
/* The number of a name, or -1. */
int compile_mode_find(const char *name);
int compile_dynamic_find(const char *name);
int compile_backend_find(const char *name);

#endif
