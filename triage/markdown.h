/* Markdown for the report (triage/report.h): text that is not ours (from
 * meta.json, bisect.json, the worker, a program's output) never breaks its
 * structure. */
#ifndef PT2FUZZ_MARKDOWN_H
#define PT2FUZZ_MARKDOWN_H
#include <stddef.h>
#include <stdio.h>

/* A fenced block (```lang) whose fence is longer than any backtick run in s. */
void md_fence(FILE *f, const char *lang, const char *s, size_t len);

/* Inline text: Markdown's and HTML's active characters escaped, one line. */
void md_text(FILE *f, const char *s);

/* An inline code span, one line. */
void md_code(FILE *f, const char *s);

#endif
