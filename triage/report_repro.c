/* The report's reproducer (triage/report.h): the plain repro when its run
 * alone showed the finding, the harness program beside it; else the harness
 * program, and why the plain one is not the reproducer. */
#include <string.h>
#include "markdown.h"
#include "report.h"

static unsigned count_lines(const char *s, size_t len)
{
	unsigned n = 0;
	for (size_t i = 0; i < len; i++)
		n += s[i] == '\n';
	return n;
}

/* What the plain repro's run printed that shows the finding. */
static void write_plain_seen(FILE *f, const struct plain_run *r)
{
	if (r->raised[0] && r->in_compiled) {
		fputs("its `torch.compile` run raises ", f);
		md_code(f, r->raised);
	} else if (r->status == 124 || r->status > 128) {
		fputs(r->status == 124 ? "it hangs until killed" : "the process dies of a signal", f);
	} else {
		fputs("it ends with ", f);
		md_code(f, r->last);
	}
}

/* The harness program, after the sentence on it that end closes. */
static void write_harness(FILE *f, const struct report *rp, const char *end)
{
	fputs("`python repro.py` (the fuzzer's own program, standalone) runs eager, compiled and fp64 at every input "
	      "binding, compares them with `torch._dynamo.utils.same` and prints `PASS` or `MISMATCH ...` on its last "
	      "line; `PT2FUZZ_DEVICE=cpu` or `cuda` picks the device", f);
	fputs(end, f);
	md_fence(f, "python", rp->r.program, rp->r.program_len);
}

void report_write_reproducer(FILE *f, const struct report *rp)
{
	if (rp->plain_shows) {
		fprintf(f, "**Reproducer** (plain PyTorch, %u lines: the model, the inputs of input binding %u built inline "
			   "from their seed, then eager, `torch.compile` and a float64 reference compared with "
			   "`torch._dynamo.utils.same`; the last line printed is `PASS` or `MISMATCH ...`). pt2fuzz ran it "
			   "alone for this report: ",
			count_lines(rp->plain, rp->plain_len), rp->plain_binding);
		write_plain_seen(f, &rp->plain_run);
		fputs(".\n\n", f);
		md_fence(f, "python", rp->plain, rp->plain_len);
		fputs("<details><summary>The fuzzer's program (repro.py)</summary>\n\n", f);
		write_harness(f, rp, ".\n\n");
		fputs("</details>\n\n", f);
		return;
	}
	fputs("**Reproducer** (standalone: ", f);
	write_harness(f, rp, "):\n\n");
	if (rp->plain) {
		fprintf(f, "A plain PyTorch version of it (`plain.py` in the finding folder, %u lines, input binding %u) does "
			   "not reproduce this alone, so the program above is the reproducer: pt2fuzz ran it, and ",
			count_lines(rp->plain, rp->plain_len), rp->plain_binding);
	} else {
		fputs("There is no plain PyTorch version of it: ", f);
	}
	size_t len = strlen(rp->plain_why);
	md_text(f, rp->plain_why);
	fputs(len && rp->plain_why[len - 1] == '.' ? "\n\n" : ".\n\n", f);
}
