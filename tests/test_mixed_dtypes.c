/* Operands of two float dtypes where eager promotes them: the float-only
 * binary ops (pow, atan2, fmod, ...) and the losses that promote (mse, l1,
 * smooth_l1, kl_div, poisson_nll) give torch.result_type's dtype; those
 * eager refuses to mix stay refused (huber_loss, whose backward raises;
 * mm); and the generator draws such mixes. */
#include <string.h>
#include "../mutators/gen.h"
#include "test.h"
#include "testkit.h"

static char why[300];

TEST(mixed_float_operands_promote_like_eager)
{
	struct graph g;
	tk_static(&g);
	int h = tk_input(&g, DT_FLOAT16, 2, (int[]){3, 4});
	int f = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int bf = tk_input(&g, DT_BFLOAT16, 1, (int[]){4});
	int d = tk_input(&g, DT_FLOAT64, 2, (int[]){4, 3});
	CHECK_EQ(tk_out(&g, tk_node(&g, "pow", 2, (int[]){h, f}, 0, NULL, why, sizeof why), 0)->dtype, DT_FLOAT32);
	CHECK_EQ(tk_out(&g, tk_node(&g, "atan2", 2, (int[]){h, bf}, 0, NULL, why, sizeof why), 0)->dtype, DT_FLOAT32);
	CHECK_EQ(tk_out(&g, tk_node(&g, "fmod", 2, (int[]){bf, h}, 0, NULL, why, sizeof why), 0)->dim[0][0], 3);
	int64_t none = 0, mean = 1;
	int k = tk_node(&g, "mse_loss", 2, (int[]){h, f}, 1, &none, why, sizeof why);
	CHECK(k >= 0 && tk_out(&g, k, 0)->dtype == DT_FLOAT32 && tk_out(&g, k, 0)->rank == 2);
	k = tk_node(&g, "l1_loss", 2, (int[]){f, bf}, 1, &mean, why, sizeof why);
	CHECK(k >= 0 && tk_out(&g, k, 0)->dtype == DT_FLOAT32 && tk_out(&g, k, 0)->rank == 0);
	CHECK(tk_node(&g, "huber_loss", 2, (int[]){h, f}, 2, (int64_t[]){0, 1000}, why, sizeof why) < 0);
	CHECK(tk_node(&g, "mm", 2, (int[]){f, d}, 0, NULL, why, sizeof why) < 0);
}

TEST(mixed_float_operands_are_generated)
{
	static struct graph g;
	struct gen_opts o;
	gen_default_opts(&o);
	o.size = 8;
	unsigned mixed_loss = 0, mixed_binary = 0;
	const char *const promoting[] = {"mse_loss", "l1_loss", "smooth_l1_loss", "kl_div", "poisson_nll_loss",
					 "pow", "atan2", "fmod", "remainder", "copysign", "logaddexp", NULL};
	for (unsigned i = 0; i < 300; i++) {
		o.family = i % 2 ? FAM_LOSS : FAM_BINARY;
		if (gen_graph(&g, 900 + i, &o, why, sizeof why))
			continue;
		for (unsigned k = 0; k < g.nnodes; k++) {
			const struct node *nd = &g.n[k];
			for (const char *const *p = promoting; *p; p++)
				if (!strcmp(op_get(nd->op)->name, *p) && g.v[nd->in[0]].dtype != g.v[nd->in[1]].dtype) {
					mixed_loss += op_get(nd->op)->family == FAM_LOSS;
					mixed_binary += op_get(nd->op)->family == FAM_BINARY;
				}
		}
	}
	CHECK(mixed_loss > 0);
	CHECK(mixed_binary > 0);
}
