#include "capabilities.h"
#include <string.h>
#include "broken.h"
#include "op.h"
#include "real.h"

static int has_family(const struct graph *g, const char *family)
{
	for (unsigned k = 0; k < g->nnodes; k++)
		if (!strcmp(op_family_name(op_get(g->n[k].op)->family), family))
			return 1;
	return 0;
}

static int has_op(const struct graph *g, const char *const *names)
{
	for (const char *const *p = names; *p; p++)
		if (graph_holds_op(g, *p))
			return 1;
	return 0;
}

static int any_value(const struct graph *g, int (*pred)(const struct graph *, const struct value *))
{
	for (unsigned i = 0; i < g->nvalues; i++)
		if (pred(g, &g->v[i]))
			return 1;
	return 0;
}

static int writes_leaf(const struct graph *g)
{
	for (unsigned i = 0; i < g->nvalues; i++)
		if (graph_leaf_written(g, i, NULL))
			return 1;
	return 0;
}

/* A write whose target is a view: the write reaches what it views. */
static int writes_through_view(const struct graph *g)
{
	for (unsigned k = 0; k < g->nnodes; k++) {
		unsigned t = g->n[k].in[0];
		if (op_get(g->n[k].op)->inplace && g->v[t].root != t)
			return 1;
	}
	return 0;
}

static int is_small_int(const struct graph *g, const struct value *v) { (void)g; return (DTM_SMALL >> v->dtype) & 1; }
static int is_laid_out(const struct graph *g, const struct value *v) { (void)g; return v->layout != IL_CONTIGUOUS; }
static int is_empty(const struct graph *g, const struct value *v) { return value_has_empty_dim(g, v); }
static int is_zero_dim_leaf(const struct graph *g, const struct value *v) { (void)g; return !v->rank && v->kind != VK_NODE; }
static int is_state(const struct graph *g, const struct value *v) { (void)g; return v->kind == VK_PARAM || v->kind == VK_BUFFER; }
static int is_chosen_fill(const struct graph *g, const struct value *v)
{
	(void)g;
	return v->kind != VK_NODE && (v->fill == FILL_CONST || v->fill == FILL_SPECIAL);
}

/* An attribute at the edge of its domain: a number of 0, a thousandth, or
 * at least 100 (scale factors, eps, p, alpha, margins). */
static int edge_attribute(const struct graph *g)
{
	for (unsigned k = 0; k < g->nnodes; k++) {
		struct attr_spec s;
		op_attr_spec(op_get(g->n[k].op), &s);
		for (unsigned i = 0; i < s.nscalar; i++) {
			int64_t a = g->n[k].attr[i];
			if (s.kind[i] == AK_MILLI && (a == 0 || a == 1 || a == -1 || a >= 100000 || a <= -100000))
				return 1;
		}
	}
	return 0;
}

/* A real attribute kernels treat apart: tiny or huge, -0.0, an infinity or NaN. */
static int special_real(const struct graph *g)
{
	for (unsigned k = 0; k < g->nnodes; k++) {
		struct attr_spec s;
		op_attr_spec(op_get(g->n[k].op), &s);
		for (unsigned i = 0; i < s.nscalar; i++)
			if (s.kind[i] == AK_REAL && !(RCM(real_class_of(real_value(g->n[k].attr[i]))) &
						      (RCM(RC_ORDINARY) | RCM(RC_FRACTION) | RCM(RC_ZERO))))
				return 1;
	}
	return 0;
}

static const char *const div_rounding[] = {"div_trunc", "div_floor", "div_rounding", NULL};
static const char *const int_matmul[] = {"mm_int", "bmm_int", "matmul_int", NULL};

static int c_inplace(const struct graph *g) { return has_family(g, "inplace"); }
static int c_view_write(const struct graph *g) { return writes_through_view(g); }
static int c_factory(const struct graph *g) { return has_family(g, "factory"); }
static int c_scalar(const struct graph *g) { return has_family(g, "scalar"); }
static int c_zero_dim(const struct graph *g) { return any_value(g, is_zero_dim_leaf); }
static int c_layout(const struct graph *g) { return any_value(g, is_laid_out); }
static int c_empty(const struct graph *g) { return any_value(g, is_empty); }
static int c_small(const struct graph *g) { return any_value(g, is_small_int); }
static int c_int_matmul(const struct graph *g) { return has_op(g, int_matmul); }
static int c_state(const struct graph *g) { return any_value(g, is_state); }
static int c_fill(const struct graph *g) { return any_value(g, is_chosen_fill); }
static int c_loss(const struct graph *g) { return has_family(g, "loss"); }
static int c_special(const struct graph *g) { return has_family(g, "special"); }
static int c_random(const struct graph *g) { return has_family(g, "random"); }
static int c_div(const struct graph *g) { return has_op(g, div_rounding); }
static int c_edge(const struct graph *g) { return edge_attribute(g); }
static int c_real(const struct graph *g) { return special_real(g); }
static int c_dynamic(const struct graph *g) { return g->nsym > 0; }
static int c_near_invalid(const struct graph *g) { return g->broken != C_NONE; }

static const struct {
	const char *name;
	int (*used)(const struct graph *g);
} caps[] = {
	{"in-place op", c_inplace},          {"write through a view", c_view_write},
	{"leaf written", writes_leaf},       {"module state", c_state},
	{"factory", c_factory},              {"python number operand", c_scalar},
	{"0-dim input", c_zero_dim},         {"input layout", c_layout},
	{"empty tensor", c_empty},           {"int8/uint8/int16", c_small},
	{"integer matmul", c_int_matmul},    {"chosen fill", c_fill},
	{"loss", c_loss},                    {"special function", c_special},
	{"random op", c_random},             {"div rounding mode", c_div},
	{"edge attribute", c_edge},          {"special real number", c_real},
	{"dynamic dims", c_dynamic},
	{"near-invalid", c_near_invalid},
};

unsigned capability_count(void) { return sizeof caps / sizeof caps[0]; }
const char *capability_name(unsigned c) { return c < capability_count() ? caps[c].name : NULL; }
int capability_used(const struct graph *g, unsigned c) { return c < capability_count() && caps[c].used(g); }
