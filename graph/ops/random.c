/* Seeded random ops: Bernoulli draws and dropout in training, *_like
 * factories, randperm, multinomial, normal, poisson, and the in-place
 * distribution fills of a fresh tensor.
 *
 * Every mode draws the same numbers (docs/oracle.md, "Random ops"): the
 * runner seeds before each call and Inductor's fallback_random runs eager's
 * kernels. The spellings keep what a kernel draws independent of two things
 * the modes do not share (torch 2.15 CPU, measured):
 *  - the dtype: float64 draws consume the generator otherwise, so the fp64
 *    run would draw other numbers. Values are drawn in float32 (a float32
 *    fresh tensor, or an input cast with .float()) and cast to @0's dtype.
 *  - the memory layout of the tensor a kernel fills: CPU kernels draw in
 *    memory order, and compiled code may hand a kernel another layout than
 *    eager's (Inductor lays intermediates out its own way and drops
 *    .contiguous(); functionalization turns alpha_dropout's in-place
 *    bernoulli_ into a contiguous draw). So factories and fills ask for
 *    contiguous_format, alpha_dropout runs on @0.flatten() (a 1-D tensor's
 *    only dense layout is the logical order), and multinomial without
 *    replacement takes 1-D inputs only. F.dropout and the feature dropouts
 *    need nothing (Inductor constrains native_dropout to eager's strides;
 *    feature noise is a fresh tensor). poisson runs on @0.flatten() too:
 *    on a strided input its meta strides and its CPU kernel's differ, and
 *    compiled code raises.
 * And no op reads only the shape of a value computed from a random op
 * (below, "what a draw may read"). Inputs that must be probabilities or
 * rates (bernoulli, multinomial, poisson) are built from @0 so that any value
 * is valid, NaN included. The Inductor bugs these spellings avoid:
 * docs/findings/behaviour-poisson-noncontiguous.md and numeric-random-*.md. */
#include <string.h>
#include "../opkit.h"
#include "families.h"

/* ---- what a draw may read ----
 *
 * Inductor drops a Bernoulli fill (bernoulli_, the dropouts' masks but
 * F.dropout's) whose tensor is dead, and a tensor that only lends its shape
 * to a later op is dead in compiled code: the draws after it then differ
 * from eager's (torch 2.15 CPU; pytorch#151524 reports a dead torch.rand).
 * So an op that reads only input 0's shape (the empty_like fills, randperm,
 * torch.randn and torch.randint of its shape) must not read a value computed
 * from a random op. */

/* Whether node k or a node it reads from is a random op (seen: a bit per node visited). */
static bool from_random(const struct graph *g, int k, uint64_t *seen)
{
	if (k < 0 || (seen[k / 64] >> (k % 64) & 1))
		return false;
	seen[k / 64] |= 1ull << (k % 64);
	const struct node *nd = &g->n[k];
	if (op_get(nd->op)->family == FAM_RANDOM)
		return true;
	for (unsigned i = 0; i < nd->nin; i++)
		if (from_random(g, g->v[nd->in[i]].node, seen))
			return true;
	return false;
}

static bool shape_source_ok(struct infer_io *io)
{
	uint64_t seen[(G_MAX_NODES + 63) / 64] = {0};
	if (from_random(io->g, io->in[0]->node, seen))
		return io_fail(io, "reads input 0's shape only, and input 0 comes from a random op "
			       "(whose draws Inductor drops)");
	return true;
}

/* ---- draws shaped like input 0, with number attributes ---- */

/* A number attribute (thousandths): what the rule accepts, what the chooser draws. */
struct num_attr {
	int64_t lo, hi;
	int64_t pick[5];
	uint8_t npick;
};

struct draw_spec {
	uint8_t nattr;
	uint8_t ordered;    /* attribute 0 < attribute 1 (uniform_'s from and to) */
	uint8_t shape_only; /* reads input 0's shape, not its values */
	struct num_attr a[2];
};

