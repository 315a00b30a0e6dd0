/* bench/validity: the share of generated graphs that eager PyTorch runs
 * without error, overall and by op family, and whether the shapes and dtypes
 * it computes agree with the catalogue's shape rules at every binding.
 *
 *   build/bench/validity [--seed S] [--count N] [--size M] [--family F]
 *                        [--dynamic PCT] [--min-rate R] [--failures K] [--mutate N]
 *                        [--break CONSTRAINT] [--mode NAME]
 *
 * --break C makes every graph near-invalid, breaking constraint C
 * (graph/broken.h): then a graph counts when eager raises at its broken node
 * at every binding (the breaker really breaks what it says), and the rate
 * and --min-rate are of those. Values of data-dependent shape (nonzero,
 * unique, ...) are checked for their dtype only.
 *
 * --mode NAME runs every graph under the global mode mode.NAME (a row of the
 * settings' catalogue: deterministic_algorithms, enable_grad,
 * inference_inputs, autocast_bfloat16, autocast_float16). Under autocast a
 * value's dtype is autocast's choice, so only its shape is checked, and the
 * graphs are drawn for the mode (graph/autocast.h: what it makes invalid is
 * left out).
 *
 * --mutate N applies N structure-aware mutations to each generated graph (a
 * second generated graph is the crossover partner) before it is emitted: the
 * mutators' results must be as valid as the generator's.
 *
 * Each graph is emitted with every value returned, run by bench/validity.py
 * in the torch runtime (build/runtime.env) on CPU, and judged here. A graph
 * counts as valid when every binding runs and every value's dtype and shape
 * match what the shape rules inferred. Exit 1 when the rate is below
 * --min-rate (default 0: only print).
 *
 * Appends a row to bench/results/validity.tsv (bench/record: commit, machine,
 * torch, then seed, count, size, dynamic, family, break, mode, mutate,
 * graphs, valid, rate, mismatches; family "all", break and mode "none" when
 * not given; with --break, valid counts the graphs that raised at their
 * broken node). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../config/settings.h"
#include "../graph/autocast.h"
#include "../graph/broken.h"
#include "../graph/compile_config.h"
#include "../graph/emit.h"
#include "../graph/op.h"
#include "../harness/runtime.h"
#include "../harness/spawn.h"
#include "../mutators/gen.h"
#include "../mutators/mutate.h"

#define MAX_FAIL_OPS 1024 /* node.op is below registry.c's MAX_OPS */

struct op_stat {
	unsigned fails;
	char first[400];
};

static struct op_stat op_stats[MAX_FAIL_OPS];
static unsigned fam_total[FAM_COUNT], fam_valid[FAM_COUNT];
static unsigned unattributed;
static char first_unattributed[400];

static const char *arg(int argc, char **argv, const char *name, const char *dflt)
{
	for (int i = 1; i < argc - 1; i++)
		if (!strcmp(argv[i], name))
			return argv[i + 1];
	return dflt;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = malloc(1 << 20);
	*len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	if (buf)
		buf[*len] = 0;
	return buf;
}

/* The node that a failing line of forward()/__init__ belongs to: "vN = ..."
 * names an output value, "self.mN = ..." a module built for node N. */
static int node_of_line(const struct graph *g, const char *line)
{
	unsigned id;
	if (sscanf(line, "self.m%u =", &id) == 1)
		return id < g->nnodes ? (int)id : -1;
	if (sscanf(line, "v%u", &id) == 1 && id < g->nvalues && g->v[id].kind == VK_NODE)
		return g->v[id].node;
	return -1;
}

static void blame(const struct graph *g, int node, const char *msg)
{
	if (node < 0) {
		if (!unattributed++)
			snprintf(first_unattributed, sizeof first_unattributed, "%s", msg);
		return;
	}
	unsigned op = g->n[node].op;
	if (op < MAX_FAIL_OPS && !op_stats[op].fails++)
		snprintf(op_stats[op].first, sizeof op_stats[op].first, "%s", msg);
}

/* The value an alias of bench/validity.py names: "iN" forward input N,
 * "sNAME" module state (pK, bK: value K), "oK" the K-th node value; -1 for none. */
