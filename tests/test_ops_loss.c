/* Loss rules against what torch 2.15 accepts: the reduction's 0-d result,
 * targets that broadcast or must match, 0/1 and class targets by their
 * bounds, class dims at every binding, gaussian_nll_loss's var shapes, and
 * the attributes torch checks. Each rejection below is one torch raises on,
 * except those marked "ours": limits of the rules (one dtype for all float
 * operands, a var known positive), stricter than torch. */
#include "test.h"
#include "testkit.h"

static char why[300];

enum { NONE, MEAN, SUM, BATCHMEAN };

static int node(struct graph *g, const char *op, unsigned nin, const int *in, unsigned nattr, const int64_t *attr)
{
	return tk_node(g, op, nin, in, nattr, attr, why, sizeof why);
}

/* An int64 class target in [lo, hi]. */
static int classes(struct graph *g, unsigned rank, const int *dims, int64_t lo, int64_t hi)
{
	return tk_leaf(g, DT_INT64, rank, dims, FILL_RANGE, lo, hi);
}

TEST(loss_reduction_keeps_the_broadcast_shape_or_gives_0d)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){2, -1});
	int t = tk_input(&g, DT_FLOAT32, 1, (int[]){-1});
	int k = node(&g, "mse_loss", 2, (int[]){x, t}, 1, (int64_t[]){NONE});
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 5);
	k = node(&g, "l1_loss", 2, (int[]){x, t}, 1, (int64_t[]){SUM});
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);
	/* the target may be the bigger one: 'none' has the broadcast shape */
	int big = tk_input(&g, DT_FLOAT32, 3, (int[]){4, 2, -1});
	k = node(&g, "huber_loss", 2, (int[]){x, big}, 2, (int64_t[]){NONE, 1000});
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 4);
	int bad = tk_input(&g, DT_FLOAT32, 1, (int[]){3}); /* 3 vs s0 = 5 at binding 1 */
	CHECK(node(&g, "mse_loss", 2, (int[]){x, bad}, 1, (int64_t[]){NONE}) < 0);
	/* mse has three reductions, kl_div a fourth */
	CHECK(node(&g, "mse_loss", 2, (int[]){x, t}, 1, (int64_t[]){BATCHMEAN}) < 0);
	k = node(&g, "kl_div", 2, (int[]){x, t}, 2, (int64_t[]){BATCHMEAN, 1});
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);
	int s = tk_input(&g, DT_FLOAT32, 0, NULL);
	CHECK(node(&g, "kl_div", 2, (int[]){s, s}, 2, (int64_t[]){BATCHMEAN, 0}) >= 0);
}

TEST(loss_attributes_torch_checks)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	CHECK(node(&g, "smooth_l1_loss", 2, (int[]){x, x}, 2, (int64_t[]){MEAN, 0}) >= 0);
	CHECK(node(&g, "smooth_l1_loss", 2, (int[]){x, x}, 2, (int64_t[]){MEAN, -1000}) < 0); /* negative beta */
	CHECK(node(&g, "huber_loss", 2, (int[]){x, x}, 2, (int64_t[]){MEAN, 0}) < 0);         /* delta 0 */
	CHECK(node(&g, "triplet_margin_loss", 3, (int[]){x, x, x}, 4, (int64_t[]){MEAN, 1000, 2000, 0}) >= 0);
	CHECK(node(&g, "triplet_margin_loss", 3, (int[]){x, x, x}, 4, (int64_t[]){MEAN, 0, 2000, 0}) < 0); /* margin 0 */
	int c = classes(&g, 1, (int[]){3}, 0, 3);
	CHECK(node(&g, "multi_margin_loss", 2, (int[]){x, c}, 3, (int64_t[]){MEAN, 2, 1000}) >= 0);
	CHECK(node(&g, "multi_margin_loss", 2, (int[]){x, c}, 3, (int64_t[]){MEAN, 3, 1000}) < 0); /* p 1 or 2 */
	CHECK(node(&g, "cross_entropy", 2, (int[]){x, c}, 3, (int64_t[]){MEAN, -100, 1000}) >= 0);
	CHECK(node(&g, "cross_entropy", 2, (int[]){x, c}, 3, (int64_t[]){MEAN, -100, 1100}) < 0); /* smoothing > 1 */
}

