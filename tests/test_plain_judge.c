/* A plain repro's run judged against its finding (triage/plain.c): what its
 * output says (the last line, the last traceback and where it starts), and
 * whether that shows the finding of each kind. */
#include <string.h>
#include "../triage/plain.h"
#include "test.h"

/* A program whose compiled run is on line 3. */
static const char prog[] = "import torch\neager = run(Model())\ncompiled = run(torch.compile(Model()))\nprint(verdict)\n";

static const char compiled_tb[] =
	"W1125 warning\nTraceback (most recent call last):\n  File \"<stdin>\", line 3, in <module>\n"
	"  File \"<stdin>\", line 9, in run\n  File \"/torch/_dynamo/eval_frame.py\", line 1, in _fn\n"
	"    return fn(*args)\n           ^^^^^\ntorch._inductor.exc.InductorError: LoweringException: boom\n"
	"  target: aten.foo\n";

static int shows(const char *verdict, const char *mismatch, const char *exception, const struct plain_run *r)
{
	json_t *meta = json_pack("{s:s, s:s, s:s}", "verdict", verdict, "mismatch", mismatch, "exception", exception);
	char why[400] = "";
	int s = plain_shows(r, meta, why, sizeof why);
	CHECK(s || why[0]); /* a plain repro that does not show it says why */
	json_decref(meta);
	return s;
}

TEST(plain_read_takes_the_last_line_and_the_last_traceback)
{
	struct plain_run r;
	plain_read(prog, 1, "output 0: ok\nMISMATCH output 1: eager\n\n", compiled_tb, &r);
	CHECK(!strcmp(r.last, "MISMATCH output 1: eager"));
	CHECK(!strcmp(r.raised, "torch._inductor.exc.InductorError: LoweringException: boom"));
	CHECK(r.in_compiled && r.status == 1);
	/* an exception from eager's line, after a chained one from compiled's */
	plain_read(prog, 1, "",
		   "Traceback (most recent call last):\n  File \"<stdin>\", line 3, in <module>\nValueError: x\n\n"
		   "During handling of the above exception, another exception occurred:\n\n"
		   "Traceback (most recent call last):\n  File \"<stdin>\", line 2, in <module>\nRuntimeError\n",
		   &r);
	CHECK(!strcmp(r.raised, "RuntimeError") && !r.in_compiled && !r.last[0]);
	plain_read(prog, 0, "PASS", "", &r);
	CHECK(!strcmp(r.last, "PASS") && !r.raised[0]);
}

TEST(plain_shows_each_kind_of_finding_its_own_way)
{
	struct plain_run r;
	plain_read(prog, 0, "MISMATCH output 0: eager torch.float32 [], compiled torch.float32 [1]\n", "", &r);
	CHECK(shows("numeric", "shape", "", &r));
	CHECK(!shows("behaviour", "raised", "RuntimeError", &r));
	CHECK(!shows("stride", "", "", &r)); /* a value mismatch does not show a stride finding */
	plain_read(prog, 0, "compared: output 0\nMISMATCH stride output 0: eager (1, 4), compiled (4, 1)\n", "", &r);
	CHECK(shows("stride", "", "", &r));
	CHECK(!shows("alias", "", "", &r)); /* nor a stride mismatch an alias finding */
	plain_read(prog, 0, "compared: output 0\nMISMATCH alias output 0: eager shares leaf None, compiled leaf 0\n", "", &r);
	CHECK(shows("alias", "alias", "", &r));
	CHECK(!shows("stride", "", "", &r));
	plain_read(prog, 0, "output 0: ok\nPASS\n", "", &r);
	CHECK(!shows("numeric", "values", "", &r));
	/* behaviour: the compiled run raising the finding's type, not another nor elsewhere */
	plain_read(prog, 1, "", compiled_tb, &r);
	CHECK(shows("behaviour", "raised", "torch._inductor.exc.InductorError", &r));
	CHECK(!shows("behaviour", "raised", "torch._inductor.exc.Inductor", &r));
	CHECK(!shows("behaviour", "raised", "torch._dynamo.exc.BackendCompilerFailed", &r));
	CHECK(!shows("numeric", "values", "", &r));
	plain_read("eager = run(Model())\n", 1, "", compiled_tb, &r); /* no compiled line: not the compiled run */
	CHECK(!shows("behaviour", "raised", "torch._inductor.exc.InductorError", &r));
	/* near-invalid graphs: the program's MISMATCH names the kind */
	plain_read(prog, 0, "eager raises IndexError: x\nMISMATCH missing-error: compiled returns\n", "", &r);
	CHECK(shows("missing-error", "", "IndexError", &r));
	CHECK(!shows("error-mismatch", "raised", "IndexError", &r));
	plain_read(prog, 0, "MISMATCH error-mismatch: compiled raises InvalidBackend: Invalid backend: 'x'\n", "", &r);
	CHECK(!shows("error-mismatch", "raised", "RuntimeError", &r)); /* compiled's type must be the finding's */
	CHECK(shows("error-mismatch", "raised", "torch._dynamo.exc.InvalidBackend", &r));
	/* crashes and hangs */
	plain_read(prog, 139, "", "", &r);
	CHECK(shows("behaviour", "crashed", "", &r) && shows("memory", "crashed", "", &r));
	CHECK(!shows("hang", "", "", &r));
	plain_read(prog, 124, "", "", &r);
	CHECK(shows("hang", "", "", &r) && !shows("behaviour", "crashed", "", &r));
}