static bool draw_rule(struct infer_io *io, const struct draw_spec *s)
{
	if (s->shape_only && !shape_source_ok(io))
		return false;
	for (unsigned i = 0; i < s->nattr; i++)
		if (!io_attr_range(io, i, s->a[i].lo, s->a[i].hi))
			return false;
	if (s->ordered && io->attr[0] >= io->attr[1])
		return io_fail(io, "attribute 0 (%lld) must be below attribute 1 (%lld)", (long long)io->attr[0],
			       (long long)io->attr[1]);
	io->nout = 1;
	io_out_like(io, 0, io->in[0], (enum dtype)io->in[0]->dtype);
	return true;
}

static bool draw_choose(struct chooser *c, struct op_choice *ch, const struct draw_spec *s)
{
	ch->nattr = s->nattr;
	for (unsigned i = 0; i < s->nattr; i++)
		ch->attr[i] = pick_of(c, s->a[i].pick, s->a[i].npick);
	if (s->ordered && ch->attr[0] >= ch->attr[1]) { /* make the pair ordered */
		int64_t t = ch->attr[0];
		ch->attr[0] = ch->attr[1];
		ch->attr[1] = t == ch->attr[1] ? t + 1000 : t;
	}
	return true;
}

#define DRAW_FNS(tag, ...) \
	static const struct draw_spec spec_##tag = __VA_ARGS__; \
	static bool infer_##tag(struct infer_io *io) { return draw_rule(io, &spec_##tag); } \
	static bool choose_##tag(struct chooser *c, struct op_choice *ch) { return draw_choose(c, ch, &spec_##tag); }

/* torch's checks: dropout p in [0, 1] (1 drops everything: kept below), std >= 0,
 * lambda, sigma and log_normal's std > 0, geometric's p in (0, 1), from <= to
 * (kept below: equal bounds draw nothing). */
DRAW_FNS(plain, {0})
DRAW_FNS(shape, {.shape_only = 1})
DRAW_FNS(dropout, {.nattr = 1, .a = {{0, 990, {100, 200, 300, 500, 800}, 5}}})
DRAW_FNS(std, {.nattr = 1, .a = {{0, 5000, {1000, 500, 2000, 100, 0}, 5}}})
DRAW_FNS(prob, {.nattr = 1, .shape_only = 1, .a = {{0, 1000, {500, 100, 300, 900, 1000}, 5}}})
DRAW_FNS(uniform, {.nattr = 2, .ordered = 1, .shape_only = 1,
		   .a = {{-10000, 10000, {-1000, 0, -2000, 500, -500}, 5},
			 {-10000, 10000, {1000, 2000, 500, 3000, 0}, 5}}})
DRAW_FNS(mean_std, {.nattr = 2, .shape_only = 1,
		    .a = {{-5000, 5000, {0, 1000, -500, 2000}, 4}, {0, 5000, {1000, 500, 2000, 0}, 4}}})
DRAW_FNS(lambd, {.nattr = 1, .shape_only = 1, .a = {{1, 10000, {1000, 500, 2000, 3000}, 4}}})
DRAW_FNS(cauchy, {.nattr = 2, .shape_only = 1,
		  .a = {{-5000, 5000, {0, 1000, -500}, 3}, {1, 5000, {1000, 500, 100}, 3}}})
DRAW_FNS(log_normal, {.nattr = 2, .shape_only = 1,
		      .a = {{-1000, 1000, {0, 500, -500}, 3}, {1, 1000, {1000, 500, 250}, 3}}})
DRAW_FNS(geometric, {.nattr = 1, .shape_only = 1, .a = {{1, 999, {500, 300, 100, 900}, 4}}})

/* ---- integer draws: randint_like, randperm, multinomial ---- */

/* Output 0 is int64 holding values in [lo, hi], so index ops may read it. */
static void out_int64(struct infer_io *io, unsigned rank, int64_t lo, int64_t hi)
{
	io->nout = 1;
	io_out_rank(io, 0, rank, DT_INT64);
	io->out[0].lo = lo;
	io->out[0].hi = hi;
}

/* randint_like(x, low, high): input 0's shape, values in [low, high). */
static bool infer_randint(struct infer_io *io)
{
	if (!io_attr_range(io, 0, -G_INT_BOUND, G_INT_BOUND - 1) || !io_attr_range(io, 1, io->attr[0] + 1, G_INT_BOUND))
		return false;
	out_int64(io, io->in[0]->rank, io->attr[0], io->attr[1] - 1);
	memcpy(io->out[0].dim, io->in[0]->dim, sizeof io->in[0]->dim);
	return true;
}

