/* Joins the family tables into one catalogue, in a fixed order. Ops are
 * stored in the binary format by a hash of their name, so corpora survive
 * reordering and additions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include "../../config/settings.h"
#include "families.h"

static const struct {
	const struct op_def *ops;
	const unsigned *count;
} tables[] = {
	{ops_unary, &ops_unary_count},       {ops_binary, &ops_binary_count},
	{ops_reduce, &ops_reduce_count},     {ops_matmul, &ops_matmul_count},
	{ops_conv, &ops_conv_count},         {ops_pool, &ops_pool_count},
	{ops_norm, &ops_norm_count},         {ops_pad, &ops_pad_count},
	{ops_shape, &ops_shape_count},       {ops_combine, &ops_combine_count},
	{ops_index, &ops_index_count},       {ops_activation, &ops_activation_count},
	{ops_cumulative, &ops_cumulative_count}, {ops_sort, &ops_sort_count},
	{ops_cast, &ops_cast_count},         {ops_misc, &ops_misc_count},
	{ops_datadep, &ops_datadep_count},   {ops_inplace, &ops_inplace_count},
	{ops_factory, &ops_factory_count},   {ops_loss, &ops_loss_count},
	{ops_special, &ops_special_count},
	{ops_random, &ops_random_count},     {ops_linalg, &ops_linalg_count},
	{ops_fft, &ops_fft_count},           {ops_search, &ops_search_count},
	{ops_scalar, &ops_scalar_count},     {ops_complex, &ops_complex_count},
};

static const char *const family_names[FAM_COUNT] = {
	[FAM_UNARY] = "unary",     [FAM_BINARY] = "binary",         [FAM_REDUCE] = "reduce",
	[FAM_MATMUL] = "matmul",   [FAM_CONV] = "conv",             [FAM_POOL] = "pool",
	[FAM_NORM] = "norm",       [FAM_PAD] = "pad",               [FAM_SHAPE] = "shape",
	[FAM_COMBINE] = "combine", [FAM_INDEX] = "index",           [FAM_ACTIVATION] = "activation",
	[FAM_CUMULATIVE] = "cumulative", [FAM_SORT] = "sort",       [FAM_CAST] = "cast",
	[FAM_MISC] = "misc",       [FAM_DATADEP] = "datadep",       [FAM_INPLACE] = "inplace",
	[FAM_FACTORY] = "factory",  [FAM_LOSS] = "loss",             [FAM_SPECIAL] = "special",
	[FAM_RANDOM] = "random",   [FAM_LINALG] = "linalg",   [FAM_FFT] = "fft",
	[FAM_SEARCH] = "search",  [FAM_SCALAR] = "scalar", [FAM_COMPLEX] = "complex",
};

#define MAX_OPS 1024 /* node.op is a uint16_t */
static const struct op_def *all[MAX_OPS];
static uint32_t hashes[MAX_OPS];
static unsigned nall;

static void load(void)
{
	if (nall)
		return;
	for (unsigned t = 0; t < sizeof tables / sizeof tables[0]; t++)
		for (unsigned i = 0; i < *tables[t].count; i++) {
			if (nall == MAX_OPS) { /* a build-time limit: never drop ops silently */
				fprintf(stderr, "pt2fuzz: more than %d ops in the catalogue; raise MAX_OPS\n", MAX_OPS);
				abort();
			}
			all[nall] = &tables[t].ops[i];
			hashes[nall] = XXH32(all[nall]->name, strlen(all[nall]->name), 0x70743266u);
			nall++;
		}
}

unsigned op_count(void)
{
	load();
	return nall;
}

const struct op_def *op_get(unsigned id)
{
	load();
	return id < nall ? all[id] : NULL;
}

int op_find(const char *name)
{
	load();
	for (unsigned i = 0; i < nall; i++)
		if (!strcmp(all[i]->name, name))
			return (int)i;
	return -1;
}

int op_in_torch(const struct op_def *op, const char *torch)
{
	long have = torch_minor_number(torch), need = op->since ? torch_minor_number(op->since) : -1;
	return have < 0 || need < 0 || have >= need;
}

const struct op_def *op_base(const struct op_def *op)
{
	int id = op->base ? op_find(op->base) : -1;
	return id < 0 ? NULL : op_get((unsigned)id);
}

uint32_t op_hash(unsigned id)
{
	load();
	return id < nall ? hashes[id] : 0;
}

int op_by_hash(uint32_t h)
{
	load();
	for (unsigned i = 0; i < nall; i++)
		if (hashes[i] == h)
			return (int)i;
	return -1;
}

const char *op_family_name(enum op_family f) { return (unsigned)f < FAM_COUNT ? family_names[f] : "?"; }

void op_attr_spec(const struct op_def *op, struct attr_spec *s)
{
	memset(s, 0, sizeof *s);
	s->list = -1;
	for (const char *const *p = op->strs; p && *p; p++)
		s->nstrs++;
	const char *a = op->attrs ? op->attrs : "";
	unsigned i = 0;
	while (*a && i < G_MAX_ATTR) {
		while (*a == ' ')
			a++;
		if (!*a)
			break;
		size_t len = strcspn(a, " ");
		size_t nl = strcspn(a, "?~^$%[ ");
		if (nl > sizeof s->name[0] - 1)
			nl = sizeof s->name[0] - 1;
		memcpy(s->name[i], a, nl);
		s->name[i][nl] = 0;
		enum attr_kind k = AK_INT;
		switch (a[nl]) {
		case '?': k = AK_BOOL; break;
		case '~': k = AK_MILLI; break;
		case '^': k = AK_REAL; break;
		case '$': k = AK_STR; break;
		case '%': k = AK_DTYPE; break;
		case '[': k = a[nl + 1] == '@' ? AK_SHAPE : AK_LIST; break;
		default: break;
		}
		s->kind[i] = k;
		if (k == AK_LIST || k == AK_SHAPE) {
			s->list = (int)k;
			s->nscalar = i;
			return;
		}
		i++;
		a += len;
	}
	s->nscalar = i;
}

enum attr_kind attr_kind_at(const struct attr_spec *s, unsigned i)
{
	if (i < s->nscalar)
		return s->kind[i];
	return s->list >= 0 ? (enum attr_kind)s->list : AK_INT;
}
