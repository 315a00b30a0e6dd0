/* The structure-aware mutators: every success is a valid graph that
 * round-trips through the codec and differs from its input; each mutator
 * succeeds often enough to be worth its weight; the libFuzzer entry points
 * survive garbage, respect max_size and are deterministic. */
#include <stdio.h>
#include <string.h>
#include "../graph/codec.h"
#include "../graph/compile_config.h"
#include "../graph/validate.h"
#include "../graph/op.h"
#include "../mutators/avoid.h"
#include "../mutators/config_draw.h"
#include "../mutators/gen.h"
#include "../mutators/gen_fill.h"
#include "../mutators/mutate.h"
#include "../mutators/recipe.h"
#include "test.h"
#include "testkit.h"

#define NGRAPHS 1000

static struct graph pool[NGRAPHS], g, h;
static uint8_t a[CODEC_MAX_SIZE], b[CODEC_MAX_SIZE];
static char why[400];

static void make_pool(struct graph *p, int backward)
{
	struct gen_opts o;
	gen_set_campaign(TARGET_ANY, backward);
	gen_default_opts(&o);
	gen_set_campaign(TARGET_ANY, 0);
	for (unsigned k = 0; k < NGRAPHS; k++) {
		o.size = 1 + k % 30;
		if (gen_graph(&p[k], 90000 + k, &o, why, sizeof why))
			fprintf(stderr, "  gen_graph %u: %s\n", k, why);
	}
}

/* Generated graphs of 1-30 ops, static and dynamic (the generator's mix). */
static const struct graph *pooled(unsigned i)
{
	static int made;
	if (!made)
		make_pool(pool, 0);
	made = 1;
	return &pool[i % NGRAPHS];
}

/* The same as a backward campaign generates them (grad marks, no in-place
 * ops): the graphs the grad mutator works on. */
static const struct graph *pooled_backward(unsigned i)
{
	static struct graph bpool[NGRAPHS];
	static int made;
	if (!made)
		make_pool(bpool, 1);
	made = 1;
	return &bpool[i % NGRAPHS];
}

static int decodes_to_same_bytes(const struct graph *x)
{
	static struct graph y;
	size_t n = codec_encode(x, a, sizeof a);
	if (!n || codec_decode(&y, a, n, why, sizeof why))
		return 0;
	size_t m = codec_encode(&y, b, sizeof b);
	return m == n && !memcmp(a, b, n);
}

static int same_graph(const struct graph *x, const struct graph *y)
{
	size_t n = codec_encode(x, a, sizeof a), m = codec_encode(y, b, sizeof b);
	return n == m && !memcmp(a, b, n);
}

static unsigned count_op(const struct graph *x, const char *name)
{
	unsigned k = 0;
	for (unsigned i = 0; i < x->nnodes; i++)
		k += x->n[i].op == (unsigned)op_find(name);
	return k;
}

TEST(mutators_recipe_rebuilds_the_same_graph)
{
	static struct recipe rc;
	for (unsigned i = 0; i < 300; i++) {
		recipe_from_graph(&rc, pooled(i));
		if (!CHECK(recipe_build(&rc, &g, NULL, why, sizeof why) == 0))
			fprintf(stderr, "  graph %u: %s\n", i, why);
		CHECK(same_graph(&g, pooled(i)));
	}
}

/* Success-rate floors (%): the measured rates (insert 100, grow 100, delete 95, rewire
 * 91, attr 88, swap 75, dims 61, dynamic 63, dtype 97, splice 99, regenerate
 * 100, break 100, grad 79 since float-only binary ops take mixed float dtypes, config 88) less a margin for
 * catalogue changes. Edits that keep every type
 * (insert, delete, rewire, dtype with its casts, splice onto fitting values)
 * nearly always rebuild; attr and swap fail where no other choice or op fits
 * (choose_none ops, rank-specific ops); resizing or making dims dynamic
 * breaks ops whose attributes name sizes, which the driver absorbs by
 * retrying another mutator. */
static const struct {
	const char *name;
	unsigned floor;
} floors[] = {
	{"insert", 90}, {"grow", 90},    {"delete", 80}, {"rewire", 75}, {"attr", 70},   {"swap", 55},
	{"dims", 40},   {"dynamic", 40}, {"dtype", 80},  {"splice", 80}, {"regenerate", 99},
	{"break", 95},  {"grad", 75},    {"leaf", 50},   {"config", 80},
};