static int alias_value(const struct graph *g, const char *a)
{
	unsigned k, seen = 0;
	char kind;
	if (sscanf(a, "i%u", &k) == 1 || sscanf(a, "o%u", &k) == 1) {
		int input = a[0] == 'i';
		for (unsigned i = 0; i < g->nvalues; i++)
			if ((input ? g->v[i].kind == VK_INPUT : g->v[i].kind == VK_NODE) && seen++ == k)
				return (int)i;
	} else if (sscanf(a, "s%c%u", &kind, &k) == 2 && k < g->nvalues) {
		return (int)k;
	}
	return -1;
}

/* The memory facts the IR must know of value id: what torch says it shares
 * memory with must have its root, and elements that overlap must be marked
 * (an in-place write to them raises). 0, or -1 with msg. */
static int memory_agrees(const struct graph *g, unsigned id, unsigned b, const char *alias, int overlap, char *msg,
			 size_t n)
{
	int a = strcmp(alias, "-") ? alias_value(g, alias) : -1;
	if (strcmp(alias, "-") && (a < 0 || g->v[a].root != g->v[id].root)) {
		snprintf(msg, n, "alias rule: v%u at binding %u shares memory with %s in torch, not in the IR", id, b,
			 alias);
		return -1;
	}
	if (overlap && !g->v[id].overlap) {
		snprintf(msg, n, "overlap rule: v%u at binding %u has elements sharing memory in torch, not in the IR", id, b);
		return -1;
	}
	return 0;
}

/* Compares "dtype:AxB@alias@overlap,..." per binding with the graph's values
 * (every node value is an output, in value order). Returns the first node
 * whose output disagrees, -1 when all agree; msg says how. */
static int first_mismatch(const struct graph *g, char *reply, char *msg, size_t n)
{
	char *save_b = NULL;
	char *bind = strtok_r(reply, ";", &save_b);
	int autocast = graph_config_autocast(&g->config);
	for (unsigned b = 0; b < g->nbind; b++, bind = strtok_r(NULL, ";", &save_b)) {
		char *save_o = NULL, *item = bind ? strtok_r(bind, ",", &save_o) : NULL;
		for (unsigned i = 0; i < g->nvalues; i++) {
			const struct value *v = &g->v[i];
			if (v->kind != VK_NODE)
				continue;
			char want[200];
			int k = snprintf(want, sizeof want, "%s:", dtype_info(v->dtype)->name);
			for (unsigned d = 0; d < v->rank; d++)
				k += snprintf(want + k, sizeof want - (size_t)k, "%s%d", d ? "x" : "", (int)v->dim[b][d]);
			char *alias = item ? strchr(item, '@') : NULL, *overlap = alias ? strchr(alias + 1, '@') : NULL;
			if (overlap)
				*alias++ = 0, *overlap++ = 0;
			/* a data-dependent shape is only bounded by the IR's: its dtype must agree */
			size_t cmp = v->datadep ? strcspn(want, ":") + 1 : strlen(want) + 1;
			/* under autocast, the shape alone: after the dtype */
			size_t from = autocast && item ? strcspn(want, ":") : 0, item_from = from ? strcspn(item, ":") : 0;
			if (!item || !overlap || strncmp(item + item_from, want + from, cmp - from)) {
				snprintf(msg, n, "shape rule: v%u at binding %u is %s in torch, %s inferred", i, b,
					 item ? item : "(missing)", want);
				return v->node;
			}
			if (memory_agrees(g, i, b, alias, *overlap == '1', msg, n))
				return v->node;
			item = strtok_r(NULL, ",", &save_o);
		}
	}
	return -1;
}

/* Error types seen at broken nodes, for the summary. */
static struct {
	char type[64];
	unsigned n;
} raised[8];

static unsigned broken_ops[MAX_FAIL_OPS]; /* graphs whose broken node is each op */