/* torch.randint(low, high, x.shape): the same, from input 0's shape only
 * (randint_like reads input 0 itself, so Inductor keeps its draws). */
static bool infer_randint_shape(struct infer_io *io) { return shape_source_ok(io) && infer_randint(io); }

/* Mostly [0, n) for a size n of the graph, so that the draws can index. */
static bool choose_randint(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = 2;
	ch->attr[0] = rng_chance(c->rng, 70) ? 0 : rng_range(c->rng, -8, 8);
	bool size = x->rank && rng_chance(c->rng, 50);
	ch->attr[1] = ch->attr[0] + (size ? x->dim[0][rng_below(c->rng, x->rank)] : rng_range(c->rng, 1, 64));
	return true;
}

/* randperm(x.size(dim)): a permutation of [0, n) for n the dim's size at each binding. */
static bool infer_randperm(struct infer_io *io)
{
	const struct value *x = io->in[0];
	int d = io_dim(io->attr[0], x->rank);
	if (!shape_source_ok(io))
		return false;
	if (d < 0 || !x->rank)
		return io_fail(io, "dim %lld out of range for a %u-D input", (long long)io->attr[0], x->rank);
	int32_t most = 1;
	FOR_BIND(io, b) most = x->dim[b][d] > most ? x->dim[b][d] : most;
	out_int64(io, 1, 0, most - 1);
	FOR_BIND(io, b) io->out[0].dim[b][0] = x->dim[b][d];
	return true;
}

static bool choose_randperm(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = pick_dim(c, c->g->v[ch->in[0]].rank);
	return true;
}

/* randperm(n) on input 0's device: input 0 lends nothing else. */
static bool infer_randperm_n(struct infer_io *io)
{
	if (!io_attr_range(io, 0, 1, G_MAX_DIM) || !shape_source_ok(io))
		return false;
	out_int64(io, 1, 0, io->attr[0] - 1);
	FOR_BIND(io, b) io->out[0].dim[b][0] = (int32_t)io->attr[0];
	return true;
}

static bool choose_randperm_n(struct chooser *c, struct op_choice *ch)
{
	ch->nattr = 1;
	ch->attr[0] = rng_range(c->rng, 1, 64);
	return true;
}

/* multinomial(probs, num_samples, replacement) over the last dim (the
 * categories) of a 1-D or 2-D input: the last dim becomes num_samples.
 * Without replacement there must be as many categories at every binding,
 * and the input must be 1-D (the draws follow a 2-D input's layout). */
static bool infer_multinomial(struct infer_io *io)
{
	const struct value *x = io->in[0];
	unsigned last = x->rank - 1u;
	if (!io_attr_range(io, 0, 1, G_MAX_DIM))
		return false;
	if (!io->attr[1] && x->rank != 1)
		return io_fail(io, "without replacement the input must be 1-D, got rank %u", x->rank);
	int32_t most = 1;
	FOR_BIND(io, b) {
		if (!io->attr[1] && io->attr[0] > x->dim[b][last])
			return io_fail(io, "%lld samples without replacement from %d categories (binding %u)",
				       (long long)io->attr[0], (int)x->dim[b][last], b);
		most = x->dim[b][last] > most ? x->dim[b][last] : most;
	}
	out_int64(io, x->rank, 0, most - 1);
	memcpy(io->out[0].dim, x->dim, sizeof x->dim);
	FOR_BIND(io, b) io->out[0].dim[b][last] = (int32_t)io->attr[0];
	return true;
}

static bool choose_multinomial(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	int32_t fewest = x->dim[0][x->rank - 1];
	for (unsigned b = 1; b < c->g->nbind; b++)
		fewest = x->dim[b][x->rank - 1] < fewest ? x->dim[b][x->rank - 1] : fewest;
	ch->nattr = 2;
	ch->attr[1] = x->rank != 1 || rng_chance(c->rng, 50);
	ch->attr[0] = rng_range(c->rng, 1, ch->attr[1] ? 16 : fewest);
	return true;
}

