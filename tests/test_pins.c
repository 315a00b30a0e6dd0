/* A setting pinned on the command line (config/pins.h) is typed as the
 * catalogue types it, or by its text outside the catalogue; it reaches the
 * emitted program and the plain repro over the graph's own setting; and a
 * finding keeps it in meta.json for whoever reruns the finding. */
#include <stdlib.h>
#include <string.h>
#include "../config/pins.h"
#include "../config/settings.h"
#include "../graph/compile_config.h"
#include "../graph/emit.h"
#include "../graph/emit_plain.h"
#include "../pipeline/findings.h"
#include "test.h"
#include "testkit.h"

static char name[PIN_NAME_MAX], py[SETTING_PYTHON_MAX], why[300];

static int typed(const char *pin, const char *want_name, const char *want_py)
{
	return !pin_python(pin, name, sizeof name, py, sizeof py, why, sizeof why) && !strcmp(name, want_name) &&
	       !strcmp(py, want_py);
}

TEST(pins_typed_by_the_catalogue)
{
	CHECK(typed("fallback_random=false", "inductor.fallback_random", "False")); /* not the string 'false' */
	CHECK(typed("inductor.max_fusion_size=3", "inductor.max_fusion_size", "3")); /* an int off the row's list */
	CHECK(typed("functorch.fake_tensor_propagate_real_tensors=1", "functorch.fake_tensor_propagate_real_tensors",
		    "True"));
	CHECK(pin_python("max_fusion_size=big", name, sizeof name, py, sizeof py, why, sizeof why) == -1);
	CHECK(strstr(why, "max_fusion_size is an int, not 'big'") != NULL);
}

TEST(pins_outside_the_catalogue_typed_by_their_text)
{
	CHECK(setting_find("inductor.generate_intermediate_hooks") < 0); /* else this tests the catalogue */
	CHECK(typed("generate_intermediate_hooks=true", "inductor.generate_intermediate_hooks", "True"));
	CHECK(typed("dynamo.cache_size_limit=007", "dynamo.cache_size_limit", "7")); /* Python refuses 007 */
	CHECK(typed("dynamo.x=0.25", "dynamo.x", "0.25"));
	CHECK(typed("x=1e3", "inductor.x", "1000.0"));
	CHECK(typed("x=inf", "inductor.x", "'inf'")); /* a name to Python, so a string */
	CHECK(typed("x=it's\\", "inductor.x", "'it\\'s\\\\'"));
	CHECK(typed("x=", "inductor.x", "''"));
}

TEST(pins_refused_where_not_name_value)
{
	static const char *const bad[] = {"fallback_random", "=1", "a b=1", "a..b=1", ".a=1", "a.=1", "a=1\n"};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK(pin_python(bad[i], name, sizeof name, py, sizeof py, why, sizeof why) == -1);
}

/* x0 float32 [4, 4], v1 = relu(x0), with inductor.max_fusion_size 4 in its configuration */
static void configured(struct graph *g)
{
	tk_static(g);
	int x = tk_input(g, DT_FLOAT32, 2, (int[]){4, 4});
	tk_node(g, "relu", 1, (int[]){x}, 0, NULL, why, sizeof why);
	graph_mark_sinks(g);
	struct graph_config c = {0};
	CHECK(graph_config_put(&c, (unsigned)setting_find("inductor.max_fusion_size"), 2) == 0); /* 4 */
	CHECK(graph_set_config(g, &c, why, sizeof why) == 0);
}

TEST(pins_go_over_the_graphs_settings_in_the_program)
{
	static struct graph g;
	configured(&g);
	const char *pins[] = {"max_fusion_size=8", "dynamo.x=two", "max_fusion_size=16"};
	struct emit_opts o = {.pins = pins, .npins = 3};
	char *p = emit_program_string(&g, &o, NULL);
	CHECK(p && strstr(p, "CONFIG = {\"dynamo.x\": 'two', \"inductor.max_fusion_size\": 16}\n")); /* the last wins */
	free(p);
	const char *bad[] = {"max_fusion_size=big"};
	struct emit_opts refused = {.pins = bad, .npins = 1};
	CHECK(emit_program_string(&g, &refused, NULL) == NULL);
}

TEST(pins_go_over_the_graphs_settings_in_the_plain_program)
{
	static struct graph g;
	configured(&g);
	const char *pins[] = {"max_fusion_size=8", "functorch.cse=0"};
	struct plain_opts o = {.pins = pins, .npins = 2};
	char *p = emit_plain_string(&g, &o, NULL, why, sizeof why);
	const char *graphs = p ? strstr(p, "torch._inductor.config.max_fusion_size = 4\n") : NULL;
	CHECK(graphs && strstr(graphs, "torch._inductor.config.max_fusion_size = 8\n")); /* after, so it wins */
	CHECK(p && strstr(p, "import torch._functorch.config\ntorch._functorch.config.cse = False\n"));
	free(p);
	const char *mode[] = {"mode.enable_grad=1"};
	struct plain_opts modes = {.pins = mode, .npins = 1};
	CHECK(emit_plain_string(&g, &modes, NULL, why, sizeof why) == NULL);
	CHECK(strstr(why, "mode.enable_grad") != NULL);
}

TEST(pins_kept_by_a_finding_and_taken_where_the_command_line_pins_none)
{
	json_t *meta = json_pack("{s:[s,s]}", "pinned", "max_fusion_size=8", "dynamo.specialize_int=1");
	struct finding_pins p;
	CHECK(findings_pins_load(meta, &p, why, sizeof why) == 0);
	CHECK_EQ(p.n, 2);
	struct check_cfg c = {0};
	findings_pins_apply(&p, &c);
	CHECK(c.ninductor == 2 && !strcmp(c.inductor[1], "dynamo.specialize_int=1"));
	struct check_cfg given = {.inductor = {"max_fusion_size=2"}, .ninductor = 1};
	findings_pins_apply(&p, &given); /* the command line's pins stand */
	CHECK(given.ninductor == 1 && !strcmp(given.inductor[0], "max_fusion_size=2"));
	json_decref(meta);
	meta = json_pack("{s:[s]}", "pinned", "max_fusion_size=big"); /* a meta.json edited by hand */
	CHECK(findings_pins_load(meta, &p, why, sizeof why) == -1);
	json_decref(meta);
	meta = json_pack("{s:s}", "signature", "numeric-1"); /* from before pins */
	CHECK(findings_pins_load(meta, &p, why, sizeof why) == 0 && p.n == 0);
	json_decref(meta);
}