TEST(loss_binary_targets_are_bounded_integers_of_the_input_shape)
{
	struct graph g;
	tk_static(&g);
	int x = tk_input(&g, DT_FLOAT16, 2, (int[]){3, 4});
	int b = tk_input(&g, DT_BOOL, 2, (int[]){3, 4});
	int i01 = tk_leaf(&g, DT_INT32, 2, (int[]){3, 4}, FILL_RANGE, 0, 1);
	int i05 = tk_input(&g, DT_INT64, 2, (int[]){3, 4}); /* [0, 5]: 2 is not a probability */
	int row = tk_input(&g, DT_BOOL, 1, (int[]){4});
	int k = node(&g, "binary_cross_entropy", 2, (int[]){x, b}, 1, (int64_t[]){NONE});
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dtype, DT_FLOAT16);
	CHECK(node(&g, "binary_cross_entropy_with_logits", 2, (int[]){x, i01}, 1, (int64_t[]){MEAN}) >= 0);
	CHECK(node(&g, "binary_cross_entropy", 2, (int[]){x, i05}, 1, (int64_t[]){MEAN}) < 0);
	CHECK(node(&g, "binary_cross_entropy", 2, (int[]){x, row}, 1, (int64_t[]){MEAN}) < 0); /* sizes differ */
	/* a weight broadcasts into the input, never beyond it; ours: of its dtype */
	int w = tk_input(&g, DT_FLOAT16, 1, (int[]){4});
	int wide = tk_input(&g, DT_FLOAT16, 3, (int[]){2, 3, 4});
	int w32 = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	CHECK(node(&g, "binary_cross_entropy_weight", 3, (int[]){x, b, w}, 1, (int64_t[]){NONE}) >= 0);
	CHECK(node(&g, "binary_cross_entropy_weight", 3, (int[]){x, b, wide}, 1, (int64_t[]){NONE}) < 0);
	CHECK(node(&g, "bce_with_logits_pos_weight", 3, (int[]){x, b, wide}, 1, (int64_t[]){NONE}) < 0);
	CHECK(node(&g, "binary_cross_entropy_weight", 3, (int[]){x, b, w32}, 1, (int64_t[]){NONE}) < 0);
	/* hinge broadcasts; soft_margin's output keeps the input's shape */
	int col = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 1});
	int rowf = tk_leaf(&g, DT_INT64, 1, (int[]){4}, FILL_RANGE, 0, 1);
	k = node(&g, "hinge_embedding_loss", 2, (int[]){col, rowf}, 2, (int64_t[]){NONE, 1000});
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 4);
	CHECK(node(&g, "soft_margin_loss", 2, (int[]){col, rowf}, 1, (int64_t[]){NONE}) < 0);
	/* multilabel_soft_margin sums the class (last) dim */
	k = node(&g, "multilabel_soft_margin_loss", 2, (int[]){x, b}, 1, (int64_t[]){NONE});
	CHECK_EQ(tk_out(&g, k, 0)->rank, 1);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 3);
}