/* ---- torch.bernoulli(p) of a raw probability ---- */

/* p from integer or bool values bounded in [0, 1] (so 0 or 1, a draw that
 * does not depend on the generator), cast to float32: eager checks
 * 0 <= p <= 1, and values outside break it (value_domain). A float p in
 * (0, 1) would need a value bound that float values do not carry. */
static bool infer_bernoulli_p(struct infer_io *io)
{
	const struct value *x = io->in[0];
	if (x->lo < 0 || x->hi > 1)
		return io_fail(io, "bernoulli probabilities may lie outside [0, 1]: values in [%lld, %lld]",
			       (long long)x->lo, (long long)x->hi);
	io->nout = 1;
	io_out_like(io, 0, x, DT_FLOAT32);
	return true;
}

static bool choose_bernoulli_p(struct chooser *c, struct op_choice *ch)
{
	const struct value *x = &c->g->v[ch->in[0]];
	ch->nattr = 0;
	return x->lo >= 0 && x->hi <= 1;
}

/* ---- the table ---- */

/* A fresh contiguous float32 tensor of input 0's shape, filled in place by
 * the method `fill` with arguments `args`, cast to input 0's dtype: named
 * empty_like_<fill> so that the text form does not read as mutating input 0.
 * Spelled torch.Tensor.<fill>(fresh, ...) so that the fill is the call
 * `pt2fuzz opdb` reads first. */
