/* Requires-grad marks (backward mode): which leaves may carry one, the codec
 * (version 3's grad list, versions 1-2 decoding with none), the text form,
 * the emitted program's GRADS/COMPARE, and the mutator keeping marks valid. */
#include "test.h"
#include "testkit.h"
#include "../graph/codec.h"
#include "../graph/emit.h"
#include "../graph/text.h"
#include "../graph/validate.h"
#include "../mutators/gen.h"
#include "../mutators/mutate.h"
#include <stdlib.h>
#include <string.h>

static struct graph g, h;
static uint8_t a[CODEC_MAX_SIZE], b[CODEC_MAX_SIZE];
static char why[300];

/* x0 float32 [4], x1 int64 [4], v2 = relu(x0), v3 = add(v2, x0); grad x0. */
static void relu_graph(void)
{
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	tk_input(&g, DT_INT64, 1, (int[]){4});
	int r = tk_node(&g, "relu", 1, (int[]){x}, 0, NULL, why, sizeof why);
	tk_node(&g, "add", 2, (int[]){g.n[r].out0, x}, 0, NULL, why, sizeof why);
	graph_mark_sinks(&g);
	CHECK(graph_set_grad(&g, 0, 1, why, sizeof why) == 0);
}

TEST(grad_only_on_float_leaves)
{
	relu_graph();
	CHECK_EQ(graph_ngrads(&g), 1);
	CHECK(graph_set_grad(&g, 1, 1, why, sizeof why) < 0); /* int64 */
	CHECK(graph_set_grad(&g, 2, 1, why, sizeof why) < 0); /* a node value */
	CHECK(graph_set_grad(&g, 99, 1, why, sizeof why) < 0);
	CHECK(graph_validate(&g, why, sizeof why) == 0);
	g.v[1].grad = 1; /* forged: validation refuses */
	CHECK(graph_validate(&g, why, sizeof why) < 0);
}

TEST(grad_codec_roundtrip_and_version_2)
{
	relu_graph();
	size_t n = codec_encode(&g, a, sizeof a);
	CHECK(n > 2 && a[3] == CODEC_VERSION);
	CHECK(codec_decode(&h, a, n, why, sizeof why) == 0);
	CHECK(h.v[0].grad && !h.v[1].grad);
	CHECK(codec_hash(&h) == codec_hash(&g));
	/* version 4 ends with the grad list (5 appends the configuration) */
	n = codec_encode_version(&g, 4, a, sizeof a);
	CHECK(n > 2 && a[n - 2] == 1 && a[n - 1] == 0);
	/* version 2 had no grad list: the graph without its marks, so written, decodes with none */
	h = g;
	h.v[0].grad = 0;
	size_t m = codec_encode_version(&h, 2, b, sizeof b);
	CHECK(m > 0 && codec_decode(&h, b, m, why, sizeof why) == 0);
	CHECK_EQ(graph_ngrads(&h), 0);
	/* a grad on the int leaf, or listed twice: refused */
	a[n - 1] = 1;
	CHECK(codec_decode(&h, a, n, why, sizeof why) < 0);
	memcpy(b, a, n - 2);
	b[n - 2] = 2, b[n - 1] = 0, b[n] = 0;
	CHECK(codec_decode(&h, b, n + 1, why, sizeof why) < 0);
}

TEST(grad_text_form_roundtrips)
{
	relu_graph();
	char *text = tk_text(&g, 0);
	CHECK(strstr(text, "\ngrad x0\n") != NULL);
	CHECK(text_parse(&h, text, why, sizeof why) == 0);
	CHECK(codec_hash(&h) == codec_hash(&g));
	free(text);
	CHECK(text_parse(&h, "bindings 1\nx0 = input int64 [4]\nv1 = relu(x0)\noutput v1\ngrad x0\n", why, sizeof why) < 0);
}

TEST(grad_emitted_only_in_backward_mode)
{
	relu_graph();
	struct emit_opts fwd = {NULL, NULL, 0}, bwd = {NULL, NULL, 1};
	char *p = emit_program_string(&g, &fwd, NULL), *q = emit_program_string(&g, &bwd, NULL);
	CHECK(p && strstr(p, "\nGRADS = ()\n") && strstr(p, "\nCOMPARE = (True,)\n"));
	CHECK(q && strstr(q, "\nGRADS = (0,)\n") && strstr(q, "\nCOMPARE = (True, True)\n"));
	free(p);
	free(q);
}

TEST(grad_marks_survive_mutation_valid)
{
	struct gen_opts o;
	gen_set_campaign(TARGET_ANY, 1); /* as a backward campaign's mutators generate */
	gen_default_opts(&o);
	o.grad_pct = 50;
	int toggled = 0;
	for (uint64_t s = 0; s < 40; s++) {
		if (gen_graph(&g, s, &o, why, sizeof why))
			continue;
		struct rng r;
		rng_seed(&r, s);
		for (unsigned i = 0; i < 24; i++) { /* grad has weight 3 of about 150: ~19 draws */
			int w = mutate_graph(&g, NULL, &r, 8, NULL);
			toggled += w == mutator_find("grad");
			CHECK(graph_validate(&g, why, sizeof why) == 0);
		}
	}
	gen_set_campaign(TARGET_ANY, 0);
	CHECK(toggled > 0);
	CHECK(mutator_find("grad") >= 0);
}

/* Eager's backward raises through an input with no derivative (floor_divide,
 * batch_norm's running statistics): a leaf reaching one takes no mark, and
 * generated graphs never have such a mark. */
TEST(grad_refused_where_eager_has_no_derivative)
{
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int y = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int r = tk_node(&g, "relu", 1, (int[]){y}, 0, NULL, why, sizeof why);
	tk_node(&g, "floor_divide", 2, (int[]){x, g.n[r].out0}, 0, NULL, why, sizeof why);
	graph_mark_sinks(&g);
	CHECK(graph_set_grad(&g, 0, 1, why, sizeof why) < 0);
	CHECK(strstr(why, "floor_divide") != NULL);
	CHECK(graph_set_grad(&g, 1, 1, why, sizeof why) < 0); /* through relu, still */
	CHECK_EQ(graph_ngrads(&g), 0);
	struct gen_opts o;
	gen_default_opts(&o);
	o.grad_pct = 100;
	unsigned marked = 0;
	for (uint64_t s = 0; s < 200; s++) {
		CHECK(gen_graph(&g, s, &o, why, sizeof why) == 0);
		CHECK(graph_validate(&g, why, sizeof why) == 0);
		marked += graph_ngrads(&g) > 0;
	}
	CHECK(marked > 150); /* most graphs still have a markable leaf */
}

/* aminmax has no derivative in eager in either spelling (with dim, and over
 * the whole tensor): a leaf reaching aminmax_all takes no mark either (the
 * H100's backward run raised "derivative for aten::aminmax is not
 * implemented" on one). */
TEST(grad_refused_through_aminmax_all)
{
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT64, 2, (int[]){3, 4});
	tk_node(&g, "aminmax_all", 1, (int[]){x}, 0, NULL, why, sizeof why);
	graph_mark_sinks(&g);
	CHECK(graph_set_grad(&g, 0, 1, why, sizeof why) < 0);
	CHECK(strstr(why, "aminmax_all") != NULL);
}