TEST(loss_class_targets_fit_the_class_dim_at_every_binding)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, -1, 7}); /* [N, C = s0, d] */
	int t = classes(&g, 2, (int[]){2, 7}, 0, 2);
	int k = node(&g, "cross_entropy", 2, (int[]){x, t}, 3, (int64_t[]){NONE, -100, 0});
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 7);
	/* class 3 does not exist at binding 0 (C = 3) */
	int t4 = classes(&g, 2, (int[]){2, 7}, 0, 4);
	CHECK(node(&g, "nll_loss", 2, (int[]){x, t4}, 2, (int64_t[]){NONE, -100}) < 0);
	int t32 = tk_leaf(&g, DT_INT32, 2, (int[]){2, 7}, FILL_RANGE, 0, 2);
	CHECK(node(&g, "nll_loss", 2, (int[]){x, t32}, 2, (int64_t[]){NONE, -100}) < 0); /* Long or Byte only */
	int wrong = classes(&g, 2, (int[]){2, 6}, 0, 2);
	CHECK(node(&g, "nll_loss", 2, (int[]){x, wrong}, 2, (int64_t[]){NONE, -100}) < 0);
	/* one weight per class, dynamic like C */
	int w = tk_input(&g, DT_FLOAT32, 1, (int[]){-1});
	int w3 = tk_input(&g, DT_FLOAT32, 1, (int[]){3});
	CHECK(node(&g, "nll_loss_weight", 3, (int[]){x, t, w}, 2, (int64_t[]){MEAN, -100}) >= 0);
	CHECK(node(&g, "cross_entropy_weight", 3, (int[]){x, t, w3}, 3, (int64_t[]){MEAN, -100, 0}) < 0);
	/* a 1-D input has its classes in dim 0 and a 0-d target */
	tk_static(&g);
	int v = tk_input(&g, DT_FLOAT64, 1, (int[]){4});
	int t0 = classes(&g, 0, NULL, 0, 3);
	k = node(&g, "cross_entropy", 2, (int[]){v, t0}, 3, (int64_t[]){NONE, 1, 250});
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);
	CHECK(node(&g, "multi_margin_loss", 2, (int[]){v, t0}, 3, (int64_t[]){NONE, 1, 1000}) >= 0);
	/* probability targets: the input's shape, the class dim reduced */
	int p = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 4, 3});
	k = node(&g, "cross_entropy_prob", 2, (int[]){p, p}, 2, (int64_t[]){NONE, 0});
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][1], 3);
	int p2 = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, 3});
	CHECK(node(&g, "cross_entropy_prob", 2, (int[]){p, p2}, 2, (int64_t[]){NONE, 0}) < 0);
	/* multi_margin: no half kernel on CPU, no 3-D input */
	int h = tk_input(&g, DT_FLOAT16, 2, (int[]){2, 4});
	int n = classes(&g, 1, (int[]){2}, 0, 3);
	CHECK(node(&g, "multi_margin_loss", 2, (int[]){h, n}, 3, (int64_t[]){NONE, 1, 1000}) < 0);
	int c = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 4, 2});
	int n2 = classes(&g, 2, (int[]){2, 2}, 0, 3);
	CHECK(node(&g, "multi_margin_loss", 2, (int[]){c, n2}, 3, (int64_t[]){NONE, 1, 1000}) < 0);
}

TEST(loss_gaussian_var_shapes_and_positivity)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){2, -1, 4});
	int same = tk_leaf(&g, DT_FLOAT32, 3, (int[]){2, -1, 4}, FILL_POSITIVE, 0, 0);
	int shorter = tk_leaf(&g, DT_FLOAT32, 2, (int[]){2, -1}, FILL_POSITIVE, 0, 0);
	int one = tk_leaf(&g, DT_FLOAT32, 3, (int[]){2, 1, 4}, FILL_POSITIVE, 0, 0);
	int two = tk_leaf(&g, DT_FLOAT32, 3, (int[]){2, 1, 1}, FILL_POSITIVE, 0, 0);
	int normal = tk_input(&g, DT_FLOAT32, 3, (int[]){2, -1, 4});
	int64_t a[2] = {NONE, 0};
	int k = node(&g, "gaussian_nll_loss", 3, (int[]){x, x, same}, 2, a);
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][1], 5);
	CHECK(node(&g, "gaussian_nll_loss", 3, (int[]){x, x, shorter}, 2, a) >= 0);
	CHECK(node(&g, "gaussian_nll_loss", 3, (int[]){x, x, one}, 2, a) >= 0);
	CHECK(node(&g, "gaussian_nll_loss", 3, (int[]){x, x, two}, 2, a) < 0); /* two dims differ */
	/* a var that may be negative (ValueError); ours: computed, even if never negative */
	CHECK(node(&g, "gaussian_nll_loss", 3, (int[]){x, x, normal}, 2, a) < 0);
	int r = node(&g, "relu", 1, &same, 0, NULL);
	CHECK(node(&g, "gaussian_nll_loss", 3, (int[]){x, x, g.n[r].out0}, 2, a) < 0);
}