TEST(mutators_every_mutator_gives_valid_changed_graphs)
{
	CHECK_EQ(mutator_count(), sizeof floors / sizeof floors[0]);
	for (unsigned w = 0; w < mutator_count(); w++) {
		int regen = !strcmp(mutator_name(w), "regenerate");
		unsigned ok = 0, bad = 0;
		/* config changes a configuration only in a campaign that draws them */
		config_draw_set_campaign(strcmp(mutator_name(w), "config") ? 0 : CONFIG_DRAW_PCT, 0, 0, NULL);
		struct rng r;
		rng_seed(&r, 7 + w);
		const struct graph *(*from)(unsigned) = strcmp(mutator_name(w), "grad") ? pooled : pooled_backward;
		for (unsigned i = 0; i < NGRAPHS; i++) {
			g = *from(i);
			if (mutate_with(w, &g, from(i * 7 + 3), &r, CODEC_MAX_SIZE)) {
				CHECK(same_graph(&g, from(i))); /* failure leaves it unchanged */
				continue;
			}
			ok++;
			int valid = graph_validate(&g, why, sizeof why) == 0;
			if (!valid && bad++ < 3)
				fprintf(stderr, "  %s on graph %u: %s\n", mutator_name(w), i, why);
			CHECK(valid);
			CHECK(decodes_to_same_bytes(&g));
			CHECK(regen || !same_graph(&g, from(i)));
		}
		unsigned rate = ok * 100 / NGRAPHS;
		printf("  %-10s %4u of %u = %3u%% (floor %u%%)\n", mutator_name(w), ok, NGRAPHS, rate, floors[w].floor);
		CHECK(!strcmp(mutator_name(w), floors[w].name));
		CHECK(rate >= floors[w].floor);
	}
	config_draw_set_campaign(0, 0, 0, NULL);
}

TEST(mutators_mutate_graph_picks_by_weight_and_counts)
{
	struct mutate_stats st;
	memset(&st, 0, sizeof st);
	struct rng r;
	rng_seed(&r, 99);
	unsigned used[MUT_MAX] = {0};
	pooled(0); /* the pool made as outside a campaign; mutated as a campaign does, configurations on */
	config_draw_set_campaign(CONFIG_DRAW_PCT, 0, 0, NULL);
	for (unsigned i = 0; i < 400; i++) {
		g = *pooled(i);
		int w = mutate_graph(&g, pooled(i + 1), &r, 8, &st);
		if (!CHECK(w >= 0))
			continue;
		used[w]++;
		CHECK(graph_validate(&g, why, sizeof why) == 0);
	}
	config_draw_set_campaign(0, 0, 0, NULL);
	for (unsigned w = 0; w < mutator_count(); w++) {
		CHECK(st.valid[w] <= st.tried[w]);
		CHECK(used[w] == st.valid[w]);
		/* break has weight 0: only the near-invalid share (break_pct) uses it */
		CHECK(strcmp(mutator_name(w), "break") ? used[w] > 0 : used[w] == 0);
	}
}

/* A dataflow edit carries a configuration change about half the time in a
 * campaign that draws configurations (mutate.c's stack_config), never
 * without them; the config mutator alone and regenerate are not stacked on. */
TEST(mutators_dataflow_edits_change_the_configuration_beside_them)
{
	static uint8_t buf[CODEC_MAX_SIZE];
	const int config = mutator_find("config"), regen = mutator_find("regenerate");
	pooled(0);
	for (unsigned pct = 0; pct <= CONFIG_DRAW_PCT; pct += CONFIG_DRAW_PCT) {
		config_draw_set_campaign(pct, 0, 0, NULL);
		unsigned edits = 0, changed = 0;
		for (unsigned i = 0; i < 400; i++) {
			size_t len = codec_encode(pooled(i), buf, sizeof buf);
			int which = -1;
			size_t n = mutate_bytes(buf, len, sizeof buf, 1000 + i, 0, &which, NULL);
			if (which < 0 || which == config || which == regen || codec_decode(&g, buf, n, why, sizeof why))
				continue;
			edits++;
			changed += !graph_config_equal(&g.config, &pooled(i)->config);
		}
		printf("  configurations on: %u; %u of %u dataflow edits changed the configuration\n", pct != 0, changed,
		       edits);
		CHECK(edits > 200); /* about a quarter of the mutants are fresh graphs */
		CHECK(pct ? changed > edits / 3 && changed < edits * 2 / 3 : changed == 0);
	}
	config_draw_set_campaign(0, 0, 0, NULL);
}

