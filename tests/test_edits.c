/* The reducer's deterministic edits: every result is a valid graph, a
 * deleted op's users read a same-typed input of it when there is one, a cone
 * keeps exactly what an output depends on, and static is static. */
#include <string.h>
#include "../graph/validate.h"
#include "../mutators/edits.h"
#include "../mutators/gen.h"
#include "test.h"
#include "testkit.h"

static struct graph g, h;
static char why[300];

static void make(uint64_t seed, unsigned size, unsigned dyn)
{
	struct gen_opts o;
	gen_default_opts(&o);
	o.size = size;
	o.dyn_pct = dyn;
	gen_graph(&g, seed, &o, why, sizeof why);
}

TEST(edits_delete_each_node_keeps_the_graph_valid)
{
	unsigned tried = 0, ok = 0;
	for (unsigned s = 0; s < 60; s++) {
		make(400 + s, 12, 40);
		for (unsigned k = 0; k < g.nnodes; k++) {
			uint8_t del[G_MAX_NODES] = {0};
			del[k] = 1;
			tried++;
			if (edit_delete_nodes(&g, del, &h))
				continue;
			ok++;
			CHECK(graph_validate(&h, why, sizeof why) == 0);
			CHECK_EQ(h.nnodes, g.nnodes - 1);
		}
	}
	/* A fresh input can always stand in, so only dims no symbol expresses fail. */
	CHECK(ok * 10 >= tried * 9);
}

TEST(edits_delete_bypasses_through_a_same_typed_input)
{
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int e = tk_node(&g, "exp", 1, &x, 0, NULL, why, sizeof why);
	int in = g.n[e].out0;
	int l = tk_node(&g, "log", 1, &in, 0, NULL, why, sizeof why);
	graph_set_output(&g, g.n[l].out0, 1, why, sizeof why);
	uint8_t del[G_MAX_NODES] = {1, 0};
	CHECK(edit_delete_nodes(&g, del, &h) == 0);
	CHECK_EQ(h.nnodes, 1);
	CHECK_EQ(h.nvalues, 2); /* x and log(x): no fresh input was needed */
	CHECK_EQ(h.n[0].in[0], 0);
	CHECK(!strcmp(op_get(h.n[0].op)->name, "log"));
}

TEST(edits_cone_keeps_what_one_output_needs)
{
	for (unsigned s = 0; s < 60; s++) {
		make(700 + s, 15, 40);
		for (unsigned v = 0; v < g.nvalues; v++) {
			if (!g.v[v].out)
				continue;
			if (!CHECK(edit_keep_cone(&g, v, &h) == 0))
				break;
			CHECK(graph_validate(&h, why, sizeof why) == 0);
			CHECK(h.nnodes <= g.nnodes);
			/* The output's own op survives as the last node. */
			CHECK_EQ(h.n[h.nnodes - 1].op, g.n[g.v[v].node].op);
			break;
		}
	}
}

TEST(edits_make_static_fixes_every_dim_at_the_first_binding)
{
	unsigned done = 0;
	for (unsigned s = 0; s < 80 && done < 20; s++) {
		make(900 + s, 8, 100);
		if (g.nbind < 2 || edit_make_static(&g, &h))
			continue;
		done++;
		CHECK_EQ(h.nbind, 1);
		CHECK_EQ(h.nsym, 0);
		CHECK(graph_validate(&h, why, sizeof why) == 0);
		CHECK_EQ(h.nnodes, g.nnodes);
		/* Node by node (unused leaves may be gone, so value ids can shift). */
		for (unsigned k = 0; k < h.nnodes; k++) {
			const struct value *a = &h.v[h.n[k].out0], *b = &g.v[g.n[k].out0];
			for (unsigned d = 0; d < a->rank; d++)
				CHECK_EQ(a->dim[0][d], b->dim[0][d]);
		}
	}
	CHECK(done >= 10);
}

TEST(edits_reject_what_the_rules_reject)
{
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int k = tk_node(&g, "softmax", 1, &x, 1, (int64_t[]){1}, why, sizeof why);
	graph_set_output(&g, g.n[k].out0, 1, why, sizeof why);
	CHECK(edit_attr(&g, 0, 0, 5, &h) < 0);  /* dim 5 of a 2-D tensor */
	CHECK(edit_attr(&g, 0, 0, 0, &h) == 0);
	CHECK_EQ(h.n[0].attr[0], 0);
	CHECK(edit_leaf_dim(&g, 0, 1, 0, &h) < 0); /* no zero-size dims */
	CHECK(edit_leaf_dim(&g, 0, 1, 2, &h) == 0);
	CHECK_EQ(h.v[h.nvalues - 1].dim[0][1], 2);
	CHECK(edit_leaf_dtype(&g, 0, DT_INT64, &h) < 0); /* float stays float */
	CHECK(edit_leaf_dtype(&g, 0, DT_FLOAT64, &h) == 0);
}