TEST(loss_pairs_and_triplets)
{
	struct graph g;
	tk_static(&g);
	int a = tk_input(&g, DT_FLOAT32, 3, (int[]){2, 3, 4});
	int b = tk_input(&g, DT_FLOAT32, 3, (int[]){1, 3, 4});
	int flat = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	/* triplet: one rank, broadcast, the last dim reduced */
	int k = node(&g, "triplet_margin_loss", 3, (int[]){a, b, a}, 4, (int64_t[]){NONE, 1000, 2000, 1});
	CHECK_EQ(tk_out(&g, k, 0)->rank, 2);
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 2);
	CHECK(node(&g, "triplet_margin_loss", 3, (int[]){a, flat, a}, 4, (int64_t[]){NONE, 1000, 2000, 1}) < 0);
	/* margin_ranking: one rank for all three */
	int sign = tk_leaf(&g, DT_INT64, 3, (int[]){2, 3, 4}, FILL_RANGE, 0, 1);
	int sign2 = tk_leaf(&g, DT_INT64, 2, (int[]){3, 4}, FILL_RANGE, 0, 1);
	CHECK(node(&g, "margin_ranking_loss", 3, (int[]){a, b, sign}, 2, (int64_t[]){NONE, 0}) >= 0);
	CHECK(node(&g, "margin_ranking_loss", 3, (int[]){a, b, sign2}, 2, (int64_t[]){NONE, 0}) < 0);
	/* cosine: [N, D] pairs, an [N] target; 1-D pairs, a 0-d target */
	int n = tk_leaf(&g, DT_BOOL, 1, (int[]){3}, FILL_RANGE, 0, 1);
	k = node(&g, "cosine_embedding_loss", 3, (int[]){flat, flat, n}, 2, (int64_t[]){NONE, 0});
	CHECK_EQ(tk_out(&g, k, 0)->dim[0][0], 3);
	CHECK(node(&g, "cosine_embedding_loss", 3, (int[]){flat, flat, sign2}, 2, (int64_t[]){NONE, 0}) < 0);
	int v = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int s = tk_leaf(&g, DT_BOOL, 0, NULL, FILL_RANGE, 0, 1);
	k = node(&g, "cosine_embedding_loss", 3, (int[]){v, v, s}, 2, (int64_t[]){NONE, 500});
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);
}

TEST(loss_triplet_with_distance_and_multilabel_margin)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int a = tk_input(&g, DT_FLOAT32, 2, (int[]){-1, 4});
	int b = tk_input(&g, DT_FLOAT32, 2, (int[]){1, 4});
	int flat = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	/* distance_function=None: triplet's shapes, a margin > 0, no p */
	int k = node(&g, "triplet_margin_with_distance_loss", 3, (int[]){a, b, a}, 3, (int64_t[]){NONE, 1000, 1});
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 5);
	CHECK(node(&g, "triplet_margin_with_distance_loss", 3, (int[]){a, b, a}, 3, (int64_t[]){NONE, 0, 1}) < 0);
	CHECK(node(&g, "triplet_margin_with_distance_loss", 3, (int[]){a, flat, a}, 3, (int64_t[]){MEAN, 1000, 0}) <
	      0);
	/* multilabel_margin_loss: label lists of the input's shape in [-1, C - 1] */
	int lab = classes(&g, 2, (int[]){-1, 4}, -1, 3);
	k = node(&g, "multilabel_margin_loss", 2, (int[]){a, lab}, 1, (int64_t[]){NONE});
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 1);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 5);
	int past = classes(&g, 2, (int[]){-1, 4}, -1, 4);
	int below = classes(&g, 2, (int[]){-1, 4}, -2, 3);
	int narrow = classes(&g, 2, (int[]){-1, 3}, 0, 2);
	CHECK(node(&g, "multilabel_margin_loss", 2, (int[]){a, past}, 1, (int64_t[]){NONE}) < 0);
	CHECK(node(&g, "multilabel_margin_loss", 2, (int[]){a, below}, 1, (int64_t[]){NONE}) < 0);
	CHECK(node(&g, "multilabel_margin_loss", 2, (int[]){a, narrow}, 1, (int64_t[]){NONE}) < 0);
	int h = tk_input(&g, DT_FLOAT16, 2, (int[]){-1, 4});
	CHECK(node(&g, "multilabel_margin_loss", 2, (int[]){h, lab}, 1, (int64_t[]){MEAN}) < 0); /* no half kernel */
}

