/* `pt2fuzz opdb [--list mapped|excluded|unmapped|all]`: the catalogue
 * measured against PyTorch's operator database (op_db) on the installed
 * torch. cli/opdb.py maps each op_db name to the catalogue rows that call it;
 * this file applies the reviewed exclusions (cli/opdb_exclusions.c), prints
 * the figure, and fails when an exclusion names no op_db entry or one the
 * catalogue maps (a stale or contradicted reason). With --dtypes it checks
 * instead each mapped row's dtype and device claims against its entries'
 * OpInfos, and fails on a dtype a row generates that no OpInfo supports on a
 * device the row runs on, unless a reviewed allowance
 * (cli/opdb_dtype_allowances.c) says eager accepts it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../graph/op.h"
#include "../pipeline/cli.h"
#include "commands.h"
#include "opdb_dtype_allowances.h"
#include "opdb_exclusions.h"
#include "../harness/runtime.h"
#include "python_script.h"

#define OPDB_NO_TORCH_TESTS 3 /* cli/opdb.py's exit status when op_db does not import */
#define MAX_MAP (8u << 20)

enum list { LIST_NONE, LIST_MAPPED, LIST_EXCLUDED, LIST_UNMAPPED, LIST_ALL };
static const char *const list_names[] = {"", "mapped", "excluded", "unmapped", "all"};

static void print_dtypes(FILE *f, unsigned mask)
{
	const char *sep = "";
	for (unsigned d = 0; d < DT_COUNT; d++)
		if (mask & DTM(d)) {
			fprintf(f, "%s%s", sep, dtype_info(d)->name);
			sep = ",";
		}
}

/* The catalogue as cli/opdb.py reads it: `name TAB py TAB ctor TAB cpu TAB
 * cuda` per row, the last two input 0's dtypes on that device (`-` where the
 * row does not run). */
static char *catalogue_rows(size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (!f)
		return NULL;
	for (unsigned i = 0; i < op_count(); i++) {
		const struct op_def *op = op_get(i);
		fprintf(f, "%s\t%s\t%s\t", op->name, op->py ? op->py : "", op->ctor ? op->ctor : "");
		print_dtypes(f, op_dtypes(op, TARGET_CPU));
		fputc('\t', f);
		if (op->cpu_only)
			fputc('-', f);
		else
			print_dtypes(f, op_dtypes(op, TARGET_GPU));
		fputc('\n', f);
	}
	return fclose(f) ? (free(buf), NULL) : buf;
}

struct tally {
	unsigned entries, mapped, excluded, unmapped, bad;
	unsigned unsupported, allowed, unclaimed, unchecked; /* --dtypes: lines of each kind */
	const char *torch;
	unsigned char *used; /* per exclusion: it matched an entry (else it is stale) */
	uint16_t *allowed_used; /* per dtype allowance: the dtypes it allowed (else it is stale) */
};

/* One line of cli/opdb.py's `#dtype TAB row TAB entries TAB device TAB kind
 * TAB dtypes`, printed without the `#dtype` and with a verdict: `wrong`, or
 * `allowed: REASON` for the claims-unsupported dtypes an allowance covers
 * (two lines when it covers some), `-` for unclaimed ones; an unchecked row
 * with why. */