#define FRESH_F32 "torch.empty_like(@0, dtype=torch.float32, memory_format=torch.contiguous_format)"
#define FILL(nm, tag, attrs_, fill, args) \
	{.name = nm, .family = FAM_RANDOM, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK, .dtypes = DTM_FLOAT, \
	 .layout = LAYOUT_FRESH, .weight = 1, .attrs = attrs_, \
	 .py = "torch.Tensor." fill "(" FRESH_F32 ", " args ").to(@0.dtype)", .infer = infer_##tag, \
	 .choose = choose_##tag}
/* An op of input 0's shape and dtype on float inputs of ranks lo..hi; extra
 * fields last (ALIASES: a dropout with p = 0 returns its input itself). */
#define DRAW(nm, tag, lo, hi, layout_, attrs_, spelling, ...) \
	{.name = nm, .family = FAM_RANDOM, .nin_min = 1, .nin_max = 1, .rank_min = lo, .rank_max = hi, \
	 .dtypes = DTM_FLOAT, .layout = layout_, .weight = 1, .attrs = attrs_, .py = spelling, .infer = infer_##tag, \
	 .choose = choose_##tag, __VA_ARGS__}
#define ALIASES .aliases = 1
/* An op with an int64 result, any input dtype. */
#define INDEX(nm, tag, lo, hi, attrs_, spelling) \
	{.name = nm, .family = FAM_RANDOM, .nin_min = 1, .nin_max = 1, .rank_min = lo, .rank_max = hi, \
	 .dtypes = DTM_ALL, .layout = LAYOUT_FRESH, .weight = 1, .attrs = attrs_, .py = spelling, \
	 .infer = infer_##tag, .choose = choose_##tag}

const struct op_def ops_random[] = {
	DRAW("bernoulli", plain, 0, G_MAX_RANK, LAYOUT_KEEP, NULL,
	     "torch.bernoulli(torch.sigmoid(torch.nan_to_num(@0.float()))).to(@0.dtype)", .step = 1),
	{.name = "bernoulli_p", .family = FAM_RANDOM, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK,
	 .dtypes = DTM_INTS | DTM(DT_BOOL), .layout = LAYOUT_KEEP, .weight = 1, .py = "torch.bernoulli(@0.float())",
	 .infer = infer_bernoulli_p, .choose = choose_bernoulli_p},
	DRAW("dropout", dropout, 0, G_MAX_RANK, LAYOUT_KEEP, "p~", "F.dropout(@0, #0, training=True)", ALIASES),
	DRAW("alpha_dropout", dropout, 0, G_MAX_RANK, LAYOUT_FRESH, "p~",
	     "F.alpha_dropout(@0.flatten(), #0, training=True).view_as(@0)", ALIASES),
	DRAW("feature_alpha_dropout", dropout, 2, G_MAX_RANK, LAYOUT_KEEP, "p~",
	     "F.feature_alpha_dropout(@0, #0, training=True)", ALIASES),
	/* (C, L) or (N, C, L); (N, C, H, W) (a 3-D input warns and means 1-D
	 * dropout); (C, D, H, W) or (N, C, D, H, W) */
	DRAW("dropout1d", dropout, 2, 3, LAYOUT_KEEP, "p~", "F.dropout1d(@0, #0, training=True)", ALIASES),
	DRAW("dropout2d", dropout, 4, 4, LAYOUT_KEEP, "p~", "F.dropout2d(@0, #0, training=True)", ALIASES),
	DRAW("dropout3d", dropout, 4, 5, LAYOUT_KEEP, "p~", "F.dropout3d(@0, #0, training=True)", ALIASES),
	DRAW("rand_like", plain, 0, G_MAX_RANK, LAYOUT_FRESH, NULL,
	     "torch.rand_like(@0, dtype=torch.float32, memory_format=torch.contiguous_format).to(@0.dtype)"),
	DRAW("randn_like", plain, 0, G_MAX_RANK, LAYOUT_FRESH, NULL,
	     "torch.randn_like(@0, dtype=torch.float32, memory_format=torch.contiguous_format).to(@0.dtype)"),
	/* the factory of input 0's shape (a new tensor is contiguous): reads no value */
	DRAW("randn", shape, 0, G_MAX_RANK, LAYOUT_FRESH, NULL,
	     "torch.randn(@0.shape, dtype=torch.float32, device=@0.device).to(@0.dtype)"),
	DRAW("normal", std, 0, G_MAX_RANK, LAYOUT_KEEP, "std~", "torch.normal(@0.float(), #0).to(@0.dtype)"),
	/* rates in [0, 16] */
	DRAW("poisson", plain, 0, G_MAX_RANK, LAYOUT_FRESH, NULL,
	     "torch.poisson(torch.nan_to_num(@0.float()).abs().clamp(max=16.0).flatten()).view_as(@0).to(@0.dtype)",
	     .step = 1),
	FILL("empty_like_bernoulli_", prob, "p~", "bernoulli_", "#0"),
	FILL("empty_like_uniform_", uniform, "from~ to~", "uniform_", "#0, #1"),
	FILL("empty_like_normal_", mean_std, "mean~ std~", "normal_", "#0, #1"),
	FILL("empty_like_exponential_", lambd, "lambd~", "exponential_", "#0"),
	FILL("empty_like_cauchy_", cauchy, "median~ sigma~", "cauchy_", "#0, #1"),
	FILL("empty_like_log_normal_", log_normal, "mean~ std~", "log_normal_", "#0, #1"),
	FILL("empty_like_geometric_", geometric, "p~", "geometric_", "#0"),
	INDEX("randint_like", randint, 0, G_MAX_RANK, "low high",
	      "torch.randint_like(@0, #0, #1, dtype=torch.int64, memory_format=torch.contiguous_format)"),
	{.name = "randint", .family = FAM_RANDOM, .nin_min = 1, .nin_max = 1, .rank_max = G_MAX_RANK, .dtypes = DTM_ALL,
	 .layout = LAYOUT_FRESH, .weight = 1, .attrs = "low high", .py = "torch.randint(#0, #1, @0.shape, device=@0.device)",
	 .infer = infer_randint_shape, .choose = choose_randint},
	INDEX("randperm", randperm, 1, G_MAX_RANK, "dim", "torch.randperm(@0.size(#0), device=@0.device)"),
	INDEX("randperm_n", randperm_n, 0, G_MAX_RANK, "n", "torch.randperm(#0, device=@0.device)"),
	/* softmax of clamped finite values: every category has a positive probability */
	INDEX("multinomial", multinomial, 1, 2, "num_samples replacement?",
	      "torch.multinomial(torch.softmax(torch.nan_to_num(@0.float()).clamp(-8.0, 8.0), -1), #0, #1)"),
};
FAMILY_COUNT(random);