TEST(mutators_bytes_turn_garbage_into_valid_graphs)
{
	static uint8_t buf[4096];
	struct rng r;
	rng_seed(&r, 5);
	for (unsigned i = 0; i < 200; i++) {
		size_t len = (size_t)rng_below(&r, 300);
		for (size_t k = 0; k < len; k++)
			buf[k] = (uint8_t)rng_next(&r);
		if (i % 2) { /* a damaged valid encoding */
			len = codec_encode(pooled(i), buf, sizeof buf);
			buf[rng_below(&r, len)] ^= (uint8_t)(1 + rng_below(&r, 255));
		}
		int which = -2;
		size_t n = mutate_bytes(buf, len, sizeof buf, i, 0, &which, NULL);
		CHECK(n > 0 && n <= sizeof buf);
		CHECK(which >= 0);
		CHECK(codec_decode(&g, buf, n, why, sizeof why) == 0);
	}
}

TEST(mutators_bytes_respect_max_size)
{
	static uint8_t buf[CODEC_MAX_SIZE];
	static const size_t caps[] = {200, 120, 64};
	unsigned valid = 0;
	for (unsigned i = 0; i < 300; i++) {
		size_t cap = caps[i % 3];
		size_t len = codec_encode(pooled(i * 3 + 29), buf, sizeof buf); /* often larger than cap */
		int which;
		size_t n = mutate_bytes(buf, len, cap, i, 0, &which, NULL);
		CHECK(n > 0 && n <= cap);
		if (which >= 0) {
			valid++;
			CHECK(codec_decode(&g, buf, n, why, sizeof why) == 0);
		}
		n = crossover_bytes(buf, n, a, codec_encode(pooled(i), a, sizeof a), b, cap, i, 0, NULL, NULL);
		CHECK(n <= cap);
		CHECK(!n || codec_decode(&g, b, n, why, sizeof why) == 0);
	}
	CHECK(valid >= 290);
	uint8_t tiny[8] = {0};
	int which;
	size_t n = mutate_bytes(tiny, 0, sizeof tiny, 1, 0, &which, NULL); /* no graph fits 8 bytes */
	CHECK(n > 0 && n <= sizeof tiny);
}

TEST(mutators_are_deterministic_for_a_seed)
{
	static uint8_t x[CODEC_MAX_SIZE], y[CODEC_MAX_SIZE];
	for (unsigned i = 0; i < 100; i++) {
		size_t len = codec_encode(pooled(i), x, sizeof x);
		memcpy(y, x, len);
		int w1, w2;
		size_t n1 = mutate_bytes(x, len, sizeof x, 1234 + i, 0, &w1, NULL);
		size_t n2 = mutate_bytes(y, len, sizeof y, 1234 + i, 0, &w2, NULL);
		CHECK(w1 == w2 && n1 == n2 && !memcmp(x, y, n1));
		size_t o = codec_encode(pooled(i + 50), a, sizeof a);
		n1 = crossover_bytes(y, n2, a, o, x, sizeof x, i, 0, NULL, NULL);
		n2 = crossover_bytes(y, n2, a, o, b, sizeof b, i, 0, NULL, NULL);
		CHECK(n1 == n2 && n1 > 0 && !memcmp(x, b, n1));
	}
}

TEST(mutators_dynamic_toggles_between_static_and_dynamic)
{
	int dyn = mutator_find("dynamic");
	unsigned to_dynamic = 0, to_static = 0, statics = 0, dynamics = 0;
	struct rng r;
	rng_seed(&r, 11);
	for (unsigned i = 0; i < NGRAPHS; i++) {
		g = *pooled(i);
		unsigned before = g.nbind;
		statics += before == 1;
		dynamics += before > 1;
		if (mutate_with((unsigned)dyn, &g, NULL, &r, CODEC_MAX_SIZE))
			continue;
		CHECK((g.nbind == 1) == (g.nsym == 0));
		to_dynamic += before == 1 && g.nbind > 1;
		to_static += before > 1 && g.nbind == 1;
	}
	printf("  static -> dynamic %u of %u, dynamic -> static %u of %u\n", to_dynamic, statics, to_static, dynamics);
	CHECK(to_dynamic >= statics / 5);
	CHECK(to_static >= dynamics / 10);
}

TEST(mutators_dtype_inserts_casts_where_needed)
{
	int dt = mutator_find("dtype");
	unsigned casts = 0, ok = 0;
	struct rng r;
	rng_seed(&r, 12);
	for (unsigned i = 0; i < NGRAPHS; i++) {
		g = *pooled(i);
		unsigned before = count_op(&g, "to_dtype") + count_op(&g, "to_int_safe");
		if (mutate_with((unsigned)dt, &g, NULL, &r, CODEC_MAX_SIZE))
			continue;
		ok++;
		casts += count_op(&g, "to_dtype") + count_op(&g, "to_int_safe") > before;
	}
	printf("  dtype: %u successes, %u with a cast inserted\n", ok, casts);
	CHECK(casts >= ok / 10);
}