TEST(loss_linear_cross_entropy_classes_are_the_weight_rows)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){3, 5});
	int x = tk_input(&g, DT_FLOAT32, 2, (int[]){-1, 4});
	int w = tk_input(&g, DT_FLOAT32, 2, (int[]){6, 4});
	int w3 = tk_input(&g, DT_FLOAT32, 2, (int[]){3, 4});
	int t = classes(&g, 1, (int[]){-1}, 0, 5);
	int k = node(&g, "linear_cross_entropy", 3, (int[]){x, w, t}, 2, (int64_t[]){NONE, 100});
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 1);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 5);
	CHECK(node(&g, "linear_cross_entropy", 3, (int[]){x, w3, t}, 2, (int64_t[]){NONE, 0}) < 0); /* class 5 of 3 */
	CHECK(node(&g, "linear_cross_entropy", 3, (int[]){x, w, t}, 2, (int64_t[]){MEAN, 1100}) < 0);
	int v = tk_input(&g, DT_FLOAT32, 1, (int[]){4});
	int s = classes(&g, 0, NULL, 0, 5);
	k = node(&g, "linear_cross_entropy", 3, (int[]){v, w, s}, 2, (int64_t[]){SUM, 0});
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->rank, 0);
	int wh = tk_input(&g, DT_FLOAT16, 2, (int[]){6, 4});
	CHECK(node(&g, "linear_cross_entropy", 3, (int[]){x, wh, t}, 2, (int64_t[]){NONE, 0}) < 0); /* one dtype */
}

TEST(loss_ctc_labels_avoid_the_blank)
{
	struct graph g;
	tk_dynamic(&g, 2, (int32_t[]){2, 4});
	int x = tk_input(&g, DT_FLOAT32, 3, (int[]){6, -1, 5});
	int t = classes(&g, 2, (int[]){-1, 3}, 1, 4);
	int k = node(&g, "ctc_loss", 2, (int[]){x, t}, 1, (int64_t[]){NONE});
	CHECK(k >= 0);
	CHECK_EQ(tk_out(&g, k, 0)->dim[1][0], 4);
	CHECK(node(&g, "ctc_loss", 2, (int[]){x, t}, 1, (int64_t[]){MEAN}) >= 0);
	int blank = classes(&g, 2, (int[]){-1, 3}, 0, 4);
	int past = classes(&g, 2, (int[]){-1, 3}, 1, 5);
	int rows = classes(&g, 2, (int[]){2, 3}, 1, 4);
	CHECK(node(&g, "ctc_loss", 2, (int[]){x, blank}, 1, (int64_t[]){NONE}) < 0); /* ours: no blank labels */
	CHECK(node(&g, "ctc_loss", 2, (int[]){x, past}, 1, (int64_t[]){NONE}) < 0);
	CHECK(node(&g, "ctc_loss", 2, (int[]){x, rows}, 1, (int64_t[]){NONE}) < 0); /* 2 rows, batch 4 */
	int h = tk_input(&g, DT_FLOAT16, 3, (int[]){6, -1, 5});
	CHECK(node(&g, "ctc_loss", 2, (int[]){h, t}, 1, (int64_t[]){NONE}) < 0); /* no half kernel */
}