static void dtype_line(struct tally *t, char *line)
{
	char *f[6], *save = NULL;
	unsigned n = 0;
	for (char *p = strtok_r(line, "\t", &save); p && n < 6; p = strtok_r(NULL, "\t", &save))
		f[n++] = p;
	if (n != 6) {
		fprintf(stderr, "pt2fuzz opdb: a malformed dtype line from cli/opdb.py\n");
		t->bad++;
		return;
	}
	const char *row = f[1], *entries = f[2], *device = f[3], *kind = f[4];
	unsigned mask = 0;
	for (char *p = strtok_r(f[5], ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		int d = dtype_from_name(p);
		mask |= d < 0 ? 0 : DTM(d);
	}
	if (!strcmp(kind, "unchecked")) {
		t->unchecked++;
		printf("%s\t%s\t-\tunchecked\t-\tthe op does not take input 0 itself (a factory, a conversion)\n", row,
		       entries);
		return;
	}
	if (strcmp(kind, "claims-unsupported")) {
		t->unclaimed++;
		printf("%s\t%s\t%s\t%s\t", row, entries, device, kind);
		print_dtypes(stdout, mask);
		printf("\t-\n");
		return;
	}
	const struct opdb_dtype_allowance *a = opdb_dtype_allowed(row, device);
	unsigned ok = a ? mask & a->dtypes : 0, wrong = mask & ~ok;
	if (ok) {
		t->allowed_used[a - opdb_dtype_allowances] |= (uint16_t)ok;
		t->allowed++;
		printf("%s\t%s\t%s\t%s\t", row, entries, device, kind);
		print_dtypes(stdout, ok);
		printf("\tallowed: %s\n", a->reason);
	}
	if (wrong) {
		t->unsupported++;
		printf("%s\t%s\t%s\t%s\t", row, entries, device, kind);
		print_dtypes(stdout, wrong);
		printf("\twrong\n");
	}
}

/* One op_db line `name TAB rows`: counted, and printed when listed. */
static void tally_line(struct tally *t, char *line, enum list list)
{
	char *tab = strchr(line, '\t');
	if (!tab)
		return;
	*tab = 0;
	const char *name = line, *rows = tab + 1;
	const struct opdb_exclusion *ex = opdb_excluded(name);
	t->entries++;
	if (ex)
		t->used[ex - opdb_exclusions] = 1;
	if (*rows && ex) {
		fprintf(stderr, "pt2fuzz opdb: %s is excluded (%s) yet the catalogue maps it: %s\n", name, ex->reason, rows);
		t->bad++;
	}
	if (*rows) {
		t->mapped++;
		if (list == LIST_MAPPED || list == LIST_ALL)
			printf("%s\tmapped\t%s\n", name, rows);
	} else if (ex) {
		t->excluded++;
		if (list == LIST_EXCLUDED || list == LIST_ALL)
			printf("%s\texcluded\t%s\n", name, ex->reason);
	} else {
		t->unmapped++;
		if (list == LIST_UNMAPPED || list == LIST_ALL)
			printf("%s\tunmapped\t-\n", name);
	}
}

/* --dtypes: stale allowances (allowing a dtype no longer in dispute), the
 * figure, and the exit status. */
static int dtype_summary(struct tally *t, char *out)
{
	for (unsigned i = 0; i < opdb_dtype_allowance_count && t->entries; i++) {
		const struct opdb_dtype_allowance *a = &opdb_dtype_allowances[i];
		if (t->allowed_used[i] != a->dtypes) {
			fprintf(stderr, "pt2fuzz opdb: the dtype allowance of %s on %s allows ", a->row,
				a->device ? a->device : "every device");
			print_dtypes(stderr, a->dtypes & ~t->allowed_used[i]);
			fprintf(stderr, ", which its OpInfos support or it does not claim\n");
			t->bad++;
		}
	}
	if (!t->entries) {
		fprintf(stderr, "pt2fuzz opdb: op_db came back empty\n");
		t->bad++;
	} else
		printf("dtype claims against op_db of torch %s: %u claims-unsupported wrong, %u allowed with a reason, "
		       "%u unclaimed, %u rows unchecked\n",
		       t->torch ? t->torch : "?", t->unsupported, t->allowed, t->unclaimed, t->unchecked);
	free(t->used);
	free(t->allowed_used);
	free(out);
	return t->bad || t->unsupported ? 1 : 0;
}

int cmd_opdb(int argc, char **argv)
{
	static const struct option options[] = {
		{"list", required_argument, NULL, 0}, {"dtypes", no_argument, NULL, 0}, {NULL, 0, NULL, 0}};
	char why[4200];
	struct cli c;
	if (cli_parse(&c, "pt2fuzz opdb", argc, argv, (const struct option *const[]){options, NULL}, 0))
		return c.status;
	enum list list = LIST_NONE;
	const char *want = cli_opt(&c, "list");
	for (unsigned i = 1; want && i < sizeof list_names / sizeof list_names[0]; i++)
		if (!strcmp(want, list_names[i]))
			list = (enum list)i;
	int dtypes = cli_flag(&c, "dtypes");
	if (c.npos || (want && list == LIST_NONE) || (want && dtypes)) {
		fprintf(stderr, "pt2fuzz opdb: takes no arguments; --list is mapped, excluded, unmapped or all, and "
				"does not go with --dtypes\n");
		return 2;
	}
	size_t len = 0;
	char *rows = catalogue_rows(&len);
	struct runtime_output r;
	if (!rows || runtime_run_script(pt2fuzz_opdb_py, pt2fuzz_opdb_py_end, rows, len, MAX_MAP, &r, why, sizeof why)) {
		fprintf(stderr, "pt2fuzz opdb: %s\n", rows ? why : "out of memory");
		free(rows);
		return 1;
	}
	free(rows);
	if (r.exit_code) {
		fprintf(stderr, "pt2fuzz opdb: the worker's Python could not read op_db (%s %d)%s\n",
			r.exit_code < 0 ? "signal" : "exit", r.exit_code,
			r.exit_code == OPDB_NO_TORCH_TESTS ? ": torch's test helpers need expecttest; rerun scripts/setup, "
							     "which adds it"
							   : "");
		free(r.out);
		return 1;
	}
	/* + 1: never a zero-size allocation */
	struct tally t = {.used = calloc(opdb_exclusion_count, 1),
			  .allowed_used = calloc(opdb_dtype_allowance_count + 1, sizeof *t.allowed_used)};
	if (!t.used || !t.allowed_used) {
		fprintf(stderr, "pt2fuzz opdb: out of memory\n");
		free(t.used);
		free(t.allowed_used);
		free(r.out);
		return 1;
	}
	for (char *save = NULL, *line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, "#torch\t", 7))
			t.torch = line + 7;
		else if (!strncmp(line, "#dtype\t", 7)) {
			if (dtypes)
				dtype_line(&t, line);
		} else
			tally_line(&t, line, dtypes ? LIST_NONE : list);
	if (dtypes)
		return dtype_summary(&t, r.out);
	for (unsigned i = 0; i < opdb_exclusion_count && t.entries; i++)
		if (!t.used[i]) {
			fprintf(stderr, "pt2fuzz opdb: the exclusion %s names no op_db entry\n", opdb_exclusions[i].pattern);
			t.bad++;
		}
	free(t.used);
	free(t.allowed_used);
	if (!t.entries) {
		fprintf(stderr, "pt2fuzz opdb: op_db came back empty\n");
		free(r.out);
		return 1;
	}
	printf("op_db of torch %s: %u entries; %u mapped (%.1f%%), %u excluded with a reason, %u left to add\n",
	       t.torch ? t.torch : "?", t.entries, t.mapped, 100.0 * t.mapped / t.entries, t.excluded, t.unmapped);
	free(r.out);
	return t.bad ? 1 : 0;
}
