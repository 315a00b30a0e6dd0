/* `pt2fuzz report`: what a finding's issue text is made of. triage/report.c
 * gathers it (the finding folder, a traced rerun, collect_env, the plain
 * repro and its run), and
 * triage/report_md.c writes it as Markdown in PyTorch's template's order. */
#ifndef PT2FUZZ_REPORT_H
#define PT2FUZZ_REPORT_H
#include <stdio.h>
#include "../pipeline/check.h"
#include "../pipeline/json_file.h"
#include "plain.h"

/* In FINDING/trace/; named the way TORCH_TRACE names its files. */
#define REPORT_TRACE_FILE "dedicated_log_torch_trace_pt2fuzz.log"

struct report {
	const char *dir;              /* the finding folder */
	json_t *meta, *bisect, *reduce; /* meta.json; bisect.json and reduced/reduce.json (NULL when absent) */
	char verdict[32], mismatch[32]; /* meta.json's */
	char layer[32];               /* bisect.json's ("" when not bisected) */
	const struct graph *g;        /* the graph rerun (NULL: a program without a graph) */
	int reduced;                  /* g is reduced/graph.bin */
	struct check_result r;        /* the rerun */
	char device[32];              /* the device it ran on ("cpu", "cuda") */
	struct exec_trace trace;      /* its TORCH_TRACE log */
	char *env;                    /* collect_env's text */
	size_t env_len;
	/* The plain repro (triage/plain.h) of g at plain_binding: its text (NULL
	 * when there is none), its run alone, and whether that shows the finding;
	 * where there is none or it does not, why, in plain_why. */
	char *plain;
	size_t plain_len;
	unsigned plain_binding;
	struct plain_run plain_run;
	int plain_shows;
	char plain_why[400];
};

/* The reproducer, in the bug description (triage/report_repro.c). */
void report_write_reproducer(FILE *f, const struct report *rp);

/* Writes the issue text: the title line, then the template's sections. */
void report_write(FILE *f, const struct report *rp, const struct check_cfg *c);

#endif
