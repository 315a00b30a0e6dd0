/* `pt2fuzz report`: what a finding's issue text is made of. triage/report.c
 * gathers it (the finding folder, a traced rerun, collect_env), and
 * triage/report_md.c writes it as Markdown in PyTorch's template's order. */
#ifndef PT2FUZZ_REPORT_H
#define PT2FUZZ_REPORT_H
#include <stdio.h>
#include "../pipeline/check.h"
#include "../pipeline/json_file.h"

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
	struct exec_trace trace;      /* its TORCH_TRACE log */
	char *env;                    /* collect_env's text */
	size_t env_len;
};

/* Writes the issue text: the title line, then the template's sections. */
void report_write(FILE *f, const struct report *rp, const struct check_cfg *c);

#endif
