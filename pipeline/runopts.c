#include "runopts.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../harness/runtime.h"
#include "cli.h"
#include "graphio.h"

const char *const run_opts_flags[] = {"--no-stride-check", "--no-coverage", NULL};

static int parse_modes(const char *s, unsigned *modes)
{
	static const char *const names[RM_COUNT] = {"eager", "compiled", "fp64"};
	*modes = 0;
	while (*s) {
		size_t l = strcspn(s, ",");
		int found = 0;
		for (unsigned m = 0; m < RM_COUNT; m++)
			if (strlen(names[m]) == l && !strncmp(s, names[m], l)) {
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

int run_opts_parse(int argc, char **argv, struct run_opts *ro)
{
	char why[600];
	long long jobs, timeout, threads;
	memset(ro, 0, sizeof *ro);
	executor_default_opts(&ro->exec);
	check_default_cfg(&ro->check);
	if (cli_num(argc, argv, "--jobs", 1, 1, 256, &jobs) || cli_num(argc, argv, "--timeout", 120, 1, 86400, &timeout) ||
	    cli_num(argc, argv, "--compile-threads", jobs > 1 ? 1 : 0, 0, 256, &threads))
		return -1;
	ro->jobs = (unsigned)jobs;
	ro->exec.timeout_ms = (unsigned)timeout * 1000;
	ro->exec.compile_threads = (unsigned)threads;
	ro->exec.device = cli_opt(argc, argv, "--device") ? cli_opt(argc, argv, "--device") : "auto";
	const char *mc = cli_opt(argc, argv, "--malloc-check");
	if (mc && strcmp(mc, "on") && strcmp(mc, "off")) {
		fprintf(stderr, "pt2fuzz: --malloc-check %s: expected on or off\n", mc);
		return -1;
	}
	ro->exec.malloc_check = !mc || !strcmp(mc, "on");
	ro->exec.lender = getenv("PT2FUZZ_LENDER"); /* set by a campaign for what it starts (fuzz/lender.h) */
	ro->findings = cli_opt(argc, argv, "--findings") ? cli_opt(argc, argv, "--findings") : "findings";
	if (cli_opt(argc, argv, "--backend"))
		ro->check.backend = cli_opt(argc, argv, "--backend");
	if (parse_mode(cli_opt(argc, argv, "--mode"), ro)) {
		fprintf(stderr, "pt2fuzz: --mode %s: expected a torch.compile mode, backward, or backward,MODE\n",
			cli_opt(argc, argv, "--mode"));
		return -1;
	}
	ro->exec.aoti_runner = !strcmp(ro->check.backend, "aoti");
	if (ro->exec.aoti_runner && ro->check.backward) { /* an AOTI package is inference only */
		fprintf(stderr, "pt2fuzz: --backend aoti runs inference only; it does not take --mode backward\n");
		return -1;
	}
	if (cli_opt(argc, argv, "--dynamic"))
		ro->check.dynamic = cli_opt(argc, argv, "--dynamic");
	ro->check.oracle.check_strides = !cli_flag(argc, argv, "--no-stride-check");
	const char *modes = cli_opt(argc, argv, "--modes");
	if (modes && parse_modes(modes, &ro->check.modes)) {
		fprintf(stderr, "pt2fuzz: --modes %s: expected a list of eager, compiled, fp64\n", modes);
		return -1;
	}
	for (int i = 0; i < argc - 1; i++)
		if (!strcmp(argv[i], "--inductor")) {
			if (ro->check.ninductor == CHECK_MAX_INDUCTOR) {
				fprintf(stderr, "pt2fuzz: at most %d --inductor settings\n", CHECK_MAX_INDUCTOR);
				return -1;
			}
			ro->check.inductor[ro->check.ninductor++] = argv[++i];
		}
	if (strspn(ro->exec.device, "abcdefghijklmnopqrstuvwxyz0123456789:") != strlen(ro->exec.device)) {
		fprintf(stderr, "pt2fuzz: --device %s: expected auto, cpu, cuda, cuda:N or cuda:auto\n", ro->exec.device);
		return -1;
	}
	if (check_cfg_validate(&ro->check, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz: %s\n", why);
		return -1;
	}
	const char *plugin = cli_opt(argc, argv, "--plugin");
	if (plugin) {
		size_t len;
		ro->plugin = (char *)graphio_read_file(plugin, 1 << 20, &len, why, sizeof why);
		if (!ro->plugin) {
			fprintf(stderr, "pt2fuzz: --plugin: %s\n", why);
			return -1;
		}
		ro->exec.plugin = ro->plugin;
		ro->exec.plugin_len = len;
	}
	if (runtime_python(ro->python, sizeof ro->python, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz: %s\n", why);
		return -1;
	}
	ro->exec.python = ro->python;
	return 0;
}
