/* Oracle steps about errors: hangs, crashes, exceptions (docs/oracle.md,
 * precedence steps 1-3), and the near-invalid graphs' error check. */
#include "judge.h"
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "errline.h"
#include "../graph/broken.h"
#include "../harness/protocol.h"

static const struct {
	int sig;
	const char *name;
} signal_names[] = {
	{SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"},
	{SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTRAP, "SIGTRAP"}, {SIGTERM, "SIGTERM"},
};

void oracle_set(struct verdict *v, enum verdict_kind kind, enum mismatch what, int binding, int output, const char *fmt,
		...)
{
	v->kind = kind;
	v->what = what;
	v->binding = binding;
	v->output = output;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->detail, sizeof v->detail, fmt, ap);
	va_end(ap);
}

static const char *mode_name(unsigned m) { return m < RM_COUNT ? run_mode_name(m) : "no known"; }

/* A timeout is the compiler's when compiled mode was running, or when the
 * busy marker is missing but eager had finished that binding and compiled
 * had not. A timeout in eager or fp64 says nothing about the compiler. */
void oracle_judge_hang(const struct run_result *r, struct verdict *v)
{
	unsigned b = r->busy_binding < G_MAX_BIND ? r->busy_binding : 0;
	int compiled = r->busy_mode == RM_COMPILED ||
		       (r->busy_mode >= RM_COUNT && r->m[RM_EAGER][b].ok && !r->m[RM_COMPILED][b].ran);
	if (compiled)
		oracle_set(v, V_HANG, MM_NONE, (int)b, -1, "timed out in compiled mode, binding %u", b);
	else if (r->busy_mode == RM_EAGER)
		oracle_set(v, V_INVALID, MM_NONE, (int)b, -1, "eager hung at binding %u", b);
	else
		oracle_set(v, V_INVALID, MM_NONE, (int)b, -1, "%s hung at binding %u (not compiled mode)",
			   mode_name(r->busy_mode), b);
}

void oracle_judge_crash(const struct run_result *r, struct verdict *v)
{
	unsigned b = r->busy_binding < G_MAX_BIND ? r->busy_binding : 0;
	char how[64];
	if (r->term_signal) {
		const char *name = NULL;
		for (size_t i = 0; i < sizeof signal_names / sizeof signal_names[0]; i++)
			if (signal_names[i].sig == r->term_signal)
				name = signal_names[i].name;
		if (name)
			snprintf(how, sizeof how, "killed by %s", name);
		else
			snprintf(how, sizeof how, "killed by signal %d", r->term_signal);
	} else {
		snprintf(how, sizeof how, "exited with code %d", r->exit_code);
	}
	if (r->busy_mode == RM_COMPILED && r->heap_report[0])
		oracle_set(v, V_MEMORY, MM_CRASHED, (int)b, -1, "memory corrupted in compiled mode, binding %u: %s (worker %s)",
			   b, r->heap_report, how);
	else
		oracle_set(v, r->busy_mode == RM_COMPILED ? V_BEHAVIOUR : V_INVALID, MM_CRASHED, (int)b, -1,
			   "worker %s in %s mode, binding %u%s%s", how, mode_name(r->busy_mode), b,
			   r->heap_report[0] ? ": " : "", r->heap_report);
}

void oracle_judge_later_crash(const struct verdict *later_v, struct verdict *v)
{
	oracle_set(v, V_MEMORY, MM_LATER, -1, -1, "the next program in its worker failed (%s), and not without it",
		   later_v->detail);
}

/* "TYPE: the line carrying the error", for details. */
static void describe_error(const struct mode_result *m, char *out, size_t n)
{
	const char *line;
	size_t len;
	oracle_error_line(m->emsg, &line, &len);
	snprintf(out, n, "%s: %.*s", m->etype, (int)len, line);
}

/* Compiled mode never ran because torch.export rejected the program (--backend aoti). */
static int export_failed(const struct mode_result *c)
{
	return c->ran && !c->ok && !strcmp(c->etype, ORACLE_EXPORT_FAILED);
}

/* Step 3 at binding b: one mode raising and the other not. */
int oracle_judge_behaviour(const struct run_result *r, unsigned b, struct verdict *v)
{
	const struct mode_result *e = &r->m[RM_EAGER][b], *c = &r->m[RM_COMPILED][b];
	char what[sizeof v->detail];
	if (!e->ran)
		return 0;
	describe_error(e->ok ? c : e, what, sizeof what);
	if (!e->ok && (!c->ran || !c->ok))
		oracle_set(v, V_INVALID, MM_RAISED, (int)b, -1, "eager raised %s", what);
	else if (!e->ok)
		oracle_set(v, V_MISSING_ERROR, MM_NONE, (int)b, -1, "eager raised %s; compiled returned", what);
	else if (export_failed(c))
		oracle_set(v, V_EXPORT, MM_RAISED, (int)b, -1, "torch.export raised %s", what);
	else if (c->ran && !c->ok)
		oracle_set(v, V_BEHAVIOUR, MM_RAISED, (int)b, -1, "compiled raised %s", what);
	else
		return 0;
	return 1;
}

