#include "runopts.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../harness/protocol.h"
#include "../harness/runtime.h"
#include "cli.h"
#include "graphio.h"
#include "known_bugs.h"

const struct option run_opts_table[] = {
	{"backend", required_argument, NULL, 0},  {"mode", required_argument, NULL, 0},
	{"dynamic", required_argument, NULL, 0},  {"device", required_argument, NULL, 0},
	{"jobs", required_argument, NULL, 0},     {"timeout", required_argument, NULL, 0},
	{"findings", required_argument, NULL, 0}, {"plugin", required_argument, NULL, 0},
	{"modes", required_argument, NULL, 0},    {"inductor", required_argument, NULL, 0},
	{"compile-threads", required_argument, NULL, 0}, {"no-stride-check", no_argument, NULL, 0},
	{"malloc-check", required_argument, NULL, 0}, {"known", required_argument, NULL, 0},
	{"hunt-known", no_argument, NULL, 0},
	{NULL, 0, NULL, 0},
};

static int parse_modes(const char *s, unsigned *modes)
{
	*modes = 0;
	while (*s) {
		size_t l = strcspn(s, ",");
		int found = 0;
		for (unsigned m = 0; m < RM_COUNT; m++)
			if (strlen(run_mode_name(m)) == l && !strncmp(s, run_mode_name(m), l)) {
				*modes |= 1u << m;
				found = 1;
			}
		if (!found)
			return -1;
		s += l + (s[l] == ',');
	}
	return *modes ? 0 : -1;
}

/* --mode: a torch.compile mode, the word backward (pt2fuzz's backward mode),
 * or both, comma separated. */
static int parse_mode(const char *s, struct run_opts *ro)
{
	while (s && *s) {
		size_t l = strcspn(s, ",");
		if (l == strlen("backward") && !strncmp(s, "backward", l))
			ro->check.backward = 1;
		else if (ro->check.compile_mode || l >= sizeof ro->compile_mode)
			return -1;
		else
			ro->check.compile_mode = memcpy(ro->compile_mode, s, l);
		s += l + (s[l] == ',');
	}
	return 0;
}

unsigned compile_threads_for(unsigned jobs, long cores)
{
	if (jobs <= 1)
		return 0;
	return cores > (long)jobs ? (unsigned)(cores / jobs) : 1;
}

int run_opts_parse(const struct cli *c, struct run_opts *ro)
{
	char why[600];
	long long jobs, timeout, threads;
	memset(ro, 0, sizeof *ro);
	executor_default_opts(&ro->exec);
	check_default_cfg(&ro->check);
	if (cli_num(c, "jobs", 1, 1, 256, &jobs) || cli_num(c, "timeout", 120, 1, 86400, &timeout) ||
	    cli_num(c, "compile-threads", compile_threads_for((unsigned)jobs, sysconf(_SC_NPROCESSORS_ONLN)), 0, 256, &threads))
		return -1;
	ro->jobs = (unsigned)jobs;
	ro->exec.timeout_ms = (unsigned)timeout * 1000;
	ro->exec.compile_threads = (unsigned)threads;
	ro->exec.device = cli_opt(c, "device") ? cli_opt(c, "device") : "auto";
	const char *mc = cli_opt(c, "malloc-check");
	if (mc && strcmp(mc, "on") && strcmp(mc, "off")) {
		fprintf(stderr, "%s: --malloc-check %s: expected on or off\n", c->cmd, mc);
		return -1;
	}
	ro->exec.malloc_check = !mc || !strcmp(mc, "on");
	ro->findings = cli_opt(c, "findings") ? cli_opt(c, "findings") : "findings";
	if (cli_opt(c, "backend")) {
		ro->check.backend = cli_opt(c, "backend");
		ro->check.pinned |= PIN_BACKEND;
	}
	if (parse_mode(cli_opt(c, "mode"), ro)) {
		fprintf(stderr, "%s: --mode %s: expected a torch.compile mode, backward, or backward,MODE\n", c->cmd,
			cli_opt(c, "mode"));
		return -1;
	}
	ro->exec.aoti_runner = !strcmp(ro->check.backend, "aoti");
	if (ro->exec.aoti_runner && ro->check.backward) { /* an AOTI package is inference only */
		fprintf(stderr, "%s: --backend aoti runs inference only; it does not take --mode backward\n", c->cmd);
		return -1;
	}
	if (cli_opt(c, "dynamic")) {
		ro->check.dynamic = cli_opt(c, "dynamic");
		ro->check.pinned |= PIN_DYNAMIC;
	}
	ro->check.oracle.check_strides = !cli_flag(c, "no-stride-check");
	ro->check.hunt_known = cli_flag(c, "hunt-known");
	ro->check.oracle.literal_errors = (uint8_t)ro->check.hunt_known;
	const char *modes = cli_opt(c, "modes");
	if (modes && parse_modes(modes, &ro->check.modes)) {
		fprintf(stderr, "%s: --modes %s: expected a list of eager, compiled, fp64, nudged\n", c->cmd, modes);
		return -1;
	}
	const struct option *inductor = cli_option(c, "inductor");
	for (int i = 0; i < c->ngiven; i++)
		if (&c->opts[c->given[i].opt] == inductor) {
			if (ro->check.ninductor == CHECK_MAX_INDUCTOR) {
				fprintf(stderr, "%s: at most %d --inductor settings\n", c->cmd, CHECK_MAX_INDUCTOR);
				return -1;
			}
			ro->check.inductor[ro->check.ninductor++] = c->given[i].value;
		}
	if (strspn(ro->exec.device, "abcdefghijklmnopqrstuvwxyz0123456789:") != strlen(ro->exec.device)) {
		fprintf(stderr, "%s: --device %s: expected auto, cpu, cuda, cuda:N or cuda:auto\n", c->cmd, ro->exec.device);
		return -1;
	}
	if (check_cfg_validate(&ro->check, why, sizeof why)) {
		fprintf(stderr, "%s: %s\n", c->cmd, why);
		return -1;
	}
	const char *plugin = cli_opt(c, "plugin");
	if (plugin) {
		size_t len;
		ro->plugin = (char *)graphio_read_file(plugin, 1 << 20, &len, why, sizeof why);
		if (!ro->plugin) {
			fprintf(stderr, "%s: --plugin: %s\n", c->cmd, why);
			return -1;
		}
		ro->exec.plugin = ro->plugin;
		ro->exec.plugin_len = len;
	}
	/* Through the environment, so that what this command starts (a campaign's
	 * libFuzzer jobs) marks the same bugs; a malformed list stops here. */
	if (cli_opt(c, "known") && setenv("PT2FUZZ_KNOWN_BUGS", cli_opt(c, "known"), 1)) {
		fprintf(stderr, "%s: --known: cannot set PT2FUZZ_KNOWN_BUGS\n", c->cmd);
		return -1;
	}
	if (!known_bugs(why, sizeof why)) {
		fprintf(stderr, "%s: %s\n", c->cmd, why);
		return -1;
	}
	if (runtime_python(ro->python, sizeof ro->python, why, sizeof why)) {
		fprintf(stderr, "%s: %s\n", c->cmd, why);
		return -1;
	}
	ro->exec.python = ro->python;
	return 0;
}