/* x -> relu -> exp -> tanh: an insertion that leaves tanh the only output
 * with four nodes put the new op inside the chain. */
static void chain(struct graph *x)
{
	tk_static(x);
	int v = tk_input(x, DT_FLOAT32, 2, (const int[]){3, 4});
	static const char *const ops[] = {"relu", "exp", "tanh"};
	for (unsigned i = 0; i < 3; i++)
		v = x->n[tk_node(x, ops[i], 1, &v, 0, NULL, why, sizeof why)].out0;
	graph_mark_sinks(x);
}

TEST(mutators_insert_reaches_the_middle_of_the_dataflow)
{
	int ins = mutator_find("insert");
	unsigned inside = 0;
	for (unsigned seed = 0; seed < 400; seed++) {
		chain(&h);
		g = h;
		struct rng r;
		rng_seed(&r, seed);
		if (!CHECK(mutate_with((unsigned)ins, &g, NULL, &r, CODEC_MAX_SIZE) == 0))
			continue;
		const struct node *last = &g.n[g.nnodes - 1];
		inside += g.nnodes == 4 && graph_noutputs(&g) == 1 && last->op == (unsigned)op_find("tanh");
	}
	printf("  insert inside the chain: %u of 400\n", inside);
	CHECK(inside >= 10);
}

TEST(mutators_delete_rewires_users)
{
	/* x -> relu -> exp, and add(relu, y): deleting relu must leave exp and
	 * add reading values of relu's type. */
	int del = mutator_find("delete");
	unsigned deleted_relu = 0;
	for (unsigned seed = 0; seed < 60; seed++) {
		struct graph *x = &h;
		tk_static(x);
		int in = tk_input(x, DT_FLOAT32, 2, (const int[]){3, 4});
		int y = tk_input(x, DT_FLOAT32, 2, (const int[]){3, 4});
		int relu = tk_node(x, "relu", 1, &in, 0, NULL, why, sizeof why);
		int rv = x->n[relu].out0;
		tk_node(x, "exp", 1, &rv, 0, NULL, why, sizeof why);
		tk_node(x, "add", 2, (const int[]){rv, y}, 0, NULL, why, sizeof why);
		graph_mark_sinks(x);
		struct rng r;
		rng_seed(&r, seed);
		g = *x;
		if (mutate_with((unsigned)del, &g, NULL, &r, CODEC_MAX_SIZE))
			continue;
		CHECK_EQ(g.nnodes, 2);
		CHECK(graph_validate(&g, why, sizeof why) == 0);
		if (!count_op(&g, "relu")) {
			deleted_relu++;
			CHECK_EQ(count_op(&g, "exp"), 1);
			CHECK_EQ(count_op(&g, "add"), 1);
		}
	}
	CHECK(deleted_relu >= 10);
}

TEST(mutators_splice_across_binding_counts)
{
	int sp = mutator_find("splice");
	unsigned pairs = 0, ok = 0;
	struct rng r;
	rng_seed(&r, 13);
	for (unsigned i = 0; i < NGRAPHS && pairs < 300; i++)
		for (unsigned j = i + 1; j < i + 40 && pairs < 300; j++) {
			const struct graph *x = pooled(i), *y = pooled(j);
			if (x->nbind == y->nbind)
				continue;
			pairs++;
			g = *x;
			if (mutate_with((unsigned)sp, &g, y, &r, CODEC_MAX_SIZE))
				continue;
			ok++;
			CHECK(graph_validate(&g, why, sizeof why) == 0);
			CHECK(g.nnodes > x->nnodes);
			CHECK(g.nbind == x->nbind || g.nsym == 0);
			break;
		}
	printf("  splice across binding counts: %u of %u\n", ok, pairs);
	CHECK(ok * 3 >= pairs);
}

/* libFuzzer feeds a mutation's output back in: 3,000 chained calls (some
 * with a small max_size, some crossovers) stay valid and within bounds. */