/* Whether compiled's exception is an instance of eager's type (what
 * `except EagerType:` would catch): the same type, or one of its bases. */
static int same_error_type(const struct mode_result *e, const struct mode_result *c)
{
	size_t len = strlen(e->etype);
	if (!strcmp(e->etype, c->etype))
		return 1;
	for (const char *p = c->ebases; *p; p += strcspn(p, " "), p += *p == ' ')
		if (strcspn(p, " ") == len && !strncmp(p, e->etype, len))
			return 1;
	return 0;
}

/* Dynamo and Inductor wrap the exception that a kernel or its meta function
 * raises while tracing: TorchRuntimeError's "... got IndexError('...')"
 * (pytorch#158088), BackendCompilerFailed's "raised:\nIndexError: ..."
 * (#184340). Both are known upstream, and they would make every such
 * near-invalid graph a finding of theirs: whether the wrapped exception is
 * of eager's type is what the graph still tells. */
static const struct {
	const char *type, *before; /* the wrapper, and what precedes the wrapped type's name in its message */
} wrappers[] = {
	{"torch._dynamo.exc.TorchRuntimeError", "): got "},
	{"torch._dynamo.exc.BackendCompilerFailed", " raised:\n"},
};

static int wraps_eager_error(const struct mode_result *e, const struct mode_result *c)
{
	const char *dot = strrchr(e->etype, '.'), *name = dot ? dot + 1 : e->etype;
	size_t len = strlen(name);
	for (unsigned i = 0; i < sizeof wrappers / sizeof *wrappers; i++) {
		const char *p = strcmp(c->etype, wrappers[i].type) ? NULL : strstr(c->emsg, wrappers[i].before);
		if (p && (p += strlen(wrappers[i].before), !strncmp(p, name, len)) && (p[len] == '(' || p[len] == ':'))
			return 1;
	}
	return 0;
}

/* An index past its dim (or a negative one) trips a device-side assert in
 * eager's CUDA kernel, or faults it (a launch failure, an illegal address).
 * Triton compiles Inductor's bounds asserts only in debug mode, so compiled
 * mode reads out of range instead: undefined behaviour, whatever it then
 * does (returns, or fails in a later kernel), not an error it owes. */
static const char *const cuda_kernel_faults[] = {
	"device-side assert triggered",
	"unspecified launch failure",
	"an illegal memory access was encountered",
};

static int cuda_device_assert(const struct mode_result *e)
{
	for (unsigned i = 0; i < sizeof cuda_kernel_faults / sizeof *cuda_kernel_faults; i++)
		if (strstr(e->emsg, cuda_kernel_faults[i]))
			return 1;
	return 0;
}

/* Step 3 for a near-invalid graph at binding b: eager must raise, and
 * compiled raise an error of its type (not judged after a device-side assert). */
int oracle_judge_expected_error(const struct run_result *r, unsigned b, unsigned broken, int unwrap, struct verdict *v)
{
	const struct mode_result *e = &r->m[RM_EAGER][b], *c = &r->m[RM_COMPILED][b];
	char ewhat[sizeof v->detail / 2], cwhat[sizeof v->detail / 2];
	const char *name = constraint_name(broken);
	if (!e->ran)
		return 0;
	if (e->ok) {
		oracle_set(v, V_INVALID, MM_NONE, (int)b, -1,
			   "eager did not raise at binding %u: the %s breaker did not break it", b, name ? name : "?");
		return 1;
	}
	if (cuda_device_assert(e))
		return 0;
	describe_error(e, ewhat, sizeof ewhat);
	if (c->ran && c->ok)
		oracle_set(v, V_MISSING_ERROR, MM_NONE, (int)b, -1, "eager raised %s (%s broken); compiled returned",
			   ewhat, name ? name : "?");
	else if (c->ran && !same_error_type(e, c) && !(unwrap && wraps_eager_error(e, c)) &&
		 !export_failed(c)) { /* export may reject it as it likes */
		describe_error(c, cwhat, sizeof cwhat);
		oracle_set(v, V_ERROR_MISMATCH, MM_RAISED, (int)b, -1, "eager raised %s; compiled raised %s", ewhat,
			   cwhat);
	} else
		return 0;
	return 1;
}