static void count_raised(const char *err)
{
	char type[64];
	snprintf(type, sizeof type, "%.*s", (int)strcspn(err, ":"), err);
	for (unsigned i = 0; i < sizeof raised / sizeof raised[0]; i++)
		if (!raised[i].n || !strcmp(raised[i].type, type)) {
			snprintf(raised[i].type, sizeof raised[i].type, "%s", type);
			raised[i].n++;
			return;
		}
}

/* A reply for a near-invalid graph: 1 when eager raised at its broken node
 * at every binding, else 0 with the broken node (or the node that raised
 * instead) blamed. */
/* Runs bench/record validity FIELD=VALUE...: 0 when it appended the row. */
static int record(char fields[][96], unsigned n)
{
	char *argv[24] = {PT2FUZZ_ROOT "/bench/record", "validity"};
	for (unsigned i = 0; i < n && i + 3 < sizeof argv / sizeof argv[0]; i++)
		argv[i + 2] = fields[i];
	fflush(stdout); /* the recorder's line after the figures */
	struct spawn_opts o = SPAWN_OPTS;
	o.argv = argv;
	char why[200];
	int status;
	pid_t pid = spawn(&o, why, sizeof why);
	if (pid < 0) {
		fprintf(stderr, "validity: %s\n", why);
		return -1;
	}
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int judge_broken(const struct graph *g, char *line)
{
	char msg[400];
	int last = g->nnodes - 1;
	if (g->n[last].op < MAX_FAIL_OPS)
		broken_ops[g->n[last].op]++;
	if (!strncmp(line, "ran\t", 4)) {
		snprintf(msg, sizeof msg, "eager did not raise at binding %.8s", line + 4);
		blame(g, last, msg);
		return 0;
	}
	char *where = strchr(line, '\t') ? strchr(line, '\t') + 1 : line, *err = strchr(where, '\t');
	if (err)
		*err++ = 0;
	int node = strncmp(line, "err\t", 4) ? last : node_of_line(g, where);
	if (node == last && err) {
		count_raised(err);
		return 1;
	}
	(void)!snprintf(msg, sizeof msg, "%.200s  [at: %.150s]", err ? err : "eager raised nothing", where);
	blame(g, node, msg);
	return 0;
}

int main(int argc, char **argv)
{
	struct gen_opts o;
	gen_default_opts(&o);
	unsigned long seed = strtoul(arg(argc, argv, "--seed", "1"), NULL, 0);
	unsigned count = (unsigned)strtoul(arg(argc, argv, "--count", "1000"), NULL, 0);
	o.size = (unsigned)strtoul(arg(argc, argv, "--size", "8"), NULL, 0);
	o.dyn_pct = (unsigned)strtoul(arg(argc, argv, "--dynamic", "40"), NULL, 0);
	/* It runs on the CPU: CPU-only ops included unless told otherwise. */
	int target = target_find(arg(argc, argv, "--target", "cpu"));
	if (target < 0) {
		fprintf(stderr, "validity: --target must be any, cpu or gpu\n");
		return 2;
	}
	o.target = (unsigned)target;
	double min_rate = strtod(arg(argc, argv, "--min-rate", "0"), NULL);
	unsigned show = (unsigned)strtoul(arg(argc, argv, "--failures", "40"), NULL, 0);
	unsigned mutations = (unsigned)strtoul(arg(argc, argv, "--mutate", "0"), NULL, 0);
	const char *fam = arg(argc, argv, "--family", NULL), *brk = arg(argc, argv, "--break", NULL);
	if (brk && constraint_find(brk) < 0) {
		fprintf(stderr, "validity: unknown constraint %s\n", brk);
		return 2;
	}
	const char *mode = arg(argc, argv, "--mode", NULL);
	char mode_name[64];
	snprintf(mode_name, sizeof mode_name, "mode.%s", mode ? mode : "");
	int mode_id = mode ? setting_find(mode_name) : -1;
	if (mode && mode_id < 0) {
		fprintf(stderr, "validity: unknown global mode %s (pt2fuzz configs lists the mode.* rows)\n", mode);
		return 2;
	}
	o.autocast = mode_id >= 0 ? autocast_row_of_setting((unsigned)mode_id) : -1; /* drawn to run under it */
	o.break_pct = brk ? 100 : 0;
	o.constraint = brk ? (unsigned)constraint_find(brk) : C_NONE;
	if (fam) {
		for (o.family = 0; o.family < FAM_COUNT && strcmp(fam, op_family_name(o.family)); o.family++)
			;
		if (o.family == FAM_COUNT) {
			fprintf(stderr, "validity: unknown family %s\n", fam);
			return 2;
		}
	}
	char why[400], py[4096];
	if (runtime_python(py, sizeof py, why, sizeof why)) {
		fprintf(stderr, "validity: %s\n", why);
		return 2;
	}
	/* All programs go to a temporary file first: no pipe deadlock. */
	FILE *progs = tmpfile();
	size_t slen;
	char *script = slurp(PT2FUZZ_ROOT "/bench/validity.py", &slen);
	if (!progs || !script || runtime_write_frame(fileno(progs), script, slen)) {
		fprintf(stderr, "validity: cannot stage programs (bench/validity.py missing?)\n");
		return 2;
	}
	static struct graph gs[1], partner;
	struct mutate_stats st;
	memset(&st, 0, sizeof st);
	struct graph *all = calloc(count, sizeof *all);
	unsigned made = 0;
	for (unsigned i = 0; i < count; i++) {
		uint64_t gseed = seed * 0x100000001b3ull + i;
		if (gen_graph(&all[made], gseed, &o, why, sizeof why))
			continue;
		if (mutations && gen_graph(&partner, ~gseed, &o, why, sizeof why))
			partner = all[made];
		struct rng r;
		rng_seed(&r, gseed);
		for (unsigned k = 0; k < mutations; k++)
			mutate_graph(&all[made], &partner, &r, 16, &st);
		struct graph_config c = all[made].config;
		if (mode_id >= 0 && graph_config_put(&c, (unsigned)mode_id, 1))
			snprintf(why, sizeof why, "its configuration is full");
		if (mode_id >= 0 && (c.nsettings == all[made].config.nsettings ||
				     graph_set_config(&all[made], &c, why, sizeof why))) {
			fprintf(stderr, "validity: graph %u cannot take %s: %s\n", i, mode_name, why);
			return 2;
		}
		gs[0] = all[made];
		for (unsigned v = 0; v < gs[0].nvalues; v++)
			gs[0].v[v].out = gs[0].v[v].kind == VK_NODE;
		size_t len;
		char *prog = emit_program_string(&gs[0], NULL, &len);
		if (!prog || runtime_write_frame(fileno(progs), prog, len)) {
			fprintf(stderr, "validity: emission failed for graph %u\n", i);
			return 2;
		}
		free(prog);
		made++;
	}
	fflush(progs);
	lseek(fileno(progs), 0, SEEK_SET);
	int out[2];
	if (pipe(out)) {
		perror("pipe");
		return 2;
	}
	pid_t pid = runtime_spawn(py, fileno(progs), out[1], -1, -1, NULL, why, sizeof why);
	if (pid < 0) {
		fprintf(stderr, "validity: %s\n", why);
		return 2;
	}
	close(out[1]);
	FILE *rd = fdopen(out[0], "r");
	static char line[1 << 16];
	unsigned valid = 0, done = 0, mismatches = 0;
	while (done < made && fgets(line, sizeof line, rd)) {
		const struct graph *g = &all[done++];
		line[strcspn(line, "\n")] = 0;
		int ok = 0;
		char msg[400];
		if (brk) {
			ok = judge_broken(g, line);
		} else if (!strncmp(line, "ok\t", 3)) {
			int node = first_mismatch(g, line + 3, msg, sizeof msg);
			ok = node < 0;
			if (!ok) {
				mismatches++;
				blame(g, node, msg);
			}
		} else {
			char *where = strchr(line, '\t') ? strchr(line, '\t') + 1 : line;
			char *err = strchr(where, '\t');
			if (err)
				*err++ = 0;
			(void)!snprintf(msg, sizeof msg, "%.200s  [at: %.150s]", err ? err : where, where);
			blame(g, node_of_line(g, where), msg);
		}
		valid += ok;
		unsigned seen[FAM_COUNT] = {0};
		for (unsigned k = 0; k < g->nnodes; k++)
			seen[op_get(g->n[k].op)->family] = 1;
		for (unsigned f = 0; f < FAM_COUNT; f++) {
			fam_total[f] += seen[f];
			fam_valid[f] += seen[f] && ok;
		}
	}
	fclose(rd);
	int status;
	waitpid(pid, &status, 0);
	if (done < made) {
		fprintf(stderr, "validity: the runner stopped after %u of %u programs (status %d)\n", done, made, status);
		return 2;
	}
	double rate = made ? (double)valid / made : 0;
	if (brk) {
		printf("break %s: %u of %u graphs raise in eager mode at the broken node = %.2f%% (seed %lu, size %u, "
		       "dynamic %u%%)\nraised:", brk, valid, made, 100 * rate, seed, o.size, o.dyn_pct);
		for (unsigned i = 0; i < sizeof raised / sizeof raised[0] && raised[i].n; i++)
			printf(" %s %u", raised[i].type, raised[i].n);
		printf("\nbroken ops:");
		for (unsigned op = 0; op < op_count() && op < MAX_FAIL_OPS; op++)
			if (broken_ops[op])
				printf(" %s %u", op_get(op)->name, broken_ops[op]);
		printf("\n");
	} else {
		printf("validity: %u of %u graphs valid in eager mode = %.2f%% (seed %lu, size %u, dynamic %u%%)\n", valid,
		       made, 100 * rate, seed, o.size, o.dyn_pct);
	}
	printf("shape-rule mismatches: %u\n", mismatches);
	if (mutations) {
		printf("mutations: %u per graph;", mutations);
		for (unsigned k = 0; k < mutator_count(); k++)
			printf(" %s %llu/%llu", mutator_name(k), (unsigned long long)st.valid[k],
			       (unsigned long long)st.tried[k]);
		printf("\n");
	}
	printf("%-12s %7s %7s %8s\n", "family", "graphs", "valid", "rate");
	for (unsigned f = 0; f < FAM_COUNT; f++)
		if (fam_total[f])
			printf("%-12s %7u %7u %7.2f%%\n", op_family_name(f), fam_total[f], fam_valid[f],
			       100.0 * fam_valid[f] / fam_total[f]);
	unsigned shown = 0;
	for (unsigned op = 0; op < op_count() && op < MAX_FAIL_OPS; op++)
		if (op_stats[op].fails && shown++ < show)
			printf("failing op %-22s %4u  e.g. %s\n", op_get(op)->name, op_stats[op].fails, op_stats[op].first);
	if (unattributed)
		printf("failing (unattributed) %4u  e.g. %s\n", unattributed, first_unattributed);
	free(all);
	free(script);
	char fields[12][96];
	unsigned nf = 0;
	snprintf(fields[nf++], sizeof fields[0], "seed=%lu", seed);
	snprintf(fields[nf++], sizeof fields[0], "count=%u", count);
	snprintf(fields[nf++], sizeof fields[0], "size=%u", o.size);
	snprintf(fields[nf++], sizeof fields[0], "dynamic=%u", o.dyn_pct);
	snprintf(fields[nf++], sizeof fields[0], "family=%.80s", fam ? fam : "all");
	snprintf(fields[nf++], sizeof fields[0], "break=%.80s", brk ? brk : "none");
	snprintf(fields[nf++], sizeof fields[0], "mode=%.80s", mode ? mode : "none");
	snprintf(fields[nf++], sizeof fields[0], "mutate=%u", mutations);
	snprintf(fields[nf++], sizeof fields[0], "graphs=%u", made);
	snprintf(fields[nf++], sizeof fields[0], "valid=%u", valid);
	snprintf(fields[nf++], sizeof fields[0], "rate=%.4f", rate);
	snprintf(fields[nf++], sizeof fields[0], "mismatches=%u", mismatches);
	if (record(fields, nf)) {
		fprintf(stderr, "validity: bench/record appended no row\n");
		return 2;
	}
	return rate < min_rate ? 1 : 0;
}