TEST(mutators_chained_byte_mutations_stay_valid)
{
	static uint8_t buf[CODEC_MAX_SIZE], donor[CODEC_MAX_SIZE], out[CODEC_MAX_SIZE];
	size_t n = 0, dn = 0;
	unsigned biggest = 0;
	for (unsigned i = 0; i < 3000; i++) {
		size_t cap = i % 5 == 4 ? 300 : sizeof buf;
		int which;
		n = mutate_bytes(buf, n, cap, i, 0, &which, NULL);
		CHECK(n > 0 && n <= cap && which >= 0);
		if (!CHECK(codec_decode(&g, buf, n, why, sizeof why) == 0))
			fprintf(stderr, "  call %u: %s\n", i, why);
		biggest = g.nnodes > biggest ? g.nnodes : biggest;
		if (i % 7 == 0) {
			size_t k = crossover_bytes(buf, n, donor, dn, out, sizeof out, i, 0, NULL, NULL);
			CHECK(k > 0 && codec_decode(&h, out, k, why, sizeof why) == 0);
			memcpy(donor, out, k);
			dn = k;
		}
	}
	CHECK(biggest >= 20);
}

/* A known bug's trigger (mutators/avoid.h) is never generated or mutated
 * into a component: here, any random op. */
static int random_trigger(const char *const *ops, unsigned n)
{
	char name[64];
	for (unsigned i = 0; i < n; i++) {
		snprintf(name, sizeof name, "%.*s", (int)strcspn(ops[i], "@"), ops[i]); /* "op@dtype", or a structure's word */
		int op = op_find(name);
		if (op >= 0 && op_get((unsigned)op)->family == FAM_RANDOM)
			return 1;
	}
	return 0;
}

static unsigned random_ops(const struct graph *x)
{
	unsigned n = 0;
	for (unsigned k = 0; k < x->nnodes; k++)
		n += op_get(x->n[k].op)->family == FAM_RANDOM;
	return n;
}

TEST(avoided_triggers_are_neither_generated_nor_mutated_in)
{
	static struct graph gg;
	static uint8_t buf[CODEC_MAX_SIZE];
	struct gen_opts o;
	gen_default_opts(&o);
	o.components = 8;
	o.size = 8;
	unsigned before = 0, after = 0, made = 0;
	for (uint64_t s = 0; s < 40; s++)
		if (!gen_graph(&gg, s, &o, NULL, 0))
			before += random_ops(&gg);
	CHECK(before > 0); /* the family is drawn at all */
	avoid_use(random_trigger);
	for (uint64_t s = 0; s < 40; s++)
		if (!gen_graph(&gg, s, &o, NULL, 0)) {
			after += random_ops(&gg);
			made++;
		}
	CHECK(made >= 38);
	CHECK_EQ(after, 0);
	/* a mutant of a graph made before (a seed's random component) is topped
	 * up without the component that holds it */
	unsigned parents = 0;
	for (uint64_t s = 0; s < 40; s++) {
		avoid_use(NULL);
		if (gen_graph(&gg, s, &o, NULL, 0))
			continue;
		parents += random_ops(&gg);
		avoid_use(random_trigger);
		size_t n = codec_encode(&gg, buf, sizeof buf);
		int which;
		n = mutate_bytes(buf, n, sizeof buf, (unsigned)s, 0, &which, NULL);
		n = gen_fill_bytes(buf, n, sizeof buf, s);
		if (n && !codec_decode(&gg, buf, n, NULL, 0))
			CHECK_EQ(random_ops(&gg), 0);
	}
	CHECK(parents > 0);
	avoid_use(NULL);
}

/* A seed or corpus input runs without its components that hold a trigger
 * (avoid_drop): the others stay as they were, and a graph of triggers alone
 * keeps nothing to run. */
TEST(avoid_drop_takes_only_the_trigger_components)
{
	static struct graph gg, before;
	struct gen_opts o;
	gen_default_opts(&o);
	o.components = 8;
	o.size = 8;
	unsigned mixed = 0;
	avoid_use(random_trigger);
	for (uint64_t s = 0; s < 60; s++) {
		avoid_use(NULL);
		if (gen_graph(&gg, s, &o, NULL, 0) || !random_ops(&gg))
			continue;
		before = gg;
		avoid_use(random_trigger);
		unsigned comps = graph_node_components(&gg), dropped = avoid_drop(&gg);
		CHECK(dropped >= 1);
		CHECK_EQ(random_ops(&gg), 0);
		CHECK_EQ(graph_node_components(&gg) + dropped, comps);
		mixed += dropped < comps;
		CHECK(dropped < comps ? gg.nnodes > 0 : gg.nnodes == 0);
		CHECK_EQ(avoid_drop(&gg), 0); /* nothing left to drop */
		gg = before;
		avoid_use(NULL);
		CHECK_EQ(avoid_drop(&gg), 0); /* no triggers set: nothing goes */
		CHECK_EQ(gg.nnodes, before.nnodes);
	}
	CHECK(mixed > 0);
	avoid_use(NULL);
}
